// The whole chain of issue 8: the real Alertmanager (Debian's prometheus-alertmanager, installed
// by .ci/run) sends its webhook with the bearer token to `pod-doctor bot`, which queues the
// alerts, diagnoses the pods against the simulated cluster, and opens one thread per alert group
// on the fake Slack Web API; resolving the alerts in Alertmanager updates the thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from '../alerts/real-alertmanager.js';
import { TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { crashedPod, node } from '../helpers/factories.js';
import { type FakeSlack, messageText } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, startSlackSim } from '../helpers/slack-sim.js';

const CHANNEL = 'C0ONCALL';
const POD = 'api-7d9f8c6b5-x2k4q';

describe.skipIf(!HAVE_ALERTMANAGER)('real Alertmanager → pod-doctor bot → Slack thread', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let prefix: string;
  let bot: TestBot | undefined;
  let am: RealAlertmanager | undefined;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('am-slack');
    // Real timestamps: Alertmanager and the bot run on the wall clock.
    rig = await startSlackSim([
      node({ metadata: { name: 'node-1' } }),
      crashedPod({ exitCode: 137, reason: 'OOMKilled' }, { metadata: { name: POD, creationTimestamp: new Date(Date.now() - 3600_000).toISOString() } }),
    ] as KubeObject[]);
    slack = rig.slack;
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: 'test-signing-secret-0123456789',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      KUBECONFIG: rig.kubeconfig,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CLUSTER: 'am',
      ALERTMANAGER_TOKEN: TOKEN,
      POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
      LOG_LEVEL: 'silent',
    };
    bot = await startTestBot(env);

    // Alertmanager configured like deploy/alertmanager/alertmanager.yml, pointed at the bot.
    am = await startRealAlertmanager({ dir: rig.dir, webhookUrl: `${bot.url}/alertmanager`, token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('opens a thread with the findings, then marks it resolved', { timeout: 90_000 }, async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = (endsAt?: string) => [
      {
        labels: {
          alertname: 'KubePodCrashLooping',
          namespace: 'shop',
          pod: POD,
          container: 'web',
          reason: 'CrashLoopBackOff',
          severity: 'warning',
          job: 'kube-state-metrics',
        },
        annotations: { summary: 'Pod is crash looping.' },
        startsAt,
        ...(endsAt ? { endsAt } : {}),
      },
    ];
    const post = (body: unknown) => am!.postAlerts(body);
    expect((await post(alert())).status).toBe(200);

    const root = await slack
      .waitFor(() => slack.roots(CHANNEL)[0], 45_000)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${am?.log().slice(-2000) ?? ''}`);
      });
    const findings = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => messageText(m).includes('crash.oomkilled')), 30_000);
    expect(messageText(findings)).toContain(`shop/${POD}`);
    expect(slack.roots(CHANNEL)).toHaveLength(1);

    // Resolved in Alertmanager: its next notification (send_resolved) updates the same thread.
    expect((await post(alert(new Date().toISOString()))).status).toBe(200);
    await slack.waitFor(() => /Resolved/.test(slack.message(CHANNEL, root.ts)!.text), 45_000);
    // The resolve is on the parent and in the thread's one alerts note (edited in place).
    await slack.waitFor(() => slack.thread(CHANNEL, root.ts).some((m) => /Resolved: 1 alert/.test(messageText(m))), 30_000);
    expect(slack.roots(CHANNEL)).toHaveLength(1);
    expect(slack.rejected).toEqual([]);
  });
});
