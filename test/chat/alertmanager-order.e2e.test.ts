// Issue 34 end to end: the real Alertmanager (Debian's prometheus-alertmanager) sends several
// groups routed to one channel; the bot posts into a fake Slack that enforces Slack's documented
// limits. Within the channel's budget the findings come first: the first finding is posted before
// any group's alert list, each group's list follows its own findings, and nothing is answered 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from '../alerts/real-alertmanager.js';
import { TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { crashedPod, node } from '../helpers/factories.js';
import { type FakeMessage, type FakeSlack, messageText } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, startSlackSim } from '../helpers/slack-sim.js';

const CHANNEL = 'C0ONCALL';
const GROUPS = 5;
const pods = Array.from({ length: GROUPS }, (_, i) => `api-${i}-7d9f8c6b5-x2k4q`);

describe.skipIf(!HAVE_ALERTMANAGER)('real Alertmanager, several groups in one channel', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let prefix: string;
  let bot: TestBot | undefined;
  let am: RealAlertmanager | undefined;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('am-order');
    const created = new Date(Date.now() - 3600_000).toISOString();
    rig = await startSlackSim(
      [
        node({ metadata: { name: 'node-1' } }),
        ...pods.map((name) => crashedPod({ exitCode: 137, reason: 'OOMKilled' }, { metadata: { name, creationTimestamp: created } })),
      ] as KubeObject[],
      { enforceLimits: true },
    );
    slack = rig.slack;
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: slack.apiUrl, secret: 'test-signing-secret-0123456789', kubeconfig: rig.kubeconfig, cluster: 'am' },
        {
          POD_DOCTOR_REDIS_PREFIX: prefix,
          ALERTMANAGER_TOKEN: TOKEN,
          POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
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

  it('posts the first finding before any group’s alert list, each list after its own findings, no 429', { timeout: 120_000 }, async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    // One alert name per pod: Alertmanager groups by alertname and namespace, so five groups.
    const alerts = pods.map((pod, i) => ({
      labels: { alertname: `KubePodCrashLooping${i}`, namespace: 'shop', pod, container: 'web', reason: 'CrashLoopBackOff', severity: 'warning' },
      annotations: { summary: 'Pod is crash looping.' },
      startsAt,
    }));
    expect((await am!.postAlerts(alerts)).status).toBe(200);

    const isFinding = (m: FakeMessage) => messageText(m).includes('First diagnosis of this root cause in the group');
    const inChannel = () => slack.messages.filter((m) => m.channel === CHANNEL);
    await slack
      .waitFor(() => inChannel().filter((m) => m.thread_ts && isFinding(m)).length >= GROUPS && slack.roots(CHANNEL).length >= GROUPS, 90_000)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${am?.log().slice(-2000) ?? ''}`);
      });
    // The alert lists follow (each after its group's findings).
    await slack.waitFor(() => slack.roots(CHANNEL).every((r) => slack.thread(CHANNEL, r.ts).some((m) => !isFinding(m))), 30_000);

    const posts = inChannel();
    const firstFinding = posts.findIndex((m) => m.thread_ts && isFinding(m));
    const notes = posts.map((m, i) => ({ m, i })).filter(({ m }) => m.thread_ts && !isFinding(m) && !/approv/i.test(messageText(m)));
    expect(notes.length).toBeGreaterThanOrEqual(GROUPS);
    for (const { i } of notes) expect(i).toBeGreaterThan(firstFinding);
    // Each group's list after its own findings.
    for (const root of slack.roots(CHANNEL)) {
      const thread = slack.thread(CHANNEL, root.ts);
      const f = thread.findIndex(isFinding);
      const n = thread.findIndex((m) => !isFinding(m) && !/approv/i.test(messageText(m)));
      expect(f, messageText(root)).toBeGreaterThanOrEqual(0);
      expect(n, messageText(root)).toBeGreaterThan(f);
    }
    expect(slack.throttled).toEqual([]);
    expect(slack.rejected).toEqual([]);
  });
});
