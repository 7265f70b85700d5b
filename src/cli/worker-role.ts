// The worker role, shared by `pod-doctor worker`, the bot's in-process worker and the demo:
// diagnosis and remediation workers for one cluster (rule overrides, the cluster's API rate
// limit), plus the expansion of workload alerts into pods, all built the same way from
// configuration.
import type { Logger } from 'pino';
import { startExpansionWorker } from '../alerts/expand.js';
import type { AgentCallMetrics } from '../collect/agent-metrics.js';
import type { KubeSource } from '../collect/kube-source.js';
import type { AgentLookup } from '../collect/snapshot.js';
import type { Config } from '../config/schema.js';
import { marksFor } from '../jobs/not-a-problem.js';
import type { JobQueues, JobSettings } from '../jobs/queues.js';
import { recordFix } from '../jobs/recurrence.js';
import type { ResultSink } from '../jobs/sink.js';
import { startWorkers } from '../jobs/worker.js';
import type { JobMetrics } from '../metrics/metrics.js';
import type { RedisClient } from '../redis/client.js';
import { apiBucket } from '../redis/token-bucket.js';
import { offerProposer } from '../remediation/offers.js';
import type { RunCounter } from '../remediation/run.js';
import { RedisRunEventSink, remediateProcessor } from '../remediation/run-events.js';
import type { Runner } from '../remediation/runner.js';
import type { Playbook } from '../remediation/schema.js';
import { diagnoseSettings, runnerFromConfig } from './wiring.js';

export interface WorkerRoleOptions {
  config: Config;
  cluster: string;
  /** A connection that waits through reconnects (role `worker`). */
  connection: RedisClient;
  settings: JobSettings;
  queues: JobQueues;
  kube: KubeSource;
  agent?: AgentLookup;
  sink: ResultSink;
  concurrency: number;
  logger: Logger;
  /** Job counters and durations, remediation outcomes, agent calls (the demo keeps none). */
  metrics?: JobMetrics & { remediationRuns?: RunCounter };
  agentCalls?: AgentCallMetrics;
}

export interface RunningWorkerRole {
  /** The installed playbooks (validated at start: a bad file stops it). */
  readonly playbooks: readonly Playbook[];
  /** Plans and runs (the demo's tour reads the plans it approves). */
  readonly runner: Runner;
  /** Take no new job; resolves once the running ones have finished. */
  drain(): Promise<void>;
  /**
   * Stop every worker without waiting on Redis. After drain() nothing is lost; before it (a
   * shutdown out of time) a job still running keeps its lock until it lapses, and another
   * worker takes it over.
   */
  close(): Promise<void>;
}

export async function startWorkerRole(options: WorkerRoleOptions): Promise<RunningWorkerRole> {
  const { config, cluster, connection, settings, kube, logger, metrics } = options;
  // Playbooks are validated here: a bad file stops startup.
  const { runner, playbooks } = await runnerFromConfig({
    config: { ...config, cluster, redisPrefix: settings.prefix },
    kube,
    redis: connection,
    ...(options.agent ? { agent: options.agent } : {}),
    logger,
    auditRetentionMs: config.auditRetentionDays * 86_400_000,
    ...(metrics?.remediationRuns ? { runs: metrics.remediationRuns } : {}),
    ...(options.agentCalls ? { agentCalls: options.agentCalls } : {}),
  });
  // Every worker of a cluster shares one API budget (a Redis token bucket), spent only on reads
  // that reach the API server.
  const bucket = apiBucket(connection, settings.prefix, cluster, { ratePerSecond: config.apiRatePerSecond, burst: config.apiBurst });
  const source = kube.throttled(() => bucket.take());
  const workers = await startWorkers({
    connection,
    cluster,
    concurrency: options.concurrency,
    source,
    ...(options.agent ? { agent: options.agent } : {}),
    sink: options.sink,
    proposeOffers: offerProposer({ runner, playbooks, logger }),
    remediate: remediateProcessor(runner, new RedisRunEventSink(connection, settings.prefix), cluster, (plan, outcome) =>
      recordFix(connection, { prefix: settings.prefix, retentionSeconds: config.recurrenceRetentionDays * 86_400 }, cluster, plan.recurrence ?? '', {
        playbook: plan.playbook.id,
        outcome,
        at: new Date().toISOString(),
      }),
    ),
    remediateConcurrency: config.remediateConcurrency,
    logger,
    prefix: settings.prefix,
    lockDurationMs: config.jobLockMs,
    stalledIntervalMs: config.jobStalledCheckMs,
    incidentTtlSeconds: config.incidentTtlSeconds,
    recurrenceRetentionDays: config.recurrenceRetentionDays,
    diagnose: { ...diagnoseSettings(config), marks: (object) => marksFor(connection, settings.prefix, cluster, object, Date.now()) },
    ...(options.metrics ? { metrics: options.metrics } : {}),
    handleSignals: false,
  });
  // Workload alerts (a Deployment's unhealthy pods...) become pod diagnoses next to the
  // cluster credentials the bot may not hold.
  const expansion = startExpansionWorker({ connection, cluster, source, queues: options.queues, logger });
  const bullWorkers = [workers.diagnose, workers.remediate, expansion.worker].filter((w) => w !== undefined);
  return {
    playbooks,
    runner,
    // BullMQ's pause waits for running jobs like close() does, but leaves the forced close to
    // us: a close() begun cannot be forced any more, and it never ends while Redis is away (it
    // waits for the blocking connection's end, which a dead connection never reports).
    async drain() {
      await Promise.all(bullWorkers.map((w) => w.pause()));
    },
    async close() {
      await Promise.all(bullWorkers.map((w) => w.close(true)));
      // The same close() as the forced one above; the expansion's queues close with it.
      await Promise.all([workers.close(), expansion.close()]);
    },
  };
}
