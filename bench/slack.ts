// bench:slack — the Slack edge under a burst. `pod-doctor bot` runs as its own process (HTTP
// mode, in-process worker, exactly as deployed) against a fake Slack Web API and a simulated
// cluster of 600 pods (250 broken by five seeded root causes). The bench sends 200 concurrent,
// correctly signed `/pod-doctor <ns>/<pod>` commands for 200 different broken pods, spread over
// 20 channels, and watches the fake Slack API for each pod's findings in its thread.
// The measured burst comes after BENCH_WARMUP_BURSTS (2) identical bursts in other channels, as a
// bot that has served its first few hundred commands: V8 optimizes pod-doctor's larger functions
// (the collector, the renderer) only after several hundred calls, and compiling them takes
// about 40% of the bot's CPU during the first burst. That first burst is reported too.
// Prints one JSON object as its last line:
//   ack_p99_ms                 request written → HTTP 200 (Slack's limit is 3,000 ms; goal ≤ 50)
//   first_finding_p95_ms       request sent → findings posted in the thread, for the same burst
//                              (goal ≤ 1,000)
//   cold_first_finding_p95_ms  the same for the first warm-up burst (a bot just started)
//   paced_first_finding_p95_ms the same at a steady 10 commands/s (what one user sees on a quiet bot)
//   bot_cpu_ms_per_command     CPU time of pod-doctor (bot, and worker if split) for the burst / commands
//   jobs_per_s                 diagnoses finished per second in the burst (results stored), which
//                              must not depend on Slack's budget
//   slack_calls_per_command    Web API calls per command of the burst, by method
// Env: BENCH_COMMANDS (200), BENCH_CHANNELS (20), BENCH_REDIS_URL / REDIS_URL, BENCH_BOT_NODE_ARGS.
// The bot gets a Kubernetes API budget (POD_DOCTOR_API_RATE) the simulated API can serve and a
// per-channel chat budget above the burst: the bench measures pod-doctor, not the rate limits.
//
// `-- --slack-limits`: the fake Slack enforces Slack's documented limits (SLACK_LIMITS in
// test/helpers/fake-slack.ts), answering 429 past them, and the bot runs with its default chat
// budget, as deployed. The limits imply a floor: a command's findings are the second post of its
// thread (parent, findings), a channel takes one post a second after a short burst, and nothing
// can be posted before the diagnosis is done (its result stored). Adds:
//   floor_ms                          p95 of the per-command floors (see floors())
//   first_finding_over_floor_p95_ms   p95 of (finding − floor), per channel pairing the i-th
//                                     fastest answer with the i-th lowest floor (goal ≤ 1,000)
//   slack_429                         calls Slack answered 429 (goal 0)
// The paced run and the warm-up bursts are skipped there (10 commands a second into 5 channels is
// over the limits, and a warm-up burst would take as long as the measured one).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { redisFromUrl } from '../src/redis/client.js';
import { keyPattern, keys } from '../src/redis/keys.js';
import { shiftTimes } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { NOW } from '../test/helpers/factories.js';
import { messageText, SLACK_LIMITS, slackSignature, slashCommandBody, startFakeSlack } from '../test/helpers/fake-slack.js';
import { buildStormCluster } from './storm-cluster.js';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 20);
const PACED = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'bench-signing-secret-0123456789';
const PREFIX = `pdbench-slack-${process.pid}`;
// BENCH_BUILT=1 runs the compiled bot (`npm run build` first), as the image does: no tsx loader.
const BUILT = process.env.BENCH_BUILT === '1';
const BIN = fileURLToPath(new URL(BUILT ? '../dist/bin/pod-doctor.js' : '../src/bin/pod-doctor.ts', import.meta.url));
const LOADER = BUILT ? [] : ['--import', 'tsx'];

