// Prometheus metrics of the job system, in a registry of our own (not prom-client's global
// default, so tests and several workers in one process never collide). Queue depth is read
// from Redis when scraped, not tracked in memory, so every replica reports the same truth.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Queue } from 'bullmq';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type FailureClass = 'transient' | 'permanent' | 'invalid' | 'unknown';

export interface JobMetrics {
  registry: Registry;
  jobDuration: Histogram<'queue' | 'status'>;
  failures: Counter<'queue' | 'class'>;
  findings: Counter<'rule' | 'severity'>;
  incidents: Counter<'cluster' | 'outcome'>;
  deduplicated: Counter<'cluster' | 'kind'>;
  /** Queues whose depth is reported on scrape. */
  watchQueues(queues: () => Queue[]): void;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): JobMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'pod_doctor_' });
  const sources: (() => Queue[])[] = [];

  new Gauge({
    name: 'pod_doctor_queue_jobs',
    help: 'Jobs in a queue by state (read from Redis at scrape time).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const queues = sources.flatMap((s) => s());
      await Promise.all(
        queues.map(async (q) => {
          try {
            const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'failed');
            for (const [state, n] of Object.entries(counts)) this.set({ queue: q.name, state }, n);
          } catch {
            // Redis unreachable: the gauge is absent for this queue; /readyz says why.
          }
        }),
      );
    },
  });

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
      labelNames: ['cluster', 'outcome'] as const,
      registers: [registry],
    }),
    deduplicated: new Counter({
      name: 'pod_doctor_dedup_total',
      help: 'Requests answered by an existing job instead of a new one.',
      labelNames: ['cluster', 'kind'] as const,
      registers: [registry],
    }),
    watchQueues(queues) {
      sources.push(queues);
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
