import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-too-many-pods.js';

const fullNode = (name: string, maxPods = '110') =>
  node({ metadata: { name }, spec: { podCIDR: '10.244.1.0/24' }, status: { allocatable: { pods: maxPods } } });
const podsOn = (nodeName: string, n: number) => Array.from({ length: n }, (_, i) => pod({ metadata: { name: `filler-${nodeName}-${i}` }, spec: { nodeName } }));
const nodes = [fullNode('node-1'), fullNode('node-2'), fullNode('node-3')];
const podsOnNode = [...podsOn('node-1', 110), ...podsOn('node-2', 110), ...podsOn('node-3', 110)];

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod(), { nodes, podsOnNode }) },
    { name: 'pod within the pending grace', snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Too many pods.', {}, 30), { nodes }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    { name: 'DaemonSet pod on a healthy AKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('aks') }) },
    { name: 'Pending for cpu, not pod count', snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.'), { nodes }) },
  ],
  invalid: [
    {
      name: 'current wording: nodes at allocatable pods, /24 pod CIDR bound',
      snapshot: snapshot(
        unscheduledPod('0/3 nodes are available: 3 Too many pods. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.'),
        { nodes, podsOnNode },
      ),
      expect: {
        severity: 'error',
        causeKey: 'max-pods',
        params: { nodes: ['node-1', 'node-2', 'node-3'], maxPods: 110, podCidrBound: 254 },
        said: [{ id: 'cidrBound', data: { bound: 254 } }],
        quotes: [/110 pods bound of 110/],
      },
    },
    {
      name: 'pre-1.9 wording from seed 003: Insufficient pods (3)',
      snapshot: (() => {
        const p = unscheduledPod(undefined);
        return snapshot(p, { events: [failedScheduling(p, 'No nodes are available that match all of the predicates: Insufficient pods (3).')] });
      })(),
      expect: { severity: 'error', causeKey: 'max-pods', said: ['atLimit'], quotes: [/Insufficient pods \(3\)/] },
    },
    {
      name: 'one full node among other causes is a warning',
      snapshot: snapshot(unscheduledPod("0/4 nodes are available: 1 Too many pods, 3 node(s) didn't match Pod's node affinity/selector."), {
        nodes: [fullNode('node-1')],
        podsOnNode: podsOn('node-1', 110),
      }),
      expect: { severity: 'warning', params: { nodes: ['node-1'] } },
    },
  ],
});
