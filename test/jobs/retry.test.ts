import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { PodDoctorError } from '../../src/errors.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import type { JobQueues } from '../../src/jobs/queues.js';
import { waitForResult } from '../../src/jobs/results.js';
import type { Requester } from '../../src/jobs/schemas.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { classifyError, type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import type { RedisClient } from '../../src/redis/client.js';
import { node, pod } from '../helpers/factories.js';
import { type Call, closeJobsEnv, eventually, openJobsEnv, scriptedSource } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const target = { kind: 'pod', namespace: 'shop', name: 'web-1' } as const;
const objects = [pod({ metadata: { name: 'web-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];
const user: Requester = { kind: 'slack', user: 'U1', channel: 'C1' };

describe('classifyError', () => {
  it.each([
    [new PodDoctorError('CLUSTER_UNREACHABLE', 'down'), 'transient'],
    [new PodDoctorError('TARGET_NOT_FOUND', 'gone'), 'permanent'],
    [new PodDoctorError('BAD_TARGET', 'bad'), 'permanent'],
    [new PodDoctorError('NOT_AUTHORIZED', 'no'), 'permanent'],
    [new k8s.ApiException(503, 'unavailable', '', {}), 'transient'],
    [new k8s.ApiException(429, 'slow down', '', {}), 'transient'],
    [new k8s.ApiException(404, 'nope', '', {}), 'permanent'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }), 'transient'],
    [new Error('request timed out'), 'transient'],
    [new TypeError('x is undefined'), 'unknown'],
  ] as const)('%s → %s', (err, expected) => {
    expect(classifyError(err)).toBe(expected);
  });
});

describe('retries', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let workers: RunningWorkers | undefined;

  beforeEach(() => {
    ({ redis, prefix, queues } = openJobsEnv('retry', { attempts: 4, backoffMs: 20 }));
  });

  afterEach(async () => {
    await closeJobsEnv({ redis, prefix, queues }, workers);
    workers = undefined;
  });

  const run = async (before: (call: Call) => void | Promise<void>, extra: { gapRetries?: number; attempts?: number } = {}) => {
    const source = scriptedSource(objects, before);
    const sink = new MemorySink();
    const metrics = createMetrics();
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source,
      sink,
      logger: silent,
      prefix,
      metrics,
      handleSignals: false,
      gapRetries: extra.gapRetries,
    });
    return { source, sink, metrics };
  };

  it('retries a diagnosis whose API answers 503 twice, then completes it', async () => {
    let failures = 0;
    const { sink, metrics } = await run((call) => {
      if (call === 'getPod' && failures < 2) {
        failures++;
        throw new k8s.ApiException(503, 'service unavailable', '{"message":"etcdserver: leader changed"}', {});
      }
    });
    const { jobId } = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: user });
    const result = await waitForResult(queues, 'c1', jobId);
    expect(result.status).toBe('diagnosed');
    const job = await queues.diagnose('c1').getJob(jobId);
    // Two failed attempts and the one that worked.
    expect(job?.attemptsMade).toBe(3);
    expect(await job?.getState()).toBe('completed');
    await sink.waitFor((r) => r.length === 1);
    expect(sink.results.map((r) => [r.status, r.requesters])).toEqual([['diagnosed', [user]]]);
    const failuresMetric = await metrics.failures.get();
    expect(failuresMetric.values.find((v) => v.labels.class === 'transient')?.value).toBe(2);
  });

  it('finishes a diagnosis of a pod that does not exist as not-found, on the first attempt', async () => {
    const { source, sink } = await run(() => undefined);
    const gone = { kind: 'pod', namespace: 'shop', name: 'no-such-pod' } as const;
    const { jobId } = await enqueueDiagnosis(queues, { cluster: 'c1', target: gone, reason: 'slash', requester: user });
    const result = await waitForResult(queues, 'c1', jobId);
    expect(result.status).toBe('not-found');
    expect(result.message).toMatch(/not found/);
    const job = await queues.diagnose('c1').getJob(jobId);
    expect(job?.attemptsStarted).toBe(1);
    expect(await job?.getState()).toBe('completed');
    expect(source.calls.filter((c) => c === 'getPod')).toHaveLength(1);
    expect(sink.results.map((r) => [r.status, r.requesters])).toEqual([['not-found', [user]]]);
  });

  it('answers "failed" to every requester when the attempts run out', async () => {
    const { source, sink } = await run((call) => {
      if (call === 'getPod') throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' });
    });
    const { jobId } = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: user });
    const result = await waitForResult(queues, 'c1', jobId);
    expect(result.status).toBe('failed');
    const job = await queues.diagnose('c1').getJob(jobId);
    expect(await job?.getState()).toBe('failed');
    expect(job?.attemptsMade).toBe(4);
    expect(source.calls.filter((c) => c === 'getPod')).toHaveLength(4);
    await sink.waitFor((r) => r.length === 1);
    expect(sink.results[0]).toMatchObject({
      status: 'failed',
      requesters: [user],
      message: expect.stringMatching(/after 4 attempts.*cannot reach the cluster/),
    });
  });

  it('re-collects once when a secondary call timed out, then answers with what it has', async () => {
    let slowCalls = 0;
    const { sink } = await run(
      (call) => {
        if (call === 'getNode') {
          slowCalls++;
          throw new k8s.ApiException(504, 'gateway timeout', '', {});
        }
      },
      { gapRetries: 1 },
    );
    const { jobId } = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: user });
    const result = await waitForResult(queues, 'c1', jobId);
    expect(result.status).toBe('diagnosed');
    expect(slowCalls).toBe(2);
    expect(result.diagnosis?.skipped.some((g) => /504/.test(g.reason))).toBe(true);
    expect(sink.results).toHaveLength(1);
  });

  it('fails invalid job data at once, without retries', async () => {
    const { source, metrics } = await run(() => undefined);
    const job = await queues.diagnose('c1').add('diagnose', { v: 2, cluster: 'c1', target } as never, { attempts: 5 });
    await eventually(async () => (await job.isFailed()) && job);
    const fresh = await queues.diagnose('c1').getJob(job.id!);
    expect(fresh?.attemptsMade).toBe(1);
    expect(fresh?.failedReason).toMatch(/invalid diagnose job: v/);
    expect(source.calls).toEqual([]);
    expect((await metrics.failures.get()).values.find((v) => v.labels.class === 'invalid')?.value).toBe(1);
  });
});
