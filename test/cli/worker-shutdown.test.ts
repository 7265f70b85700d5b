// `pod-doctor worker` as its own process, stopped the way Kubernetes stops it: SIGTERM, then
// SIGKILL after terminationGracePeriodSeconds (120 s in deploy/overlays/split). A job running at
// SIGTERM finishes, or is left to another worker once its lock lapses, never lost; the process
// exits within POD_DOCTOR_SHUTDOWN_SECONDS even with Redis gone; /metrics answers meanwhile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobSettingsFromConfig } from '../../src/cli/wiring.js';
import { workerCommand } from '../../src/cli/worker.js';
import { loadConfig } from '../../src/config/schema.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { JobQueues } from '../../src/jobs/queues.js';
import { parseTarget } from '../../src/kube/target.js';
import type { RedisClient } from '../../src/redis/client.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { cleanup, connect, eventually, REDIS_URL, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type RoleProcess, sigterm, spawnRole, startPrivateRedis, timedGet } from '../helpers/roles.js';

const SCENARIO = join(import.meta.dirname, '../fixtures/incidents/seed-003-finalizers');
const TARGET = 'reports/report-6f7d8-xk2lq';
const CLUSTER = 'stop';
/** The watchdog in src/bin lets a finished command's process wind down for 1 s; scheduling slack on top. */
const EXIT_MARGIN_MS = 2000;

