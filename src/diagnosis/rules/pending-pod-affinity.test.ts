import { describe, expect, it } from 'vitest';
import { failedScheduling, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './pending-pod-affinity.js';

const antiAffinity = {
  spec: {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }],
      },
    },
  },
};
const MSG =
  "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. " +
  'preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
const p = unscheduledPod(MSG, antiAffinity);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'Pending 20 s', snapshot: snapshot(unscheduledPod(MSG, antiAffinity, 20)) },
    { name: 'another reason', snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.')) },
  ],
  invalid: [
    {
      name: 'hostname anti-affinity with more replicas than nodes (1.24+ wording)',
      snapshot: snapshot(p, { events: [failedScheduling(p, MSG)] }),
      expect: {
        severity: 'error',
        params: { nodes: 3 },
        said: [
          { id: 'title', data: { reasons: "didn't match pod anti-affinity rules" } },
          { id: 'antiAffinity', data: { terms: '{"matchLabels":{"app":"web"}} per kubernetes.io/hostname' } },
        ],
      },
    },
    {
      name: 'mixed affinity and anti-affinity, with a taint',
      snapshot: snapshot(
        unscheduledPod(
          '0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, ' +
            "2 node(s) didn't match pod affinity rules, 2 node(s) didn't satisfy existing pods anti-affinity rules.",
        ),
      ),
      expect: { params: { nodes: 4 }, said: [{ id: 'title', data: { reasons: /existing pods anti-affinity/ } }] },
    },
    {
      name: 'older wording',
      snapshot: snapshot(unscheduledPod("0/4 nodes are available: 4 node(s) didn't match pod affinity/anti-affinity.")),
      expect: { said: [{ id: 'title', data: { reasons: "didn't match pod affinity/anti-affinity" } }] },
    },
  ],
});

describe('pending.pod-affinity in the full registry', () => {
  it('ranks first and advises to relax a hostname anti-affinity', () => {
    const d = diagnose(snapshot(p, { events: [failedScheduling(p, MSG)] }), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('pending.pod-affinity');
    expect(d.findings[0]?.advice.join('\n')).toMatch(/one replica per node/);
  });
});
