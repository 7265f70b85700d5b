// Prometheus metrics of the job system, in a registry of our own (not prom-client's global
// default, so tests and several workers in one process never collide). Queue depth and age are
// read from Redis when scraped, not tracked in memory, so every replica reports the same truth;
// the read is bounded in time, so /metrics answers (with pod_doctor_redis_up 0) when Redis does not.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Bounded, bounded } from '../bounded.js';
import { log } from '../log.js';
import { registerBuildInfo } from './build-info.js';

/** How long a scrape waits for Redis (a Prometheus scrape times out after 10 s by default). */
export const SCRAPE_REDIS_TIMEOUT_MS = 1000;

export type FailureClass = 'transient' | 'permanent' | 'invalid' | 'unknown';

export interface JobMetrics {
  registry: Registry;
  jobDuration: Histogram<'queue' | 'status'>;
  failures: Counter<'queue' | 'class'>;
  findings: Counter<'rule' | 'severity'>;
  incidents: Counter<'k8s_cluster' | 'outcome'>;
  deduplicated: Counter<'k8s_cluster' | 'kind'>;
  /** How remediation runs ended, counted by the runner (RunnerDeps.runs). */
  remediationRuns: Counter<'playbook' | 'outcome'>;
  /**
   * Clusters whose queues (diagnose and remediate) are reported on scrape (pod_doctor_queue_jobs,
   * pod_doctor_queue_oldest_waiting_seconds), and whether the Redis connection they use answers
   * (pod_doctor_redis_up).
   */
  watchQueues(queues: ClusterQueues, clusters: readonly string[]): void;
}

/**
 * Each cluster's queues and the connection they share: a JobQueues (src/jobs), named by shape
 * since jobs sits above metrics (its workers record durations here).
 */
export interface ClusterQueues {
  readonly redis: { ping(): Promise<unknown> };
  diagnose(cluster: string): Queue;
  remediate(cluster: string): Queue;
}

/** One queue as read from Redis for a scrape. */
interface QueueReading {
  cluster: string;
  queue: string;
  counts: Record<string, number>;
  /** Since the oldest job still waiting was added (0: none waits). */
  oldestWaitingSeconds: number;
}

async function readQueue(cluster: string, queue: Queue): Promise<QueueReading> {
  // The wait list is pushed on the left and taken from the right: its oldest job is the last
  // (`asc` reads the list from that end).
  const [counts, [oldest]] = await Promise.all([queue.getJobCounts('waiting', 'active', 'delayed', 'failed'), queue.getJobs(['wait'], 0, 0, true)]);
  // Its timestamp is the enqueuer's clock; a skewed one must not read as negative age.
  const oldestWaitingSeconds = oldest ? Math.max(0, (Date.now() - oldest.timestamp) / 1000) : 0;
  return { cluster, queue: queue.name, counts, oldestWaitingSeconds };
}

/**
 * `read()`, shared by the scrapes that come while it runs, and given up after
 * SCRAPE_REDIS_TIMEOUT_MS: during an outage ioredis queues commands until it reconnects, and
 * scrapes must neither wait for that nor pile up more of them.
 */
export function boundedRead<T>(read: () => Promise<T>): () => Promise<Bounded<T>> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => (running = undefined));
    const current = running;
    return bounded(SCRAPE_REDIS_TIMEOUT_MS, () => current);
  };
}

