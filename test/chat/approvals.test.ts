// The approval state machine on real Redis, and who may approve.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackIds } from '../../src/chat/adapters/slack/ids.js';
import { createChatMetrics } from '../../src/chat/metrics.js';
import { ApprovalStore, type ApproveOutcome, ApproverPolicy } from '../../src/chat/store/approvals.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

type Step = ['approve' | 'deny', string, string];

interface Case {
  name: string;
  required?: 1 | 2;
  requester?: string;
  requireDifferent?: boolean;
  expiresInMs?: number;
  unknown?: boolean;
  steps: Step[];
  final?: string;
}

const cases: Case[] = [
  { name: 'one approval runs a one-approver plan', steps: [['approve', 'U1', 'approved']], final: 'approved' },
  {
    name: 'a two-approver plan needs two different people',
    required: 2,
    steps: [
      ['approve', 'U1', 'recorded'],
      ['approve', 'U1', 'duplicate'],
      ['approve', 'U2', 'approved'],
    ],
    final: 'approved',
  },
  {
    name: 'the requester may not approve when so configured',
    requester: 'U1',
    requireDifferent: true,
    steps: [
      ['approve', 'U1', 'requester'],
      ['approve', 'U2', 'approved'],
    ],
    final: 'approved',
  },
  {
    name: 'the requester may approve when not configured',
    requester: 'U1',
    requireDifferent: false,
    steps: [['approve', 'U1', 'approved']],
    final: 'approved',
  },
  {
    name: 'an expired plan can be neither approved nor denied',
    expiresInMs: -1000,
    steps: [
      ['approve', 'U1', 'expired'],
      ['deny', 'U1', 'expired'],
    ],
    final: 'expired',
  },
  {
    name: 'a denied plan stays denied',
    steps: [
      ['deny', 'U1', 'denied'],
      ['approve', 'U2', 'not-pending'],
      ['deny', 'U2', 'not-pending'],
    ],
    final: 'denied',
  },
  {
    name: 'an approved plan cannot be denied',
    steps: [
      ['approve', 'U1', 'approved'],
      ['deny', 'U2', 'not-pending'],
      ['approve', 'U2', 'not-pending'],
    ],
    final: 'approved',
  },
  {
    name: 'a half-approved plan can still be denied',
    required: 2,
    steps: [
      ['approve', 'U1', 'recorded'],
      ['deny', 'U2', 'denied'],
      ['approve', 'U3', 'not-pending'],
    ],
    final: 'denied',
  },
  {
    name: 'an unknown plan',
    unknown: true,
    steps: [
      ['approve', 'U1', 'unknown'],
      ['deny', 'U1', 'unknown'],
    ],
  },
];

