// Queues keyed by cluster, Redis connections, and the names of every Redis key this module
// owns. Every key carries a Redis Cluster hash tag: `{<prefix>:<cluster>}` for one Kubernetes
// cluster's keys (its BullMQ queues, dedup, incidents, streams, locks: one slot per cluster,
// so clusters spread over the shards) and `{<prefix>}` for keys shared by all clusters (chat).
// BullMQ needs a queue's keys in one slot; our Lua scripts only ever touch keys of one tag.
import { Queue, type JobsOptions } from 'bullmq';
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ReplicaBarrier, type Confirmation } from './replication.js';
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

/** The configured prefix without braces: `{pod-doctor}` (the old Cluster advice) and `pod-doctor` name the same keys. */
export function barePrefix(prefix: string): string {
  return prefix.replace(/[{}]/g, '');
}

/**
 * `{pod-doctor:prod-eu}`: the hash tag, and the start of every key, of one Kubernetes cluster
 * (its BullMQ prefix too). Cluster names are DNS labels, so no cluster's tag equals another's
 * or the shared one.
 */
export function clusterTag(prefix: string, cluster: string): string {
  return `{${barePrefix(prefix)}:${cluster}}`;
}

/** `{pod-doctor}`: the hash tag of keys shared by every cluster (chat threads, limits, approvals). */
export function sharedTag(prefix: string): string {
  return `{${barePrefix(prefix)}}`;
}

/** SCAN pattern matching every key of a prefix, per-cluster and shared (cleanup, the demo). */
export function keyPattern(prefix: string): string {
  return `{${barePrefix(prefix)}[:}]*`;
}

/** Redis keys outside BullMQ. Parts are structured, never rendered text. */
export const keys = {
  dedup: (prefix: string, cluster: string, target: string) => `${clusterTag(prefix, cluster)}:dedup:${target}`,
  requesters: (prefix: string, cluster: string, jobId: string) => `${clusterTag(prefix, cluster)}:requesters:${jobId}`,
  requestersPrefix: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:requesters:`,
  alert: (prefix: string, cluster: string, fingerprint: string, status: string, startsAt: string) =>
    `${clusterTag(prefix, cluster)}:alert:${fingerprint}:${status}:${startsAt}`,
  incident: (prefix: string, cluster: string, rule: string, causeKey: string) => `${clusterTag(prefix, cluster)}:incident:${rule}|${causeKey}`,
  incidents: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:incidents`,
  apiBucket: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:bucket:api`,
  results: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:results`,
  /** Shared keys: `{pod-doctor}:chat:<what>:...` (one slot for every cluster's chat state). */
  chat: (prefix: string, ...parts: string[]) => `${sharedTag(prefix)}:chat:${parts.join(':')}`,
  chatBucket: (prefix: string, channel: string) => keys.chat(prefix, 'bucket', channel),
  chatPause: (prefix: string, channel: string) => keys.chat(prefix, 'pause', channel),
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
    const cluster = new Cluster(nodes, clusterOptions);
    // Each node connection coalesces its writes, as a single connection does.
    cluster.on('+node', (node: Redis) => coalesceWrites(node));
    return cluster;
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

export function jobSettingsFromConfig(config: Config): JobSettings {
  return {
    ...DEFAULT_JOB_SETTINGS,
    prefix: config.redisPrefix,
    attempts: config.jobAttempts,
    backoffMs: config.jobBackoffMs,
    dedupWindowMs: config.dedupWindowSeconds * 1000,
    alertDedupMs: config.alertDedupSeconds * 1000,
    waitReplicas: config.redisWaitReplicas,
    waitMs: config.redisWaitMs,
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