const say = (msg: string) => process.stderr.write(`bench:slack: ${msg}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** SIGTERM, then SIGKILL if it has not exited within 15 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** CPU ms a process has used so far (user + system, from /proc; NaN where there is none). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function pct(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

const LIMITS = process.argv.includes('--slack-limits');
const WARMUP_BURSTS = Number(process.env.BENCH_WARMUP_BURSTS ?? (LIMITS ? 0 : 2));
const slack = await startFakeSlack({ enforceLimits: LIMITS });
const cluster = buildStormCluster({ total: 600, broken: 250 + PACED, nodes: 20 });
// Whole seconds: the API server serves metav1.Time at second precision.
const sim = await startSim({ objects: shiftTimes(cluster.objects, Math.round((Date.now() - Date.parse(NOW)) / 1000) * 1000) });
const dir = mkdtempSync(join(tmpdir(), 'pd-bench-slack-'));
await sim.writeKubeconfig(join(dir, 'kubeconfig'));

// BENCH_BOT_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the bot process.
const botNodeArgs = (process.env.BENCH_BOT_NODE_ARGS ?? '').split(' ').filter(Boolean);
// BENCH_SPLIT=1 measures the split deployment instead: `bot --no-worker` plus one `worker`.
const split = process.env.BENCH_SPLIT === '1';
const env = {
  ...process.env,
  SLACK_BOT_TOKEN: 'xoxb-bench',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  POD_DOCTOR_METRICS_PORT: '0',
  KUBECONFIG: join(dir, 'kubeconfig'),
  REDIS_URL,
  POD_DOCTOR_REDIS_PREFIX: PREFIX,
  POD_DOCTOR_CLUSTER: 'bench',
  POD_DOCTOR_API_RATE: '100000',
  POD_DOCTOR_API_BURST: '100000',
  // Under Slack's limits the bot keeps its own defaults, as deployed.
  ...(LIMITS ? {} : { POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100', POD_DOCTOR_CHAT_BURST: '100' }),
  POD_DOCTOR_WORKER_CONCURRENCY: '16',
  LOG_LEVEL: 'warn',
};
const bot = spawn(process.execPath, [...botNodeArgs, ...LOADER, BIN, 'bot', ...(split ? ['--no-worker'] : [])], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const worker = split ? spawn(process.execPath, [...botNodeArgs, ...LOADER, BIN, 'worker'], { env, stdio: ['ignore', 'ignore', 'inherit'] }) : undefined;
const port = await new Promise<number>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the bot did not start within 60 s')), 60_000);
  bot.once('exit', (code) => reject(new Error(`the bot exited with ${code}`)));
  createInterface({ input: bot.stdout! }).on('line', (line) => {
    const m = /Slack on :(\d+)\/slack\/events/.exec(line);
    if (m) {
      clearTimeout(timer);
      resolve(Number(m[1]));
    }
  });
});
const botUrl = `http://127.0.0.1:${port}`;
say(`bot on ${botUrl}, ${cluster.broken.length} broken pods in the simulated cluster`);

/** Findings posted for `target` (the thread message that quotes it). */
const findingsAt = new Map<string, number>();
let scanned = 0;
const watch = setInterval(() => {
  // Only the messages posted since the last look: the list grows to a few thousand.
  for (; scanned < slack.messages.length; scanned++) {
    const m = slack.messages[scanned]!;
    if (!m.thread_ts) continue;
    const hit = /^\[bench\] ([a-z0-9-]+\/[a-z0-9.-]+): /.exec(m.text);
    if (hit && !findingsAt.has(hit[1]!) && /Diagnosis of /.test(messageText(m))) findingsAt.set(hit[1]!, m.postedAt);
  }
}, 5);

// Keep-alive sockets, opened during the warm-up: the burst measures the bot, not TCP handshakes.
const agent = new Agent({ keepAlive: true, maxSockets: 512 });

interface Signed {
  body: string;
  headers: Record<string, string>;
}

/** A signed slash command, built ahead (HMAC and all): the clock measures the bot, not the bench. */
function signed(text: string, channel: string): Signed {
  const body = slashCommandBody({ text, channel, user: 'U0BENCH' });
  return {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), ...slackSignature(SECRET, body) },
  };
}

