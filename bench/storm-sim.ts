// The simulated Kubernetes API of bench:storm, in a process of its own: a real API server is not
// in the edge's process, and sharing the edge's event loop would add the API's response work to
// every enqueue's latency. Builds the same deterministic storm cluster as the parent.
//   storm-sim.ts --pods N --broken N --shift-ms MS --kubeconfig FILE
import { parseArgs } from 'node:util';
import { shiftTimes } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { buildStormCluster } from './storm-cluster.js';

const { values } = parseArgs({
  options: { pods: { type: 'string' }, broken: { type: 'string' }, 'shift-ms': { type: 'string' }, kubeconfig: { type: 'string' } },
});
const cluster = buildStormCluster({ total: Number(values.pods), broken: Number(values.broken), nodes: 100 });
const sim = await startSim({ objects: shiftTimes(cluster.objects, Number(values['shift-ms'])) });
await sim.writeKubeconfig(values.kubeconfig!);
process.stdout.write(`storm-sim: ${sim.url}\n`);
await new Promise<void>((resolve) => process.once('SIGTERM', resolve));
await sim.close();
process.exit(0);
