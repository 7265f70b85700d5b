import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-unschedulable-selector.js';

const nodes = [
  node({ metadata: { name: 'node-1', labels: { disktype: 'hdd', 'topology.kubernetes.io/zone': 'eu-west-1a' } } }),
  node({ metadata: { name: 'node-2', labels: { disktype: 'hdd', 'topology.kubernetes.io/zone': 'eu-west-1b' } } }),
  node({ metadata: { name: 'node-3', labels: { 'topology.kubernetes.io/zone': 'eu-west-1a', gpu: 'true' } } }),
];
const ssd = { spec: { nodeSelector: { disktype: 'ssd' } } };
const zoneC = {
  spec: {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-1c'] }] }],
        },
      },
    },
  },
};
// DaemonSet pod pinned to node-1 while node-1 has its host port taken: "didn't match" for the other nodes is by design.
const dsPending = daemonSetPod({
  spec: { nodeName: undefined },
  status: { phase: 'Pending', containerStatuses: [], conditions: [] },
  metadata: { creationTimestamp: '2026-11-21T09:50:00Z' },
});

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod(ssd), { nodes }) },
    {
      name: 'Pending for a few seconds',
      snapshot: snapshot(unscheduledPod("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.", ssd, 5), { nodes }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { nodes }) },
    { name: 'DaemonSet pod on a healthy EKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('eks'), nodes }) },
    {
      name: "DaemonSet pod: the other nodes don't match its per-node pin",
      snapshot: snapshot(dsPending, {
        nodes,
        events: [
          failedScheduling(
            dsPending,
            "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't match Pod's node affinity/selector.",
          ),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: '≥1.22 wording: names the label no node has',
      snapshot: snapshot(
        unscheduledPod(
          "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. " +
            'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
          ssd,
        ),
        { nodes },
      ),
      expect: {
        severity: 'error',
        causeKey: 'selector:disktype=ssd',
        params: { labels: ['disktype=ssd'] },
        said: [{ id: 'titleLabels', data: { labels: 'disktype=ssd' } }],
        quotes: [/"disktype":"ssd"/],
      },
    },
    {
      name: '≈1.20 wording (node selector) with required affinity on a missing zone',
      snapshot: (() => {
        const p = unscheduledPod(undefined, zoneC);
        return snapshot(p, { nodes, events: [failedScheduling(p, "0/3 nodes are available: 3 node(s) didn't match node selector.")] });
      })(),
      expect: { severity: 'error', said: [{ id: 'titleLabels', data: { labels: 'topology.kubernetes.io/zone=eu-west-1c' } }] },
    },
    {
      name: 'pre-1.9 MatchNodeSelector, requirements only unmet together',
      snapshot: snapshot(
        unscheduledPod('No nodes are available that match all of the following predicates:: MatchNodeSelector (3).', {
          spec: { nodeSelector: { disktype: 'hdd', gpu: 'true' } },
        }),
        { nodes },
      ),
      expect: { causeKey: 'selector', said: ['noNodeMeetsAll'] },
    },
    {
      name: 'nodes not collected: still reports the selector',
      snapshot: snapshot(unscheduledPod("0/5 nodes are available: 5 node(s) didn't match Pod's node affinity.", ssd)),
      expect: { severity: 'error', said: ['notCollected'] },
    },
  ],
});
