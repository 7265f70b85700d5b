// One bot, two clusters (issue 24): `pod-doctor bot --no-worker` with POD_DOCTOR_CLUSTERS=a,b, a
// worker per cluster with its own kubeconfig, each against its own simulated cluster. Both clusters
// have a pod shop/checkout-7b9c8d-2kq9z, broken differently: a missing ConfigMap in a, an image tag
// that does not exist in b, so the findings show which cluster answered.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { loadScenario, shiftTimes } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { payload, podAlert, postJson, TOKEN } from '../helpers/alerts.js';
import { startTestBot, startTestWorker, type TestBot, testBotEnv } from '../helpers/bot.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const SECRET = 'test-signing-secret-0123456789';
const POD = 'shop/checkout-7b9c8d-2kq9z';
/** Commands name the cluster here. */
const BOTH = 'C0BOTH';
/** A bare target here goes to b (the policy's defaultCluster). */
const DEFAULT_B = 'C0DEFB';
/** This channel may diagnose cluster a only. */
const ONLY_A = 'C0ONLYA';
const ALERTS = 'C0ALERTS';
const FIXTURES = new URL('../fixtures/incidents/', import.meta.url).pathname;

/** A scenario made live today; `rename` rewrites names everywhere in its objects (events included). */
async function liveObjects(slug: string, rename: Record<string, string> = {}): Promise<KubeObject[]> {
  const scenario = await loadScenario(join(FIXTURES, slug));
  let text = JSON.stringify(shiftTimes(scenario.objects, Date.now() - Date.parse(scenario.meta.now)));
  for (const [from, to] of Object.entries(rename)) text = text.replaceAll(from, to);
  return JSON.parse(text) as KubeObject[];
}

