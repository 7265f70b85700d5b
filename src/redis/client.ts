// Redis connections: a URL plus pass-through ioredis options (single node, Sentinel, Cluster),
// with the retry policy of the role that uses them.
import { readFileSync } from 'node:fs';
import { Cluster, type ClusterNode, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { PodDoctorError } from '../errors.js';

export type RedisClient = Redis | Cluster;

export interface RedisFromUrlOptions {
  /**
   * `worker`: commands wait through reconnects (`maxRetriesPerRequest: null`, BullMQ requires
   * it for workers). `producer`: a request fails after a few reconnect attempts so the edge can
   * answer 5xx and let Alertmanager or the user retry, instead of hanging.
   */
  role?: 'worker' | 'producer';
  /**
   * A `producer` command's deadline (ms; default DEFAULT_COMMAND_TIMEOUT_MS): a frozen Redis
   * (SIGSTOP, a stuck failover) answers nothing, and the edge must say "try again" as quickly
   * as when it is down. Queued while reconnecting counts too.
   */
  commandTimeoutMs?: number;
}

/** What POD_DOCTOR_REDIS_COMMAND_TIMEOUT_MS defaults to. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;

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
  const retries =
    role === 'worker' ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 3, commandTimeout: opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS };
  const { clusterNodes, redisOptions, ...rest } = options as { clusterNodes?: unknown; redisOptions?: RedisOptions } & Record<string, unknown>;
  const nodes = ClusterNodeList(clusterNodes);
  if (nodes) {
    const parsed = new URL(url);
    // Credentials and TLS are each node's: the URL's first, then the options' (as for one node).
    const { username, password, tls, ...clusterRest } = rest as Pick<RedisOptions, 'username' | 'password' | 'tls'> & Record<string, unknown>;
    const fromUrl: RedisOptions = {
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : username ? { username } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : password ? { password } : {}),
      ...(tls ? { tls } : parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    };
    const clusterOptions: ClusterOptions = {
      ...(clusterRest as ClusterOptions),
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

/** The Redis settings of the configuration (src/config/schema.ts). */
export interface RedisSettings {
  redisUrl: string;
  redisOptions: Record<string, unknown>;
  redisUsername?: string | undefined;
  redisPassword?: string | undefined;
  redisCaFile?: string | undefined;
  redisCommandTimeoutMs?: number;
}

/**
 * The ioredis options of the configuration: POD_DOCTOR_REDIS_OPTIONS, plus REDIS_USERNAME and
 * REDIS_PASSWORD where the URL names none (ioredis lets the URL win), and the CA of
 * POD_DOCTOR_REDIS_CA_FILE for TLS. What POD_DOCTOR_REDIS_OPTIONS says itself wins.
 */
export function redisOptionsFrom(config: RedisSettings): Record<string, unknown> {
  const own = config.redisOptions;
  const ca = config.redisCaFile ? readCa(config.redisCaFile) : undefined;
  const ownTls = typeof own.tls === 'object' && own.tls !== null ? (own.tls as Record<string, unknown>) : {};
  return {
    ...(config.redisUsername ? { username: config.redisUsername } : {}),
    ...(config.redisPassword ? { password: config.redisPassword } : {}),
    ...own,
    ...(ca ? { tls: { ca, ...ownTls } } : {}),
  };
}

function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new PodDoctorError('BAD_CONFIG', `POD_DOCTOR_REDIS_CA_FILE: cannot read ${file} (${why})`);
  }
}

/** A connection of the configuration (redisFromUrl with redisOptionsFrom). */
export function redisFromConfig(config: RedisSettings, opts: RedisFromUrlOptions = {}): RedisClient {
  return redisFromUrl(config.redisUrl, redisOptionsFrom(config), opts);
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

/**
 * Close a connection the polite way when it is up (QUIT: replies to what was sent come first),
 * at once when it is not: a QUIT queued behind other commands waits for a reconnect that may
 * never come.
 */
export async function closeRedis(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') await redis.quit();
  else redis.disconnect();
}

/**
 * Drop a connection at once (queued commands fail, no reconnect), unless it has already ended:
 * disconnect() on a closed socket leaves ioredis' disconnect timer (2 s) holding the process.
 */
export function dropRedis(redis: RedisClient): void {
  if (redis.status !== 'end') redis.disconnect();
}

/** The last connection error of each connection made by redisConnections(): what readiness names. */
const lastErrors = new WeakMap<RedisClient, string>();

/** What a connection that cannot reach Redis reports: refused, timed out, unresolvable, unreachable, closed, or refused login. */
const CONNECTION_ERROR = /^(ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE)$|^(NOAUTH|WRONGPASS)\b|Connection is closed/;

/**
 * An `error` listener for a BullMQ worker or queue: an error that only says Redis is away is
 * expected while it is (readiness says so): one warning per cause, without a stack, instead of
 * one error per reconnect attempt. Any other error is logged as it comes.
 */
export function redisErrorListener(logger: Pick<Logger, 'warn' | 'error'>, fields: Record<string, unknown>, msg: string): (err: Error) => void {
  let last: string | undefined;
  return (err) => {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (CONNECTION_ERROR.test(code) || CONNECTION_ERROR.test(err.message)) {
      if (last !== err.message) logger.warn({ ...fields, err: { message: err.message } }, msg);
      last = err.message;
      return;
    }
    last = undefined;
    logger.error({ ...fields, err }, msg);
  };
}

/** Whether a connection can take commands now (connected, authenticated, ready check passed). */
export function redisUp(redis: RedisClient): boolean {
  return redis.status === 'ready';
}

/**
 * A readiness check of a connection: fails at once while it is not connected, saying why (the
 * last connection error: refused, a wrong password, TLS), else PINGs. A worker connection's
 * PING would wait through reconnects, and /readyz must answer within the kubelet's timeout.
 */
export async function checkRedis(redis: RedisClient): Promise<void> {
  if (!redisUp(redis)) throw new Error(`unreachable (${lastErrors.get(redis) ?? redis.status})`);
  await redis.ping();
}

/** The connections of one process: one per role asked for, all closed together. */
export interface Connections {
  /** `producer` fails fast (commands, writes); `worker` waits through reconnects (BullMQ, stream readers). */
  connect(role: 'worker' | 'producer'): RedisClient;
  readonly all: readonly RedisClient[];
}

export function redisConnections(config: RedisSettings, logger: Pick<Logger, 'warn'>): Connections {
  const all: RedisClient[] = [];
  // Read once (the CA file): a bad setting stops the start, not the first connection.
  const options = redisOptionsFrom(config);
  return {
    all,
    connect(role) {
      const c = redisFromUrl(config.redisUrl, options, {
        role,
        ...(config.redisCommandTimeoutMs ? { commandTimeoutMs: config.redisCommandTimeoutMs } : {}),
      });
      // ioredis reconnects on its own; without a listener it would print every attempt.
      c.on('error', (err: Error) => {
        // Said once per cause, not once per reconnect attempt (every few seconds while Redis is down).
        if (lastErrors.get(c) !== err.message) logger.warn({ err: { message: err.message } }, 'redis connection error');
        lastErrors.set(c, err.message);
      });
      c.on('ready', () => lastErrors.delete(c));
      all.push(c);
      return c;
    },
  };
}
