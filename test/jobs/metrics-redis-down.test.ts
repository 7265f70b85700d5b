// /metrics with Redis unreachable: the queue-depth read and the PING behind pod_doctor_redis_up
// give up after a second, so a scrape answers (Prometheus' own timeout is 10 s) and says why the
// depth is missing. Both kinds of connection: a worker's waits through reconnects for ever, the
// edge's fails after a few attempts.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { type OpsServer, serveOps } from '../../src/metrics/server.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { freePort, REDIS_URL, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { timedGet } from '../helpers/roles.js';

describe.each(['worker', 'producer'] as const)('/metrics on a %s connection', (role) => {
  let redis: RedisClient | undefined;
  let queues: JobQueues | undefined;
  let ops: OpsServer | undefined;
  afterEach(async () => {
    await ops?.close();
    redis?.disconnect();
    await queues?.close();
  });

  const serve = async (url: string) => {
    redis = redisFromUrl(url, {}, { role });
    redis.on('error', () => undefined);
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: testPrefix('metrics-down') }, silent);
    const metrics = createMetrics({ logger: silent });
    metrics.watchQueues(queues, ['c1']);
    ops = await serveOps({ port: 0, host: '127.0.0.1', registry: metrics.registry });
    return `${ops.url}/metrics`;
  };

  it('says pod_doctor_redis_up 1 with the queue depth while Redis answers', async () => {
    const scrape = await timedGet(await serve(REDIS_URL));
    expect(scrape.status).toBe(200);
    expect(scrape.body).toMatch(/^pod_doctor_redis_up 1$/m);
    expect(scrape.body).toContain('pod_doctor_queue_jobs{k8s_cluster="c1",queue="diagnose.c1",state="waiting"} 0');
  });

  it('answers within about a second with pod_doctor_redis_up 0 and no depth when nothing listens', async () => {
    const metrics = await serve(`redis://127.0.0.1:${await freePort()}`);
    // Repeated scrapes stay as quick: the read still waiting is shared, not queued again.
    for (let i = 0; i < 3; i++) {
      const scrape = await timedGet(metrics);
      expect(scrape.status).toBe(200);
      expect(scrape.ms).toBeLessThan(2000);
      expect(scrape.body).toMatch(/^pod_doctor_redis_up 0$/m);
      expect(scrape.body).not.toContain('pod_doctor_queue_jobs{');
    }
  });
});

it('has no pod_doctor_redis_up without queues (the bot sums its worker thread’s registry into its own)', async () => {
  const metrics = createMetrics({ logger: silent });
  expect(await metrics.registry.metrics()).not.toContain('pod_doctor_redis_up');
});
