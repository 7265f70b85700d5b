// Redis loses its data under a running split deployment (bot --no-worker + worker): a restart
// without persistence, or a FLUSHALL. The stream consumer groups vanish with it; the bot must
// notice (/readyz), recreate them, and post what comes next: an alert thread and a slash
// command's findings. A private redis-server on a free loopback port, so FLUSHALL touches no
// other test.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { loadScenarios, shiftTimes } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { startSplitDeployment, type TestBot, testBotEnv } from '../helpers/bot.js';
import { NOW } from '../helpers/factories.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody, startFakeSlack } from '../helpers/fake-slack.js';
import { eventually, freePort } from '../helpers/jobs.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0ALERTS';

describe('a split deployment after Redis lost its data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-redis-loss-'));
  let server: ChildProcess | undefined;
  let redis: RedisClient | undefined;
  let slack: FakeSlack;
  let sim: Sim;
  let bot: TestBot | undefined;
  let split: Awaited<ReturnType<typeof startSplitDeployment>> | undefined;
  const target = { namespace: 'search', name: 'search-api-6b5d8-h2k4j' };

  beforeAll(async () => {
    const port = await freePort();
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    redis = redisFromUrl(`redis://127.0.0.1:${port}`, {}, { role: 'producer' });
    redis.on('error', () => undefined);
    await eventually(async () => (await redis!.ping().catch(() => '')) === 'PONG', 10_000);
    const [scenario] = (await loadScenarios(join(import.meta.dirname, '../fixtures/incidents'))).filter((s) => s.slug === 'crash-liveness-probe');
    sim = await startSim({ objects: shiftTimes(scenario!.objects, Date.now() - Date.parse(NOW)) });
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
    slack = await startFakeSlack();
    const env = testBotEnv(
      { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: join(dir, 'kubeconfig'), cluster: 'loss' },
      { REDIS_URL: `redis://127.0.0.1:${port}`, ALERTMANAGER_TOKEN: TOKEN, POD_DOCTOR_ALERT_CHANNEL: CHANNEL },
    );
    split = await startSplitDeployment(env);
    bot = split.bot;
  }, 60_000);

  afterAll(async () => {
    await split?.stop();
    redis?.disconnect();
    server?.kill('SIGKILL');
    await slack?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("recreates the stream groups, says so in /readyz meanwhile, then posts an alert thread and a command's findings", { timeout: 90_000 }, async () => {
    const ready = async () => (await fetch(`${bot!.url}/readyz`)).status;
    await eventually(async () => (await ready()) === 200, 20_000);

    await redis!.flushall();
    // Until a consumer reads again, /readyz names the stream that cannot be read (or is already fine again).
    const afterFlush = await fetch(`${bot!.url}/readyz`).then((r) => r.text());
    expect(afterFlush).toMatch(/results stream: /);
    await eventually(async () => (await ready()) === 200, 20_000);

    const alert = podAlert(target.namespace, target.name, { alertname: 'KubePodCrashLooping' });
    expect(
      (await post(`${bot!.url}/alertmanager`, JSON.stringify(payload([alert])), { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }))
        .status,
    ).toBe(200);
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => /KubePodCrashLooping/.test(m.text)), 30_000);
    await slack.waitFor(() => slack.thread(CHANNEL, root.ts).some((m) => /crash\.probe-failing/.test(messageText(m))), 30_000);

    const res = await postSigned(bot!.url, slashCommandBody({ text: `${target.namespace}/${target.name}`, channel: 'C0OPS' }), SECRET);
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.messages.filter((m) => m.channel === 'C0OPS').some((m) => /crash\.probe-failing/.test(messageText(m))), 30_000);
  });
});
