import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-insufficient-resources.js';

const wants = (requests: Record<string, string>) => ({
  spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', resources: { requests } }] },
});
const load = (nodeName: string, cpu: string, memory = '1Gi') =>
  pod({ metadata: { name: `load-${nodeName}` }, spec: { nodeName, containers: [{ name: 'load', image: 'x', resources: { requests: { cpu, memory } } }] } });
const nodes = ['node-1', 'node-2', 'node-3'].map((name) => node({ metadata: { name } }));
// node-3 has the most cpu left: 3.8 − 2.5 = 1.3.
const podsOnNode = [load('node-1', '3'), load('node-2', '3500m'), load('node-3', '2500m')];

const modern = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod()) },
    { name: 'Pending for a few seconds', snapshot: snapshot(unscheduledPod(modern, wants({ cpu: '2' }), 8), { nodes, podsOnNode }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    { name: 'DaemonSet pod on a healthy GKE node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('gke') }) },
    {
      name: 'unschedulable for another reason only',
      snapshot: snapshot(unscheduledPod("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")),
    },
  ],
  invalid: [
    {
      name: 'current wording with preemption suffix: request against the best node',
      snapshot: snapshot(unscheduledPod(modern, wants({ cpu: '2', memory: '1Gi' })), { nodes, podsOnNode }),
      expect: {
        severity: 'error',
        causeKey: 'resource:cpu',
        params: { resources: ['cpu'], bestNode: 'node-3' },
        said: [{ id: 'requestsVsFree', data: { want: '2', allocatable: '3.8', free: '1.3', node: 'node-3' } }],
        quotes: [/Insufficient cpu/],
      },
    },
    {
      name: 'seed 003 wording in an event only, nodes not collected',
      snapshot: (() => {
        const p = unscheduledPod(undefined, wants({ cpu: '1' }));
        return snapshot(p, { events: [failedScheduling(p, '0/4 nodes are available: 2 Insufficient cpu.')] });
      })(),
      expect: { severity: 'error', causeKey: 'resource:cpu', said: ['notCollected'], quotes: [/0\/4 nodes are available: 2 Insufficient cpu/] },
    },
    {
      name: '≈1.17 wording, cpu and memory, taint on a third node',
      snapshot: snapshot(
        unscheduledPod(
          "0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu, 2 Insufficient memory.",
          wants({ cpu: '2', memory: '20Gi' }),
        ),
        { nodes, podsOnNode },
      ),
      expect: {
        severity: 'error',
        causeKey: 'resource:cpu,memory',
        said: [
          { id: 'requestsVsFree', data: { resource: 'memory', want: '20Gi' } },
          'neverFits',
          { id: 'othersRuledOut', data: { others: "1 node(s) had taints that the pod didn't tolerate" } },
        ],
      },
    },
    {
      name: 'the best node is one the pod could use: not the tainted control plane',
      snapshot: snapshot(
        unscheduledPod(
          '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu.',
          wants({ cpu: '2' }),
        ),
        {
          nodes: [...nodes, node({ metadata: { name: 'cp-1' }, spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } })],
          podsOnNode,
        },
      ),
      expect: { params: { bestNode: 'node-3' } },
    },
    {
      name: 'a minor cause next to a bigger one is a warning',
      snapshot: snapshot(
        unscheduledPod('0/4 nodes are available: 1 Insufficient memory, 3 node(s) had untolerated taint {dedicated: infra}.', wants({ memory: '2Gi' })),
        { nodes },
      ),
      expect: { severity: 'warning', causeKey: 'resource:memory' },
    },
    {
      name: 'extended resource (GPU)',
      snapshot: snapshot(
        unscheduledPod(
          '0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
          wants({ 'nvidia.com/gpu': '1' }),
        ),
        { nodes, podsOnNode },
      ),
      expect: { causeKey: 'resource:nvidia.com/gpu', said: [{ id: 'requestsVsFree', data: { resource: 'nvidia.com/gpu', want: '1' } }] },
    },
  ],
});
