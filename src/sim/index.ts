// Public surface of the simulated Kubernetes API server.
export { startSim, seedStore, type Sim, type SimOptions } from './server.js';
export { loadObjects, parseDocuments, splitSpecial, SimLoadError, type SimLoadErrorCode, type SplitObjects } from './load.js';
export { ObjectStore, type Change, type ChangeType, type ListQuery, type StoreOptions } from './store.js';
export { Registry } from './registry.js';
export { ResourceTable, type ResourceDef } from './resources.js';
export { PodLogStore, type PodLog } from './logs.js';
export { ApiError, type StatusBody } from './status.js';
