// Every role that uses Redis, started as Kubernetes starts it while Redis is not there (a port
// that refuses, or one that accepts and never answers, as a frozen Redis does): the port answers
// as soon as the modules are loaded, nothing before it waits on Redis, the API server or Slack
// (/healthz 200, so liveness probes pass; /readyz 503 naming Redis; /metrics with
// pod_doctor_redis_up 0), work starts once Redis comes up without a restart, and SIGTERM ends the
// process within 10 s on its default deadline while Redis is gone. (The agent does not use
// Redis: test/cli/agent-shutdown.test.ts times its start.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobSettingsFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { JobQueues } from '../../src/jobs/queues.js';
import { parseTarget } from '../../src/kube/target.js';
import { closeRedis } from '../../src/redis/client.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { connect, eventually, freePort, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type PrivateRedis, type RoleProcess, sigterm, spawnRole, startPrivateRedis, startSilentServer, timedGet } from '../helpers/roles.js';

const SCENARIO = join(import.meta.dirname, '../fixtures/incidents/seed-003-finalizers');
const TARGET = 'reports/report-6f7d8-xk2lq';
/**
 * From the command's start (its modules loaded) to the port answering: nothing in between
 * waits on a dependency. The whole start, tsx compiling the sources included, is bounded too,
 * loosely: this machine's 2 cores run other suites meanwhile (a built image listens in 1-2 s).
 */
const LISTENING_MS = 2500;
const SPAWN_TO_LISTENING_MS = 20_000;
const STOP_MS = 10_000;

