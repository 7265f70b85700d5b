// Approvers and expiries, read from the approval records the chat's state machine writes (the
// real ApprovalStore here, so a change of its format fails this test): who approved a plan, and
// a watched plan whose approval ran out recorded once, however many workers sweep.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approversOf, readApproval } from '../../src/audit/approvals.js';
import { sweepExpired, watchExpiry } from '../../src/audit/expiry.js';
import { readAudit } from '../../src/audit/stream.js';
import { ApprovalStore } from '../../src/chat/store/approvals.js';
import type { RedisClient } from '../../src/redis/client.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const CLUSTER = 'expiry';
const target = { kind: 'pod', namespace: 'shop', name: 'web-0' } as const;
let n = 0;
const planId = () => `pl_expiryTest${String(++n).padStart(6, '0')}`;

describe('approvers and expiries from the approval records', () => {
  let redis: RedisClient;
  let prefix: string;
  let store: ApprovalStore;

  beforeAll(() => {
    redis = connect();
  });
  beforeEach(async () => {
    prefix = testPrefix('audit-expiry');
    store = new ApprovalStore(redis, prefix);
  });
  afterAll(async () => {
    redis.disconnect();
  });

  const entries = async () => {
    const out = [];
    for await (const r of readAudit(redis, prefix, CLUSTER, { sinceMs: 0, untilMs: Date.now() + 60_000 })) out.push(r.entry);
    await cleanup(redis, prefix);
    return out;
  };

  const offer = async (id: string, o: { required?: 1 | 2; expiresAt: number }) => {
    await store.create({ planId: id, cluster: CLUSTER, required: o.required ?? 1, requireDifferent: false, expiresAt: o.expiresAt });
    await watchExpiry(redis, prefix, { cluster: CLUSTER, planId: id, playbook: 'recreate-pod', target, uid: 'uid-1', expiresAt: o.expiresAt });
  };

  it('names the approvers of an approved plan in the order they approved, and nobody before that', async () => {
    const id = planId();
    await store.create({ planId: id, cluster: CLUSTER, required: 2, requireDifferent: false, expiresAt: Date.now() + 60_000 });
    expect(await approversOf(redis, prefix, id)).toEqual([]);
    await store.approve(id, 'U0ALICE');
    expect(await approversOf(redis, prefix, id)).toEqual([]);
    expect((await readApproval(redis, prefix, id))?.approvers).toEqual(['U0ALICE']);
    await store.approve(id, 'U0BOB');
    expect(await approversOf(redis, prefix, id)).toEqual(['U0ALICE', 'U0BOB']);
    expect(await store.markRunning(id)).toBe(true);
    expect(await approversOf(redis, prefix, id)).toEqual(['U0ALICE', 'U0BOB']);
    expect(await approversOf(redis, prefix, 'pl_neverOffered00')).toEqual([]);
    await cleanup(redis, prefix);
  });

  it('records an unanswered approval once it ran out, once, whoever sweeps', async () => {
    const id = planId();
    const expiresAt = Date.now() - 1000;
    await offer(id, { expiresAt });
    const swept = await Promise.all([1, 2, 3].map(() => sweepExpired(redis, prefix, CLUSTER)));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sweepExpired(redis, prefix, CLUSTER)).toBe(0);
    const [entry, ...more] = await entries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ kind: 'expiry', outcome: 'expired', planId: id, playbook: 'recreate-pod', target, uid: 'uid-1', actors: [] });
    expect(entry?.reason).toContain(new Date(expiresAt).toISOString());
  });

  it('says who had approved when a two-person plan ran out with one approval', async () => {
    const id = planId();
    await offer(id, { required: 2, expiresAt: Date.now() + 300 });
    await store.approve(id, 'U0ALICE');
    await new Promise((r) => setTimeout(r, 400));
    // A late click marks it expired in the record; the sweep still records it once.
    expect((await store.approve(id, 'U0BOB')).kind).toBe('expired');
    expect(await sweepExpired(redis, prefix, CLUSTER)).toBe(1);
    const [entry] = await entries();
    expect(entry?.reason).toContain('approved by U0ALICE only (1 of 2)');
  });

  it('records nothing for a plan that was approved or denied in time, nor for one nobody was asked about', async () => {
    const [approved, denied, unoffered] = [planId(), planId(), planId()];
    await offer(approved, { expiresAt: Date.now() + 200 });
    await offer(denied, { expiresAt: Date.now() + 200 });
    await watchExpiry(redis, prefix, { cluster: CLUSTER, planId: unoffered, playbook: 'recreate-pod', target, expiresAt: Date.now() - 1 });
    await store.approve(approved, 'U0ALICE');
    await store.deny(denied, 'U0BOB', 'not now');
    await new Promise((r) => setTimeout(r, 300));
    expect(await sweepExpired(redis, prefix, CLUSTER)).toBe(0);
    expect(await redis.zcard(`{${prefix}:${CLUSTER}}:audit:expiring`)).toBe(0);
    expect(await entries()).toEqual([]);
  });

  it('leaves a plan alone before its time, and waits for an approval window that outlasts it (clocks apart)', async () => {
    const [later, skewed] = [planId(), planId()];
    await offer(later, { expiresAt: Date.now() + 60_000 });
    await store.create({ planId: skewed, cluster: CLUSTER, required: 1, requireDifferent: false, expiresAt: Date.now() + 60_000 });
    await watchExpiry(redis, prefix, { cluster: CLUSTER, planId: skewed, playbook: 'recreate-pod', target, expiresAt: Date.now() - 1 });
    expect(await sweepExpired(redis, prefix, CLUSTER)).toBe(0);
    expect(await redis.zcard(`{${prefix}:${CLUSTER}}:audit:expiring`)).toBe(2);
    expect(await sweepExpired(redis, prefix, CLUSTER, { now: () => Date.now() + 120_000 })).toBe(2);
    expect((await entries()).map((e) => e.planId).sort()).toEqual([later, skewed].sort());
  });
});