/**
 * Sends one command; resolves when the bot's HTTP answer is complete. The clock starts when
 * the request gets its socket and is written (Node writes requests of one burst after the
 * loop that creates them): the ack time is the bot's, not the time this process took to
 * create the other 199 requests.
 */
function post(cmd: Signed): Promise<{ status: number; ms: number; sent: number }> {
  let started = performance.now();
  let sent = Date.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/slack/events', method: 'POST', headers: cmd.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, sent }));
    });
    req.once('socket', () => {
      started = performance.now();
      sent = Date.now();
    });
    req.on('error', reject);
    req.end(cmd.body);
  });
}

async function command(cmd: Signed): Promise<{ sent: number; ackMs: number; status: number }> {
  const res = await post(cmd);
  return { sent: res.sent, ackMs: res.ms, status: res.status };
}

/**
 * The floor Slack's postMessage limit sets for each command's findings, in ms after it was sent:
 * per channel, an ideal sender posts each command's parent and findings as soon as its result is
 * stored (`readyAt`, from the results stream) and the channel's bucket (full when the burst
 * starts) has a token, commands in the order their results came.
 */
function floors(channelOf: string[], sentAt: number[], readyAt: number[], start: number): number[] {
  const { perSecond, burst } = SLACK_LIMITS['chat.postMessage']!;
  const perMs = perSecond / 1000;
  const out = new Array<number>(channelOf.length).fill(Number.NaN);
  for (const ch of new Set(channelOf)) {
    const mine = channelOf.flatMap((c, i) => (c === ch ? [i] : [])).sort((a, b) => readyAt[a]! - readyAt[b]!);
    let tokens = burst;
    let last = start;
    for (const i of mine) {
      let t = Math.max(readyAt[i]!, last);
      for (let post = 0; post < 2; post++) {
        t = Math.max(t, last);
        tokens = Math.min(burst, tokens + (t - last) * perMs);
        if (tokens < 1) {
          t += (1 - tokens) / perMs;
          tokens = 1;
        }
        tokens -= 1;
        last = t;
      }
      out[i] = t - sentAt[i]!;
    }
  }
  return out;
}

/** When each target's result was stored in the results stream (the entry id's milliseconds). */
async function resultTimes(redis: ReturnType<typeof redisFromUrl>, stream: string, from: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const entries = (await redis.xrange(stream, String(from), '+')) as [string, string[]][];
  for (const [id, fields] of entries) {
    const raw = fields[fields.indexOf('result') + 1];
    if (!raw) continue;
    const r = JSON.parse(raw) as { job: { target: { namespace?: string; name: string } } };
    const key = `${r.job.target.namespace}/${r.job.target.name}`;
    if (!out.has(key)) out.set(key, Number(id.split('-')[0]));
  }
  return out;
}

/** Per channel, the i-th fastest answer against the i-th lowest floor: how far above it the bot was. */
function overFloor(channels: string[], actual: number[], floor: number[]): number[] {
  const by = new Map<string, { a: number[]; f: number[] }>();
  channels.forEach((ch, i) => {
    const e = by.get(ch) ?? { a: [], f: [] };
    e.a.push(actual[i]!);
    e.f.push(floor[i]!);
    by.set(ch, e);
  });
  const out: number[] = [];
  for (const { a, f } of by.values()) {
    a.sort((x, y) => x - y);
    f.sort((x, y) => x - y);
    for (const [i, v] of a.entries()) out.push(v - f[i]!);
  }
  return out;
}

