// bench:storm — an alert storm end to end: 10,000 Alertmanager notifications (HA duplicates
// and group re-sends included) about 2,000 broken pods of a 5,000-pod simulated cluster with
// five seeded root causes, enqueued through the dedup edge, drained by two `pod-doctor worker`
// processes that diagnose through the real Kubernetes client against the simulated API.
// Prints one JSON object as its last line:
//   drain_s        first notification sent → every accepted notification answered
//   lost           accepted notifications never answered (must be 0)
//   incidents      distinct incidents the results were grouped into (must equal seeded_causes)
//   redis_peak_mb  peak memory of the (private) Redis
// Env: BENCH_PODS, BENCH_BROKEN, BENCH_ALERTS, BENCH_CONCURRENCY (per worker), BENCH_REDIS_URL
// (use an existing Redis instead of a private redis-server; peak memory is then a delta).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { enqueueDiagnosis } from '../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues, keys, redisFromUrl } from '../src/jobs/queues.js';
import type { AlertRequester, DiagnoseResult } from '../src/jobs/schemas.js';
import { shiftTimes } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { NOW } from '../test/helpers/factories.js';
import { buildStormCluster } from './storm-cluster.js';
import { freePort } from '../test/jobs/helpers.js';

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const BROKEN = Number(process.env.BENCH_BROKEN ?? 2000);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CLUSTER = 'bench';
const PREFIX = `pdbench-${process.pid}`;
const DEADLINE_S = 180;
const WORKER = fileURLToPath(new URL('./storm-worker.ts', import.meta.url));

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (msg: string) => process.stderr.write(`bench:storm: ${msg}\n`);

/** A private Redis with production persistence (AOF, fsync every second). */
async function privateRedis(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  if (process.env.BENCH_REDIS_URL) return null;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-redis-'));
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
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
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each broken pod fires two alerts; each notification arrives from two Alertmanager replicas, and one is re-sent with its group. */
function notifications(broken: ReturnType<typeof buildStormCluster>['broken'], total: number): { target: (typeof broken)[number]['target']; requester: AlertRequester }[] {
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
    first.push({ target: b.target, requester: a }, { target: b.target, requester: a }, { target: b.target, requester: c }, { target: b.target, requester: c });
    resend.push({ target: b.target, requester: a });
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

function spawnWorker(kubeconfig: string, redisUrl: string): { proc: ChildProcess; ready: Promise<void>; exited: Promise<unknown> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', WORKER, '--cluster', CLUSTER, '--concurrency', String(CONCURRENCY), '--kubeconfig', kubeconfig, '--port', '0'], {
    env: {
      ...process.env,
      REDIS_URL: redisUrl,
      POD_DOCTOR_REDIS_PREFIX: PREFIX,
      POD_DOCTOR_API_RATE: '100000',
      POD_DOCTOR_API_BURST: '10000',
      POD_DOCTOR_API_TIMEOUT_MS: '30000',
      LOG_LEVEL: 'warn',
      POD_DOCTOR_AGENT_TOKEN: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  const redis = redisFromUrl(redisUrl, {}, { role: 'worker' }) as Redis;
  const baseline = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
  let peak = baseline;
  const sampler = setInterval(() => {
    void redis.info('memory').then((info) => {
      peak = Math.max(peak, Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0));
    });
  }, 200);

  const cluster = buildStormCluster({ total: PODS, broken: BROKEN, nodes: 100 });
  const objects = shiftTimes(cluster.objects, Date.now() - Date.parse(NOW));
  const sim = await startSim({ objects });
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  say(`${PODS} pods (${BROKEN} broken, ${cluster.causes.length} causes) on ${sim.url}; redis ${own ? 'private' : redisUrl}`);

  const workers = [spawnWorker(kubeconfig, redisUrl), spawnWorker(kubeconfig, redisUrl)];
  try {
    await Promise.all(workers.map((w) => w.ready));
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix: PREFIX, backoffMs: 500 });
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
    let lastId = '0-0';
    const stream = keys.results(PREFIX, CLUSTER);
    const readResults = async () => {
      for (;;) {
        const batch = await redis.xrange(stream, `(${lastId}`, '+', 'COUNT', 1000);
        if (batch.length === 0) return;
        for (const [id, fields] of batch) {
          lastId = id;
          const raw = fields[fields.indexOf('result') + 1];
          if (!raw) continue;
          const r = JSON.parse(raw) as DiagnoseResult;
          results++;
          for (const q of r.requesters) if (q.kind === 'alert') answered.add(noteKey(q));
          if (r.incident) {
            incidents.add(r.incident.id);
            if (r.job.target.kind === 'pod') incidentOf.set(`${r.job.target.namespace}/${r.job.target.name}`, r.incident.id);
          }
        }
      }
    };

    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < sent.length) {
          const n = sent[next++]!;
          try {
            const res = await enqueueDiagnosis(queues, { cluster: CLUSTER, target: n.target, reason: 'alert', requester: n.requester });
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
    const lost = [...accepted].filter((k) => !answered.has(k)).length;
    const expected = new Map(cluster.causes.map((c) => [c.name, `${CLUSTER}|${c.rule}|${c.causeKey}`]));
    const misgrouped = cluster.broken.filter((b) => incidentOf.get(`${b.target.namespace}/${b.target.name}`) !== expected.get(b.cause)).length;
    await queues.close();
    clearInterval(sampler);
    const info = await redis.info('memory');
    const peakBytes = own ? Number(/used_memory_peak:(\d+)/.exec(info)?.[1] ?? peak) : peak - baseline;
    const cpu = process.cpuUsage();
    say(`drained in ${drain.toFixed(1)} s; ${results} results; ${incidents.size} incidents; ${misgrouped} pods misgrouped; bench+sim process cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);

    console.log(
      JSON.stringify({
        drain_s: Math.round(drain * 10) / 10,
        lost,
        incidents: incidents.size,
        seeded_causes: cluster.causes.length,
        redis_peak_mb: Math.round((peakBytes / 1024 / 1024) * 10) / 10,
        alerts: sent.length,
        pods: PODS,
        distinct_pods: cluster.broken.length,
        accepted: accepted.size,
        jobs: jobs.size,
        results,
        misgrouped,
        enqueue_s: Math.round(enqueuedS * 10) / 10,
        workers: workers.length,
        concurrency_per_worker: CONCURRENCY,
      }),
    );
  } finally {
    clearInterval(sampler);
    for (const w of workers) w.proc.kill('SIGTERM');
    await Promise.race([Promise.all(workers.map((w) => w.exited)), sleep(10_000)]);
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
    await sim.close();
    if (own) {
      redis.disconnect();
      await own.stop();
    } else {
      let cursor = '0';
      do {
        const [c, found] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
        cursor = c;
        if (found.length) await redis.del(...found);
      } while (cursor !== '0');
      redis.disconnect();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