export function createMetrics(options: { defaultMetrics?: boolean; logger?: Logger } = {}): JobMetrics {
  const registry = new Registry();
  // The process as a whole: the bot's worker thread (no defaultMetrics) leaves it to the bot.
  if (options.defaultMetrics) {
    collectDefaultMetrics({ register: registry, prefix: 'pod_doctor_' });
    registerBuildInfo(registry);
  }
  const logger = options.logger ?? log.child({ component: 'metrics' });
  const sources: { queues: ClusterQueues; clusters: readonly string[] }[] = [];
  const watched = () =>
    sources.flatMap(({ queues, clusters }) =>
      clusters.flatMap((cluster) => [queues.diagnose(cluster), queues.remediate(cluster)].map((queue) => ({ cluster, queue }))),
    );

  // One read per scrape for both queue gauges (their collects start together and share it).
  const readQueues = boundedRead(() =>
    Promise.all(
      watched().map(({ cluster, queue }) =>
        // This queue's gauges are absent for the scrape; /readyz says why.
        readQueue(cluster, queue).catch(() => undefined),
      ),
    ),
  );
  const scrapeQueues = async (): Promise<QueueReading[]> => {
    if (sources.length === 0) return [];
    const read = await readQueues();
    if (read.status === 'done') return read.value.filter((q) => q !== undefined);
    logger.debug({ outcome: read.status }, 'queues not read from Redis for this scrape');
    return [];
  };
  // `k8s_cluster`, not `cluster`: Prometheus setups put `cluster` in their external labels (or
  // a target label), which a series' own `cluster` would shadow or be renamed by
  // (`exported_cluster`); pod-doctor's is the cluster a queue serves, not where it is scraped.
  new Gauge({
    name: 'pod_doctor_queue_jobs',
    help: `Jobs in a queue by state (read from Redis at scrape time; absent when Redis does not answer within ${SCRAPE_REDIS_TIMEOUT_MS} ms).`,
    labelNames: ['k8s_cluster', 'queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const read = await scrapeQueues();
      this.reset();
      for (const q of read) for (const [state, n] of Object.entries(q.counts)) this.set({ k8s_cluster: q.cluster, queue: q.queue, state }, n);
    },
  });
  new Gauge({
    name: 'pod_doctor_queue_oldest_waiting_seconds',
    help: `Age of the oldest job waiting in a queue, since it was added (0: none waits; read with pod_doctor_queue_jobs).`,
    labelNames: ['k8s_cluster', 'queue'] as const,
    registers: [registry],
    async collect() {
      const read = await scrapeQueues();
      this.reset();
      for (const q of read) this.set({ k8s_cluster: q.cluster, queue: q.queue }, q.oldestWaitingSeconds);
    },
  });

  const ping = boundedRead(async () => {
    const connection = sources[0]?.queues.redis;
    if (!connection) throw new Error('no Redis connection to ping');
    return connection.ping();
  });
  let redisWatched = false;
  const watchRedis = () => {
    if (redisWatched) return;
    redisWatched = true;
    new Gauge({
      name: 'pod_doctor_redis_up',
      help: `1 when this process's Redis connection answers PING within ${SCRAPE_REDIS_TIMEOUT_MS} ms at scrape time, else 0.`,
      registers: [registry],
      async collect() {
        const answer = await ping();
        if (answer.status !== 'done') logger.debug({ outcome: answer.status }, 'redis did not answer PING for this scrape');
        this.set(answer.status === 'done' ? 1 : 0);
      },
    });
  };

  return {
    registry,
    jobDuration: new Histogram({
      name: 'pod_doctor_job_duration_seconds',
      help: 'Time from a job starting on a worker to its result (or failure).',
      labelNames: ['queue', 'status'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    }),
    failures: new Counter({
      name: 'pod_doctor_job_failures_total',
      help: 'Failed job attempts by class: transient (retried), permanent (answered, not retried), invalid (bad payload), unknown.',
      labelNames: ['queue', 'class'] as const,
      registers: [registry],
    }),
    findings: new Counter({
      name: 'pod_doctor_findings_total',
      help: 'Findings reported by diagnoses, by rule id and severity.',
      labelNames: ['rule', 'severity'] as const,
      registers: [registry],
    }),
    incidents: new Counter({
      name: 'pod_doctor_incident_joins_total',
      help: 'Diagnoses grouped into incidents: created a new incident or joined an existing one.',
      labelNames: ['k8s_cluster', 'outcome'] as const,
      registers: [registry],
    }),
    deduplicated: new Counter({
      name: 'pod_doctor_dedup_total',
      help: 'Requests answered by an existing job instead of a new one.',
      labelNames: ['k8s_cluster', 'kind'] as const,
      registers: [registry],
    }),
    remediationRuns: new Counter({
      name: 'pod_doctor_remediation_runs_total',
      help:
        'Remediation runs by playbook and how they ended: succeeded (verified fixed), verify_failed (the steps ran, not fixed), ' +
        'failed (a step failed, or a crash stopped the run), precondition_failed, refused (expired, or preconditions not checkable).',
      labelNames: ['playbook', 'outcome'] as const,
      registers: [registry],
    }),
    watchQueues(queues, clusters) {
      sources.push({ queues, clusters });
      // Only with queues: the bot's worker thread has none, and its registry is summed into the bot's.
      watchRedis();
    },
  };
}

/** `GET /metrics` in the Prometheus text format. */
export function metricsHandler(registry: Registry, more?: () => Promise<unknown[]>): (req: IncomingMessage, res: ServerResponse) => void {
  // `more`: metrics of another registry in this process (the bot's worker thread), summed in.
  const render = more ? async () => AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), await more()]).metrics() : () => registry.metrics();
  return (_req, res) => {
    render()
      .then((body) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(body);
      })
      .catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      });
  };
}