describe('one bot serving two clusters (a worker each, one Slack app)', () => {
  let slack: FakeSlack;
  const sims: Sim[] = [];
  const workers: { stop(): Promise<void> }[] = [];
  let bot: TestBot | undefined;
  let dir: string;
  let prefix: string;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('multi-cluster');
    slack = await startFakeSlack();
    dir = mkdtempSync(join(tmpdir(), 'pd-multi-cluster-'));
    const a = await startSim({ objects: await liveObjects('config-missing-configmap') });
    // The same namespace and pod name in b: prod/api-7d9f8c6b5-x2k4q becomes shop/checkout-7b9c8d-2kq9z.
    const b = await startSim({
      objects: await liveObjects('image-not-found-containerd', { '"prod"': '"shop"', 'api-7d9f8c6b5-x2k4q': 'checkout-7b9c8d-2kq9z' }),
    });
    sims.push(a, b);
    writeFileSync(join(dir, 'a.kubeconfig'), a.kubeconfig());
    writeFileSync(join(dir, 'b.kubeconfig'), b.kubeconfig());
    const policy = {
      channels: {
        [BOTH]: { clusters: ['a', 'b'], namespaces: ['*'] },
        [DEFAULT_B]: { clusters: ['a', 'b'], namespaces: ['*'], defaultCluster: 'b' },
        [ONLY_A]: { clusters: ['a'], namespaces: ['*'] },
      },
    };
    const shared = {
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
      POD_DOCTOR_CHAT_BURST: '100',
      POD_DOCTOR_THREAD_PLACEHOLDER_MS: '0',
    };
    const env = (cluster: string, extra: Record<string, string> = {}) =>
      testBotEnv({ slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: join(dir, `${cluster}.kubeconfig`), cluster }, { ...shared, ...extra });
    workers.push(startTestWorker(env('a')), startTestWorker(env('b')));
    bot = await startTestBot(
      env('a', {
        POD_DOCTOR_CLUSTERS: 'a,b',
        POD_DOCTOR_POLICY: JSON.stringify(policy),
        ALERTMANAGER_TOKEN: TOKEN,
        POD_DOCTOR_ALERT_CHANNEL: ALERTS,
        POD_DOCTOR_ALERT_LABELS: JSON.stringify({ cluster: ['cluster'] }),
      }),
      ['--no-worker'],
    );
  }, 30_000);

  afterAll(async () => {
    await bot?.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await slack?.close();
    await Promise.all(sims.map((s) => s.close()));
    await cleanup(redis, prefix);
    redis.disconnect();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const command = (channel: string, text: string) => postSigned(bot!.url, slashCommandBody({ text, channel }), SECRET);
  /** The channel's thread parent about the pod in `cluster` once it shows findings, with its thread's text. */
  const findings = async (channel: string, cluster: string) => {
    const root = await slack.waitFor(() => slack.roots(channel).find((m) => messageText(m).startsWith(`[${cluster}] ${POD}: ERROR`)), 20_000);
    return [root, ...slack.thread(channel, root.ts)].map(messageText).join('\n');
  };
  const queued = async () => {
    const q = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    try {
      const counts = await Promise.all(['a', 'b', 'zz'].map((c) => q.diagnose(c).getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed')));
      return counts.map((c) => Object.values(c).reduce((x, y) => x + y, 0));
    } finally {
      await q.close();
    }
  };

  it('diagnoses a:ns/pod and b:ns/pod each in its own cluster, and shows the findings of each', { timeout: 30_000 }, async () => {
    const [ra, rb] = [await command(BOTH, `a:${POD}`), await command(BOTH, `b:${POD}`)];
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body).toContain(`Diagnosing ${POD}`);
    const [a, b] = [await findings(BOTH, 'a'), await findings(BOTH, 'b')];
    expect(a).toContain('Missing ConfigMap checkout-config');
    expect(a).toContain(`Diagnosis of ${POD} (cluster a)`);
    expect(a).not.toContain('ghcr.io/acme/api:v9');
    expect(b).toContain('Image ghcr.io/acme/api:v9 does not exist');
    expect(b).toContain(`Diagnosis of ${POD} (cluster b)`);
    expect(b).not.toContain('checkout-config');
  });

  it("sends a bare ns/pod to the channel's default cluster (the access policy's defaultCluster)", { timeout: 30_000 }, async () => {
    const before = await queued();
    expect((await command(DEFAULT_B, POD)).status).toBe(200);
    const b = await findings(DEFAULT_B, 'b');
    expect(b).toContain('Image ghcr.io/acme/api:v9 does not exist');
    // Nothing went to a's queue; the roots here are all b's.
    expect((await queued())[0]).toBe(before[0]);
    expect(slack.roots(DEFAULT_B).map((m) => messageText(m).slice(0, 3))).toEqual(['[b]']);
  });

  it('refuses an unknown cluster privately, naming the served ones, and queues nothing', async () => {
    const before = await queued();
    const posts = slack.messages.length;
    const reply = await command(BOTH, `zz:${POD}`);
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('no cluster "zz"');
    expect(body.text).toContain('serves a, b');
    await new Promise((r) => setTimeout(r, 300));
    expect(await queued()).toEqual(before);
    expect(slack.messages.length).toBe(posts);
  });

  it('applies the access policy to the named cluster: a channel allowed only a is refused b:ns/pod', async () => {
    const before = await queued();
    const reply = await command(ONLY_A, `b:${POD}`);
    const body = JSON.parse(reply.body) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('Not allowed');
    expect(body.text).toContain('b/shop');
    await new Promise((r) => setTimeout(r, 300));
    expect(await queued()).toEqual(before);
    expect(slack.roots(ONLY_A)).toHaveLength(0);
  });

  it('diagnoses an Alertmanager alert in the cluster of its cluster label', { timeout: 30_000 }, async () => {
    const [ns, name] = POD.split('/') as [string, string];
    const alert = podAlert(ns, name, { labels: { cluster: 'b' } });
    const res = await postJson(`${bot!.url}/alertmanager`, payload([alert]));
    expect(res.status).toBe(200);
    const root = await slack.waitFor(() => {
      const found = slack.roots(ALERTS).find((m) => slack.thread(ALERTS, m.ts).some((r) => messageText(r).includes('ghcr.io/acme/api:v9')));
      return found ?? slack.roots(ALERTS).find((m) => messageText(m).includes('ghcr.io/acme/api:v9'));
    }, 20_000);
    const all = [root, ...slack.thread(ALERTS, root.ts)].map(messageText).join('\n');
    expect(all).toContain(`Diagnosis of ${POD} (cluster b)`);
    expect(all).not.toContain('checkout-config');
  });
});
