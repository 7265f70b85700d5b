// bench:storm — an alert storm end to end: 10,000 Alertmanager notifications (HA duplicates
// and group re-sends included) about 2,000 broken pods of a 5,000-pod simulated cluster with
// five seeded root causes, enqueued through the dedup edge, drained by two `pod-doctor worker`
// processes that diagnose through the real Kubernetes client against the simulated API.
// The simulated API runs in a process of its own (bench/storm-sim.ts), as a real one would.
// Prints one JSON object as its last line:
//   drain_s        first notification sent → every accepted notification answered
//   lost           accepted notifications never answered (must be 0)
//   incidents      distinct incidents the results were grouped into (must equal seeded_causes)
//   redis_peak_mb  peak memory of the (private) Redis
//   cpu_s          CPU seconds each part used while the storm ran (edge, workers, sim, redis):
//                  on a small machine they share the cores, and this says which one was the limit
// Env: BENCH_PODS, BENCH_BROKEN, BENCH_ALERTS, BENCH_CONCURRENCY (per worker), BENCH_EDGE_CONCURRENCY
// (notifications in flight at the edge, default 64), BENCH_REDIS_URL (use an existing Redis
// instead of a private redis-server; peak memory is then a delta and its CPU is not counted).
// Flags: --clusters N spreads the broken pods over N Kubernetes clusters (c1..cN, one worker
// process each; default 1 cluster with two workers); --redis cluster runs a private Redis
// Cluster (3 primaries with --replicas N replicas each, default 1, AOF every second) instead of
// one redis-server, and adds keys_per_shard; --redis sentinel runs a primary, a replica and three
// sentinels; --fsync always makes every private Redis fsync its AOF before answering (default
// everysec). The edge waits for a replica (WAIT) as the bot does when replicas exist
// (BENCH_WAIT_REPLICAS=0: it does not). bench/storm-compare.ts runs the set-ups side by side.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Cluster } from 'ioredis';
import { enqueueDiagnosis } from '../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../src/jobs/queues.js';
import type { AlertRequester, DiagnoseResult } from '../src/jobs/schemas.js';
import { type RedisClient, redisFromUrl } from '../src/redis/client.js';
import { keyPattern, keys } from '../src/redis/keys.js';
import { NOW } from '../test/helpers/factories.js';
import { freePort } from '../test/helpers/jobs.js';
import { startRedisCluster, startSentinel } from '../test/helpers/redis-topology.js';
import { buildStormCluster } from './storm-cluster.js';

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const BROKEN = Number(process.env.BENCH_BROKEN ?? 2000);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const EDGE_CONCURRENCY = Number(process.env.BENCH_EDGE_CONCURRENCY ?? 64);
const FLAGS = parseArgs({
  options: {
    redis: { type: 'string', default: 'single' },
    clusters: { type: 'string', default: '1' },
    replicas: { type: 'string', default: '1' },
    fsync: { type: 'string', default: 'everysec' },
  },
}).values;
/** appendfsync of every private redis-server: `everysec` (the usual) or `always` (no acknowledged write lost even if the machine dies). */
const FSYNC = FLAGS.fsync === 'always' ? 'always' : 'everysec';
const MODE = FLAGS.redis === 'cluster' || FLAGS.redis === 'sentinel' ? FLAGS.redis : 'single';
const N_CLUSTERS = Math.max(1, Number(FLAGS.clusters) || 1);
const CLUSTERS = N_CLUSTERS === 1 ? ['bench'] : Array.from({ length: N_CLUSTERS }, (_, i) => `c${i + 1}`);
const WORKERS_PER_CLUSTER = N_CLUSTERS === 1 ? 2 : 1;
// A private Redis Cluster gets the default prefix, so the slots (and keys_per_shard) repeat.
const PREFIX = MODE === 'cluster' ? 'pod-doctor' : `pdbench-${process.pid}`;
const DEADLINE_S = 180;
const REPLICAS = Math.max(0, Number(FLAGS.replicas) || 0);
const WORKER = fileURLToPath(new URL('./storm-worker.ts', import.meta.url));
const SIM = fileURLToPath(new URL('./storm-sim.ts', import.meta.url));

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (msg: string) => process.stderr.write(`bench:storm: ${msg}\n`);

interface PrivateRedis {
  url: string;
  /** POD_DOCTOR_REDIS_OPTIONS for a Redis Cluster. */
  options?: { clusterNodes: { host: string; port: number }[] } | { sentinels: { host: string; port: number }[]; name: string };
  stop: () => Promise<void>;
  /** Its redis-server processes (their CPU is counted). */
  pids: number[];
}

