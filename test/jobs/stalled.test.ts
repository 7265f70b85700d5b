import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { Requester } from '../../src/jobs/schemas.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { startWorkers } from '../../src/jobs/worker.js';
import { keys } from '../../src/redis/keys.js';
import { node, pod } from '../helpers/factories.js';
import { cleanup, connect, REDIS_URL, scriptedSource, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const CHILD = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));

interface ChildWorker {
  proc: ChildProcess;
  next(event: string): Promise<Record<string, unknown>>;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** A worker process; `next(event)` resolves with the next line it prints for that event. */
function spawnWorker(env: Record<string, string>): ChildWorker {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const seen: Record<string, unknown>[] = [];
  const waiting: { event: string; resolve: (v: Record<string, unknown>) => void }[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const i = waiting.findIndex((w) => w.event === msg.event);
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(msg);
    else seen.push(msg);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
  return {
    proc,
    exited,
    next: (event) =>
      new Promise((resolve, reject) => {
        const i = seen.findIndex((m) => m.event === event);
        if (i >= 0) return resolve(seen.splice(i, 1)[0]!);
        waiting.push({ event, resolve });
        void exited.then((how) => reject(new Error(`worker process exited (${String(how)}) before "${event}"`)));
      }),
  };
}

describe('a worker process killed mid-job', () => {
  const prefix = testPrefix('stalled');
  const redis = connect();
  let child: ChildWorker | undefined;

  afterEach(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('leaves its job to another worker, which completes it and answers the requester', async () => {
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    const user: Requester = { kind: 'slack', user: 'U1', channel: 'C1' };
    child = spawnWorker({ REDIS_URL, PD_PREFIX: prefix, PD_CLUSTER: 'c1', PD_SLOW_MS: '60000', PD_LOCK_MS: '1000', PD_STALLED_MS: '300' });
    await child.next('ready');

    const { jobId } = await enqueueDiagnosis(queues, {
      cluster: 'c1',
      target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
      reason: 'slash',
      requester: user,
    });
    expect((await child.next('active')).jobId).toBe(jobId);
    child.proc.kill('SIGKILL');
    expect(await child.exited).toBe('SIGKILL');
    expect(await queues.diagnose('c1').getJobState(jobId)).toBe('active');

    const sink = new MemorySink();
    const objects = [pod({ metadata: { name: 'web-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];
    const survivor = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source: scriptedSource(objects),
      sink,
      logger: silent,
      prefix,
      lockDurationMs: 1000,
      stalledIntervalMs: 300,
      handleSignals: false,
    });
    try {
      await sink.waitFor((r) => r.length >= 1, 15_000);
      expect(sink.results.map((r) => [r.jobId, r.status, r.requesters])).toEqual([[jobId, 'diagnosed', [user]]]);
      const job = await queues.diagnose('c1').getJob(jobId);
      expect(await job?.getState()).toBe('completed');
      expect(job?.stalledCounter).toBe(1);
      // The killed worker delivered nothing.
      expect(await redis.xlen(keys.results(prefix, 'c1'))).toBe(0);
    } finally {
      await survivor.close();
      await queues.close();
    }
  });
});
