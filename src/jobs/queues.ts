// Queues keyed by cluster, Redis connections, and the names of every Redis key this module
// owns. One prefix covers BullMQ's keys and ours, so `{pod-doctor}` puts all of them in one
// Redis Cluster slot (BullMQ needs a queue's keys in one slot; our Lua scripts need theirs).
import { Queue, type JobsOptions } from 'bullmq';
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { DiagnoseJob, RemediateJob } from './schemas.js';

export const DEFAULT_PREFIX = 'pod-doctor';

export type QueueKind = 'diagnose' | 'remediate';
export type RedisClient = Redis | Cluster;

/**
 * `diagnose.<cluster>` / `remediate.<cluster>`. BullMQ refuses ":" in queue names, so a dot
 * separates kind and cluster (cluster names are DNS labels: no dots).
 */
export function queueName(kind: QueueKind, cluster: string): string {
  return `${kind}.${cluster}`;
}

/** Redis keys outside BullMQ, all under the one prefix. Parts are structured, never rendered text. */
export const keys = {
  dedup: (prefix: string, cluster: string, target: string) => `${prefix}:${cluster}:dedup:${target}`,
  requesters: (prefix: string, cluster: string, jobId: string) => `${prefix}:${cluster}:requesters:${jobId}`,
  requestersPrefix: (prefix: string, cluster: string) => `${prefix}:${cluster}:requesters:`,
  alert: (prefix: string, cluster: string, fingerprint: string, status: string, startsAt: string) => `${prefix}:${cluster}:alert:${fingerprint}:${status}:${startsAt}`,
  incident: (prefix: string, cluster: string, rule: string, causeKey: string) => `${prefix}:${cluster}:incident:${rule}|${causeKey}`,
  incidents: (prefix: string, cluster: string) => `${prefix}:${cluster}:incidents`,
  apiBucket: (prefix: string, cluster: string) => `${prefix}:${cluster}:bucket:api`,
  chatBucket: (prefix: string, channel: string) => `${prefix}:chat:bucket:${channel}`,
  chatPause: (prefix: string, channel: string) => `${prefix}:chat:pause:${channel}`,
  results: (prefix: string, cluster: string) => `${prefix}:${cluster}:results`,
};

export interface RedisFromUrlOptions {
  /**
   * `worker`: commands wait through reconnects (`maxRetriesPerRequest: null`, BullMQ requires
   * it for workers). `producer`: a request fails after a few reconnect attempts so the edge can
   * answer 5xx and let Alertmanager or the user retry, instead of hanging.
   */
  role?: 'worker' | 'producer';
}

const ClusterNodeList = (value: unknown): ClusterNode[] | undefined => {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((n): ClusterNode => {
    if (typeof n === 'string') {
      const url = new URL(n.includes('://') ? n : `redis://${n}`);
      return { host: url.hostname, port: Number(url.port || 6379) };
    }
    return n as ClusterNode;
  });
};

/**
 * A Redis connection from `REDIS_URL` plus pass-through ioredis options
 * (`POD_DOCTOR_REDIS_OPTIONS`): `redis://`, `rediss://` (TLS), Sentinel (`sentinels` + `name`),
 * or Redis Cluster when `clusterNodes` lists nodes (the URL's credentials and TLS then apply
 * to every node).
 */
export function redisFromUrl(url: string, options: Record<string, unknown> = {}, opts: RedisFromUrlOptions = {}): RedisClient {
  const role = opts.role ?? 'worker';
  // No auto-pipelining: ioredis builds each pipeline by copying every script BullMQ defined on
  // the connection, which costs more than the writes it saves (measured with bench:slack).
  const retries = role === 'worker' ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 3 };
  const { clusterNodes, redisOptions, ...rest } = options as { clusterNodes?: unknown; redisOptions?: RedisOptions } & Record<string, unknown>;
  const nodes = ClusterNodeList(clusterNodes);
  if (nodes) {
    const parsed = new URL(url);
    const fromUrl: RedisOptions = {
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    };
    const clusterOptions: ClusterOptions = {
      ...(rest as ClusterOptions),
      ...retries,
      redisOptions: { ...fromUrl, ...redisOptions, ...retries },
    };
    return new Cluster(nodes, clusterOptions);
  }
  // Options win over what the URL says only where the URL is silent (ioredis' rule).
  const redis = new Redis(url, { ...(rest as RedisOptions), ...retries });
  coalesceWrites(redis);
  return redis;
}

type Corkable = NodeJS.WritableStream & { cork(): void; uncork(): void };

/**
 * Commands issued in one tick leave the connection in one write: ioredis writes every command
 * as it comes, and in a burst the write system calls were a quarter of the bot's CPU. (This is
 * what auto-pipelining does for the writes, without the Pipeline it builds per batch, which
 * copies every script BullMQ defined on the connection.) Replies and errors stay per command.
 */
export function coalesceWrites(redis: Redis): void {
  redis.on('connect', () => {
    // Every connect brings a new socket (ioredis makes one per connection attempt).
    const socket = redis.stream as Corkable | undefined;
    if (!socket) return;
    const write = socket.write;
    let corked = false;
    const uncork = () => {
      corked = false;
      socket.uncork();
    };
    socket.write = function (this: Corkable, ...args: Parameters<Corkable['write']>) {
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as Corkable['write'];
  });
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
}

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  prefix: DEFAULT_PREFIX,
  attempts: 5,
  backoffMs: 2000,
  dedupWindowMs: 120_000,
  alertDedupMs: 86_400_000,
  keepCompletedSeconds: 3600,
  keepFailedSeconds: 7 * 86_400,
};

export function jobSettingsFromConfig(config: Config): JobSettings {
  return {
    ...DEFAULT_JOB_SETTINGS,
    prefix: config.redisPrefix,
    attempts: config.jobAttempts,
    backoffMs: config.jobBackoffMs,
    dedupWindowMs: config.dedupWindowSeconds * 1000,
    alertDedupMs: config.alertDedupSeconds * 1000,
  };
}

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

  constructor(
    readonly redis: RedisClient,
    readonly settings: JobSettings = DEFAULT_JOB_SETTINGS,
    private readonly logger?: Logger,
  ) {}

  get prefix(): string {
    return this.settings.prefix;
  }

  diagnose(cluster: string): Queue<DiagnoseJob> {
    return this.queue('diagnose', cluster) as Queue<DiagnoseJob>;
  }

  remediate(cluster: string): Queue<RemediateJob> {
    return this.queue('remediate', cluster) as Queue<RemediateJob>;
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
        prefix: this.settings.prefix,
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
