// The Write-up of an Alertmanager group's thread, end to end through the bot's webhook intake (what
// Alertmanager calls) and the fake Slack: two alerts about a pod kept Terminating by a finalizer
// open one group thread, the fix is approved there and verified, the alerts resolve, and the
// Write-up names the alerts (fired and resolved), the finding, the approver and every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { scopeOfThread } from '../../src/chat/flows/writeup.js';
import { gatherStory } from '../../src/report/story.js';
import { timelineOf } from '../../src/report/writeup.js';
import { payload, podAlert, postJson, TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0ALERTS';
const NS = 'reports';
const POD = 'report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('Write-up of an alert group thread (webhook intake → thread → approved fix → resolved)', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot | undefined;
  const prefix = testPrefix('writeup-am');
  const redis = connect();

  beforeAll(async () => {
    rig = await startSlackSim(await scenarioNow(SCENARIO), { groups: { S0SRE: ['U0BOB'] }, users: { U0BOB: 'Bob Ferreira' } });
    slack = rig.slack;
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'am' },
        {
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_APPROVERS: 'S0SRE',
          ALERTMANAGER_TOKEN: TOKEN,
          POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
          POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
          POD_DOCTOR_CHAT_BURST: '100',
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

  const click = (actionId: string, value: string, user: string, m: FakeMessage) =>
    postSigned(
      bot!.url,
      blockActionBody({ actionId, value, user, channel: m.channel, messageTs: m.ts, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) }),
      SECRET,
    );
  const threadText = (root: FakeMessage) => slack.thread(CHANNEL, root.ts).map(messageText).join('\n');

  it('names both alerts, the finding, the approver, each step, the verification and the resolution', { timeout: 60_000 }, async () => {
    const startsAt = new Date(Date.now() - 120_000).toISOString();
    const alerts = (status: 'firing' | 'resolved') =>
      ['KubePodNotReady', 'KubePodStuckTerminating'].map((alertname) =>
        podAlert(NS, POD, { alertname, status, startsAt, ...(status === 'resolved' ? { endsAt: new Date().toISOString() } : {}) }),
      );
    expect((await postJson(`${bot!.url}/alertmanager`, payload(alerts('firing')))).status).toBe(200);
    const root = await slack.waitFor(() => slack.roots(CHANNEL)[0], 30_000);
    const prompt = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve)), 30_000);
    const planId = buttonsOf(prompt).find((b) => b.action_id === ACTION_IDS.approve)!.value;
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(planId))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));
    await click(ACTION_IDS.approve, planId, 'U0BOB', prompt);
    await slack.waitFor(() => /Fixed by remove-finalizers: verified/.test(threadText(root)), 30_000);

    expect((await postJson(`${bot!.url}/alertmanager`, payload(alerts('resolved')))).status).toBe(200);
    await slack.waitFor(() => /Resolved/.test(slack.message(CHANNEL, root.ts)!.text), 30_000);

    const withButton = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.writeup)));
    const writeup = buttonsOf(withButton).find((b) => b.action_id === ACTION_IDS.writeup)!;
    await click(ACTION_IDS.writeup, writeup.value, 'U0BOB', withButton);
    const file = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts));

    const thread = (await bot!.chat.threads.get(writeup.value))!;
    expect(thread.state.kind).toBe('alert-group');
    const story = await gatherStory(redis, prefix, scopeOfThread(thread, Date.now()));
    const timeline = timelineOf(story, { names: { U0BOB: 'Bob Ferreira' } });
    const kinds = timeline.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'alert-fired')).toHaveLength(2);
    expect(kinds).toContain('alert-resolved');
    for (const k of ['finding', 'approval', 'run', 'step', 'verification'] as const) expect(kinds, k).toContain(k);
    for (const e of timeline) expect(file.content).toContain(e.text);
    expect(file.content).toMatch(/approved by Bob Ferreira \(@U0BOB\); handed to the runner/);
    expect(file.content).toMatch(/Alert KubePodNotReady fired/);
    expect(file.content).toMatch(/Alert KubePodStuckTerminating resolved/);
    expect(file.content).toMatch(/- Alerts: 2 — /);
    expect(slack.rejected).toEqual([]);
  });
});
