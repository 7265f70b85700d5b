// Asking for diagnoses outside the access policy, as a hostile or careless user: a namespace the
// channel may not see, a channel the policy does not list, no permitted user group, a Re-run
// button clicked in another channel or by someone without access. Each is refused privately
// (the rule that refused it and whom to ask) and no job reaches the queue; the same requests
// inside the policy are queued, so every refusal here is the policy's doing.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessRefused } from '../../src/chat/access.js';
import { answerCommand } from '../../src/chat/adapters/slack/commands.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import { notAProblem } from '../../src/chat/flows/not-a-problem.js';
import { rerun, startDiagnosis } from '../../src/chat/flows/requests.js';
import type { Target } from '../../src/diagnosis/types.js';
import { parseTarget } from '../../src/kube/target.js';
import { keyPattern } from '../../src/redis/keys.js';
import { connect } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type Bench, openBench, plan, result } from './harness.js';
import { GLOBAL_APPROVERS, GROUPS, POLICY } from './policy.js';

const pod = (namespace: string, name: string): Target => ({ kind: 'pod', namespace, name });

describe('tenancy: who may ask for a diagnosis where', () => {
  const redis = connect();
  let b: Bench;

  beforeEach(() => {
    // The old per-channel map says C0SHOP's bare pods live in `legacy`: the policy's entry wins.
    b = openBench(redis, { policy: POLICY, groups: GROUPS, approvers: GLOBAL_APPROVERS, defaultNamespaces: { C0SHOP: 'legacy', C0OTHER: 'legacy' } });
  });
  afterEach(async () => {
    await b.close();
  });
  afterAll(() => redis.disconnect());

  /**
   * A command as the Slack edge answers it (answerCommand): its acknowledgement, then what follows
   * (the thread) and what the person is told privately after it (`responses`).
   */
  async function command(text: string, channel: string, user: string) {
    const responses: string[] = [];
    const answer = await answerCommand({ chat: b.chat, logger: silent }, { text, channel, user }, async (body) => void responses.push(body.text));
    await answer.follow?.();
    return { ack: answer.ack.text, responses };
  }

  /** Words that promise a diagnosis: none may reach a refused person. */
  const PROMISE = /Diagnosing|Checking|diagnosing it|will be posted|thread/;

  it.each([
    {
      name: 'a namespace the channel may not see (an SRE in the shop channel asks for payments)',
      text: 'payments/api-1',
      channel: 'C0SHOP',
      user: 'U0SARA',
      why: /Not allowed: diagnose payments\/api-1\. This channel may not diagnose prod-eu\/payments \(access policy\)\. Ask .*in channel C0PLATFORM\./,
    },
    {
      name: 'a channel the policy does not list',
      text: 'shop/web-1',
      channel: 'C0RANDOM',
      user: 'U0SARA',
      why: /not set up for pod-doctor \(access policy\)\. Ask a member of user group S0SHOPDEV or user group S0SRE, in channel C0SHOP or channel C0PLATFORM/,
    },
    {
      name: 'a node from a channel scoped to namespaces (a node is cluster-wide)',
      text: 'node/worker-1',
      channel: 'C0SHOP',
      user: 'U0SARA',
      why: /This channel may not diagnose cluster prod-eu/,
    },
  ])('refuses $name in the acknowledgement itself, queueing nothing', async (c) => {
    const out = await command(c.text, c.channel, c.user);
    expect(out.ack).toMatch(c.why);
    expect(out.ack).toMatch(/Nothing was queued\./);
    expect(out.ack).not.toMatch(PROMISE);
    expect(out.responses).toEqual([]);
    expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
    expect(b.adapter.posts).toEqual([]);
    // Even called past the acknowledgement (another edge, a crafted call), the flow refuses it.
    const err = await startDiagnosis(b.chat, { channel: c.channel, user: c.user, target: parseTarget(c.text) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AccessRefused);
    expect(b.adapter.toldTo(c.user)).toEqual([expect.stringMatching(c.why)]);
    expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
  });

  it('refuses someone in no permitted user group once the groups are looked up: the acknowledgement is the refusal, nothing promised before or after', async () => {
    // Cold cache: the groups are looked up before anything is said.
    const first = await command('web-1', 'C0SHOP', 'U0MALLORY');
    expect(first.ack).toMatch(
      /You are in none of the user groups that may use pod-doctor \(access policy\)\. Ask a member of user group S0SHOPDEV or user group S0SRE/,
    );
    expect(first.ack).not.toMatch(PROMISE);
    expect(first.responses).toEqual([]);
    expect(b.lookups.sort()).toEqual(['S0SHOPDEV', 'S0SRE']);
    // Warm cache: the same refusal, with no lookup.
    const second = await command('shop/web-1', 'C0SHOP', 'U0MALLORY');
    expect(second.ack).toMatch(/You are in none of the user groups/);
    expect(second.ack).not.toMatch(PROMISE);
    expect(b.lookups).toHaveLength(2);
    expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
    // Nothing anywhere else either: no thread, no note, no private reply.
    expect(b.adapter.posts).toEqual([]);
    // The console and the demo (startDiagnosis) tell the refusal only.
    const refused = await startDiagnosis(b.chat, { channel: 'C0SHOP', user: 'U0MALLORY', target: pod('shop', 'web-1') }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AccessRefused);
    expect(b.adapter.toldTo('U0MALLORY')).toEqual([expect.stringMatching(/You are in none of the user groups/)]);
    expect(b.adapter.toldTo('U0MALLORY').join('\n')).not.toMatch(PROMISE);
    expect(b.adapter.posts.filter((p) => p.kind !== 'ephemeral')).toEqual([]);
  });

  it('refuses a user whose groups may not see the namespace, in a channel that may', async () => {
    const out = await command('payments/api-1', 'C0PLATFORM', 'U0ALICE');
    expect(out.ack).toMatch(/None of your user groups may diagnose prod-eu\/payments \(access policy\)\. Ask a member of user group S0SRE\b/);
    expect(out.ack).not.toMatch(PROMISE);
    expect(out.responses).toEqual([]);
    expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
  });

  it('queues what the policy allows: the bare pod in the channel default namespace of the policy, not the older map', async () => {
    const out = await command('web-1', 'C0SHOP', 'U0ALICE');
    expect(out.ack).toMatch(/Diagnosing shop\/web-1… the findings will be posted in a thread here/);
    const sre = await command('payments/api-1', 'C0PLATFORM', 'U0SARA');
    expect(sre.ack).toMatch(/Diagnosing payments\/api-1/);
    const jobs = await b.queues.diagnose('prod-eu').getJobs(['waiting']);
    expect(jobs.map((j) => j.data.target).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual([
      pod('payments', 'api-1'),
      pod('shop', 'web-1'),
    ]);
    // A channel without a policy default keeps the older map's (none here for C0PLATFORM).
    expect((await command('web-1', 'C0PLATFORM', 'U0SARA')).ack).toMatch(/no default namespace/);
  });

  describe('the Re-run button', () => {
    async function shopThread(): Promise<string> {
      await deliver(b.chat, result('job-shop', { user: 'U0ALICE', channel: 'C0SHOP' }, pod('shop', 'web-1')));
      const actions = b.adapter.of('thread').flatMap((p) => p.message.parts.filter((x) => x.kind === 'actions'));
      const button = actions.flatMap((a) => (a.kind === 'actions' ? a.buttons : [])).find((x) => x.action === 'rerun');
      expect(button).toBeDefined();
      return button!.value;
    }

    it('refuses a click from another channel than its thread, even by someone who may diagnose there', async () => {
      const threadId = await shopThread();
      const before = b.adapter.posts.length;
      await rerun(b.chat, threadId, 'U0SARA', 'C0PLATFORM');
      expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
      expect(b.adapter.posts.slice(before)).toEqual([
        expect.objectContaining({
          kind: 'ephemeral',
          user: 'U0SARA',
          channel: 'C0PLATFORM',
          message: expect.objectContaining({ text: expect.stringMatching(/another channel's thread/) }),
        }),
      ]);
    });

    it("refuses someone the thread's channel policy does not let in, privately, in the thread", async () => {
      const threadId = await shopThread();
      const before = b.adapter.posts.length;
      await rerun(b.chat, threadId, 'U0MALLORY', 'C0SHOP');
      expect(await b.counts()).toEqual({ diagnose: 0, remediate: 0 });
      const after = b.adapter.posts.slice(before);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ kind: 'ephemeral', user: 'U0MALLORY', channel: 'C0SHOP' });
      expect(after[0]!.message.text).toMatch(/Not allowed: diagnose shop\/web-1\. You are in none of the user groups/);
    });

    it('re-runs for someone allowed, in the thread it was clicked in', async () => {
      const threadId = await shopThread();
      await rerun(b.chat, threadId, 'U0DAN', 'C0SHOP');
      expect(await b.counts()).toEqual({ diagnose: 1, remediate: 0 });
      expect(b.adapter.toldTo('U0DAN')).toEqual([]);
    });
  });

  describe('the Not a problem button: the people who may diagnose the target, nobody else', () => {
    async function markButton(): Promise<string> {
      const restart = plan({ kind: 'pod', namespace: 'shop', name: 'web-1' }, 'restart-pod');
      b.plans.set(restart.id, restart);
      await deliver(b.chat, result('job-shop', { user: 'U0ALICE', channel: 'C0SHOP' }, pod('shop', 'web-1'), [restart]));
      const button = b.adapter
        .of('thread')
        .flatMap((p) => p.message.parts.flatMap((x) => (x.kind === 'actions' ? x.buttons : [])))
        .find((x) => x.action === 'not-a-problem');
      expect(button).toBeDefined();
      return button!.value;
    }
    const marks = () => redis.keys(`${keyPattern(b.chat.prefix).replace(/\*$/, '')}*:marks:*`);

    it("refuses someone the thread's channel policy does not let in: nothing recorded, told privately", async () => {
      const id = await markButton();
      const before = b.adapter.posts.length;
      await notAProblem(b.chat, id, 'U0MALLORY', 'C0SHOP');
      const after = b.adapter.posts.slice(before);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ kind: 'ephemeral', user: 'U0MALLORY', channel: 'C0SHOP' });
      expect(after[0]!.message.text).toMatch(/Not allowed: diagnose shop\/web-1\. You are in none of the user groups.*Nothing was recorded/);
      expect(await marks()).toEqual([]);
    });

    it('marks it for someone allowed, and says so in the thread', async () => {
      const id = await markButton();
      await notAProblem(b.chat, id, 'U0DAN', 'C0SHOP');
      expect(await marks()).toHaveLength(1);
      expect(b.adapter.of('thread').at(-1)!.message.text).toMatch(/@U0DAN|U0DAN/);
    });
  });
});
