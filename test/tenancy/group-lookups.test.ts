// User groups that Slack does not resolve: the lookup (usergroups.users.list through the real
// Slack adapter, against the fake Web API) answers ok: false, a 5xx after the client's retries,
// or 429 after ours. Nobody whose right depends on such a group may approve or diagnose until it
// resolves: members are trusted for the cache's TTL and never past it, so a lead removed from a
// group cannot ride on a stale list while Slack is down. The person is told privately why and to
// try again; the failure is logged and counted. Then Slack answers and the policy decides.
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { answerCommand } from '../../src/chat/adapters/slack/commands.js';
import { createSlackWebClient } from '../../src/chat/adapters/slack/web-client.js';
import { approve } from '../../src/chat/flows/decisions.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import { type ChatMetrics, createChatMetrics } from '../../src/chat/metrics.js';
import { createLogger } from '../../src/log.js';
import type { Plan } from '../../src/remediation/plan.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { connect } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type Bench, openBench, plan, result } from './harness.js';
import { GLOBAL_APPROVERS, GROUPS, POLICY } from './policy.js';

const METHOD = 'usergroups.users.list';
const TTL_MS = 60_000;

/** Each way a lookup fails, set up on the fake Slack for `calls` calls (then it answers again). */
const FAILURES = [
  { failure: 'platform', name: 'ok: false (missing_scope)', breakFor: (s: FakeSlack, calls: number) => s.refuseNext(METHOD, calls, 'missing_scope') },
  { failure: 'http', name: 'HTTP 503 after the retries', breakFor: (s: FakeSlack, calls: number) => s.fail(METHOD, calls, 503) },
  { failure: 'rate-limited', name: '429 after the retry', breakFor: (s: FakeSlack, calls: number) => s.rateLimit(METHOD, calls, 1) },
] as const;

/** What a broken lookup must not leave behind on the fake: more failures once the test repaired it. */
const repair = (s: FakeSlack) => {
  s.refuseNext(METHOD, 0, 'missing_scope');
  s.fail(METHOD, 0);
  s.rateLimit(METHOD, 0, 1);
};

