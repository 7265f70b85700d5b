import { node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-nodes-cordoned.js';

const MSG =
  '0/3 nodes are available: 1 Insufficient memory, 2 node(s) were unschedulable. ' +
  'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
const nodes = [
  node({ metadata: { name: 'a' }, spec: { unschedulable: true } }),
  node({ metadata: { name: 'b' }, spec: { unschedulable: true } }),
  node({ metadata: { name: 'c' } }),
];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (taint vs cordon): an untolerated taint',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}.'), { nodes }),
    },
  ],
  invalid: [
    {
      name: 'two of three nodes cordoned for a drain',
      snapshot: snapshot(unscheduledPod(MSG), { nodes }),
      expect: {
        severity: 'error',
        playbook: null,
        params: { cordoned: ['a', 'b'] },
        said: [
          { id: 'cordonedNamed', data: { reasons: '2 node(s) were unschedulable' } },
          { id: 'othersRuledOut', data: { others: '1 Insufficient memory' } },
        ],
      },
    },
    {
      name: 'the only node cordoned',
      snapshot: snapshot(unscheduledPod('0/1 nodes are available: 1 node(s) were unschedulable.'), { nodes: [nodes[0]!] }),
      expect: { params: { cordoned: ['a'] } },
    },
  ],
});
