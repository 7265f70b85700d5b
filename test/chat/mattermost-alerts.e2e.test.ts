// An Alertmanager group's thread on Mattermost, end to end: the real Alertmanager (Debian's
// prometheus-alertmanager) notifies `pod-doctor bot` (serving Mattermost only), the group's thread
// opens in the alert channel of the fake Mattermost with its note and buttons, and a click on
// Silence 1h (Mattermost posting the button's signed context) silences the group in that same
// Alertmanager, its comment linking the thread by its Mattermost permalink.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertmanagerSilences } from '../../src/alerts/silences.js';
import { HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from '../alerts/real-alertmanager.js';
import { TOKEN } from '../helpers/alerts.js';
import { mattermostBotEnv, startTestBot, type TestBot } from '../helpers/bot.js';
import { actionsOf, type FakeMattermost, type FakePost, mattermostId, shownText, startFakeMattermost } from '../helpers/fake-mattermost.js';
import { cleanup, connect, eventually, freePort, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, startSlackSim } from '../helpers/slack-sim.js';

const ALERTS = mattermostId();
const ALICE = mattermostId();
const ALERTNAME = 'KubePodCrashLooping';

describe.skipIf(!HAVE_ALERTMANAGER)('an alert group thread and its Silence button on Mattermost (real Alertmanager)', () => {
  let dir: string;
  let rig: SlackSim | undefined;
  let mm: FakeMattermost;
  let am: RealAlertmanager | undefined;
  let bot: TestBot | undefined;
  const prefix = testPrefix('mm-alerts');
  const redis = connect();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pd-mm-alerts-'));
    rig = await startSlackSim([]);
    mm = await startFakeMattermost({ users: { [ALICE]: 'alice' } });
    const port = await freePort();
    am = await startRealAlertmanager({ dir, webhookUrl: `http://127.0.0.1:${port}/alertmanager`, token: TOKEN });
    bot = await startTestBot(
      mattermostBotEnv(
        { url: mm.url, token: mm.token, commandTokens: 'mm-command-token-0123456789', port, kubeconfig: rig.kubeconfig, cluster: 'c1', prefix },
        { ALERTMANAGER_TOKEN: TOKEN, POD_DOCTOR_ALERTMANAGER_URL: am.url, POD_DOCTOR_ALERT_CHANNEL: ALERTS },
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
    await bot?.stop();
    await mm?.close();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens the group thread in the alert channel; Silence 1h silences the group, linked to the thread', { timeout: 90_000 }, async () => {
    const res = await am!.postAlerts([
      {
        labels: { alertname: ALERTNAME, namespace: 'shop', pod: 'web-1', container: 'web', severity: 'warning', job: 'kube-state-metrics' },
        annotations: { summary: 'web-1 is crash looping @channel' },
        startsAt: new Date(Date.now() - 60_000).toISOString(),
      },
    ]);
    expect(res.status).toBe(200);
    const root = await mm
      .waitFor(() => mm.roots(ALERTS).find((p) => shownText(p).includes('namespace="shop"')), 30_000)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${am?.log().slice(-2000) ?? ''}`);
      });
    const note = await mm.waitFor(() => mm.thread(root.id).find((p) => actionsOf(p).some((a) => a.name === 'Silence 1h')), 30_000);
    expect(actionsOf(note).map((a) => a.name)).toEqual(['Silence 1h', 'Silence 4h', 'Silence 24h', 'Mute 4h', 'Write-up']);
    // The alert's own text mentions nobody.
    for (const p of mm.posts) expect(p.message).not.toMatch(/@channel\b/);

    await mm.click(note, 'Silence 1h', ALICE);
    const said = (re: RegExp) => mm.waitFor(() => mm.thread(root.id).find((p: FakePost) => re.test(shownText(p))), 30_000);
    const silenced = await said(/silenced this group in Alertmanager for 1h/);
    expect(shownText(silenced)).toContain('@alice silenced this group');
    const client = new AlertmanagerSilences({ url: am!.url, timeoutMs: 5000 });
    const ours = (await client.list()).filter((s) => s.comment.includes('pod-doctor'));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.matchers.map((m) => [m.name, m.value])).toEqual([
      ['alertname', ALERTNAME],
      ['namespace', 'shop'],
    ]);
    expect(ours[0]!.comment).toContain(`${mm.url}/_redirect/pl/${root.id}`);
    // The note's buttons follow: Unsilence instead of the three silences.
    await eventually(async () => actionsOf(mm.post(note.id)!)[0]?.name === 'Unsilence', 10_000);
  });
});
