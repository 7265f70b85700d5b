// Tenancy through the real Slack edge: `pod-doctor bot` reads its access policy from the config
// file, signed slash commands and button clicks come in as Slack sends them, user groups resolve
// through the fake Web API, and the simulated cluster holds a pod kept Terminating by a
// finalizer. Every hostile or careless attempt is answered privately and leaves the queues and
// the approval as they were; then the people the policy names diagnose and approve.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const REPORTS = 'C0REPORTS';
const PLATFORM = 'C0PLATFORM';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

// The reports team's channel and group see `reports` only; the platform channel and the SREs see
// everything; any fix in `reports` needs two of the reports leads (remove-finalizers is medium risk).
const CONFIG = `
approvers: [S0SRE]
policy:
  channels:
    ${REPORTS}: { namespaces: [reports], defaultNamespace: reports }
    ${PLATFORM}: {}
  usergroups:
    S0REPORTS: { namespaces: [reports] }
    S0SRE: {}
  approvals:
    - namespaces: [reports]
      approvers: [S0REPORTLEADS]
      twoPersonRisks: [medium, high]
`;

describe('tenancy through the Slack edge (signed requests, the bot configured from its file)', () => {
  let slack: FakeSlack;
  let rig: SlackSim | undefined;
  let prefix: string;
  let bot: TestBot | undefined;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('tenancy-e2e');
    rig = await startSlackSim(await scenarioNow(SCENARIO), {
      groups: { S0REPORTS: ['U0ALICE', 'U0BOB'], S0SRE: ['U0SARA'], S0REPORTLEADS: ['U0ALICE', 'U0LEAD1', 'U0LEAD2'] },
    });
    slack = rig.slack;
    writeFileSync(join(rig.dir, 'pod-doctor.yaml'), CONFIG);
    const env = testBotEnv(
      { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'e2e' },
      {
        POD_DOCTOR_CONFIG: join(rig.dir, 'pod-doctor.yaml'),
        POD_DOCTOR_REDIS_PREFIX: prefix,
        POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
        POD_DOCTOR_CHAT_BURST: '100',
        // Short, so the test can outlive it: members are never trusted past it.
        POD_DOCTOR_USERGROUP_CACHE_SECONDS: '1',
      },
    );
    bot = await startTestBot(env);
  });

  afterAll(async () => {
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const counts = async () => {
    const q = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    try {
      const sum = async (queue: { getJobCounts(...t: string[]): Promise<Record<string, number>> }) =>
        Object.values(await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')).reduce((a, b) => a + b, 0);
      return { diagnose: await sum(q.diagnose('e2e')), remediate: await sum(q.remediate('e2e')) };
    } finally {
      await q.close();
    }
  };
  const command = async (text: string, channel: string, user: string, responseId = 'none') => {
    const res = await postSigned(bot!.url, slashCommandBody({ text, channel, user, responseUrl: `${slack.url}/respond/${responseId}` }), SECRET);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { response_type: string; text: string; blocks: never };
    expect(body.response_type).toBe('ephemeral');
    return messageText(body);
  };
  /** A click on `m`'s button, as if made in `channel` (Slack names the channel the click came from). */
  const click = (actionId: string, value: string, user: string, m: FakeMessage, channel = m.channel) =>
    postSigned(bot!.url, blockActionBody({ actionId, value, user, channel, messageTs: m.ts, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) }), SECRET);
  /** The next private reply to `user` after `seen` of them. */
  const toldNext = async (user: string, seen: number) => {
    const mine = await slack.waitFor(() => {
      const all = slack.ephemerals.filter((e) => e.user === user);
      return all.length > seen && all;
    });
    return messageText(mine[seen]!);
  };
  const told = (user: string) => slack.ephemerals.filter((e) => e.user === user).length;

  it('refuses every attempt outside the policy privately, changing nothing; the people it names diagnose and approve', { timeout: 60_000 }, async () => {
    // From a channel the policy does not list, and a namespace the reports channel may not see: the acknowledgement refuses.
    expect(await command(POD, 'C0RANDOM', 'U0SARA')).toMatch(/Not allowed: diagnose reports\/report-6f7d8-xk2lq\. This channel is not set up for pod-doctor/);
    expect(await command('kube-system/coredns-1', REPORTS, 'U0ALICE')).toMatch(/This channel may not diagnose e2e\/kube-system .*Ask .*in channel C0PLATFORM/);
    // Someone in no permitted user group: refused in the acknowledgement, once the groups are looked up.
    expect(await command('report-6f7d8-xk2lq', REPORTS, 'U0MALLORY', 'mallory')).toMatch(
      /Not allowed: diagnose reports\/report-6f7d8-xk2lq\. You are in none of the user groups that may use pod-doctor/,
    );
    expect(slack.responses.filter((r) => r.id === 'mallory')).toEqual([]);
    expect(await counts()).toEqual({ diagnose: 0, remediate: 0 });
    expect(slack.messages).toEqual([]);

    // Alice (reports team) asks with a bare pod name: the policy's default namespace.
    expect(await command('report-6f7d8-xk2lq', REPORTS, 'U0ALICE')).toMatch(/Diagnosing reports\/report-6f7d8-xk2lq/);
    const root = await slack.waitFor(() => slack.roots(REPORTS).find((m) => m.text.includes(POD)));
    const findings = await slack.waitFor(() => slack.thread(REPORTS, root.ts).find((m) => messageText(m).includes('terminating.finalizers')));
    const prompt = await slack.waitFor(() => slack.thread(REPORTS, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve)));
    expect(messageText(prompt)).toMatch(/may approve: user group S0REPORTLEADS/);
    expect(messageText(prompt)).toMatch(/2 different people/);
    const planId = buttonsOf(prompt).find((b) => b.action_id === ACTION_IDS.approve)!.value;
    const rerunId = buttonsOf(findings).find((b) => b.action_id === ACTION_IDS.rerun)!.value;
    const after = await counts();
    expect(after).toEqual({ diagnose: 1, remediate: 0 });

    // Re-run from another channel (by an SRE who may diagnose there), and by someone without access.
    let n = told('U0SARA');
    await click(ACTION_IDS.rerun, rerunId, 'U0SARA', findings, PLATFORM);
    expect(await toldNext('U0SARA', n)).toMatch(/This Re-run button belongs to another channel's thread/);
    n = told('U0MALLORY');
    await click(ACTION_IDS.rerun, rerunId, 'U0MALLORY', findings);
    expect(await toldNext('U0MALLORY', n)).toMatch(/Not allowed: diagnose reports\/report-6f7d8-xk2lq\. You are in none of the user groups/);

    // Approvals: a global approver who is not a reports lead; the requester under the two-person
    // rule; a rightful lead clicking from another channel.
    n = told('U0SARA');
    await click(ACTION_IDS.approve, planId, 'U0SARA', prompt);
    expect(await toldNext('U0SARA', n)).toMatch(/in e2e\/reports the access policy lets only user group S0REPORTLEADS decide on remove-finalizers/);
    n = told('U0ALICE');
    await click(ACTION_IDS.approve, planId, 'U0ALICE', prompt);
    expect(await toldNext('U0ALICE', n)).toMatch(/two people other than the requester/);
    n = told('U0LEAD1');
    await click(ACTION_IDS.approve, planId, 'U0LEAD1', prompt, PLATFORM);
    expect(await toldNext('U0LEAD1', n)).toMatch(/This Approve button belongs to another channel's thread/);
    expect(await counts()).toEqual(after);
    expect(await bot!.chat.approvals.get(planId)).toMatchObject({ status: 'pending', approvals: [], required: 2 });
    // Refusals are private: the channel's messages never carry their reasons.
    expect(slack.messages.map(messageText).join('\n')).not.toMatch(/access policy|another channel's thread/);

    // Slack stops answering user group lookups (ok: false) past the cache's TTL: a lead's
    // approval and a reports dev's command both rest on groups, so both are refused privately and
    // told to retry; nothing is recorded or queued, and the failures are counted.
    await new Promise((r) => setTimeout(r, 1100));
    slack.refuseNext('usergroups.users.list', 1000, 'missing_scope');
    n = told('U0LEAD1');
    await click(ACTION_IDS.approve, planId, 'U0LEAD1', prompt);
    expect(await toldNext('U0LEAD1', n)).toMatch(
      /Can't check that you may approve .*lookup of user group S0REPORTLEADS just now.*Nothing was recorded\. Try again/,
    );
    const unverified = await command('report-6f7d8-xk2lq', REPORTS, 'U0ALICE');
    expect(unverified).toMatch(/Can't check that you may diagnose reports\/report-6f7d8-xk2lq: Slack did not answer/);
    expect(unverified).not.toMatch(/Diagnosing|thread/);
    expect(await counts()).toEqual(after);
    expect(await bot!.chat.approvals.get(planId)).toMatchObject({ status: 'pending', approvals: [] });
    const scraped = await (await fetch(`${bot!.metricsUrl}/metrics`)).text();
    expect(scraped).toMatch(/pod_doctor_usergroup_lookup_failures_total\{failure="platform"\} [1-9]/);
    slack.refuseNext('usergroups.users.list', 0, 'missing_scope');

    // Two different leads, in the thread's channel: it runs once.
    await click(ACTION_IDS.approve, planId, 'U0LEAD1', prompt);
    await slack.waitFor(() => /<@U0LEAD1> approved remove-finalizers \(1\/2\)/.test(slack.thread(REPORTS, root.ts).map(messageText).join('\n')));
    expect((await counts()).remediate).toBe(0);
    await click(ACTION_IDS.approve, planId, 'U0LEAD2', prompt);
    for (let i = 0; i < 100 && (await counts()).remediate === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await counts()).remediate).toBe(1);
    expect((await bot!.chat.approvals.get(planId))?.approvals.map((a) => a.user)).toEqual(['U0LEAD1', 'U0LEAD2']);
    expect(slack.rejected).toEqual([]);
  });
});