/** A private Redis Cluster (3 primaries, `--replicas` replicas each) with the same persistence. */
async function privateCluster(): Promise<PrivateRedis> {
  const topo = await startRedisCluster({
    primaries: 3,
    replicasPerPrimary: REPLICAS,
    serverArgs: ['--appendonly', 'yes', '--appendfsync', FSYNC, '--maxmemory-policy', 'noeviction'],
  });
  return { url: 'redis://unused:6379', options: { clusterNodes: topo.clusterNodes }, stop: () => topo.stop(), pids: topo.nodes.map((n) => n.process.pid!) };
}

/** A private Sentinel setup: primary, one replica, three sentinels. */
async function privateSentinel(): Promise<PrivateRedis> {
  const topo = await startSentinel({ serverArgs: ['--appendonly', 'yes', '--appendfsync', FSYNC, '--maxmemory-policy', 'noeviction'] });
  return {
    url: 'redis://unused:6379',
    options: topo.options,
    stop: () => topo.stop(),
    pids: [topo.primary, topo.replica, ...topo.sentinels].map((n) => n.process.pid!),
  };
}

/** Memory (sum over primaries) and keys per primary. */
async function shardStats(redis: RedisClient): Promise<{ usedBytes: number; peakBytes: number; keys: number[] }> {
  const nodes = MODE === 'cluster' ? (redis as Cluster).nodes('master') : [redis];
  const infos = await Promise.all(nodes.map(async (n) => ({ info: await n.info('memory'), keys: Number(await n.dbsize()) })));
  const field = (info: string, f: string) => Number(new RegExp(`^${f}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    usedBytes: infos.reduce((a, i) => a + field(i.info, 'used_memory'), 0),
    peakBytes: infos.reduce((a, i) => a + field(i.info, 'used_memory_peak'), 0),
    keys: infos.map((i) => i.keys),
  };
}

/** A private Redis with production persistence (AOF, fsync every second). */
async function privateRedis(): Promise<PrivateRedis | null> {
  if (MODE === 'cluster') return privateCluster();
  if (MODE === 'sentinel') return privateSentinel();
  if (process.env.BENCH_REDIS_URL) return null;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-redis-'));
  const proc = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      FSYNC,
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  const failed = await new Promise<boolean>((resolve) => {
    proc.once('error', () => resolve(true));
    setTimeout(() => resolve(false), 300);
  });
  if (failed) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pids: [proc.pid!],
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds a process has used so far (user + system; 0 once it is gone). */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
  try {
    // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

type Role = 'edge' | 'workers' | 'sim' | 'redis';
const cpuOf = (roles: Record<Role, number[]>) =>
  Object.fromEntries(Object.entries(roles).map(([role, pids]) => [role, pids.reduce((a, p) => a + cpuSeconds(p), 0)])) as Record<Role, number>;

/** The simulated API in its own process; resolves once it listens and wrote the kubeconfig. */
function spawnSim(kubeconfig: string, shiftMs: number): { proc: ChildProcess; url: Promise<string>; exited: Promise<unknown> } {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', SIM, '--pods', String(PODS), '--broken', String(BROKEN), '--shift-ms', String(shiftMs), '--kubeconfig', kubeconfig],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (line.startsWith('storm-sim: ')) resolve(line.slice('storm-sim: '.length));
    });
    proc.once('exit', (code) => reject(new Error(`simulated API exited early (${code})`)));
  });
  return { proc, url, exited: new Promise((r) => proc.once('exit', r)) };
}

/** Broken pod i lives in cluster i mod N (each cluster gets every seeded cause). */
const clusterOf = (i: number) => CLUSTERS[i % CLUSTERS.length]!;

/** Each broken pod fires two alerts; each notification arrives from two Alertmanager replicas, and one is re-sent with its group. */
function notifications(
  broken: ReturnType<typeof buildStormCluster>['broken'],
  total: number,
): { cluster: string; target: (typeof broken)[number]['target']; requester: AlertRequester }[] {
  const startsAt = new Date(Date.now() - 120_000).toISOString();
  const first: ReturnType<typeof notifications> = [];
  const resend: ReturnType<typeof notifications> = [];
  broken.forEach((b, i) => {
    const alert = (name: string, n: number): AlertRequester => ({
      kind: 'alert',
      groupKey: `{}:{alertname="${name}",namespace="${b.target.namespace}"}`,
      fingerprint: (i * 2 + n).toString(16).padStart(16, '0'),
      status: 'firing',
      startsAt,
      receiver: 'pod-doctor',
    });
    const a = alert('KubePodNotReady', 0);
    const c = alert('KubeContainerWaiting', 1);
    const cluster = clusterOf(i);
    first.push(
      { cluster, target: b.target, requester: a },
      { cluster, target: b.target, requester: a },
      { cluster, target: b.target, requester: c },
      { cluster, target: b.target, requester: c },
    );
    resend.push({ cluster, target: b.target, requester: a });
  });
  // Deterministic shuffle: replicas and pods interleave as they would on the wire.
  let seed = 42;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = first.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [first[i], first[j]] = [first[j]!, first[i]!];
  }
  return [...first, ...resend].slice(0, total);
}

function spawnWorker(
  kubeconfig: string,
  redisUrl: string,
  cluster: string,
  redisOptions?: object,
): { proc: ChildProcess; ready: Promise<void>; exited: Promise<unknown> } {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, '--cluster', cluster, '--concurrency', String(CONCURRENCY), '--kubeconfig', kubeconfig, '--port', '0'],
    {
      env: {
        ...process.env,
        REDIS_URL: redisUrl,
        ...(redisOptions ? { POD_DOCTOR_REDIS_OPTIONS: JSON.stringify(redisOptions) } : {}),
        POD_DOCTOR_REDIS_PREFIX: PREFIX,
        POD_DOCTOR_API_RATE: '100000',
        POD_DOCTOR_API_BURST: '10000',
        POD_DOCTOR_API_TIMEOUT_MS: '30000',
        LOG_LEVEL: 'warn',
        POD_DOCTOR_AGENT_TOKEN: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (line.startsWith('pod-doctor worker:')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
  return { proc, ready, exited: new Promise((r) => proc.once('exit', r)) };
}

async function main(): Promise<void> {
  const own = await privateRedis();
  const redisUrl = own?.url ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = redisFromUrl(redisUrl, own?.options ?? {}, { role: 'worker' });
  // A Cluster client knows its primaries once it has read the slots.
  if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
  const baseline = (await shardStats(redis)).usedBytes;
  let peak = baseline;
  let keysPerShard: number[] = [];
  const sampler = setInterval(() => {
    void shardStats(redis).then(
      (st) => {
        peak = Math.max(peak, st.usedBytes);
        if (st.keys.reduce((a, b) => a + b, 0) > keysPerShard.reduce((a, b) => a + b, 0)) keysPerShard = st.keys;
      },
      () => undefined,
    );
  }, 200);

  // The same deterministic cluster as the simulated API's (the broken pods and their causes).
  const cluster = buildStormCluster({ total: PODS, broken: BROKEN, nodes: 100 });
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const sim = spawnSim(kubeconfig, Date.now() - Date.parse(NOW));
  const simUrl = await sim.url.catch(async (err) => {
    await own?.stop();
    throw err;
  });
  say(
    `${PODS} pods (${BROKEN} broken, ${cluster.causes.length} causes) on ${simUrl}; ${CLUSTERS.length} Kubernetes cluster(s); redis ${own ? `private ${MODE}${MODE === 'cluster' ? ` (3 primaries, ${REPLICAS} replica(s) each)` : ''}` : redisUrl}`,
  );

  const workers = CLUSTERS.flatMap((c) => Array.from({ length: WORKERS_PER_CLUSTER }, () => spawnWorker(kubeconfig, redisUrl, c, own?.options)));
  try {
    await Promise.all(workers.map((w) => w.ready));
    const queues = new JobQueues(redis, {
      ...DEFAULT_JOB_SETTINGS,
      prefix: PREFIX,
      backoffMs: 500,
      waitReplicas: Number(process.env.BENCH_WAIT_REPLICAS ?? 1),
    });
    const sent = notifications(cluster.broken, ALERTS);
    const noteKey = (r: AlertRequester) => `${r.fingerprint}|${r.status}|${r.startsAt}`;
    const accepted = new Set<string>();
    const jobs = new Set<string>();
    let rejected = 0;

    // Results as the bot would read them: from the stream the workers write.
    const answered = new Set<string>();
    const incidentOf = new Map<string, string>();
    const incidents = new Set<string>();
    let results = 0;
    const lastIds = new Map(CLUSTERS.map((c) => [c, '0-0']));
    const readResults = async () => {
      for (const c of CLUSTERS) await readStream(c);
    };
    const readStream = async (c: string) => {
      for (;;) {
        const batch = await redis.xrange(keys.results(PREFIX, c), `(${lastIds.get(c)}`, '+', 'COUNT', 1000);
        if (batch.length === 0) return;
        for (const [id, fields] of batch) {
          lastIds.set(c, id);
          const raw = fields[fields.indexOf('result') + 1];
          if (!raw) continue;
          const r = JSON.parse(raw) as DiagnoseResult;
          results++;
          for (const q of r.requesters) if (q.kind === 'alert') answered.add(noteKey(q));
          if (r.incident) {
            incidents.add(r.incident.id);
            if (r.job.target.kind === 'pod') incidentOf.set(`${r.job.cluster}/${r.job.target.namespace}/${r.job.target.name}`, r.incident.id);
          }
        }
      }
    };

    const roles: Record<Role, number[]> = {
      edge: [process.pid],
      workers: workers.map((w) => w.proc.pid!),
      sim: [sim.proc.pid!],
      redis: own?.pids ?? [],
    };
    const cpuAtStart = cpuOf(roles);
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: EDGE_CONCURRENCY }, async () => {
        while (next < sent.length) {
          const n = sent[next++]!;
          try {
            const res = await enqueueDiagnosis(queues, { cluster: n.cluster, target: n.target, reason: 'alert', requester: n.requester });
            // What the webhook does before answering 200 (a no-op without replicas).
            await queues.confirmReplicated(n.cluster);
            accepted.add(noteKey(n.requester));
            jobs.add(res.jobId);
          } catch {
            rejected++;
          }
        }
      }),
    );
    const enqueuedS = (Date.now() - started) / 1000;
    say(`${sent.length} notifications enqueued in ${enqueuedS.toFixed(1)} s: ${accepted.size} distinct accepted, ${jobs.size} jobs, ${rejected} rejected`);

    let drainedAt = 0;
    while ((Date.now() - started) / 1000 < DEADLINE_S) {
      await readResults();
      if ([...accepted].every((k) => answered.has(k))) {
        drainedAt = Date.now();
        break;
      }
      await sleep(100);
    }
    const drain = ((drainedAt || Date.now()) - started) / 1000;
    const cpuAtEnd = cpuOf(roles);
    const cpu = Object.fromEntries((Object.keys(roles) as Role[]).map((r) => [r, Math.round((cpuAtEnd[r] - cpuAtStart[r]) * 10) / 10])) as Record<Role, number>;
    const lost = [...accepted].filter((k) => !answered.has(k)).length;
    const expected = (c: string, cause: string) => {
      const seeded = cluster.causes.find((x) => x.name === cause);
      return seeded ? `${c}|${seeded.rule}|${seeded.causeKey}` : undefined;
    };
    const misgrouped = cluster.broken.filter(
      (b, i) => incidentOf.get(`${clusterOf(i)}/${b.target.namespace}/${b.target.name}`) !== expected(clusterOf(i), b.cause),
    ).length;
    await queues.close();
    clearInterval(sampler);
    const stats = await shardStats(redis);
    const peakBytes = own ? stats.peakBytes || peak : peak - baseline;
    const cpuTotal = Object.values(cpu).reduce((a, b) => a + b, 0);
    say(
      `drained in ${drain.toFixed(1)} s; ${results} results; ${incidents.size} incidents; ${misgrouped} pods misgrouped; CPU s while it ran: ${Object.entries(
        cpu,
      )
        .map(([r, s]) => `${r} ${s}`)
        .join(', ')} (${(cpuTotal / drain).toFixed(2)} cores busy)`,
    );

    console.log(
      JSON.stringify({
        drain_s: Math.round(drain * 10) / 10,
        lost,
        incidents: incidents.size,
        seeded_causes: cluster.causes.length * CLUSTERS.length,
        redis_peak_mb: Math.round((peakBytes / 1024 / 1024) * 10) / 10,
        alerts: sent.length,
        pods: PODS,
        distinct_pods: cluster.broken.length,
        accepted: accepted.size,
        jobs: jobs.size,
        results,
        misgrouped,
        enqueue_s: Math.round(enqueuedS * 10) / 10,
        enqueue_per_s: Math.round(sent.length / enqueuedS),
        redis: MODE,
        appendfsync: FSYNC,
        replicas_per_primary: MODE === 'cluster' ? REPLICAS : MODE === 'sentinel' ? 1 : 0,
        edge_concurrency: EDGE_CONCURRENCY,
        cpu_s: cpu,
        clusters: CLUSTERS.length,
        keys_per_shard: keysPerShard,
        workers: workers.length,
        concurrency_per_worker: CONCURRENCY,
      }),
    );
  } finally {
    clearInterval(sampler);
    for (const w of workers) w.proc.kill('SIGTERM');
    await Promise.race([Promise.all(workers.map((w) => w.exited)), sleep(10_000)]);
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
    sim.proc.kill('SIGTERM');
    await Promise.race([sim.exited, sleep(5000)]);
    if (own) {
      redis.disconnect();
      await own.stop();
    } else {
      let cursor = '0';
      do {
        const [c, found] = await redis.scan(cursor, 'MATCH', keyPattern(PREFIX), 'COUNT', 1000);
        cursor = c;
        if (found.length) await redis.del(...found);
      } while (cursor !== '0');
      redis.disconnect();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