async function waitFindings(targets: string[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (targets.some((t) => !findingsAt.has(t)) && Date.now() < deadline) await sleep(20);
}

const targets = cluster.broken.map((b) => `${b.target.namespace}/${b.target.name}`);
const warm = targets.slice(0, 10);
const burst = targets.slice(10, 10 + COMMANDS);
const paced = targets.slice(10 + COMMANDS, 10 + COMMANDS + PACED);

try {
  // Warm-up: the bot's first auth.test, JIT, and one keep-alive socket per concurrent command.
  await Promise.all(warm.map((t, i) => command(signed(t, `C0WARM${i % 3}`))));
  await waitFindings(warm, 30_000);
  await Promise.all(burst.map(() => post(signed('help', 'C0WARM0'))));
  await sleep(500);
  // Warm-up bursts: the same pods, other channels (a finished diagnosis is not joined: each
  // command is a new job). Their findings are forgotten before the measured burst.
  const warmups: number[] = [];
  for (let round = 0; round < WARMUP_BURSTS; round++) {
    say(`warm-up burst ${round + 1} of ${WARMUP_BURSTS}`);
    const sentAt = await Promise.all(burst.map((t, i) => command(signed(t, `C0WARM${round}${String(i % CHANNELS).padStart(3, '0')}`))));
    await waitFindings(burst, 120_000);
    warmups.push(pct(burst.map((t, i) => (findingsAt.get(t) ?? Number.NaN) - sentAt[i]!.sent).filter(Number.isFinite), 95));
    for (const t of burst) findingsAt.delete(t);
    await sleep(500);
  }

  say(`burst: ${burst.length} concurrent commands over ${CHANNELS} channels`);
  const cpuBefore = [cpuMs(bot.pid), worker ? cpuMs(worker.pid) : 0];
  const benchBefore = process.cpuUsage();
  const callsBefore = slack.callsByMethod();
  const throttledBefore = slack.throttled.length;
  const resultsKey = keys.results(PREFIX, 'bench');
  const probe = redisFromUrl(REDIS_URL, {}, { role: 'producer' });
  const resultsBefore = await probe.xlen(resultsKey);
  const burstStarted = performance.now();
  const burstStartedAt = Date.now();
  // Jobs finished: results stored in the stream, whatever chat is doing.
  let jobsDoneAt = Number.NaN;
  const jobsWatch = (async () => {
    while (!(performance.now() - burstStarted > 180_000)) {
      if ((await probe.xlen(resultsKey)) - resultsBefore >= burst.length) {
        jobsDoneAt = performance.now();
        return;
      }
      await sleep(20);
    }
  })();
  const channelOf = burst.map((_, i) => `C0BENCH${String(i % CHANNELS).padStart(3, '0')}`);
  const commands = burst.map((t, i) => signed(process.env.BENCH_TEXT ?? t, channelOf[i]!));
  const sent = await Promise.all(commands.map((c) => command(c)));
  const failed = sent.filter((s) => s.status !== 200).length;
  await waitFindings(burst, LIMITS ? 180_000 : 120_000);
  await jobsWatch;
  // Calls per command count everything a command causes (prompts, parent updates): wait until
  // Slack has heard nothing for 3 s (at most a minute).
  for (let quiet = 0, seen = slack.calls.length, waited = 0; quiet < 3000 && waited < 60_000; waited += 250) {
    await sleep(250);
    quiet = slack.calls.length === seen ? quiet + 250 : 0;
    seen = slack.calls.length;
  }
  const callsAfter = slack.callsByMethod();
  const botCpu = cpuMs(bot.pid) - cpuBefore[0]!;
  const workerCpu = worker ? cpuMs(worker.pid) - cpuBefore[1]! : 0;
  const benchCpu = process.cpuUsage(benchBefore);
  const burstMs = performance.now() - burstStarted;
  const actual = burst.map((t, i) => (findingsAt.get(t) ?? Number.NaN) - sent[i]!.sent);
  const burstFirst = actual.filter((n) => Number.isFinite(n));
  const ready = await resultTimes(probe, resultsKey, burstStartedAt);
  const floor = floors(
    channelOf,
    sent.map((x) => x.sent),
    burst.map((t) => ready.get(t) ?? Number.NaN),
    burstStartedAt,
  );
  // BENCH_DUMP=<file>: the channel posts and result times, to see where the time went.
  if (process.env.BENCH_DUMP)
    (await import('node:fs')).writeFileSync(
      process.env.BENCH_DUMP,
      JSON.stringify({
        start: burstStartedAt,
        posts: slack.messages.map((m) => ({ ch: m.channel, at: m.postedAt, root: !m.thread_ts, text: m.text.slice(0, 60) })),
        ready: Object.fromEntries(ready),
        sent: burst.map((t, i) => ({ t, ch: channelOf[i], sent: sent[i]!.sent, floor: floor[i], actual: actual[i] })),
      }),
    );
  const perCommand = (method: string) => Math.round((((callsAfter[method] ?? 0) - (callsBefore[method] ?? 0)) / burst.length) * 100) / 100;
  const slack429 = slack.throttled.length - throttledBefore;
  probe.disconnect();

  const pacedSent: { target: string; sent: number }[] = [];
  if (!LIMITS) {
    say(`paced: ${paced.length} commands at 10/s`);
    for (const [i, t] of paced.entries()) {
      void command(signed(t, `C0PACED${i % 5}`)).then((r) => pacedSent.push({ target: t, sent: r.sent }));
      await sleep(100);
    }
    await waitFindings(paced, 60_000);
  }
  const pacedFirst = pacedSent.map((p) => (findingsAt.get(p.target) ?? Number.NaN) - p.sent).filter((n) => Number.isFinite(n));

  const result = {
    deployment: split ? 'split' : 'single-process',
    slack_limits: LIMITS,
    commands: burst.length,
    channels: CHANNELS,
    non_200: failed,
    ack_p50_ms: pct(
      sent.map((s) => s.ackMs),
      50,
    ),
    ack_p99_ms: pct(
      sent.map((s) => s.ackMs),
      99,
    ),
    ack_max_ms: pct(
      sent.map((s) => s.ackMs),
      100,
    ),
    findings_posted: burstFirst.length,
    first_finding_p50_ms: pct(burstFirst, 50),
    first_finding_p95_ms: pct(burstFirst, 95),
    ...(warmups.length > 0 ? { cold_first_finding_p95_ms: warmups[0] } : {}),
    ...(LIMITS
      ? {
          floor_ms: pct(floor, 95),
          first_finding_over_floor_p95_ms: burstFirst.length === burst.length ? pct(overFloor(channelOf, actual, floor), 95) : null,
          slack_429: slack429,
        }
      : { paced_first_finding_p95_ms: pct(pacedFirst, 95) }),
    jobs_per_s: Number.isFinite(jobsDoneAt) ? Math.round((burst.length / ((jobsDoneAt - burstStarted) / 1000)) * 10) / 10 : null,
    slack_calls_per_command: {
      'chat.postMessage': perCommand('chat.postMessage'),
      'chat.update': perCommand('chat.update'),
      'chat.postEphemeral': perCommand('chat.postEphemeral'),
    },
    bot_cpu_ms_per_command: Math.round(((botCpu + workerCpu) / burst.length) * 100) / 100,
    burst_ms: Math.round(burstMs),
    bench_process_busy: Math.round(((benchCpu.user + benchCpu.system) / 1000 / burstMs) * 100) / 100,
    ...(worker ? { worker_cpu_ms_per_command: Math.round((workerCpu / burst.length) * 100) / 100 } : {}),
    slack_rejected: slack.rejected.length,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  clearInterval(watch);
  await Promise.all([bot, ...(worker ? [worker] : [])].map(stop));
  const redis = redisFromUrl(REDIS_URL, {}, { role: 'producer' });
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keyPattern(PREFIX), 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
  redis.disconnect();
  await slack.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