describe('tenancy: user group lookups that fail (fail closed)', () => {
  const redis = connect();
  let slack: FakeSlack;
  /** The fake Slack's groups: tests remove people from them. */
  let groups: Record<string, string[]>;
  let b: Bench;
  let clock: number;
  let metrics: ChatMetrics;
  let logs: { msg: string; failure?: string; groupId?: string; unresolved?: string[] }[];
  /** restart-pod on shop/web-1: two shop leads (S0SHOPLEADS). payments: its lead (S0PAYLEADS). */
  let restart: Plan;
  let payments: Plan;

  beforeAll(async () => {
    groups = {};
    slack = await startFakeSlack({ groups });
  });
  afterAll(async () => {
    await slack.close();
    redis.disconnect();
  });

  beforeEach(async () => {
    for (const k of Object.keys(groups)) delete groups[k];
    Object.assign(groups, structuredClone(GROUPS));
    repair(slack);
    clock = Date.now();
    logs = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    metrics = createChatMetrics(new Registry());
    const adapter = new SlackAdapter({ client: createSlackWebClient('xoxb-test', { slackApiUrl: slack.apiUrl, logger: silent }), logger: silent });
    b = openBench(redis, {
      policy: POLICY,
      groups: {},
      approvers: GLOBAL_APPROVERS,
      lookup: {
        resolveGroup: (g) => adapter.groupMembers(g),
        now: () => clock,
        logger: createLogger({ level: 'warn', destination: sink }),
        metrics,
      },
      metrics,
    });
    const web = { kind: 'pod' as const, namespace: 'shop', name: 'web-1' };
    const api = { kind: 'pod' as const, namespace: 'payments', name: 'api-1' };
    restart = plan(web, 'restart-pod');
    payments = plan(api, 'restart-pod');
    for (const p of [restart, payments]) b.plans.set(p.id, p);
    await deliver(b.chat, result('job-shop', { user: 'U0ALICE', channel: 'C0SHOP' }, web, [restart]));
    await deliver(b.chat, result('job-pay', { user: 'U0SARA', channel: 'C0PLATFORM' }, api, [payments]));
  });
  afterEach(async () => {
    repair(slack);
    await b.close();
  });

  /** A slash command as the Slack edge answers it: the acknowledgement's text, and anything said after it. */
  async function command(text: string, channel: string, user: string) {
    const later: string[] = [];
    const answer = await answerCommand({ chat: b.chat, logger: silent }, { text, channel, user }, async (body) => void later.push(body.text));
    await answer.follow?.();
    return { ack: answer.ack.text, later };
  }

  const failuresCounted = async () => Object.fromEntries((await metrics.groupLookupFailures.get()).values.map((v) => [String(v.labels.failure), v.value]));
  const counted = async (name: 'commands' | 'decisions', label: string) =>
    (await metrics[name].get()).values.find((v) => Object.values(v.labels).includes(label))?.value ?? 0;

  describe.each(FAILURES)('when the lookup fails with $name', ({ failure, breakFor }) => {
    it('refuses an approver whose right rests on the group, privately, recording nothing; once Slack answers, the approval counts', async () => {
      breakFor(slack, 1000);
      await approve(b.chat, payments.id, 'U0PAYLEAD', 'C0PLATFORM');
      expect(b.adapter.toldTo('U0PAYLEAD')).toEqual([
        expect.stringMatching(
          /^\[prod-eu\] Can't check that you may approve Run restart-pod \(payments\/api-1\): Slack did not answer the lookup of user group S0PAYLEADS just now, .*Nothing was recorded\. Try again in a moment/,
        ),
      ]);
      // Nothing in the thread says he is not an approver: he may well be.
      expect(b.adapter.publicIn('C0PLATFORM').join('\n')).not.toMatch(/U0PAYLEAD/);
      const record = await b.chat.approvals.get(payments.id);
      expect(record).toMatchObject({ status: 'pending', approvals: [] });
      expect((await b.counts()).remediate).toBe(0);
      expect(await failuresCounted()).toEqual({ [failure]: 1 });
      expect(await counted('decisions', 'unverified')).toBe(1);
      expect(logs).toContainEqual(expect.objectContaining({ groupId: 'S0PAYLEADS', failure, msg: expect.stringMatching(/user group lookup failed/) }));

      repair(slack);
      await approve(b.chat, payments.id, 'U0PAYLEAD', 'C0PLATFORM');
      expect((await b.chat.approvals.get(payments.id))?.status).toBe('approved');
      expect((await b.counts()).remediate).toBe(1);
    });

    it('refuses a command whose access rests on the groups in its acknowledgement, queueing nothing and promising nothing; once Slack answers, it is queued', async () => {
      breakFor(slack, 1000);
      const before = b.adapter.posts.length;
      const out = await command('web-1', 'C0SHOP', 'U0ALICE');
      expect(out.ack).toMatch(
        /^\[prod-eu\] Can't check that you may diagnose shop\/web-1: Slack did not answer the lookup of user group S0SHOPDEV and user group S0SRE just now, .*Nothing was queued\. Try again in a moment/,
      );
      expect(out.ack).not.toMatch(/Diagnosing|Checking|thread/);
      expect(out.later).toEqual([]);
      expect(b.adapter.posts.slice(before)).toEqual([]);
      expect((await b.counts()).diagnose).toBe(0);
      expect(await failuresCounted()).toEqual({ [failure]: 2 });
      expect(await counted('commands', 'unverified')).toBe(1);

      repair(slack);
      expect((await command('web-1', 'C0SHOP', 'U0ALICE')).ack).toMatch(/Diagnosing shop\/web-1/);
      expect((await b.counts()).diagnose).toBe(1);
    });
  });

  it('does not let a lead removed from the approver group approve on the stale list once its TTL is over, whatever Slack does', async () => {
    // The list is looked up (someone else's refused click) while he is still a lead.
    await approve(b.chat, payments.id, 'U0SARA', 'C0PLATFORM');
    expect(b.adapter.toldTo('U0SARA')).toEqual([expect.stringMatching(/only user group S0PAYLEADS decide/)]);
    groups.S0PAYLEADS = ['U0NEWLEAD'];
    // Past the TTL, with Slack failing: not the old list, a retry.
    clock += TTL_MS;
    slack.fail(METHOD, 1000, 500);
    await approve(b.chat, payments.id, 'U0PAYLEAD', 'C0PLATFORM');
    expect(b.adapter.toldTo('U0PAYLEAD')).toEqual([expect.stringMatching(/Can't check that you may approve .*user group S0PAYLEADS/)]);
    // Slack answers: the removal counts.
    repair(slack);
    await approve(b.chat, payments.id, 'U0PAYLEAD', 'C0PLATFORM');
    expect(b.adapter.toldTo('U0PAYLEAD').at(-1)).toMatch(/You may not approve .*lets only user group S0PAYLEADS decide/);
    expect(await b.chat.approvals.get(payments.id)).toMatchObject({ status: 'pending', approvals: [] });
    expect((await b.counts()).remediate).toBe(0);
  });

  it('does not let someone removed from the user groups diagnose on the stale list once its TTL is over, whatever Slack does', async () => {
    expect((await command('web-1', 'C0SHOP', 'U0DAN')).ack).toMatch(/Diagnosing shop\/web-1/);
    groups.S0SHOPDEV = ['U0ALICE'];
    clock += TTL_MS;
    slack.rateLimit(METHOD, 1000, 1);
    const failed = await command('web-2', 'C0SHOP', 'U0DAN');
    expect(failed.ack).toMatch(/Can't check that you may diagnose shop\/web-2: .*Nothing was queued\. Try again/);
    repair(slack);
    const refused = await command('web-2', 'C0SHOP', 'U0DAN');
    expect(refused.ack).toMatch(/Not allowed: diagnose shop\/web-2\. You are in none of the user groups that may use pod-doctor/);
    expect([...failed.later, ...refused.later]).toEqual([]);
    expect((await b.counts()).diagnose).toBe(1);
  });

  it('decides without a group that did not resolve when it does not matter: allowed through another group, refused even were one in it', async () => {
    // S0SHOPDEV is gone from Slack (ok: false, no_such_subteam); S0SRE resolves.
    delete groups.S0SHOPDEV;
    expect((await command('shop/web-1', 'C0PLATFORM', 'U0SARA')).ack).toMatch(/Diagnosing shop\/web-1/);
    // S0SHOPDEV sees shop* only: payments is refused whether or not she is in it.
    expect((await command('payments/api-1', 'C0PLATFORM', 'U0ALICE')).ack).toMatch(/None of your user groups may diagnose prod-eu\/payments/);
    // shop/web-1 for her rests on S0SHOPDEV alone.
    expect((await command('shop/web-1', 'C0PLATFORM', 'U0ALICE')).ack).toMatch(
      /Can't check that you may diagnose shop\/web-1: .*lookup of user group S0SHOPDEV just now/,
    );
    expect((await b.counts()).diagnose).toBe(1);
  });
});
