// bench:storm:compare — bench:storm on each Redis set-up, in alternating rounds so that a slow
// minute on a shared machine hits every set-up alike, and the medians side by side:
//   single              one redis-server, no replica (no WAIT: nothing to wait for)
//   cluster             Redis Cluster, 3 primaries, no replica: the same guarantee as single
//   sentinel            primary + replica + 3 sentinels, WAIT 1 before acknowledging
//   cluster+replicas    Redis Cluster, 3 primaries + 3 replicas, WAIT 1: the same guarantee as sentinel
// Each pair compares set-ups that promise the same thing about an acknowledged alert.
//   npm run bench:storm:compare -- [--rounds 3] [--clusters 4] [--only single,cluster] [--fsync always]
// Prints a table, then one JSON object as its last line (medians per set-up, and each pair's ratio).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SETUPS = {
  single: ['--redis', 'single'],
  cluster: ['--redis', 'cluster', '--replicas', '0'],
  sentinel: ['--redis', 'sentinel'],
  'cluster+replicas': ['--redis', 'cluster', '--replicas', '1'],
} as const;
type Setup = keyof typeof SETUPS;
/** [faster one expected to keep up, baseline]: same durability on both sides. */
const PAIRS: [Setup, Setup][] = [
  ['cluster', 'single'],
  ['cluster+replicas', 'sentinel'],
];

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    clusters: { type: 'string', default: '4' },
    only: { type: 'string' },
    fsync: { type: 'string', default: 'everysec' },
  },
});
const rounds = Math.max(1, Number(values.rounds) || 1);
const setups = (values.only ? values.only.split(',') : Object.keys(SETUPS)).filter((s): s is Setup => s in SETUPS);
const STORM = fileURLToPath(new URL('./storm.ts', import.meta.url));
const say = (msg: string) => process.stderr.write(`bench:storm:compare: ${msg}\n`);

interface Run {
  enqueue_per_s: number;
  drain_s: number;
  jobs: number;
  lost: number;
  misgrouped: number;
  redis_peak_mb: number;
  keys_per_shard: number[];
  cpu_s: Record<string, number>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const runs = new Map<Setup, Run[]>(setups.map((s) => [s, []]));
for (let round = 1; round <= rounds; round++) {
  for (const setup of setups) {
    const res = spawnSync(process.execPath, ['--import', 'tsx', STORM, '--clusters', values.clusters!, '--fsync', values.fsync!, ...SETUPS[setup]], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const last = res.stdout.trim().split('\n').at(-1) ?? '';
    if (res.status !== 0 || !last.startsWith('{')) {
      process.stderr.write(res.stderr);
      throw new Error(`bench:storm ${SETUPS[setup].join(' ')} failed (exit ${res.status})`);
    }
    const run = JSON.parse(last) as Run;
    runs.get(setup)!.push(run);
    say(`round ${round}/${rounds} ${setup}: ${run.enqueue_per_s}/s, drain ${run.drain_s} s, ${run.jobs} jobs, ${run.lost} lost`);
  }
}

/** Medians over a set-up's runs (lost and misgrouped: the worst run), and every run's rate. */
interface Summary extends Run {
  enqueue_per_s_runs: number[];
}

const summary: Partial<Record<Setup, Summary>> = Object.fromEntries(
  setups.map((s): [Setup, Summary] => {
    const rs = runs.get(s)!;
    const cpu = Object.fromEntries(Object.keys(rs[0]!.cpu_s).map((k) => [k, median(rs.map((r) => r.cpu_s[k] ?? 0))]));
    return [
      s,
      {
        enqueue_per_s: median(rs.map((r) => r.enqueue_per_s)),
        enqueue_per_s_runs: rs.map((r) => r.enqueue_per_s),
        drain_s: median(rs.map((r) => r.drain_s)),
        jobs: median(rs.map((r) => r.jobs)),
        lost: Math.max(...rs.map((r) => r.lost)),
        misgrouped: Math.max(...rs.map((r) => r.misgrouped)),
        redis_peak_mb: median(rs.map((r) => r.redis_peak_mb)),
        keys_per_shard: rs.at(-1)!.keys_per_shard,
        cpu_s: cpu,
      },
    ];
  }),
);

const pad = (v: unknown, n: number) => String(v).padStart(n);
console.log(
  `${'set-up'.padEnd(18)}${pad('enqueue/s', 11)}${pad('drain s', 9)}${pad('jobs', 7)}${pad('lost', 6)}  CPU s (edge/workers/sim/redis)  keys per shard`,
);
for (const s of setups) {
  const x = summary[s]!;
  const c = x.cpu_s;
  console.log(
    `${s.padEnd(18)}${pad(x.enqueue_per_s, 11)}${pad(x.drain_s, 9)}${pad(x.jobs, 7)}${pad(x.lost, 6)}  ${[c.edge, c.workers, c.sim, c.redis].join(' / ').padEnd(30)} ${x.keys_per_shard.join(' / ')}`,
  );
}
const ratios: Record<string, number> = {};
for (const [a, b] of PAIRS) {
  const [x, y] = [summary[a], summary[b]];
  if (!x || !y) continue;
  const r = x.enqueue_per_s / y.enqueue_per_s;
  ratios[`${a}/${b}`] = Math.round(r * 100) / 100;
  console.log(`${a} vs ${b}: ${Math.round(r * 100)}% of the enqueue rate (medians of ${rounds} round(s))`);
}
console.log(JSON.stringify({ rounds, clusters: Number(values.clusters), appendfsync: values.fsync, setups: summary, ratios }));
