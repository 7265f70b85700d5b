import { describe, expect, it } from 'vitest';
import { failedScheduling, node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './pending-topology-spread.js';

const spread = {
  spec: {
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
    ],
  },
};
const MSG =
  "0/6 nodes are available: 2 Insufficient cpu, 4 node(s) didn't match pod topology spread constraints. " +
  'preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.';
const zone = (name: string, z: string) => node({ metadata: { name, labels: { 'topology.kubernetes.io/zone': z } } });
const nodes = [
  zone('a1', 'us-west-2a'),
  zone('a2', 'us-west-2a'),
  zone('b1', 'us-west-2b'),
  zone('b2', 'us-west-2b'),
  zone('c1', 'us-west-2c'),
  zone('c2', 'us-west-2c'),
];
const p = unscheduledPod(MSG, spread);
const s = snapshot(p, { nodes, events: [failedScheduling(p, MSG)] });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (anti-affinity vs spread): pod anti-affinity is pending.pod-affinity',
      snapshot: snapshot(unscheduledPod("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."), { nodes }),
    },
  ],
  invalid: [
    {
      name: 'the zone that would balance the spread is full',
      snapshot: s,
      expect: {
        severity: 'error',
        playbook: null,
        params: { constraints: ['topology.kubernetes.io/zone'] },
        said: [
          { id: 'pending', data: { reasons: "4 node(s) didn't match pod topology spread constraints" } },
          { id: 'constraintAllows', data: { constraints: /domains: us-west-2a, us-west-2b, us-west-2c/ } },
          { id: 'allowedRuledOut', data: { others: '2 Insufficient cpu' } },
        ],
      },
    },
    {
      name: 'nodes without the topology label',
      snapshot: snapshot(unscheduledPod("0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints (missing required label).", spread), {
        nodes: [node({ metadata: { name: 'n1' } }), node({ metadata: { name: 'n2' } })],
      }),
      expect: { said: [{ id: 'constraintAllows', data: { constraints: /2 node\(s\) without the label/ } }] },
    },
  ],
});

describe('pending.topology-spread in the engine', () => {
  it('ranks above the insufficient-cpu minority', () => {
    const d = diagnose(s, { rules: RULES });
    expect(d.findings[0]?.rule).toBe('pending.topology-spread');
  });
});
