import { describe, expect, it } from 'vitest';
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import { loadPlaybooks } from './load.js';
import { offerProposer } from './offers.js';
import type { Plan } from './plan.js';

const finding = (rule: string, playbook: string | null, n: number): Finding => ({
  rule,
  severity: 'error',
  title: rule,
  cause: '',
  evidence: [],
  advice: [],
  prevent: [],
  playbook,
  subject: `pod/shop/web-${n}`,
  causeKey: `k${n}`,
  fingerprint: `${rule}|pod/shop/web-${n}|k${n}`,
  params: {},
  merged: [],
});
const diagnosis = (findings: Finding[]): Diagnosis => ({
  target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
  cluster: 'prod',
  findings,
  skipped: [],
  ruleErrors: [],
  at: '2026-11-25T10:00:00Z',
});

describe('offerProposer: the worker proposes the fixes with the diagnosis', () => {
  it('a plan for each of the top findings with a playbook; why not, where none can be made', async () => {
    const playbooks = await loadPlaybooks();
    const proposed: string[] = [];
    const propose = offerProposer({
      playbooks,
      max: 3,
      runner: {
        async proposePlan(f, _d, playbook) {
          proposed.push(`${f.rule}→${playbook.id}`);
          if (f.rule === 'terminating.node-lost') throw new Error(`cannot propose ${playbook.id}: pod shop/web-3 no longer exists`);
          return { id: `plan-${proposed.length}`, approvals: 2, risk: playbook.risk, expiresAt: '2026-11-25T10:15:00Z' } as unknown as Plan;
        },
      },
    });
    const offers = await propose(
      diagnosis([
        finding('terminating.finalizers', 'remove-finalizers', 1),
        finding('crash.app-exit', null, 2),
        finding('terminating.node-lost', 'force-delete-pod', 3),
        finding('image.corrupt-local', 'not-a-playbook', 4),
        finding('terminating.exec-hang', 'remove-stuck-containers', 5),
      ]),
    );
    // Only findings with a playbook count toward the three; the fourth is not proposed at all.
    expect(proposed).toEqual(['terminating.finalizers→remove-finalizers', 'terminating.node-lost→force-delete-pod']);
    expect(offers).toEqual([
      {
        fingerprint: 'terminating.finalizers|pod/shop/web-1|k1',
        playbook: 'remove-finalizers',
        planId: 'plan-1',
        approvals: 2,
        risk: 'medium',
        expiresAt: '2026-11-25T10:15:00Z',
      },
      {
        fingerprint: 'terminating.node-lost|pod/shop/web-3|k3',
        playbook: 'force-delete-pod',
        notOffered: 'cannot propose force-delete-pod: pod shop/web-3 no longer exists',
      },
      { fingerprint: 'image.corrupt-local|pod/shop/web-4|k4', playbook: 'not-a-playbook', notOffered: 'this playbook is not installed' },
    ]);
  });

  it('nothing to offer without a finding that names a playbook', async () => {
    const propose = offerProposer({ playbooks: [], runner: { proposePlan: () => Promise.reject(new Error('must not be called')) } });
    expect(await propose(diagnosis([finding('crash.app-exit', null, 1)]))).toEqual([]);
  });
});
