// pod-doctor on a real Redis Cluster (3 primaries, 3 replicas) started by the test: each
// Kubernetes cluster's keys land in its own slot (so clusters spread over the shards), the
// whole job path runs there, and a primary killed with -9 mid-storm loses no acknowledged
// enqueue (WAIT for a replica before acknowledging).

import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import { ApprovalStore } from '../../src/chat/store/approvals.js';
import { ThreadStore } from '../../src/chat/store/threads.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { joinIncident } from '../../src/jobs/incidents.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { startWorkers } from '../../src/jobs/worker.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { clusterTag, keys, sharedTag } from '../../src/redis/keys.js';
import { keySlot } from '../../src/redis/replication.js';
import { node, pod } from '../helpers/factories.js';
import { eventually, memorySource, sleep } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type RedisClusterTopology, startRedisCluster } from '../helpers/redis-topology.js';

const PREFIX = 'pod-doctor';
// Four Kubernetes clusters whose tags fall on all three shards of a 3-primary cluster.
const CLUSTERS = ['prod-eu', 'prod-us', 'qa', 'staging'];

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
const ms = (n: number) => Math.round(n * 100) / 100;

describe('Redis Cluster (3 primaries + 3 replicas)', () => {
  let topo: RedisClusterTopology;
  let redis: RedisClient;
  const url = 'redis://unused:6379';

  beforeAll(async () => {
    topo = await startRedisCluster({ primaries: 3, replicasPerPrimary: 1, nodeTimeoutMs: 1500 });
    redis = redisFromUrl(url, { clusterNodes: topo.clusterNodes }, { role: 'producer' });
    redis.on('error', () => undefined);
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await topo?.stop();
  });

  it('puts each Kubernetes cluster in its own slot and runs the job path there', async () => {
    const primaries = await topo.primaries();
    const owner = (cluster: string) =>
      primaries.find((p) => p.slots.some(([a, b]) => keySlot(clusterTag(PREFIX, cluster)) >= a && keySlot(clusterTag(PREFIX, cluster)) <= b))!.port;
    expect(new Set(CLUSTERS.map(owner)).size).toBe(3);

    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX, backoffMs: 50 });
    const sink = new MemorySink();
    const objects = [node({ metadata: { name: 'node-1' } }), ...Array.from({ length: 5 }, (_, i) => pod({ metadata: { name: `web-${i}` } }))] as KubeObject[];
    const workerRedis = redisFromUrl(url, { clusterNodes: topo.clusterNodes }, { role: 'worker' });
    workerRedis.on('error', () => undefined);
    const workers = await Promise.all(
      CLUSTERS.map((cluster) =>
        startWorkers({ connection: workerRedis, cluster, prefix: PREFIX, source: memorySource(objects), sink, logger: silent, concurrency: 2 }),
      ),
    );
    try {
      const ids: string[] = [];
      for (const cluster of CLUSTERS) {
        for (let i = 0; i < 5; i++) {
          const { jobId } = await enqueueDiagnosis(queues, {
            cluster,
            target: { kind: 'pod', namespace: 'default', name: `web-${i}` },
            reason: 'slash',
            requester: { kind: 'slack', user: 'U1', channel: 'C1' },
          });
          // A replica confirms (WAIT 1) on the primary owning the cluster's slot.
          expect(await queues.confirmReplicated(cluster)).toEqual({ needed: 1, acked: 1 });
          ids.push(jobId);
        }
      }
      await eventually(async () => sink.results.length >= ids.length, 20_000);
      expect(new Set(sink.results.map((r) => r.jobId))).toEqual(new Set(ids));

      // Storm grouping (4-key script) and the shared chat keys run in Cluster mode too.
      const incident = await joinIncident(
        redis,
        { prefix: PREFIX, ttlSeconds: 60 },
        { cluster: 'prod-eu', jobId: ids[0]!, finding: { rule: 'r', causeKey: 'k', subject: 'default/web-0' } as never },
      );
      expect(incident.created).toBe(true);
      const limiter = new ChatLimiter(redis, PREFIX, { ratePerSecond: 100, burst: 10 });
      await limiter.acquire('C1');
      const threads = new ThreadStore<{ n: number }>(redis, PREFIX);
      const { created } = await threads.ensure('C1', 'scope-1', async () => ({ ref: { channel: 'C1', ts: '1.1' }, state: { n: 1 } }));
      expect(created).toBe(true);
      expect(await new ApprovalStore(redis, PREFIX).get('pl_none')).toBeNull();

      // Keys per shard: every primary holds some, each cluster's keys sit on its owner only.
      const counts = await Promise.all(
        primaries.map(async (p) => ({
          port: p.port,
          keys: Number(
            await (redis as Cluster)
              .nodes('master')
              .find((n) => n.options.port === p.port)!
              .dbsize(),
          ),
        })),
      );
      console.log(
        JSON.stringify({ keysPerShard: counts, owners: Object.fromEntries(CLUSTERS.map((c) => [c, owner(c)])), chatSlot: keySlot(sharedTag(PREFIX)) }),
      );
      for (const c of counts) expect(c.keys).toBeGreaterThan(0);
      expect(keySlot(keys.dedup(PREFIX, 'prod-eu', 'x'))).toBe(keySlot(`${clusterTag(PREFIX, 'prod-eu')}:diagnose.prod-eu:wait`));
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await queues.close();
      workerRedis.disconnect();
    }
  }, 60_000);

  it('loses no acknowledged enqueue when a primary is killed (-9) mid-storm; reports the cost of WAIT', async () => {
    // The cost of WAIT, before any failure: the same enqueues with and without it.
    const latency = async (waitReplicas: number, n: number, tag: string) => {
      const q = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: `${PREFIX}-lat`, waitReplicas });
      const times: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          for (let i = lane; i < n; i += 8) {
            const t0 = performance.now();
            const cluster = CLUSTERS[i % CLUSTERS.length]!;
            await enqueueDiagnosis(q, {
              cluster,
              target: { kind: 'pod', namespace: tag, name: `p-${i}` },
              reason: 'slash',
              requester: { kind: 'slack', user: 'U1', channel: 'C1' },
            });
            await q.confirmReplicated(cluster);
            times.push(performance.now() - t0);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      await q.close();
      return { p50: ms(quantile(times, 0.5)), p99: ms(quantile(times, 0.99)), perSecond: Math.round(n / seconds) };
    };
    await latency(1, 1000, 'warm-up');
    const without = await latency(0, 3000, 'nowait');
    const withWait = await latency(1, 3000, 'wait');
    console.log(JSON.stringify({ enqueueMs: { withoutWait: without, withWait1: withWait } }));

    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX, waitMs: 500 });
    const victim = (await topo.primaries()).find((p) =>
      p.slots.some(([a, b]) => keySlot(clusterTag(PREFIX, 'prod-eu')) >= a && keySlot(clusterTag(PREFIX, 'prod-eu')) <= b),
    )!;
    const N = 3000;
    const accepted: { cluster: string; jobId: string; afterKill: boolean }[] = [];
    let refused = 0;
    let next = 0;
    let killed = false;
    const storm = Promise.all(
      Array.from({ length: 16 }, async () => {
        for (;;) {
          const i = next++;
          if (i >= N) return;
          if (!killed && accepted.length >= N / 4) {
            killed = true;
            topo.kill(victim.port);
          }
          const cluster = CLUSTERS[i % CLUSTERS.length]!;
          try {
            // What the webhook and the slash command do before answering.
            const { jobId } = await enqueueDiagnosis(queues, {
              cluster,
              target: { kind: 'pod', namespace: 'storm', name: `p-${i}` },
              reason: 'slash',
              requester: { kind: 'slack', user: 'U1', channel: 'C1' },
            });
            await queues.confirmReplicated(cluster);
            accepted.push({ cluster, jobId, afterKill: killed });
          } catch {
            refused++; // 503: Alertmanager (or the user) retries
            await sleep(50);
          }
        }
      }),
    );
    await storm;
    expect(killed).toBe(true);
    // The replica took over: a fresh client sees every job that was acknowledged.
    await eventually(async () => (await topo.primaries()).length === 3, 20_000);
    const reader = redisFromUrl(url, { clusterNodes: topo.clusterNodes.filter((n) => n.port !== victim.port) }, { role: 'producer' });
    reader.on('error', () => undefined);
    const check = new JobQueues(reader, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX });
    try {
      const missing: string[] = [];
      for (const a of accepted) if (!(await check.diagnose(a.cluster).getJob(a.jobId))) missing.push(`${a.cluster}/${a.jobId}`);
      console.log(
        JSON.stringify({
          storm: {
            requests: N,
            accepted: accepted.length,
            refused,
            killedPrimary: victim.port,
            found: accepted.length - missing.length,
            lost: missing.length,
            victimClusterAcceptedAfterKill: accepted.filter((a) => a.afterKill && a.cluster === 'prod-eu').length,
          },
        }),
      );
      expect(missing).toEqual([]);
      expect(accepted.length).toBeGreaterThan(N / 2);
      // The killed primary's cluster was served again by its promoted replica.
      expect(accepted.filter((a) => a.afterKill && a.cluster === 'prod-eu').length).toBeGreaterThan(0);
    } finally {
      await check.close();
      await queues.close();
      reader.disconnect();
    }
  }, 90_000);
});