describe('roles started without Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-no-redis-'));
  let sim: Sim;
  let slack: FakeSlack;
  let role: RoleProcess | undefined;
  let redis: PrivateRedis | undefined;

  beforeAll(async () => {
    sim = await startSim({ objects: (await loadScenario(SCENARIO)).objects });
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
    slack = await startFakeSlack();
  });

  afterEach(async () => {
    await role?.kill();
    await redis?.kill();
    redis = undefined;
  });

  afterAll(async () => {
    await slack?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const baseEnv = (redisUrl: string, kubeconfig = join(dir, 'kubeconfig')) => ({
    KUBECONFIG: kubeconfig,
    REDIS_URL: redisUrl,
    POD_DOCTOR_CLUSTER: 'cold',
    POD_DOCTOR_REDIS_PREFIX: testPrefix('no-redis'),
    LOG_LEVEL: 'warn',
  });
  const botEnv = (redisUrl: string, kubeconfig?: string) => ({
    ...baseEnv(redisUrl, kubeconfig),
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_SIGNING_SECRET: 'test-signing-secret-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    POD_DOCTOR_METRICS_PORT: '0',
  });

  /** Spawns the role, checks how soon it listened, and resolves with its base URL once /healthz says 200. */
  const start = async (args: string[], env: Record<string, string>, portLine: RegExp) => {
    const started = Date.now();
    role = spawnRole(args, env);
    const [, port, listening] = (await role.line(new RegExp(`${portLine.source}.*\\(listening (\\d+) ms after start\\)`))) as unknown as [
      string,
      string,
      string,
    ];
    const url = `http://127.0.0.1:${port}`;
    const health = await timedGet(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(Number(listening)).toBeLessThan(LISTENING_MS);
    expect(Date.now() - started).toBeLessThan(SPAWN_TO_LISTENING_MS);
    return { url };
  };

  /** /readyz is 503 naming Redis, quickly; /metrics answers with pod_doctor_redis_up 0. */
  const expectWaitingForRedis = async (url: string, apiAnswers = true) => {
    const ready = await timedGet(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatch(/^redis: unreachable \(.+\)$/m);
    // Redis' line is at once; a silent API server's takes the check's bound (3 s, in the probe's 5).
    expect(ready.ms).toBeLessThan(apiAnswers ? 1000 : 4000);
    if (!apiAnswers) expect(ready.body).toMatch(/^kubernetes: no answer within \d+ ms$/m);
    const metrics = await timedGet(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^pod_doctor_redis_up 0$/m);
  };

  it('worker: serves at once, diagnoses once Redis comes up, and stops within 10 s when it goes', { timeout: 150_000 }, async () => {
    const port = await freePort();
    const env = { ...baseEnv(`redis://127.0.0.1:${port}`), POD_DOCTOR_METRICS_PORT: '0' };
    const { url } = await start(['worker'], env, /metrics on :(\d+)/);
    await expectWaitingForRedis(url);

    // Redis comes up on the port the worker dials: ready, and a diagnosis runs, without a restart.
    redis = await startPrivateRedis({ port });
    await eventually(async () => (await timedGet(`${url}/readyz`)).status === 200, 15_000, 200);
    const client = connect(redis.url);
    const queues = new JobQueues(client, jobSettingsFromConfig(loadConfig(env)), silent);
    try {
      const { jobId } = await enqueueDiagnosis(queues, { cluster: 'cold', target: parseTarget(TARGET), reason: 'cli' });
      await eventually(async () => (await queues.diagnose('cold').getJobState(jobId)) === 'completed', 20_000, 100);
    } finally {
      await queues.close();
      await closeRedis(client);
    }

    // Redis goes: SIGTERM on the default deadline (110 s) still ends it within 10 s.
    await redis.kill();
    const exit = await sigterm(role!);
    expect({ code: exit.code, signal: exit.signal }, role!.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(STOP_MS);
  });

  it('worker: a Redis that accepts and never answers, an API server that does not either', { timeout: 100_000 }, async () => {
    const frozen = await startSilentServer();
    const api = await startSilentServer();
    try {
      writeFileSync(join(dir, 'silent-kubeconfig'), sim.kubeconfig().replaceAll(sim.url, `http://127.0.0.1:${api.port}`));
      const env = { ...baseEnv(`redis://127.0.0.1:${frozen.port}`, join(dir, 'silent-kubeconfig')), POD_DOCTOR_METRICS_PORT: '0' };
      const { url } = await start(['worker'], env, /metrics on :(\d+)/);
      await expectWaitingForRedis(url, false);
      const exit = await sigterm(role!);
      expect({ code: exit.code, signal: exit.signal }, role!.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(exit.ms).toBeLessThan(STOP_MS);
    } finally {
      await frozen.close();
      await api.close();
    }
  });

  it('bot: serves at once, gets ready once Redis comes up, and stops within 10 s when it goes', { timeout: 150_000 }, async () => {
    const port = await freePort();
    const { url } = await start(['bot'], botEnv(`redis://127.0.0.1:${port}`), /Slack on :\d+\/slack\/events, metrics on :(\d+)/);
    await expectWaitingForRedis(url);

    redis = await startPrivateRedis({ port });
    // Redis, the API, the worker thread and every stream reader: all ready without a restart.
    await eventually(async () => (await timedGet(`${url}/readyz`)).status === 200, 20_000, 200);
    const ready = await timedGet(`${url}/readyz`);
    expect(ready.body).toMatch(/^redis: ok$/m);
    expect(ready.body).toMatch(/^worker thread: ok$/m);
    expect(ready.body).toMatch(/^results stream: ok$/m);
    expect((await timedGet(`${url}/metrics`)).body).toMatch(/^pod_doctor_redis_up 1$/m);

    await redis.kill();
    const exit = await sigterm(role!);
    expect({ code: exit.code, signal: exit.signal }, role!.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(STOP_MS);
  });

  it('bot: a Redis that accepts and never answers, an API server that does not either', { timeout: 100_000 }, async () => {
    const frozen = await startSilentServer();
    const api = await startSilentServer();
    try {
      writeFileSync(join(dir, 'silent-kubeconfig'), sim.kubeconfig().replaceAll(sim.url, `http://127.0.0.1:${api.port}`));
      const { url } = await start(
        ['bot'],
        botEnv(`redis://127.0.0.1:${frozen.port}`, join(dir, 'silent-kubeconfig')),
        /Slack on :\d+\/slack\/events, metrics on :(\d+)/,
      );
      await expectWaitingForRedis(url, false);
      const exit = await sigterm(role!);
      expect({ code: exit.code, signal: exit.signal }, role!.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(exit.ms).toBeLessThan(STOP_MS);
    } finally {
      await frozen.close();
      await api.close();
    }
  });
});
