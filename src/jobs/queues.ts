// BullMQ queues keyed by cluster (`diagnose.<cluster>`, `remediate.<cluster>`, each under its
// cluster's hash tag) and the job policy. Connections and key names live in src/redis/.
import { type JobsOptions, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/client.js';
import { clusterTag, DEFAULT_PREFIX } from '../redis/keys.js';
import { type Confirmation, ReplicaBarrier } from '../redis/replication.js';
import type { DiagnoseJob, RemediateJob } from './schemas.js';

export type QueueKind = 'diagnose' | 'remediate';

/**
 * `diagnose.<cluster>` / `remediate.<cluster>`. BullMQ refuses ":" in queue names, so a dot
 * separates kind and cluster (cluster names are DNS labels: no dots).
 */
export function queueName(kind: QueueKind, cluster: string): string {
  return `${kind}.${cluster}`;
}

/** Job policy as data: attempts, backoff, retention. */
export interface JobSettings {
  prefix: string;
  attempts: number;
  backoffMs: number;
  dedupWindowMs: number;
  alertDedupMs: number;
  /** Completed jobs are kept this long so late `waitForResult` callers and re-adds find them. */
  keepCompletedSeconds: number;
  keepFailedSeconds: number;
  /** Replicas that must confirm an enqueue before the edge answers (0: do not wait). */
  waitReplicas: number;
  waitMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  prefix: DEFAULT_PREFIX,
  attempts: 5,
  backoffMs: 2000,
  dedupWindowMs: 120_000,
  alertDedupMs: 86_400_000,
  keepCompletedSeconds: 3600,
  keepFailedSeconds: 7 * 86_400,
  waitReplicas: 1,
  waitMs: 500,
};

export function diagnoseJobOptions(s: JobSettings): JobsOptions {
  return {
    attempts: s.attempts,
    backoff: { type: 'exponential', delay: s.backoffMs },
    removeOnComplete: { age: s.keepCompletedSeconds, count: 50_000 },
    removeOnFail: { age: s.keepFailedSeconds, count: 50_000 },
  };
}

/** Remediations change the cluster: never retried blindly (the runner decides what is safe). */
export function remediateJobOptions(s: JobSettings): JobsOptions {
  return {
    attempts: 1,
    removeOnComplete: { age: s.keepFailedSeconds, count: 10_000 },
    removeOnFail: { age: s.keepFailedSeconds, count: 10_000 },
  };
}

/**
 * The producer side (bot, webhook, CLI): one BullMQ Queue per cluster and kind, opened on
 * first use, over one shared Redis connection the caller owns.
 */
export class JobQueues {
  private readonly open = new Map<string, Queue>();
  private readonly barrier: ReplicaBarrier;

  constructor(
    readonly redis: RedisClient,
    readonly settings: JobSettings = DEFAULT_JOB_SETTINGS,
    private readonly logger?: Logger,
  ) {
    this.barrier = new ReplicaBarrier(redis, { replicas: settings.waitReplicas, timeoutMs: settings.waitMs });
  }

  get prefix(): string {
    return this.settings.prefix;
  }

  diagnose(cluster: string): Queue<DiagnoseJob> {
    return this.queue('diagnose', cluster) as Queue<DiagnoseJob>;
  }

  remediate(cluster: string): Queue<RemediateJob> {
    return this.queue('remediate', cluster) as Queue<RemediateJob>;
  }

  /**
   * Call after enqueueing for `cluster`, before answering "accepted": waits until a replica
   * of the primary holding the cluster's slot has this connection's writes (`WAIT`), and
   * throws ReplicationError if none confirms in `waitMs`. A no-op without replicas.
   */
  confirmReplicated(cluster: string): Promise<Confirmation> {
    return this.barrier.confirm(clusterTag(this.settings.prefix, cluster));
  }

  /** Every queue opened so far (metrics read their depth). */
  all(): Queue[] {
    return [...this.open.values()];
  }

  private queue(kind: QueueKind, cluster: string): Queue {
    const name = queueName(kind, cluster);
    let q = this.open.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: this.redis,
        prefix: clusterTag(this.settings.prefix, cluster),
        defaultJobOptions: kind === 'diagnose' ? diagnoseJobOptions(this.settings) : remediateJobOptions(this.settings),
      });
      // Failing commands also reject for the caller; this listener keeps the emitter from throwing.
      q.on('error', (err) => this.logger?.warn({ err, queue: name }, 'queue error'));
      this.open.set(name, q);
    }
    return q;
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((q) => q.close()));
    this.open.clear();
  }
}