describe('ApprovalStore', () => {
  const redis = connect();
  const prefix = testPrefix('approvals');
  const store = new ApprovalStore(redis, prefix);
  let n = 0;
  const create = async (c: Partial<Case> = {}) => {
    const planId = `pl_test${String(n++).padStart(12, '0')}`;
    if (!c.unknown) {
      await store.create({
        planId,
        cluster: 'c1',
        required: c.required ?? 1,
        ...(c.requester ? { requester: c.requester } : {}),
        requireDifferent: c.requireDifferent ?? false,
        expiresAt: Date.now() + (c.expiresInMs ?? 60_000),
      });
    }
    return planId;
  };

  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const planId = await create(c);
    for (const [action, user, expected] of c.steps) {
      const out = action === 'approve' ? await store.approve(planId, user) : await store.deny(planId, user, 'why');
      expect(out.kind, `${action} by ${user}`).toBe(expected);
    }
    if (c.final) expect((await store.get(planId))?.status).toBe(c.final);
  });

  it.each([1, 2] as const)('lets exactly one of 20 concurrent approvers hand a %i-approver plan to the runner', async (required) => {
    const planId = await create({ required });
    const outs: ApproveOutcome[] = await Promise.all(Array.from({ length: 20 }, (_, i) => store.approve(planId, `U${i}`)));
    const kinds = outs.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'approved')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'recorded')).toHaveLength(required - 1);
    expect(kinds.filter((k) => k === 'not-pending')).toHaveLength(20 - required);
    const record = await store.get(planId);
    expect(record?.approvals.map((a) => a.user)).toHaveLength(required);
  });

  it('records who denied and lets only them give the reason', async () => {
    const planId = await create();
    expect((await store.deny(planId, 'U1')).kind).toBe('denied');
    expect(await store.setDenyReason(planId, 'U2', 'not yours')).toBe(false);
    expect(await store.setDenyReason(planId, 'U1', 'controller redeploying')).toBe(true);
    const r = await store.get(planId);
    expect(r?.denied).toMatchObject({ user: 'U1', reason: 'controller redeploying' });
    expect(r?.denied?.at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('tightens a pending plan to two approvers and a barred requester, never loosens it, and leaves decided plans alone', async () => {
    const planId = await create({ requester: 'U1' });
    expect(await store.tighten(planId, { required: 2, requireDifferent: true })).toBe(true);
    expect(await store.tighten(planId, { required: 1, requireDifferent: false })).toBe(false);
    expect(await store.get(planId)).toMatchObject({ required: 2, requireDifferent: true });
    expect((await store.approve(planId, 'U1')).kind).toBe('requester');
    expect((await store.approve(planId, 'U2')).kind).toBe('recorded');
    const decided = await create();
    await store.approve(decided, 'U1');
    expect(await store.tighten(decided, { required: 2, requireDifferent: true })).toBe(false);
    expect(await store.get(decided)).toMatchObject({ status: 'approved', required: 1 });
  });

  it('moves approved → running → done once, and remembers the prompts', async () => {
    const planId = await create();
    expect(await store.markRunning(planId)).toBe(false);
    await store.approve(planId, 'U1');
    await store.addPrompt(planId, { channel: 'C1', ts: '1.1', threadTs: '1.0' });
    await store.addPrompt(planId, { channel: 'C1', ts: '1.1', threadTs: '1.0' });
    await store.addPrompt(planId, { channel: 'C2', ts: '2.1', threadTs: '2.0' });
    expect(await store.markRunning(planId)).toBe(true);
    expect(await store.markRunning(planId)).toBe(false);
    expect(await store.markDone(planId, { ok: true, text: 'fixed' })).toBe(true);
    expect(await store.markDone(planId, { ok: false, text: 'again' })).toBe(false);
    const r = await store.get(planId);
    expect(r).toMatchObject({ status: 'done', outcome: { ok: true, text: 'fixed' } });
    expect(r?.prompts).toEqual([
      { channel: 'C1', ts: '1.1', threadTs: '1.0' },
      { channel: 'C2', ts: '2.1', threadTs: '2.0' },
    ]);
  });
});

describe('ApproverPolicy', () => {
  let calls: string[] = [];
  const groups: Record<string, string[]> = { S0SRE: ['U0BOB', 'U0CAROL'], S0DBA: ['U0DAN'] };
  const resolveGroup = async (g: string) => {
    calls.push(g);
    const users = groups[g];
    if (!users) throw new Error('no_such_subteam');
    return users;
  };
  beforeAll(() => {
    calls = [];
  });

  it.each([
    ['a listed user', ['U0ALICE'], undefined, 'U0ALICE', true],
    ['an unlisted user', ['U0ALICE'], undefined, 'U0EVE', false],
    ['a member of a listed group', ['S0SRE'], undefined, 'U0CAROL', true],
    ['a member of another group', ['S0SRE'], undefined, 'U0DAN', false],
    ['a playbook override replaces the global list (allowed)', ['S0SRE'], ['S0DBA'], 'U0DAN', true],
    ['a playbook override replaces the global list (refused)', ['S0SRE'], ['S0DBA'], 'U0BOB', false],
    ['nobody when nothing is configured', [], undefined, 'U0ALICE', false],
    ['nobody from a group that does not resolve', ['S0GONE'], undefined, 'U0ALICE', false],
  ] as const)('%s', async (_name, approvers, override, user, allowed) => {
    const policy = new ApproverPolicy({ ids: slackIds, approvers, resolveGroup });
    expect(await policy.may(user, override)).toBe(allowed);
  });

  it("resolves a user's groups among those named, from the cache alone only when every one is cached", async () => {
    calls = [];
    const policy = new ApproverPolicy({ ids: slackIds, approvers: [], resolveGroup, cacheMs: 60_000 });
    expect(policy.cachedGroupsOf('U0DAN', ['S0SRE', 'S0DBA'])).toBeUndefined();
    expect(await policy.groupsOf('U0DAN', ['S0SRE', 'S0DBA', 'S0GONE'])).toEqual({ groups: ['S0DBA'], unresolved: ['S0GONE'] });
    // S0GONE did not resolve: not cached, so the cache alone cannot answer for it (fail closed later).
    expect(policy.cachedGroupsOf('U0DAN', ['S0SRE', 'S0DBA'])).toEqual(['S0DBA']);
    expect(policy.cachedGroupsOf('U0DAN', ['S0GONE'])).toBeUndefined();
    expect(calls.sort()).toEqual(['S0DBA', 'S0GONE', 'S0SRE']);
  });

  it('says which groups did not resolve when they decide, and not when a resolved one or a listed user does', async () => {
    const policy = new ApproverPolicy({ ids: slackIds, approvers: ['S0GONE', 'S0SRE', 'U0ALICE'], resolveGroup });
    expect(await policy.check('U0EVE')).toEqual({ ok: false, unresolved: ['S0GONE'] });
    expect(await policy.check('U0BOB')).toEqual({ ok: true });
    expect(await policy.check('U0ALICE')).toEqual({ ok: true });
    expect(await policy.check('U0EVE', ['S0SRE'])).toEqual({ ok: false, unresolved: [] });
  });

  it('trusts members for their TTL and never past it: a lookup that fails then leaves the group unresolved', async () => {
    let clock = 0;
    let members: string[] | Error = ['U0BOB'];
    const metrics = createChatMetrics(new Registry());
    const policy = new ApproverPolicy({
      ids: slackIds,
      approvers: ['S0SRE'],
      resolveGroup: async () => {
        if (members instanceof Error) throw members;
        return members;
      },
      cacheMs: 1000,
      now: () => clock,
      metrics,
    });
    expect(await policy.check('U0BOB')).toEqual({ ok: true });
    // Removed from the group, and Slack fails: within the TTL the lookup is not even made.
    members = new Error('503');
    clock = 999;
    expect(await policy.check('U0BOB')).toEqual({ ok: true });
    // Past it: the stale list is not used.
    clock = 1000;
    expect(await policy.check('U0BOB')).toEqual({ ok: false, unresolved: ['S0SRE'] });
    expect(policy.cachedGroupsOf('U0BOB', ['S0SRE'])).toBeUndefined();
    expect((await metrics.groupLookupFailures.get()).values).toEqual([expect.objectContaining({ labels: { failure: 'unknown' }, value: 1 })]);
    // It resolves again, without him.
    members = ['U0CAROL'];
    expect(await policy.check('U0BOB')).toEqual({ ok: false, unresolved: [] });
    expect(await policy.check('U0CAROL')).toEqual({ ok: true });
  });

  it('caches group members briefly', async () => {
    calls = [];
    const policy = new ApproverPolicy({ ids: slackIds, approvers: ['S0SRE'], resolveGroup, cacheMs: 60_000 });
    await Promise.all([policy.may('U0BOB'), policy.may('U0CAROL'), policy.may('U0EVE')]);
    await policy.may('U0BOB');
    expect(calls).toEqual(['S0SRE']);
    const uncached = new ApproverPolicy({ ids: slackIds, approvers: ['S0SRE'], resolveGroup, cacheMs: 0 });
    await uncached.may('U0BOB');
    await new Promise((r) => setTimeout(r, 5));
    await uncached.may('U0BOB');
    expect(calls).toEqual(['S0SRE', 'S0SRE', 'S0SRE']);
  });
});
