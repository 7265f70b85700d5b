// Public surface of the simulated Kubernetes API server.

export { loadObjects, parseDocuments, SimLoadError, type SimLoadErrorCode, type SplitObjects, splitSpecial } from './load.js';
export { type PodLog, PodLogStore } from './logs.js';
export { Registry } from './registry.js';
export { type ResourceDef, ResourceTable } from './resources.js';
export { type Sim, type SimOptions, seedStore, startSim } from './server.js';
export { ApiError, type StatusBody } from './status.js';
export { type Change, type ChangeType, type ListQuery, ObjectStore, type StoreOptions } from './store.js';
