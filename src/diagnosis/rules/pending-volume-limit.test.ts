import { describe, expect, it } from 'vitest';
import { node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './pending-volume-limit.js';

const withClaim = { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-kafka-7' } }] } };
const MSG = '0/4 nodes are available: 4 node(s) exceed max volume count. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.';
const ebsNodes = ['n1', 'n2'].map((n) => node({ metadata: { name: n }, status: { allocatable: { 'attachable-volumes-aws-ebs': '25' } } }));

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'other reasons', snapshot: snapshot(unscheduledPod('0/4 nodes are available: 4 Insufficient memory.', withClaim)) },
  ],
  invalid: [
    {
      name: 'every node at its limit',
      snapshot: snapshot(unscheduledPod(MSG, withClaim), { nodes: ebsNodes }),
      expect: {
        severity: 'error',
        params: { nodes: 4 },
        said: [{ id: 'needsVolume', data: { claims: 'data-kafka-7' } }],
        quotes: [/exceed max volume count/, /attachable-volumes-aws-ebs=25/],
      },
    },
    {
      name: 'inside a multi-reason message',
      snapshot: snapshot(unscheduledPod('0/6 nodes are available: 2 Insufficient cpu, 4 node(s) exceed max volume count.', withClaim)),
      expect: { severity: 'error', params: { nodes: 4 } },
    },
    {
      name: '1.8 predicate wording',
      snapshot: snapshot(unscheduledPod('No nodes are available that match all of the following predicates:: MaxEBSVolumeCount (3).', withClaim)),
      expect: { params: { nodes: 3 } },
    },
  ],
});

describe('pending.volume-limit in the full registry', () => {
  it('outranks the minor cpu reason', () => {
    const d = diagnose(snapshot(unscheduledPod('0/6 nodes are available: 2 Insufficient cpu, 4 node(s) exceed max volume count.', withClaim)), {
      rules: RULES,
    });
    expect(d.findings[0]?.rule).toBe('pending.volume-limit');
  });
});
