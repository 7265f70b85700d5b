import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rule as terminatingFinalizers } from '../../src/diagnosis/rules/terminating-finalizers.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { consumeResults, RedisStreamSink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { type OpsServer, serveOps } from '../../src/metrics/server.js';
import type { RedisClient } from '../../src/redis/client.js';
import { keys } from '../../src/redis/keys.js';
import { ago, NOW, node, pod } from '../helpers/factories.js';
import { cleanup, connect, eventually, scriptedSource, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const result = (jobId: string): DiagnoseResult => ({
  job: { v: 1, cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'web-1' }, reason: 'slash', requestedAt: NOW },
  jobId,
  status: 'diagnosed',
  requesters: [{ kind: 'slack', user: 'U1', channel: 'C1' }],
});

describe('results stream', () => {
  let redis: RedisClient;
  let reader: RedisClient;
  let prefix: string;
  beforeEach(() => {
    redis = connect();
    reader = connect();
    prefix = testPrefix('stream');
  });
  afterEach(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
    reader.disconnect();
  });

  it('hands each result to a consumer of the group and takes over what a failed handler left', async () => {
    const sink = new RedisStreamSink(redis, prefix);
    await sink.deliver(result('j1'));
    await sink.deliver(result('j2'));
    expect(await redis.xlen(keys.results(prefix, 'c1'))).toBe(2);

    const seen: string[] = [];
    let failOnce = true;
    const consumer = consumeResults({
      redis: reader,
      prefix,
      cluster: 'c1',
      group: 'bot',
      consumer: 'bot-1',
      claimIdleMs: 200,
      blockMs: 100,
      handler: async (r) => {
        if (r.jobId === 'j2' && failOnce) {
          failOnce = false;
          throw new Error('slack down');
        }
        seen.push(r.jobId);
      },
    });
    try {
      await sink.deliver(result('j3'));
      await eventually(async () => seen.includes('j2') && seen.includes('j3'), 10_000);
      expect([...seen].sort()).toEqual(['j1', 'j2', 'j3']);
      const pending = (await redis.xpending(keys.results(prefix, 'c1'), 'bot')) as [number, ...unknown[]];
      expect(pending[0]).toBe(0);
    } finally {
      await consumer.stop();
    }
  });

  it('delivers results side by side: a slow one holds back none of the others, never more than the limit at once', async () => {
    const sink = new RedisStreamSink(redis, prefix);
    for (let i = 0; i < 10; i++) await sink.deliver(result(`j${i}`));
    let inFlight = 0;
    let peak = 0;
    const done: string[] = [];
    const consumer = consumeResults({
      redis: reader,
      prefix,
      cluster: 'c1',
      group: 'bot',
      consumer: 'bot-1',
      blockMs: 100,
      concurrency: 4,
      handler: async (r) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, r.jobId === 'j0' ? 600 : 50));
        inFlight--;
        done.push(r.jobId);
      },
    });
    try {
      await eventually(async () => done.length === 10, 10_000);
      expect(peak).toBe(4);
      // Nine 50 ms deliveries on three free slots finish long before the 600 ms one.
      expect(done.at(-1)).toBe('j0');
    } finally {
      await consumer.stop();
    }
    // stop() waited for the last handler's acknowledgement.
    const pending = (await redis.xpending(keys.results(prefix, 'c1'), 'bot')) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
  });
});

describe('metrics and health endpoints', () => {
  let redis: RedisClient;
  let prefix: string;
  let ops: OpsServer | undefined;
  let workers: RunningWorkers | undefined;
  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('metrics');
  });
  afterEach(async () => {
    await workers?.close();
    await ops?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('reports queue depth, durations, findings by rule, and readiness', async () => {
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    const metrics = createMetrics();
    metrics.watchQueues(queues, ['c1']);
    let kubeUp = true;
    ops = await serveOps({
      port: 0,
      host: '127.0.0.1',
      registry: metrics.registry,
      readiness: {
        redis: () => redis.ping(),
        kubernetes: async () => {
          if (!kubeUp) throw new Error('connect ECONNREFUSED');
        },
      },
    });
    const stuck = pod({ metadata: { name: 'web-1', deletionTimestamp: ago(900), finalizers: ['example.com/cleanup'] } });
    for (const name of ['web-1', 'web-2']) await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name }, reason: 'cli' });

    const scrape = async () => (await fetch(`${ops!.url}/metrics`)).text();
    expect(await scrape()).toContain('pod_doctor_queue_jobs{k8s_cluster="c1",queue="diagnose.c1",state="waiting"} 2');

    const objects = [stuck, pod({ metadata: { name: 'web-2' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source: scriptedSource(objects),
      sink: new RedisStreamSink(redis, prefix),
      logger: silent,
      prefix,
      metrics,
      handleSignals: false,
      diagnose: { rules: [terminatingFinalizers], now: () => new Date(NOW) },
    });
    await eventually(async () => (await queues.diagnose('c1').getJobCounts('completed')).completed === 2);
    const text = await scrape();
    expect(text).toContain('pod_doctor_queue_jobs{k8s_cluster="c1",queue="diagnose.c1",state="waiting"} 0');
    expect(text).toContain('pod_doctor_findings_total{rule="terminating.finalizers",severity="error"} 1');
    expect(text).toContain('pod_doctor_job_duration_seconds_count{queue="diagnose.c1",status="diagnosed"} 2');
    expect(text).toContain('pod_doctor_incident_joins_total{k8s_cluster="c1",outcome="created"} 1');

    expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${ops.url}/readyz`)).status).toBe(200);
    kubeUp = false;
    const notReady = await fetch(`${ops.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toContain('kubernetes: connect ECONNREFUSED');
    expect((await fetch(`${ops.url}/nope`)).status).toBe(404);
    await queues.close();
  });
});
