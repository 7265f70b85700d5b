// Approving fixes outside the access policy, as a hostile or careless user: a plan in a namespace
// whose approver group you are not in, your own request under a two-person rule, an Approve or
// Deny button clicked from another channel than the prompt's thread. Each is refused privately
// and nothing changes: no approval recorded, the plan still pending, no remediation queued. The
// same plans approved by the people the policy names do run, so each refusal is the policy's.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approve, click, deny } from '../../src/chat/flows/decisions.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import type { Part } from '../../src/chat/types.js';
import type { Plan } from '../../src/remediation/plan.js';
import { connect } from '../helpers/jobs.js';
import { type Bench, openBench, plan, result } from './harness.js';
import { GLOBAL_APPROVERS, GROUPS, POLICY } from './policy.js';

describe('tenancy: who may approve what where', () => {
  const redis = connect();
  let b: Bench;
  /** restart-pod on shop/web-1 (risk medium: two shop leads), asked for by U0ALICE in #shop. */
  let restart: Plan;
  /** remove-finalizers on shop/web-1: no namespace rule, the global approvers (S0SRE). */
  let finalizers: Plan;
  /** restart-pod on payments/api-1, asked for by U0SARA in #platform: the payments lead. */
  let payments: Plan;

  beforeEach(async () => {
    b = openBench(redis, { policy: POLICY, groups: GROUPS, approvers: GLOBAL_APPROVERS });
    const web = { kind: 'pod' as const, namespace: 'shop', name: 'web-1' };
    const api = { kind: 'pod' as const, namespace: 'payments', name: 'api-1' };
    restart = plan(web, 'restart-pod');
    finalizers = plan(web, 'remove-finalizers', { risk: 'low' });
    payments = plan(api, 'restart-pod');
    for (const p of [restart, finalizers, payments]) b.plans.set(p.id, p);
    await deliver(b.chat, result('job-shop', { user: 'U0ALICE', channel: 'C0SHOP' }, web, [restart, finalizers]));
    await deliver(b.chat, result('job-pay', { user: 'U0SARA', channel: 'C0PLATFORM' }, api, [payments]));
  });
  afterEach(async () => {
    await b.close();
  });
  afterAll(() => redis.disconnect());

  /** Nothing changed for `p`: pending, no approval, no remediation job. */
  async function unchanged(p: Plan) {
    const record = await b.chat.approvals.get(p.id);
    expect(record?.status).toBe('pending');
    expect(record?.approvals).toEqual([]);
    expect((await b.counts()).remediate).toBe(0);
  }

  /** The text of the last prompt shown for `p` (posted or redrawn). */
  function promptOf(p: Plan): string {
    const shown = b.adapter.posts
      .filter((x) => (x.kind === 'thread' || x.kind === 'update') && JSON.stringify(x.message.parts).includes(`plan ${p.id}`))
      .at(-1);
    const texts = (shown?.message.parts ?? []).flatMap((part: Part) =>
      part.kind === 'fields' ? part.fields.map((f) => `${f.label}: ${f.value}`) : 'text' in part ? [part.text] : [],
    );
    return texts.join('\n');
  }

  it('shows on each prompt who may approve where it runs, and that a two-person rule needs two different people', async () => {
    expect(promptOf(restart)).toMatch(/may approve: user group S0SHOPLEADS/);
    expect(promptOf(restart)).toMatch(/Approvals needed: 2 different people/);
    expect(promptOf(finalizers)).toMatch(/may approve: user group S0SRE/);
    expect(promptOf(finalizers)).toMatch(/Approvals needed: 1/);
    expect(promptOf(payments)).toMatch(/may approve: user group S0PAYLEADS/);
    expect(await b.chat.approvals.get(restart.id)).toMatchObject({ required: 2, requireDifferent: true, requester: 'U0ALICE' });
    expect(await b.chat.approvals.get(finalizers.id)).toMatchObject({ required: 1, requireDifferent: false });
  });

  it("refuses an approver from elsewhere (a global approver, the other namespace's lead) on a namespace whose group they are not in", async () => {
    await approve(b.chat, restart.id, 'U0SARA', 'C0SHOP');
    await approve(b.chat, restart.id, 'U0PAYLEAD', 'C0SHOP');
    await approve(b.chat, payments.id, 'U0LEAD1', 'C0PLATFORM');
    expect(b.adapter.toldTo('U0SARA')).toEqual([
      expect.stringMatching(/You may not approve Run restart-pod \(shop\/web-1\): in prod-eu\/shop the access policy lets only user group S0SHOPLEADS decide/),
    ]);
    expect(b.adapter.toldTo('U0PAYLEAD')).toEqual([expect.stringMatching(/only user group S0SHOPLEADS decide on restart-pod/)]);
    expect(b.adapter.toldTo('U0LEAD1')).toEqual([expect.stringMatching(/in prod-eu\/payments the access policy lets only user group S0PAYLEADS/)]);
    // The reason is private; the threads only hear that someone tried.
    expect(b.adapter.publicIn('C0SHOP').join('\n')).not.toMatch(/access policy/);
    await unchanged(restart);
    await unchanged(payments);
    // Deny is a decision too.
    expect(await deny(b.chat, restart.id, 'U0SARA', 'not mine', 'C0SHOP')).toBe(false);
    await unchanged(restart);
  });

  it('refuses the requester under a two-person rule, though they are one of its approvers', async () => {
    await approve(b.chat, restart.id, 'U0ALICE', 'C0SHOP');
    expect(b.adapter.toldTo('U0ALICE')).toEqual([
      expect.stringMatching(/You asked for this diagnosis, and the access policy needs two people other than the requester/),
    ]);
    await unchanged(restart);
  });

  it('holds a two-person rule on a plan whose record was made before the rule (one approver, requester allowed)', async () => {
    const late = plan({ kind: 'pod', namespace: 'shop-eu', name: 'web-2' }, 'restart-deployment');
    b.plans.set(late.id, late);
    await b.chat.approvals.create({
      planId: late.id,
      cluster: late.cluster,
      required: 1,
      requester: 'U0LEAD1',
      requireDifferent: false,
      expiresAt: Date.now() + 60_000,
    });
    await b.chat.approvals.addPrompt(late.id, { channel: 'C0SHOP', ts: '99.1', threadTs: '99.0' });
    await approve(b.chat, late.id, 'U0LEAD1', 'C0SHOP');
    expect(b.adapter.toldTo('U0LEAD1')).toEqual([expect.stringMatching(/two people other than the requester/)]);
    await unchanged(late);
    // One lead is not enough either: the rule raised the plan to two.
    await approve(b.chat, late.id, 'U0LEAD2', 'C0SHOP');
    expect(await b.chat.approvals.get(late.id)).toMatchObject({ status: 'pending', required: 2, approvals: [expect.objectContaining({ user: 'U0LEAD2' })] });
    expect((await b.counts()).remediate).toBe(0);
  });

  it("refuses Approve and Deny clicked from another channel than the prompt's thread, even by a rightful approver", async () => {
    const before = b.adapter.posts.length;
    await click(b.chat, { action: 'approve', value: restart.id, user: 'U0LEAD1', channel: 'C0PLATFORM' });
    await click(b.chat, { action: 'approve', value: finalizers.id, user: 'U0SARA', channel: 'C0PLATFORM' });
    expect(await click(b.chat, { action: 'deny', value: finalizers.id, user: 'U0SARA', channel: 'C0RANDOM' })).toEqual({ kind: 'done' });
    const after = b.adapter.posts.slice(before);
    expect(after.map((p) => [p.kind, p.user, p.channel])).toEqual([
      ['ephemeral', 'U0LEAD1', 'C0PLATFORM'],
      ['ephemeral', 'U0SARA', 'C0PLATFORM'],
      ['ephemeral', 'U0SARA', 'C0RANDOM'],
    ]);
    for (const p of after) expect(p.message.text).toMatch(/button belongs to another channel's thread; decide there\. Nothing was recorded\./);
    await unchanged(restart);
    await unchanged(finalizers);
  });

  it('runs what the people the policy names approve: two different shop leads, the global approver elsewhere', async () => {
    await approve(b.chat, restart.id, 'U0LEAD1', 'C0SHOP');
    expect((await b.counts()).remediate).toBe(0);
    await approve(b.chat, restart.id, 'U0LEAD2', 'C0SHOP');
    await approve(b.chat, finalizers.id, 'U0SARA', 'C0SHOP');
    await approve(b.chat, payments.id, 'U0PAYLEAD', 'C0PLATFORM');
    expect((await b.chat.approvals.get(restart.id))?.status).toBe('approved');
    expect((await b.chat.approvals.get(restart.id))?.approvals.map((a) => a.user)).toEqual(['U0LEAD1', 'U0LEAD2']);
    expect((await b.counts()).remediate).toBe(3);
  });
});

describe('tenancy: approving across clusters', () => {
  const redis = connect();
  afterAll(() => redis.disconnect());

  it("refuses a lead of one cluster on a plan of another, whose rule names that cluster's on-call; nothing is recorded", async () => {
    const policy = {
      ...POLICY,
      approvals: [{ clusters: ['prod-us'], namespaces: ['*'], approvers: ['S0USONCALL'] }, ...(POLICY.approvals ?? [])],
    };
    const b = openBench(redis, { policy, groups: { ...GROUPS, S0USONCALL: ['U0USONCALL'] }, approvers: GLOBAL_APPROVERS });
    try {
      const web = { kind: 'pod' as const, namespace: 'shop', name: 'web-1' };
      const us = plan(web, 'restart-pod', { cluster: 'prod-us' });
      b.plans.set(us.id, us);
      await deliver(b.chat, result('job-us', { user: 'U0ALICE', channel: 'C0SHOP' }, web, [us]));
      // Same namespace and playbook as the prod-eu rule of two shop leads: the cluster decides.
      await approve(b.chat, us.id, 'U0LEAD1', 'C0SHOP');
      await approve(b.chat, us.id, 'U0SARA', 'C0SHOP');
      expect(b.adapter.toldTo('U0LEAD1')).toEqual([expect.stringMatching(/in prod-us\/shop the access policy lets only user group S0USONCALL decide/)]);
      expect(b.adapter.toldTo('U0SARA')).toEqual([expect.stringMatching(/only user group S0USONCALL/)]);
      const record = await b.chat.approvals.get(us.id);
      expect(record?.status).toBe('pending');
      expect(record?.approvals).toEqual([]);
      expect((await b.counts()).remediate).toBe(0);
    } finally {
      await b.close();
    }
  });
});
