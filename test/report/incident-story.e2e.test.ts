// Issue 36's "Done when", end to end through the real Alertmanager (Debian's
// prometheus-alertmanager) and the fake Slack: an alert storm about a pod kept Terminating by a
// finalizer → one group thread → the fix approved there and verified → the alerts resolve →
// Write-up holds every timeline entry, naming the approver. Then the same cause comes back: the
// new thread says "2nd time in 7 days" and links the first thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { scopeOfThread } from '../../src/chat/flows/writeup.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { keyPattern } from '../../src/redis/keys.js';
import { gatherStory } from '../../src/report/story.js';
import { timelineOf } from '../../src/report/writeup.js';
import { HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from '../alerts/real-alertmanager.js';
import { TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0ALERTS';
const NS = 'reports';
const POD = 'report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;
/** The storm: one alert per scrape target, all about the one pod. */
const INSTANCES = ['10.244.1.12:8443', '10.244.2.7:8443', '10.244.3.4:8443', '10.244.4.9:8443'];

describe.skipIf(!HAVE_ALERTMANAGER)('the incident story: alert storm → thread → approved fix → resolved → Write-up; the cause again → linked', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot | undefined;
  let am: RealAlertmanager | undefined;
  let stuckPod: KubeObject;
  const prefix = testPrefix('story-e2e');
  const redis = connect();

  beforeAll(async () => {
    const objects = await scenarioNow(SCENARIO);
    stuckPod = objects.find((o) => o.kind === 'Pod' && o.metadata?.name === POD)!;
    rig = await startSlackSim(objects, { groups: { S0SRE: ['U0BOB'] }, users: { U0BOB: 'Bob Ferreira' } });
    slack = rig.slack;
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'story' },
        {
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_APPROVERS: 'S0SRE',
          ALERTMANAGER_TOKEN: TOKEN,
          POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
          POD_DOCTOR_DEDUP_WINDOW_SECONDS: '1',
          POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
          POD_DOCTOR_CHAT_BURST: '100',
        },
      ),
    );
    am = await startRealAlertmanager({ dir: rig.dir, webhookUrl: `${bot.url}/alertmanager`, token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
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
  const storm = (startsAt: string, endsAt?: string) =>
    INSTANCES.map((instance) => ({
      labels: { alertname: 'KubePodNotReady', namespace: NS, pod: POD, instance, severity: 'warning', job: 'kube-state-metrics' },
      annotations: { summary: 'Pod has been in a non-ready state for more than 15 minutes.' },
      startsAt,
      ...(endsAt ? { endsAt } : {}),
    }));
  const withLog = <T>(p: Promise<T>) =>
    p.catch((err: Error) => {
      throw new Error(`${err.message}\n${am?.log().slice(-2000) ?? ''}`);
    });

  it('writes up every timeline entry with the approver, and the second occurrence links the first thread', { timeout: 180_000 }, async () => {
    // 1. The storm: four alerts, one Alertmanager group, one thread.
    const firstStart = new Date(Date.now() - 120_000).toISOString();
    expect((await am!.postAlerts(storm(firstStart))).status).toBe(200);
    const first = await withLog(slack.waitFor(() => slack.roots(CHANNEL)[0], 45_000));
    // Alertmanager may split the storm over notifications (group_interval): the parent counts all four.
    await withLog(slack.waitFor(() => slack.message(CHANNEL, first.ts)!.text.includes(`${INSTANCES.length} firing`), 45_000));
    const prompt = await withLog(
      slack.waitFor(() => slack.thread(CHANNEL, first.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve)), 45_000),
    );

    // 2. The fix, approved by an approver in the thread, runs and is verified.
    const planId = buttonsOf(prompt).find((b) => b.action_id === ACTION_IDS.approve)!.value;
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(planId))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));
    await click(ACTION_IDS.approve, planId, 'U0BOB', prompt);
    await slack.waitFor(() => /Fixed by remove-finalizers: verified/.test(threadText(first)), 45_000);

    // 3. Resolved in Alertmanager: its send_resolved notification marks the thread.
    expect((await am!.postAlerts(storm(firstStart, new Date().toISOString()))).status).toBe(200);
    await withLog(slack.waitFor(() => /Resolved/.test(slack.message(CHANNEL, first.ts)!.text), 45_000));
    await withLog(
      slack.waitFor(() => slack.thread(CHANNEL, first.ts).some((m) => new RegExp(`Resolved: ${INSTANCES.length} alerts`).test(messageText(m))), 45_000),
    );

    // 4. Write-up: every entry of the thread's timeline is in the file, the approver by name.
    const withButton = await slack.waitFor(() => slack.thread(CHANNEL, first.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.writeup)));
    const writeup = buttonsOf(withButton).find((b) => b.action_id === ACTION_IDS.writeup)!;
    await click(ACTION_IDS.writeup, writeup.value, 'U0BOB', withButton);
    const file = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === first.ts), 30_000);
    const thread = (await bot!.chat.threads.get(writeup.value))!;
    expect(thread.state.kind).toBe('alert-group');
    const timeline = timelineOf(await gatherStory(redis, prefix, scopeOfThread(thread, Date.now())), { names: { U0BOB: 'Bob Ferreira' } });
    const kinds = timeline.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'alert-fired')).toHaveLength(INSTANCES.length);
    // Each alert's resolution, and the group's ("Every alert of the group resolved").
    expect(timeline.filter((e) => e.kind === 'alert-resolved' && e.text.startsWith('Alert '))).toHaveLength(INSTANCES.length);
    for (const k of ['finding', 'approval', 'run', 'step', 'verification'] as const) expect(kinds, k).toContain(k);
    for (const e of timeline) expect(file.content).toContain(e.text);
    expect(file.content).toMatch(/remove-finalizers \(plan pl_[\w-]+\) approved by Bob Ferreira \(@U0BOB\); handed to the runner/);
    expect(file.content).toMatch(/Ran \*\*remove-finalizers\*\* .* approved by Bob Ferreira \(@U0BOB\) at .* verified fixed/);

    // 5. The same cause again, later: the pod is stuck on its finalizer once more. Its storm
    //    grouping has lapsed (POD_DOCTOR_INCIDENT_TTL_SECONDS, at least a minute: dropped here).
    const incidents = await redis.keys(`${keyPattern(prefix).replace(/\*$/, '')}*:incident*`);
    if (incidents.length > 0) await redis.del(...incidents);
    const podDef = rig!.sim.store.table.forKind('v1', 'Pod')!;
    rig!.sim.store.load(podDef, { ...stuckPod, metadata: { ...stuckPod.metadata, resourceVersion: undefined, uid: undefined } });
    expect((await am!.postAlerts(storm(new Date().toISOString()))).status).toBe(200);
    const second = await withLog(slack.waitFor(() => slack.roots(CHANNEL).find((m) => m.ts !== first.ts), 60_000));
    const findings = await withLog(slack.waitFor(() => slack.thread(CHANNEL, second.ts).find((m) => /time in 7 days/.test(messageText(m))), 60_000));
    expect(messageText(findings)).toMatch(/2nd time in 7 days \(before: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC /);
    // The link is to the first thread (Slack's archive link of its parent).
    expect(messageText(findings)).toContain(`archives/${CHANNEL}/p${first.ts.replace('.', '')}`);
    expect(slack.rejected).toEqual([]);
  });
});
