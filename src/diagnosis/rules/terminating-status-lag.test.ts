import { agent, container, host, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-status-lag.js';

const busy = Array.from({ length: 230 }, (_, i) => pod({ metadata: { name: `filler-${i}` } }));
const oldKubelet = node({ status: { nodeInfo: { kubeletVersion: 'v1.11.2', containerRuntimeVersion: 'docker://17.3.2' } } });
const newKubelet = node({ status: { nodeInfo: { kubeletVersion: 'v1.31.4' } } });
const deleted = (secondsAgo = 3600) => pod({ metadata: { deletionTimestamp: ago(secondsAgo), deletionGracePeriodSeconds: 30 } });
const creating = pod({
  metadata: { creationTimestamp: ago(5400) },
  status: {
    phase: 'Pending',
    containerStatuses: [{ name: 'web', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }],
  },
});
const qps5 = host({ kubelet: { settings: { kubeAPIQPS: { value: 5, source: 'flag' } } } });

testRule(rule, {
  valid: [
    { name: 'healthy pod on a busy node', snapshot: snapshot(pod(), { node: oldKubelet, podsOnNode: busy }) },
    { name: 'stuck on a quiet node', snapshot: snapshot(deleted(), { node: oldKubelet, podsOnNode: busy.slice(0, 30) }) },
    {
      name: 'busy node but QPS raised',
      snapshot: snapshot(deleted(), {
        node: oldKubelet,
        podsOnNode: busy,
        agent: agent('node-1', { host: host({ kubelet: { settings: { kubeAPIQPS: { value: 2000, source: 'flag' } } } }) }),
      }),
    },
    { name: 'new kubelet defaults (50) and no agent', snapshot: snapshot(deleted(), { node: newKubelet, podsOnNode: busy }) },
    {
      name: 'the node still runs the container: not a status lag',
      snapshot: snapshot(deleted(), {
        node: oldKubelet,
        podsOnNode: busy,
        agent: agent('node-1', { host: qps5, runtime: runtime({ docker: { containers: [container({ state: 'running' })] } }) }),
      }),
    },
  ],
  invalid: [
    {
      name: 'seed 003: Terminating for an hour, containers gone, 230 pods, kube-api-qps 5 (docker era)',
      snapshot: snapshot(deleted(), {
        node: oldKubelet,
        podsOnNode: busy,
        agent: agent('node-1', { host: qps5, runtime: runtime({ docker: { containers: [] } }) }),
      }),
      expect: {
        severity: 'warning',
        causeKey: 'node/node-1:kubelet-qps',
        params: { kubeAPIQPS: 5, pods: 230 },
        said: [{ id: 'title', data: { qps: 5 } }],
        quotes: [/no containers of the pod left/],
      },
    },
    {
      name: 'ContainerCreating while the container runs; agent unreachable (defaults of an old kubelet assumed)',
      snapshot: snapshot(creating, { node: oldKubelet, podsOnNode: busy, gaps: [agentGap('node-1', 'unreachable', 'unreachable')] }),
      expect: {
        severity: 'info',
        said: [
          { id: 'maybeDone', data: { state: 'ContainerCreating' } },
          { id: 'checksMissing', data: { missing: /host, runtime could not run/ } },
        ],
      },
    },
  ],
});
