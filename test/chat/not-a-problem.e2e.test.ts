// The Not a problem button end to end: `pod-doctor bot` against the fake Slack Web API and the
// simulated cluster (a pod kept Terminating by a finalizer). Pressing it on a finding records a mark
// for the pod and the rule (audited: who, when, until), says so in the thread, and the re-run's
// answer leaves the finding out and says who marked it until when. A press from another channel,
// or a forged value, records nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { marksFor } from '../../src/jobs/not-a-problem.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { cli } from '../helpers/cli.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0INCIDENT';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NOT_A_PROBLEM = /^pd_notaproblem(_\d+)?$/;

describe('Not a problem: a finding marked in its thread stays quiet next time', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot | undefined;
  const prefix = testPrefix('nap-e2e');
  const redis = connect();

  beforeAll(async () => {
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    slack = rig.slack;
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'e2e' },
        {
          REDIS_URL,
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_NOT_A_PROBLEM_DAYS: '14',
          POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
          POD_DOCTOR_CHAT_BURST: '100',
          LOG_LEVEL: process.env.NAP_LOG ?? 'silent',
        },
      ),
    );
  });

  afterAll(async () => {
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const click = (actionId: string, value: string, user: string, m: FakeMessage, channel = m.channel) =>
    postSigned(bot!.url, blockActionBody({ actionId, value, user, channel, messageTs: m.ts, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) }), SECRET);

  it('press → mark in the thread and the audit trail → the re-run hides the finding and says why', { timeout: 60_000 }, async () => {
    await postSigned(bot!.url, slashCommandBody({ text: POD, channel: CHANNEL, user: 'U0ALICE' }), SECRET);
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => m.text.includes(POD)));
    const findings = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => NOT_A_PROBLEM.test(b.action_id))));
    const rule = /\[([a-z0-9-]+\.[a-z0-9.-]+)\]/.exec(messageText(findings))?.[1];
    expect(rule).toBeTruthy();
    const button = buttonsOf(findings).find((b) => NOT_A_PROBLEM.test(b.action_id))!;
    expect(button.value).toMatch(/^mk[0-9a-f]{24}$/);

    // From another channel, or with a value that is not one of ours: nothing is recorded.
    await click(button.action_id, button.value, 'U0EVE', findings, 'C0OTHER');
    expect(messageText(await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0EVE')))).toMatch(/another channel's thread; nothing was recorded/);
    await click(ACTION_IDS['not-a-problem'], 'mk000000000000000000000000', 'U0MALLORY', findings);
    expect(messageText(await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0MALLORY')))).toMatch(/too old to mark/);
    expect(await marksFor(redis, prefix, 'e2e', 'reports/Pod report-6f7d8-xk2lq', Date.now())).toEqual([]);

    const pressed = Date.now();
    await click(button.action_id, button.value, 'U0BOB', findings);
    const note = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => /marked .* not a problem/.test(messageText(m))));
    const until = new Date(pressed + 14 * 86_400_000).toISOString().slice(0, 10);
    expect(messageText(note)).toContain(`<@U0BOB> marked ${rule} (`);
    expect(messageText(note)).toContain(`not a problem for reports/Pod report-6f7d8-xk2lq until ${until}`);
    const marks = await marksFor(redis, prefix, 'e2e', 'reports/Pod report-6f7d8-xk2lq', Date.now());
    expect(marks).toMatchObject([{ rule, user: 'U0BOB' }]);

    // The audit export has who, when, what and until when.
    const exported = await cli(['audit', 'export', '--since', '1h'], { REDIS_URL, POD_DOCTOR_REDIS_PREFIX: prefix, POD_DOCTOR_CLUSTER: 'e2e' });
    expect(exported.code).toBe(0);
    const entries = exported.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const entry = entries.find((e) => e.kind === 'mark');
    expect(entry).toMatchObject({
      kind: 'mark',
      outcome: 'not-a-problem',
      planId: button.value,
      playbook: rule,
      actors: ['U0BOB'],
      target: { kind: 'pod', namespace: 'reports', name: 'report-6f7d8-xk2lq' },
      reason: `on reports/Pod report-6f7d8-xk2lq until ${marks[0]!.until}`,
    });
    expect(Math.abs(Date.parse(String(entry!.at)) - pressed)).toBeLessThan(30_000);

    // Re-run: the finding is left out, and the answer says who marked it until when.
    const rerun = buttonsOf(findings).find((b) => b.action_id === ACTION_IDS.rerun)!;
    await click(ACTION_IDS.rerun, rerun.value, 'U0ALICE', findings);
    const again = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => m.ts !== findings.ts && /Not shown:/.test(messageText(m))), 30_000);
    expect(messageText(again)).toContain(`Not shown: ${rule} on reports/Pod report-6f7d8-xk2lq (marked not a problem by <@U0BOB> until ${until})`);
    expect(messageText(again)).not.toContain(`[${rule}]`);

    // The thread's Write-up tells the mark in its timeline: who, what, where, until when.
    const writeup = buttonsOf(findings).find((b) => b.action_id === ACTION_IDS.writeup)!;
    await click(ACTION_IDS.writeup, writeup.value, 'U0ALICE', findings);
    const file = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts));
    expect(file.content).toContain(`${rule} marked not a problem by @U0BOB on reports/Pod report-6f7d8-xk2lq until ${marks[0]!.until}`);
    expect(slack.rejected).toEqual([]);
  });
});