/** The simulated API behind a gate: while closed, requests wait (a diagnosis in flight). */
async function gatedApi(target: string): Promise<{ url: string; held: () => number; close(): void; open(): void; stop(): Promise<void> }> {
  let closed = false;
  const waiting: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const forward = () => {
      const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (closed) waiting.push(forward);
    else forward();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    close: () => {
      closed = true;
    },
    open: () => {
      closed = false;
      for (const f of waiting.splice(0)) f();
    },
    stop: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe('pod-doctor worker on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-worker-stop-'));
  let sim: Sim;
  let api: Awaited<ReturnType<typeof gatedApi>>;
  let redis: RedisClient;
  let worker: RoleProcess | undefined;
  const prefixes: string[] = [];

  beforeAll(async () => {
    sim = await startSim({ objects: (await loadScenario(SCENARIO)).objects });
    api = await gatedApi(sim.url);
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig().replaceAll(sim.url, api.url));
    redis = connect();
  });

  afterEach(async () => {
    api.open();
    await worker?.kill();
  });

  afterAll(async () => {
    for (const p of prefixes) await cleanup(redis, p);
    redis.disconnect();
    await api?.stop();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const envFor = (extra: Record<string, string> = {}) => {
    const prefix = testPrefix('worker-stop');
    prefixes.push(prefix);
    return {
      KUBECONFIG: join(dir, 'kubeconfig'),
      REDIS_URL,
      POD_DOCTOR_CLUSTER: CLUSTER,
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_METRICS_PORT: '0',
      // A held API call must outlast the test's gate, not time out into a gap.
      POD_DOCTOR_API_TIMEOUT_MS: '60000',
      // A lapsed lock is noticed within a second or two (production: 30 s).
      POD_DOCTOR_JOB_LOCK_MS: '2000',
      POD_DOCTOR_JOB_STALLED_CHECK_MS: '500',
      LOG_LEVEL: 'warn',
      ...extra,
    };
  };

  /** Starts the worker, enqueues a diagnosis and resolves once it waits on the (closed) API. */
  const jobInFlight = async (env: Record<string, string>) => {
    worker = spawnRole(['worker'], env);
    await worker.line(/metrics on :\d+/);
    const queues = new JobQueues(redis, jobSettingsFromConfig(loadConfig(env)), silent);
    api.close();
    const { jobId } = await enqueueDiagnosis(queues, { cluster: CLUSTER, target: parseTarget(TARGET), reason: 'cli' });
    await eventually(async () => api.held() > 0, 15_000);
    const state = async () => (await queues.diagnose(CLUSTER).getJob(jobId))?.getState();
    expect(await state()).toBe('active');
    return { queues, jobId, state };
  };

  it('finishes the job running at SIGTERM, then exits', { timeout: 40_000 }, async () => {
    const { queues, jobId, state } = await jobInFlight(envFor());
    const stopping = sigterm(worker!);
    // The job is still waiting on the API after the signal; it gets its answer a second later.
    await new Promise((r) => setTimeout(r, 1000));
    expect(worker!.child.exitCode).toBeNull();
    api.open();
    const exit = await stopping;
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(10_000);
    expect(await state()).toBe('completed');
    expect((await queues.diagnose(CLUSTER).getJob(jobId))?.returnvalue).toMatchObject({ status: 'diagnosed' });
    expect(worker!.stderr()).not.toMatch(/handles still open|shutdown: step/);
    await queues.close();
  });

  it('exits by its deadline when a job outlives it, and leaves the job to another worker', { timeout: 40_000 }, async () => {
    const env = envFor({ POD_DOCTOR_SHUTDOWN_SECONDS: '3' });
    const { queues, state } = await jobInFlight(env);
    const exit = await sigterm(worker!);
    expect(exit.ms).toBeLessThan(3000 + EXIT_MARGIN_MS);
    expect(exit.code).toBe(0);
    expect(worker!.stderr()).toMatch(/"step":"finish running jobs".*"msg":"shutdown: step ran out of time/);
    // Neither failed nor lost: still active, its lock lapsing.
    expect(await state()).toBe('active');

    // Another worker takes it over once the lock lapses, and finishes it.
    api.open();
    let stop!: (why: string) => void;
    const other = workerCommand(
      [],
      { stdout: new PassThrough(), stderr: new PassThrough(), env: { ...env, LOG_LEVEL: 'silent' } },
      { stopSignal: new Promise((r) => (stop = r)) },
    );
    try {
      await eventually(async () => (await state()) === 'completed', 20_000, 200);
    } finally {
      stop('test');
      await other;
      await queues.close();
    }
  });

  it('with the API server not answering: a job in flight ends by its API timeouts, and SIGTERM ends the worker within 10 s', { timeout: 40_000 }, async () => {
    // The production API timeout (5 s a call), the production deadline (110 s).
    const { POD_DOCTOR_API_TIMEOUT_MS: _t, ...env } = envFor();
    const { state } = await jobInFlight(env);
    const exit = await sigterm(worker!);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(10_000);
    // Finished with what it could not read as gaps, retried later (its attempt timed out), or
    // left to another worker once its lock lapses: never lost.
    expect(['completed', 'delayed', 'active']).toContain(await state());
  });

  it('with Redis gone: /metrics still answers (pod_doctor_redis_up 0), and SIGTERM ends it by the deadline', { timeout: 40_000 }, async () => {
    const privateRedis = await startPrivateRedis();
    try {
      worker = spawnRole(['worker'], envFor({ REDIS_URL: privateRedis.url, POD_DOCTOR_SHUTDOWN_SECONDS: '3' }));
      const [, port] = (await worker.line(/metrics on :(\d+)/)) as unknown as [string, string];
      const metrics = `http://127.0.0.1:${port}/metrics`;
      const up = await timedGet(metrics);
      expect(up.body).toMatch(/^pod_doctor_redis_up 1$/m);
      expect(up.body).toMatch(/^pod_doctor_queue_jobs\{/m);

      await privateRedis.kill();
      const down = await timedGet(metrics);
      expect(down.status).toBe(200);
      expect(down.ms).toBeLessThan(2000);
      expect(down.body).toMatch(/^pod_doctor_redis_up 0$/m);
      expect(down.body).not.toMatch(/^pod_doctor_queue_jobs\{/m);

      const exit = await sigterm(worker);
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(3000 + EXIT_MARGIN_MS);
    } finally {
      await privateRedis.kill();
    }
  });
});
