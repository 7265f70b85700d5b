// Shared pieces of the job tests: a Redis key prefix per test (so parallel files never
// collide), cleanup, a silent logger, and a FactSource whose calls can fail or stall on cue.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { FactSource } from '../../src/collect/source.js';
import type { Event, KubeObject, Node, Pod } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues, type JobSettings } from '../../src/jobs/queues.js';
import type { RunningWorkers } from '../../src/jobs/worker.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { keyPattern } from '../../src/redis/keys.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testPrefix(name: string): string {
  return `pdt-${name}-${randomBytes(4).toString('hex')}`;
}

export function connect(url = REDIS_URL, role: 'worker' | 'producer' = 'worker'): RedisClient {
  return redisFromUrl(url, {}, { role });
}

/** Delete every key under `prefix` (our keys and BullMQ's). */
export async function cleanup(redis: RedisClient, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
}

export interface JobsEnv {
  redis: RedisClient;
  prefix: string;
  queues: JobQueues;
}

/** A connection, a fresh key prefix and queues on it: what each job test starts from. */
export function openJobsEnv(name: string, settings: Partial<JobSettings> = {}): JobsEnv {
  const redis = connect();
  const prefix = testPrefix(name);
  return { redis, prefix, queues: new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix, ...settings }) };
}

/** Stops the test's workers, then removes every key it wrote. */
export async function closeJobsEnv(env: JobsEnv, workers: RunningWorkers | undefined): Promise<void> {
  await workers?.close();
  await env.queues.close();
  await cleanup(env.redis, env.prefix);
  env.redis.disconnect();
}

export type Call = keyof Omit<FactSource, 'description'>;

/**
 * Pods, nodes, namespaces and events from memory: just what the job tests need, kept apart
 * from the simulated API so these tests only depend on the job system.
 */
export function memorySource(objects: KubeObject[]): FactSource {
  const find = (kind: string, ns: string | undefined, name: string) =>
    objects.find((o) => o.kind === kind && o.metadata?.name === name && (ns === undefined || o.metadata?.namespace === ns)) ?? null;
  const events = (kind: string, name: string) =>
    objects.filter(
      (o) => o.kind === 'Event' && (o as unknown as Event).involvedObject.kind === kind && (o as unknown as Event).involvedObject.name === name,
    ) as unknown as Event[];
  return {
    description: 'memory',
    getPod: async (ns, name) => find('Pod', ns, name) as Pod | null,
    listPodEvents: async (_ns, name) => events('Pod', name),
    getNode: async (name) => find('Node', undefined, name) as Node | null,
    listNodeEvents: async (name) => events('Node', name),
    listNodes: async () => objects.filter((o) => o.kind === 'Node') as Node[],
    listPods: async (q) =>
      (objects.filter((o) => o.kind === 'Pod') as Pod[]).filter(
        (p) => (!q.namespace || p.metadata?.namespace === q.namespace) && (!q.nodeName || p.spec?.nodeName === q.nodeName),
      ),
    getNamespace: async (name) => find('Namespace', undefined, name) as never,
    getOwner: async (ns, kind, name) => find(kind, ns, name),
    getPersistentVolume: async (name) => find('PersistentVolume', undefined, name),
    listObjectEvents: async (_ns, kind, name) => events(kind, name),
    getStorageClass: async (name) => find('StorageClass', undefined, name),
    getVolumeAttachment: async (name) => find('VolumeAttachment', undefined, name),
    getCsiNode: async (name) => find('CSINode', undefined, name),
    listWebhookConfigurations: async () => objects.filter((o) => o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration'),
    getService: async (ns, name) => find('Service', ns, name),
    getEndpoints: async (ns, name) => find('Endpoints', ns, name),
    serviceAccountMetadata: async (ns, name) => find('ServiceAccount', ns, name),
    listDisruptionBudgets: async (ns) => objects.filter((o) => o.kind === 'PodDisruptionBudget' && o.metadata?.namespace === ns),
    listAutoscalers: async (ns) => objects.filter((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata?.namespace === ns),
    listNetworkPolicies: async (ns) => objects.filter((o) => o.kind === 'NetworkPolicy' && o.metadata?.namespace === ns),
    listServices: async (ns) => objects.filter((o) => o.kind === 'Service' && o.metadata?.namespace === ns),
    listRoleBindings: async (ns) => objects.filter((o) => o.kind === 'RoleBinding' && o.metadata?.namespace === ns),
    listClusterRoleBindings: async () => objects.filter((o) => o.kind === 'ClusterRoleBinding'),
    getRole: async (ns, name) => (ns ? find('Role', ns, name) : find('ClusterRole', undefined, name)),
    listNamespaceWarnings: async (ns) =>
      (objects.filter((o) => o.kind === 'Event' && o.metadata?.namespace === ns) as unknown as Event[]).filter((e) => e.type === 'Warning'),
    configMapExists: async (ns, name) => find('ConfigMap', ns, name) !== null,
    secretExists: async (ns, name) => find('Secret', ns, name) !== null,
    configMetadata: async (ns, kind, name) => {
      const o = find(kind, ns, name);
      return o ? { apiVersion: 'v1', kind, metadata: o.metadata ?? {} } : null;
    },
    listRevisions: async (ns, kind) => objects.filter((o) => o.kind === kind && o.metadata?.namespace === ns),
    getPvc: async (ns, name) => find('PersistentVolumeClaim', ns, name) as never,
    getLease: async () => null,
    listWorkloadEndpoints: async () => null,
    podLog: async () => null,
    listNamespaceContents: async () => [],
  };
}

/**
 * Objects served as a FactSource, with hooks: `before(call, args)` may throw (simulated API
 * errors) or wait (a slow API); every call is counted.
 */
export function scriptedSource(objects: KubeObject[], before?: (call: Call, args: unknown[]) => Promise<void> | void): FactSource & { calls: Call[] } {
  const inner = memorySource(objects);
  const calls: Call[] = [];
  const wrap =
    <K extends Call>(name: K) =>
    async (...args: unknown[]) => {
      calls.push(name);
      await before?.(name, args);
      return (inner[name] as (...a: unknown[]) => Promise<unknown>).apply(inner, args);
    };
  // Every read of the memory source, so a new FactSource method is counted without listing it here.
  const names = Object.keys(inner).filter((k): k is Call => k !== 'description');
  const source = { description: inner.description, calls } as Record<string, unknown>;
  for (const n of names) source[n] = wrap(n);
  return source as unknown as FactSource & { calls: Call[] };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Poll `check` until it returns a truthy value. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** A TCP port free on loopback right now (for a private redis-server and the like). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A private redis-server that writes every command to its AOF before answering (kill -9 safe). */
export function startAofRedis(port: number, dir: string): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], {
    stdio: 'ignore',
  });
}

/** Resolves once the redis-server on `port` answers PING (through `url`, with its credentials or TLS, when given). */
export async function redisUp(port: number, url = `redis://127.0.0.1:${port}`, options: Record<string, unknown> = {}): Promise<void> {
  const probe = redisFromUrl(url, { ...options, lazyConnect: true, retryStrategy: () => null }, { role: 'producer' });
  probe.on('error', () => undefined);
  try {
    await eventually(async () => {
      try {
        if (probe.status !== 'ready') await probe.connect().catch(() => undefined);
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      }
    }, 10_000);
  } finally {
    probe.disconnect();
  }
}
