import { describe, expect, it } from 'vitest';
import { ago, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { KubeObject } from '../types.js';
import { RULES } from './index.js';
import { rule } from './node-drain-blocked-pdb.js';

const cordoned = (sinceSeconds: number) =>
  node({ spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: ago(sinceSeconds) }] } });
const pdb = (name: string, spec: Record<string, unknown>, status: Record<string, number>): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: 'shop' },
  spec: { ...spec, selector: { matchLabels: { app: 'web' } } },
  status,
});
const strict = pdb('web-pdb', { minAvailable: 3 }, { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3, expectedPods: 3 });

testRule(rule, {
  valid: [
    { name: 'healthy pod on a schedulable node', snapshot: snapshot(pod(), { disruptionBudgets: [strict] }) },
    { name: 'cordoned 2 minutes ago (drain in progress)', snapshot: snapshot(pod(), { node: cordoned(120), disruptionBudgets: [strict] }) },
    {
      name: 'cordoned, budget allows one disruption',
      snapshot: snapshot(pod(), {
        node: cordoned(1800),
        disruptionBudgets: [pdb('web-pdb', { maxUnavailable: 1 }, { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'minAvailable equals the replica count',
      snapshot: snapshot(pod(), { node: cordoned(1800), disruptionBudgets: [strict] }),
      expect: {
        severity: 'warning',
        params: { node: 'node-1', pdb: 'web-pdb', currentHealthy: 3, desiredHealthy: 3 },
        said: ['budgetRefuses', 'neverAllows'],
      },
    },
    {
      name: 'unhealthy siblings use up the budget (policy/v1beta1 object)',
      snapshot: snapshot(pod(), {
        node: cordoned(3600),
        disruptionBudgets: [
          {
            ...pdb('web', { maxUnavailable: 1 }, { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 4, expectedPods: 5 }),
            apiVersion: 'policy/v1beta1',
          },
        ],
      }),
      expect: { said: ['unhealthyElsewhere', { id: 'title', data: { counts: '3 healthy, 4 required, 5 expected' } }] },
    },
  ],
});

describe('node.drain-blocked-pdb in the full registry', () => {
  it('speaks for a Running, Ready pod that nothing else would flag', () => {
    const d = diagnose(snapshot(pod(), { node: cordoned(1800), disruptionBudgets: [strict] }), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toEqual(['node.drain-blocked-pdb']);
  });
});
