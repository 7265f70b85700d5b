// Silence and mute from an alert group's thread, end to end: the real Alertmanager (Debian's
// prometheus-alertmanager, as in test/alerts/alertmanager.e2e.test.ts) notifies the webhook, the
// group's thread opens on the fake Slack Web API with its alerts note and buttons, and signed
// button clicks go through Bolt (src/chat/adapters/slack/app.ts) to flows/silences.ts, which
// silences the group in that same Alertmanager (API v2) and mutes the thread in Redis.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeAlertGroupEvents } from '../../src/alerts/group-events.js';
import { type AlertmanagerHandler, type AlertmanagerServer, createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import { AlertmanagerSilences, type Silence } from '../../src/alerts/silences.js';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { type SlackBot, startSlackBot } from '../../src/chat/adapters/slack/app.js';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import type { ChatContext } from '../../src/chat/context.js';
import { alertGroups } from '../../src/chat/flows/alerts.js';
import { groupAction } from '../../src/chat/flows/silences.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import type { RedisClient } from '../../src/redis/client.js';
import { keys } from '../../src/redis/keys.js';
import type { StreamConsumer } from '../../src/redis/streams.js';
import { HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from '../alerts/real-alertmanager.js';
import { TOKEN } from '../helpers/alerts.js';
import { testChat, testFinding } from '../helpers/chat.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, eventually, sleep, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const CHANNEL = 'C0ALERTS';
const SECRET = 'test-signing-secret-0123456789';
const ALERTNAME = 'KubePodCrashLooping';

describe.skipIf(!HAVE_ALERTMANAGER)('Silence and Mute from an alert group thread (real Alertmanager, Slack buttons)', () => {
  let dir: string;
  let prefix: string;
  let redis: RedisClient;
  let events: RedisClient;
  let queues: JobQueues;
  let slack: FakeSlack;
  let handler: AlertmanagerHandler;
  let server: AlertmanagerServer;
  let am: RealAlertmanager | undefined;
  let client: AlertmanagerSilences;
  let chat: ChatContext;
  let reader: StreamConsumer;
  let bot: SlackBot;
  let botServer: HttpServer | undefined;
  let botUrl = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pd-silences-'));
    prefix = testPrefix('silences');
    redis = connect();
    events = connect();
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    slack = await startFakeSlack();
    handler = createAlertmanagerHandler({ queues, cluster: 'c1', token: TOKEN, logger: silent, defaultChannel: CHANNEL });
    server = await startAlertmanagerServer({ handler });
    am = await startRealAlertmanager({ dir, webhookUrl: `${server.url}/alertmanager`, token: TOKEN });
    client = new AlertmanagerSilences({ url: am.url, timeoutMs: 5000 });
    const adapter = new SlackAdapter({ client: new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }), logger: silent });
    chat = testChat({ adapter, redis, queues }, { silences: client });
    reader = consumeAlertGroupEvents({
      redis: events,
      prefix,
      cluster: 'c1',
      group: 'chat',
      consumer: 'test',
      logger: silent,
      handler: (e, id) => alertGroups(chat).event(e, id),
    });
    bot = await startSlackBot({
      mode: 'http',
      botToken: 'xoxb-test',
      signingSecret: SECRET,
      slackApiUrl: slack.apiUrl,
      chat,
      logger: silent,
    });
    botServer = createHttpServer({ logger: silent });
    botServer.mount(...bot.routes);
    botUrl = `http://127.0.0.1:${await botServer.listen(0, '127.0.0.1')}`;
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
    await bot?.stop();
    await botServer?.close();
    await reader?.stop();
    await server?.close();
    await handler?.close();
    await queues?.close();
    await slack?.close();
    if (redis) {
      await cleanup(redis, prefix);
      redis.disconnect();
    }
    events?.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fire = async (namespace: string, pod: string) => {
    const res = await am!.postAlerts([
      {
        labels: { alertname: ALERTNAME, namespace, pod, container: 'web', severity: 'warning', job: 'kube-state-metrics' },
        annotations: { summary: `${pod} is crash looping` },
        startsAt: new Date(Date.now() - 60_000).toISOString(),
      },
    ]);
    expect(res.status, await res.text()).toBe(200);
  };
  /** The group's thread: its parent names the group's labels (Alertmanager groups by alertname and namespace). */
  const rootOf = (namespace: string) =>
    slack
      .waitFor(() => slack.roots(CHANNEL).find((m) => messageText(m).includes(`namespace="${namespace}"`)), 30_000)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${am?.log().slice(-2000) ?? ''}`);
      });
  const noteOf = (root: FakeMessage) =>
    slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.mute)));
  const current = (m: FakeMessage) => slack.message(m.channel, m.ts)!;
  const actionIds = (m: FakeMessage) => buttonsOf(current(m)).map((b) => b.action_id);
  const said = (root: FakeMessage, re: RegExp) => slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => re.test(messageText(m))));
  const click = async (actionId: string, value: string, user: string, message: FakeMessage, channel = CHANNEL) => {
    const body = blockActionBody({ actionId, value, user, channel, messageTs: message.ts, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}) });
    expect((await postSigned(botUrl, body, SECRET)).status).toBe(200);
  };
  const ours = async (): Promise<Silence[]> => (await client.list()).filter((s) => s.comment.includes('pod-doctor'));
  /** A silence click holds the thread's lock until its note is redrawn: a click meanwhile is told to wait (tested below). */
  const settled = (threadId: string) => eventually(async () => (await redis.exists(keys.chat(prefix, 'alert-silence-lock', threadId))) === 0, 10_000);
  const noteLines = async (threadId: string): Promise<string> => (await redis.get(keys.chat(prefix, 'alert-note', threadId))) ?? '';

  it('Silence 1h silences the group in Alertmanager (its matchers, the clicker, a link to the thread); Unsilence expires it; the thread says both', {
    timeout: 90_000,
  }, async () => {
    await fire('shop', 'web-1');
    const root = await rootOf('shop');
    const note = await noteOf(root);
    expect(buttonsOf(note).map((b) => b.text)).toEqual(['Silence 1h', 'Silence 4h', 'Silence 24h', 'Mute 4h', 'Write-up']);
    const threadId = buttonsOf(note)[0]!.value;

    const clickedAt = Date.now();
    await click(ACTION_IDS['silence-1h'], threadId, 'U0ALICE', note);
    const silencedNote = await said(root, /silenced this group in Alertmanager for 1h/);
    const [silence, ...others] = await ours();
    expect(others).toEqual([]);
    expect(silence).toBeDefined();
    const s = silence!;
    expect(s.status.state).toBe('active');
    expect(s.matchers).toEqual([
      { name: 'alertname', value: ALERTNAME, isRegex: false, isEqual: true },
      { name: 'namespace', value: 'shop', isRegex: false, isEqual: true },
    ]);
    // blockActionBody's username is the id in lower case.
    expect(s.createdBy).toBe('u0alice (U0ALICE)');
    // The fake Web API has no chat.getPermalink: the comment names the thread by channel and ts.
    expect(s.comment).toBe(`Silenced for 1h from pod-doctor (cluster c1) by u0alice (U0ALICE): Slack channel ${CHANNEL}, thread ${root.ts}`);
    expect(Math.abs(Date.parse(s.endsAt) - (clickedAt + 3_600_000))).toBeLessThan(30_000);
    expect(messageText(silencedNote)).toContain('<@U0ALICE> silenced this group');
    expect(messageText(silencedNote)).toContain(`(silence ${s.id})`);
    expect(messageText(silencedNote)).toContain(`until ${new Date(Date.parse(s.endsAt)).toISOString().slice(11, 19)} UTC`);
    // Alertmanager itself now holds the group's alert back with that silence.
    await eventually(async () => {
      const alerts = (await (await fetch(`${am!.url}/api/v2/alerts?filter=${encodeURIComponent('namespace="shop"')}`)).json()) as {
        status: { state: string; silencedBy: string[] };
      }[];
      return alerts.length === 1 && alerts[0]!.status.state === 'suppressed' && alerts[0]!.status.silencedBy.includes(s.id);
    }, 10_000);
    // The note's buttons follow: Unsilence instead of the three silences, and who silenced until when.
    await slack.waitFor(() => actionIds(note).join() === [ACTION_IDS.unsilence, ACTION_IDS.mute, ACTION_IDS.writeup].join());
    expect(messageText(current(note))).toMatch(/Silenced in Alertmanager by <@U0ALICE> until \d\d:\d\d:\d\d UTC/);

    await settled(threadId);
    await click(ACTION_IDS.unsilence, threadId, 'U0BOB', current(note));
    const unsilencedNote = await said(root, /expired silence/);
    expect(messageText(unsilencedNote)).toContain(`<@U0BOB> expired silence ${s.id} (set by <@U0ALICE>`);
    expect((await client.get(s.id))?.status.state).toBe('expired');
    await slack.waitFor(() => actionIds(note)[0] === ACTION_IDS['silence-1h']);
    await settled(threadId);

    // Two people clicking at once make one silence; the other is told.
    await Promise.all([
      click(ACTION_IDS['silence-4h'], threadId, 'U0CAROL', current(note)),
      click(ACTION_IDS['silence-4h'], threadId, 'U0DAVE', current(note)),
    ]);
    await said(root, /silenced this group in Alertmanager for 4h/);
    await slack.waitFor(() => slack.ephemerals.find((e) => (e.user === 'U0CAROL' || e.user === 'U0DAVE') && /right now|Already silenced/.test(e.text)));
    const active = (await ours()).filter((x) => x.status.state === 'active');
    expect(active).toHaveLength(1);
    expect(Math.abs(Date.parse(active[0]!.endsAt) - Date.now() - 4 * 3_600_000)).toBeLessThan(30_000);
    await settled(threadId);
    await click(ACTION_IDS.unsilence, threadId, 'U0CAROL', current(note));
    await eventually(async () => (await client.get(active[0]!.id))?.status.state === 'expired', 10_000);
    expect(slack.rejected).toEqual([]);
  });

  it('refuses a click that does not come from the thread channel: nothing is silenced, the clicker and the thread are told', { timeout: 60_000 }, async () => {
    await fire('billing', 'api-1');
    const root = await rootOf('billing');
    const note = await noteOf(root);
    const threadId = buttonsOf(note)[0]!.value;
    const before = (await ours()).length;

    await click(ACTION_IDS['silence-24h'], threadId, 'U0MALLORY', note, 'C0OTHER');
    const told = await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0MALLORY'));
    expect(told.channel).toBe('C0OTHER');
    expect(told.text).toMatch(/Only people in the alert thread's channel may silence or mute it; nothing was changed/);
    const recorded = await said(root, /tried to silence this group from another channel/);
    expect(messageText(recorded)).toContain('<@U0MALLORY>');
    // Mute from elsewhere is refused the same way.
    await click(ACTION_IDS.mute, threadId, 'U0MALLORY', note, 'C0OTHER');
    await said(root, /tried to mute this group from another channel/);
    await sleep(300);
    expect(await ours()).toHaveLength(before);
    expect(await redis.exists(keys.chat(prefix, 'alert-mute', threadId))).toBe(0);
    expect(actionIds(note)).toEqual([ACTION_IDS['silence-1h'], ACTION_IDS['silence-4h'], ACTION_IDS['silence-24h'], ACTION_IDS.mute, ACTION_IDS.writeup]);
  });

  it('Mute keeps new notifications of the group out of the thread for its window and lets them through after', { timeout: 90_000 }, async () => {
    await fire('mute', 'web-1');
    const root = await rootOf('mute');
    const note = await noteOf(root);
    const threadId = buttonsOf(note)[0]!.value;

    // The button mutes for 4h (Redis TTL), and the thread says so.
    await click(ACTION_IDS.mute, threadId, 'U0ALICE', note);
    const muted = await said(root, /muted this thread until/);
    expect(messageText(muted)).toContain('<@U0ALICE> muted this thread');
    const ttl = await redis.pttl(keys.chat(prefix, 'alert-mute', threadId));
    expect(Math.abs(ttl - 4 * 3_600_000)).toBeLessThan(30_000);
    await slack.waitFor(() => actionIds(note).includes(ACTION_IDS.unmute));
    const posts = () => slack.thread(CHANNEL, root.ts).length;
    const postsMuted = posts();

    // A new alert of the same group: Alertmanager notifies, the event is handled, nothing reaches the thread.
    await fire('mute', 'web-2');
    await eventually(async () => (await noteLines(threadId)).includes('web-2'), 20_000);
    await sleep(300);
    expect(messageText(current(note))).not.toContain('web-2');
    expect(posts()).toBe(postsMuted);

    // Unmute: the note shows what it missed at once.
    await click(ACTION_IDS.unmute, threadId, 'U0BOB', current(note));
    await said(root, /<@U0BOB> unmuted this thread/);
    await slack.waitFor(() => messageText(current(note)).includes('web-2'));

    // A short window (the flow's option; long enough for Alertmanager to notify within it): held back while it lasts, through once it is over.
    const out = await groupAction(chat, { action: 'mute', value: threadId, user: 'U0ALICE', channel: CHANNEL }, { muteMs: 8000 });
    expect(out.kind).toBe('muted');
    await fire('mute', 'web-3');
    await eventually(async () => (await noteLines(threadId)).includes('web-3'), 20_000);
    await sleep(300);
    expect(messageText(current(note))).not.toContain('web-3');
    await eventually(async () => (await redis.exists(keys.chat(prefix, 'alert-mute', threadId))) === 0, 15_000);
    await fire('mute', 'web-4');
    await slack.waitFor(() => /web-3[\s\S]*web-4/.test(messageText(current(note))), 20_000);
    expect(actionIds(note)).toContain(ACTION_IDS.mute);
    expect(slack.rejected).toEqual([]);
  });

  it('Mute keeps new findings out of the thread; a diagnosis of that cause after the window posts them', { timeout: 60_000 }, async () => {
    await fire('findings', 'web-1');
    const root = await rootOf('findings');
    const note = await noteOf(root);
    const threadId = buttonsOf(note)[0]!.value;
    const thread = await chat.threads.get(threadId);
    if (thread?.state.kind !== 'alert-group') throw new Error('no alert group thread');
    const groupId = thread.state.groupId;
    const result = (jobId: string, pod: string): DiagnoseResult => {
      const target = { kind: 'pod' as const, namespace: 'findings', name: pod };
      const finding = testFinding({
        subject: `pod/findings/${pod}`,
        fingerprint: `image.auth|pod/findings/${pod}|image/ghcr.io/acme/private:auth`,
      });
      const now = new Date().toISOString();
      return {
        job: { v: 1, cluster: 'c1', target, reason: 'alert', requestedAt: now },
        jobId,
        status: 'diagnosed',
        diagnosis: { target, cluster: 'c1', findings: [finding], skipped: [], ruleErrors: [], at: now },
        requesters: [
          {
            kind: 'alert',
            groupKey: 'k',
            fingerprint: 'abc123',
            status: 'firing',
            startsAt: now,
            receiver: 'pod-doctor',
            channel: CHANNEL,
            groupId,
            alertname: ALERTNAME,
          },
        ],
      };
    };
    const findings = () => slack.thread(CHANNEL, root.ts).filter((m) => /Diagnosis of /.test(messageText(m)));

    expect((await groupAction(chat, { action: 'mute', value: threadId, user: 'U0ALICE', channel: CHANNEL }, { muteMs: 2000 })).kind).toBe('muted');
    await alertGroups(chat).result(result('job-1', 'web-1'));
    // The parent counts the cause; the thread gets no findings.
    await slack.waitFor(() => /Root cause/.test(messageText(current(root))));
    expect(findings()).toEqual([]);
    await eventually(async () => (await redis.exists(keys.chat(prefix, 'alert-mute', threadId))) === 0, 10_000);
    await alertGroups(chat).result(result('job-2', 'web-2'));
    await slack.waitFor(() => findings().length === 1);
    expect(messageText(findings()[0]!)).toContain('image.auth');
  });
});
