import { describe, expect, it } from 'vitest';
import { AUDIT_OUTCOMES, type AuditEntry, AuditEntrySchema, describeEntry, eventTypeOf } from './entry.js';

const base: AuditEntry = {
  at: '2026-03-01T10:00:00.000Z',
  cluster: 'prod-eu',
  kind: 'approval',
  planId: 'pl_AbCdEfGhIjKlMnOp',
  playbook: 'recreate-pod',
  target: { kind: 'pod', namespace: 'shop', name: 'web-0' },
  actors: ['U0ALICE', 'U0BOB'],
  outcome: 'approved',
};

describe('audit entries', () => {
  it('accept each kind with its own outcomes and refuse an outcome of another kind', () => {
    for (const [kind, outcomes] of Object.entries(AUDIT_OUTCOMES)) {
      for (const outcome of outcomes) expect(AuditEntrySchema.safeParse({ ...base, kind, outcome }).success, `${kind}/${outcome}`).toBe(true);
    }
    expect(AuditEntrySchema.safeParse({ ...base, kind: 'denial', outcome: 'fixed' }).success).toBe(false);
    expect(AuditEntrySchema.safeParse({ ...base, kind: 'run', outcome: 'approved' }).success).toBe(false);
  });

  it('refuse what cannot key a cluster or name a target', () => {
    expect(AuditEntrySchema.safeParse({ ...base, cluster: 'Prod EU' }).success).toBe(false);
    expect(AuditEntrySchema.safeParse({ ...base, target: { kind: 'pod', namespace: 'shop', name: 'Web 0' } }).success).toBe(false);
    expect(AuditEntrySchema.safeParse({ ...base, at: 'yesterday' }).success).toBe(false);
    expect(AuditEntrySchema.safeParse({ ...base, actors: Array.from({ length: 17 }, (_, i) => `U${i}`) }).success).toBe(false);
  });

  it.each([
    ['approval', 'partial', 'Normal'],
    ['approval', 'approved', 'Normal'],
    ['approval', 'not-allowed', 'Warning'],
    ['denial', 'denied', 'Warning'],
    ['denial', 'explained', 'Normal'],
    ['expiry', 'expired', 'Warning'],
    ['run', 'fixed', 'Normal'],
    ['run', 'not-fixed', 'Warning'],
    ['run', 'refused', 'Warning'],
    ['run', 'failed', 'Warning'],
    ['run', 'stopped', 'Warning'],
  ] as const)('%s/%s is a %s event whose message names the plan, the playbook, the people and the outcome', (kind, outcome, type) => {
    const entry = AuditEntrySchema.parse({ ...base, kind, outcome, actors: kind === 'expiry' ? [] : base.actors, reason: 'the reason given' });
    expect(eventTypeOf(entry)).toBe(type);
    const text = describeEntry(entry);
    expect(text).toContain(base.planId);
    expect(text).toContain(base.playbook);
    expect(text).toContain('the reason given');
    if (kind !== 'expiry') expect(text).toContain('U0ALICE');
    if (kind === 'run') expect(text).toContain(outcome);
    expect(text).toMatch(kind === 'expiry' ? /expired/ : kind === 'denial' ? /denial|denied/ : /approv|run/);
  });

  it('says when a run has nobody on record as its approver', () => {
    expect(describeEntry({ ...base, kind: 'run', outcome: 'fixed', actors: [] })).toContain('approved by nobody on record');
  });
});
