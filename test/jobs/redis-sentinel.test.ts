// pod-doctor behind Sentinel (one primary, one replica, three sentinels, all started by the
// test): enqueues wait for the replica, and a primary killed with -9 mid-storm loses no
// acknowledged enqueue once Sentinel has promoted the replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { eventually, sleep } from '../helpers/jobs.js';
import { type SentinelTopology, startSentinel } from '../helpers/redis-topology.js';

const PREFIX = 'pod-doctor';

describe('Redis Sentinel (primary + replica + 3 sentinels)', () => {
  let topo: SentinelTopology;
  let redis: RedisClient;

  beforeAll(async () => {
    topo = await startSentinel({ downAfterMs: 1000 });
    redis = redisFromUrl('redis://unused:6379', topo.options, { role: 'producer' });
    redis.on('error', () => undefined);
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await topo?.stop();
  });

  it('confirms each enqueue on the replica and loses none acknowledged across a failover', async () => {
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX, waitMs: 500 });
    const request = (i: number) =>
      enqueueDiagnosis(queues, {
        cluster: 'prod-eu',
        target: { kind: 'pod', namespace: 'storm', name: `p-${i}` },
        reason: 'slash',
        requester: { kind: 'slack', user: 'U1', channel: 'C1' },
      });
    await request(-1);
    expect(await queues.confirmReplicated('prod-eu')).toEqual({ needed: 1, acked: 1 });

    const N = 1500;
    const accepted: string[] = [];
    let refused = 0;
    let next = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (;;) {
          const i = next++;
          if (i >= N) return;
          if (!killed && accepted.length >= N / 4) {
            killed = true;
            topo.kill(topo.primary.port);
          }
          try {
            const { jobId } = await request(i);
            await queues.confirmReplicated('prod-eu');
            accepted.push(jobId);
          } catch {
            refused++;
            await sleep(100);
          }
        }
      }),
    );
    expect(killed).toBe(true);
    await eventually(async () => (await topo.currentPrimary()) === topo.replica.port, 20_000);
    const reader = redisFromUrl('redis://unused:6379', topo.options, { role: 'producer' });
    reader.on('error', () => undefined);
    const check = new JobQueues(reader, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX });
    try {
      const missing: string[] = [];
      for (const id of accepted) if (!(await check.diagnose('prod-eu').getJob(id))) missing.push(id);
      console.log(
        JSON.stringify({ sentinelStorm: { requests: N, accepted: accepted.length, refused, found: accepted.length - missing.length, lost: missing.length } }),
      );
      expect(missing).toEqual([]);
      expect(accepted.length).toBeGreaterThan(N / 4);
    } finally {
      await check.close();
      await queues.close();
      reader.disconnect();
    }
  }, 90_000);
});
