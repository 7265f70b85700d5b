// Recurrence lookup benchmark: what "it happened before" adds to a diagnosis job (one Lua call
// that records the incident and reads the fingerprint's last 7 days), on the Redis of REDIS_URL
// (default 127.0.0.1:6379), with 1,000 fingerprints of 30 incidents each already stored.
// Last line: {"recurrence_p50_ms": N, "recurrence_p95_ms": N} (goal: p95 <= 5 ms).
import type { Diagnosis, Finding } from '../src/diagnosis/types.js';
import { recordRecurrence } from '../src/jobs/recurrence.js';
import type { Incident } from '../src/jobs/schemas.js';
import { closeRedis, redisFromUrl } from '../src/redis/client.js';
import { keyPattern } from '../src/redis/keys.js';

const FINGERPRINTS = 1000;
const PER = 30;
const SAMPLES = 2000;
const DAY = 86_400_000;
const prefix = `bench-recur-${process.pid}`;
const redis = redisFromUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {}, { role: 'worker' });
const settings = { prefix, retentionSeconds: 90 * 86_400, windowDays: 7 };

const finding = (i: number): Finding => ({
  rule: 'crash.oomkilled',
  severity: 'error',
  title: 't',
  cause: 'c',
  evidence: [],
  advice: [],
  prevent: [],
  playbook: null,
  subject: `pod/shop/web-${i}`,
  causeKey: 'k',
  fingerprint: 'f',
  params: {},
  merged: [],
});
const diagnosis = (i: number): Diagnosis => ({
  target: { kind: 'pod', namespace: 'shop', name: `web-${i}` },
  cluster: 'bench',
  findings: [finding(i)],
  skipped: [],
  ruleErrors: [],
  workload: `Deployment web-${i}`,
  node: `node-${i % 50}`,
  at: new Date().toISOString(),
});
const incident = (job: string, daysAgo: number): Incident => ({
  id: job,
  cluster: 'bench',
  rule: 'crash.oomkilled',
  causeKey: 'k',
  created: true,
  firstJobId: job,
  createdAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
  count: 1,
  subjects: [],
});
const record = (i: number, job: string, daysAgo: number) =>
  recordRecurrence(redis, settings, { cluster: 'bench', diagnosis: diagnosis(i), finding: finding(i), incident: incident(job, daysAgo) });

try {
  for (let i = 0; i < FINGERPRINTS; i++) await Promise.all(Array.from({ length: PER }, (_, k) => record(i, `seed-${i}-${k}`, (k * 89) / PER)));
  const times: number[] = [];
  for (let n = 0; n < SAMPLES; n++) {
    const t = performance.now();
    const r = await record(n % FINGERPRINTS, `job-${n}`, 0);
    if (!r || r.count < 2) throw new Error(`fingerprint ${n % FINGERPRINTS}: no earlier incidents found`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 100) / 100;
  console.log(JSON.stringify({ recurrence_p50_ms: at(0.5), recurrence_p95_ms: at(0.95) }));
} finally {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
  await closeRedis(redis);
}
