// Alertmanager → the bot's webhook → diagnoses → one Slack thread per alert group: a storm of
// pod alerts behind one root cause is one thread, one set of findings and one compact pod
// list; resolving the alerts updates the thread. Fake Slack Web API, simulated cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStormCluster } from '../../bench/storm-cluster.js';
import { shiftTimes } from '../../src/sim/scenarios.js';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { NOW } from '../helpers/factories.js';
import { type FakeSlack, messageText } from '../helpers/fake-slack.js';
import { HOSTILE, liveControls } from '../helpers/injection.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, startSlackSim } from '../helpers/slack-sim.js';

const CHANNEL = 'C0ALERTS';

describe('Alertmanager groups in Slack', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let prefix: string;
  let botUrl = '';
  let bot: TestBot | undefined;
  const redis = connect();
  const cluster = buildStormCluster({ total: 100, broken: 80, nodes: 3 });
  const lost = cluster.broken.filter((b) => b.cause === 'lost-node').slice(0, 15);

  beforeAll(async () => {
    prefix = testPrefix('chat-alerts');
    // Slack's per-method limits enforced: the storm must fit them (0 x 429).
    rig = await startSlackSim(shiftTimes(cluster.objects, Date.now() - Date.parse(NOW)), { enforceLimits: true });
    slack = rig.slack;
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: 'test-signing-secret-0123456789',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      KUBECONFIG: rig.kubeconfig,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CLUSTER: 'alerts',
      ALERTMANAGER_TOKEN: TOKEN,
      POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
      LOG_LEVEL: 'silent',
    };
    bot = await startTestBot(env);
    botUrl = bot.url;
  });

  afterAll(async () => {
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('posts a storm as one thread with one set of findings per root cause, and follows the group to resolved', { timeout: 60_000 }, async () => {
    expect(lost.length).toBe(15);
    const alerts = lost.map((b) => podAlert(b.target.namespace, b.target.name, { alertname: 'KubePodNotReady' }));
    const fired = await post(`${botUrl}/alertmanager`, JSON.stringify(payload(alerts)), {
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(fired.status).toBe(200);

    const root = await slack.waitFor(() => slack.roots(CHANNEL)[0]);
    // The parent opens with the group's real alerts, never "alerts: 0 firing".
    const opened = slack.message(CHANNEL, root.ts)!.history[0] ?? slack.message(CHANNEL, root.ts)!;
    expect(opened.text).toMatch(/^\[alerts\] KubePodNotReady/);
    expect(opened.text).not.toMatch(/0 firing/);
    // Every pod diagnosed and grouped under the one cause on the parent message.
    await slack.waitFor(
      () => /15 pods: shop\/lost-node-\d+, shop\/lost-node-\d+, shop\/lost-node-\d+ and 12 more/.test(messageText(slack.message(CHANNEL, root.ts)!)),
      30_000,
    );
    const parent = slack.message(CHANNEL, root.ts)!;
    expect(parent.text).toMatch(/^\[alerts\] KubePodNotReady \(15\): 15 firing/);
    expect(messageText(parent)).toMatch(/Root cause/);
    expect(slack.roots(CHANNEL)).toHaveLength(1);

    const thread = slack.thread(CHANNEL, root.ts);
    const findings = thread.filter((m) => /Diagnosis of /.test(messageText(m)));
    expect(findings).toHaveLength(1);
    expect(messageText(findings[0]!)).toContain('terminating.node-lost');
    expect(thread.some((m) => /15 alerts firing: KubePodNotReady shop\/lost-node-/.test(m.text))).toBe(true);

    // The same notification again (an HA replica): nothing new in the thread.
    const before = slack.messages.length;
    await post(`${botUrl}/alertmanager`, JSON.stringify(payload(alerts)), { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` });
    await new Promise((r) => setTimeout(r, 500));
    expect(slack.messages.length).toBe(before);

    const resolved = alerts.map((a) => ({ ...a, status: 'resolved' as const, endsAt: new Date().toISOString() }));
    expect(
      (await post(`${botUrl}/alertmanager`, JSON.stringify(payload(resolved)), { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }))
        .status,
    ).toBe(200);
    await slack.waitFor(() => /^\[alerts\] Resolved: KubePodNotReady/.test(slack.message(CHANNEL, root.ts)!.text));
    // The resolve is on the parent and in the one alerts note (edited in place), not new messages:
    // the group costs its findings and one note.
    await slack.waitFor(() => slack.thread(CHANNEL, root.ts).some((m) => /Resolved: 15 alerts/.test(messageText(m))));
    const others = slack.thread(CHANNEL, root.ts).filter((m) => !/Diagnosis of /.test(messageText(m)) && m.ts !== root.ts);
    expect(others.filter((m) => !/approve|Approve/.test(messageText(m)))).toHaveLength(1);
    expect(slack.rejected).toEqual([]);
    // Within Slack's limits: no 429, and the parent coalesced its many changes (15 diagnoses,
    // several group events) into a few updates, at most one per 3 s.
    expect(slack.throttled).toEqual([]);
    const rootUpdates = slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === root.ts).map((c) => c.at);
    const spanS = (rootUpdates.at(-1)! - rootUpdates[0]!) / 1000;
    expect(rootUpdates.length).toBeLessThanOrEqual(Math.floor(spanS / 3) + 2);
  });

  it('never turns alert text into a live mention, broadcast or link (receiver, labels, annotations)', { timeout: 60_000 }, async () => {
    const target = cluster.broken.find((b) => b.cause !== 'lost-node')!.target;
    const alert = podAlert(target.namespace, target.name, {
      alertname: 'KubePodCrashLooping',
      labels: { team: '<!channel>', owner: '<@U0EVIL1>' },
      annotations: { summary: `Paging ${HOSTILE.join(' ')}`, description: '<!here> <https://evil.example|runbook>' },
    });
    const body = payload([alert], {
      receiver: 'pod-doctor <!everyone>',
      groupKey: '{}:{alertname="KubePodCrashLooping", team="<!channel>"}',
      groupLabels: { team: '<!channel>' },
    });
    expect((await post(`${botUrl}/alertmanager`, JSON.stringify(body), { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` })).status).toBe(
      200,
    );
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => /KubePodCrashLooping/.test(m.text)));
    await slack.waitFor(() => slack.thread(CHANNEL, root.ts).some((m) => /Paging/.test(m.text)), 30_000);
    const posted = slack.messages.filter((m) => m.ts === root.ts || m.thread_ts === root.ts);
    expect(JSON.stringify(posted)).toContain('&lt;!channel&gt;');
    expect(posted.flatMap((m) => liveControls({ text: m.text, blocks: m.blocks, history: m.history }))).toEqual([]);
  });
});
