import { describe, expect, it } from 'vitest';
import { event, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './admission-kubelet-rejected.js';
import { RULES } from './index.js';

const rejected = (reason: string, message: string) => pod({ status: { phase: 'Failed', reason, message, containerStatuses: [], conditions: [] } });
const OUT_OF_CPU = "Node didn't have enough resource: cpu, requested: 2000, used: 7500, capacity: 8000";

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'evicted (evicted.node-pressure)', snapshot: snapshot(rejected('Evicted', 'The node was low on resource: memory.')) },
    { name: 'completed', snapshot: snapshot(pod({ status: { phase: 'Succeeded' } })) },
  ],
  invalid: [
    {
      name: 'OutOfcpu (1.24+ wording) with its event',
      snapshot: snapshot(rejected('OutOfcpu', OUT_OF_CPU), { events: [event(pod(), { reason: 'OutOfcpu', message: OUT_OF_CPU })] }),
      expect: {
        params: { reason: 'OutOfcpu', node: 'node-1' },
        said: [
          { id: 'message', data: { message: /requested: 2000, used: 7500, capacity: 8000/ } },
          { id: 'outOfResource', data: { capacity: '8000', resource: 'cpu', used: '7500' } },
        ],
      },
    },
    {
      name: 'UnexpectedAdmissionError from the GPU device plugin',
      snapshot: snapshot(
        rejected(
          'UnexpectedAdmissionError',
          'Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected',
        ),
      ),
      expect: { said: ['deviceUnavailable', { id: 'message', data: { message: /nvidia.com\/gpu/ } }] },
    },
    {
      name: 'older NodeAffinity wording',
      snapshot: snapshot(rejected('NodeAffinity', 'Pod Predicate NodeAffinity failed')),
      expect: { causeKey: 'node/node-1:kubelet-rejected:NodeAffinity' },
    },
  ],
});

describe('admission.kubelet-rejected in the full registry', () => {
  it('is the first finding (the catch-all stays quiet)', () => {
    const d = diagnose(snapshot(rejected('OutOfpods', "Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110")), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toEqual(['admission.kubelet-rejected']);
  });
});
