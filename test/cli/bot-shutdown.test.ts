// `pod-doctor bot` (with its in-process worker thread) as its own process, stopped the way
// Kubernetes stops it: SIGTERM, then SIGKILL after terminationGracePeriodSeconds (30 s in
// deploy/base). Up, it stops cleanly and quickly; with Redis gone, every step that waits on Redis
// (stream reads, BullMQ's close, QUIT) is cut at its budget and the process exits by
// POD_DOCTOR_SHUTDOWN_SECONDS, /metrics answering until then.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios, shiftTimes } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { NOW } from '../helpers/factories.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { type PrivateRedis, type RoleProcess, sigterm, spawnRole, startPrivateRedis, timedGet } from '../helpers/roles.js';

const GRACE_MS = 30_000;
/** The watchdog in src/bin lets a finished command's process wind down for 1 s; scheduling slack on top. */
const EXIT_MARGIN_MS = 2000;

describe('pod-doctor bot on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-bot-stop-'));
  let sim: Sim;
  let slack: FakeSlack;
  let redis: PrivateRedis | undefined;
  let bot: RoleProcess | undefined;

  beforeAll(async () => {
    const [scenario] = (await loadScenarios(join(import.meta.dirname, '../fixtures/incidents'))).filter((s) => s.slug === 'crash-liveness-probe');
    sim = await startSim({ objects: shiftTimes(scenario!.objects, Date.now() - Date.parse(NOW)) });
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
    slack = await startFakeSlack();
  });

  afterEach(async () => {
    await bot?.kill();
    await redis?.kill();
  });

  afterAll(async () => {
    await slack?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A bot with its worker thread on a private Redis; resolves with its base URL once it serves. */
  const startBot = async (extra: Record<string, string> = {}) => {
    redis = await startPrivateRedis();
    bot = spawnRole(['bot'], {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: 'test-signing-secret-0123456789',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      KUBECONFIG: join(dir, 'kubeconfig'),
      REDIS_URL: redis.url,
      POD_DOCTOR_CLUSTER: 'stop',
      LOG_LEVEL: 'warn',
      ...extra,
    });
    // The bot's /metrics is on its metrics port (POD_DOCTOR_METRICS_PORT, 0 here), not Slack's.
    const [, port] = (await bot.line(/metrics on :(\d+)/)) as unknown as [string, string];
    return `http://127.0.0.1:${port}`;
  };

  it('with Redis up: stops cleanly, its worker thread included, well within the grace period', { timeout: 40_000 }, async () => {
    const url = await startBot();
    expect((await timedGet(`${url}/metrics`)).body).toMatch(/^pod_doctor_redis_up 1$/m);
    const exit = await sigterm(bot!);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(10_000);
    // Every step finished and nothing was left holding the process.
    expect(bot!.stderr()).not.toMatch(/shutdown: step|handles still open/);
  });

  it('with Redis gone: /metrics still answers (pod_doctor_redis_up 0), and SIGTERM ends it by the deadline', { timeout: 40_000 }, async () => {
    const url = await startBot({ POD_DOCTOR_SHUTDOWN_SECONDS: '6' });
    await redis!.kill();
    const metrics = await timedGet(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.ms).toBeLessThan(2000);
    expect(metrics.body).toMatch(/^pod_doctor_redis_up 0$/m);

    const exit = await sigterm(bot!);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(6000 + EXIT_MARGIN_MS);
    expect(exit.ms).toBeLessThan(GRACE_MS);
    // It did not get there by luck: steps waiting on Redis were cut.
    expect(bot!.stderr()).toMatch(/shutdown: step ran out of time/);
  });
});
