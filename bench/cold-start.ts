// Start and stop of the built roles (dist/, as the image runs them) while Redis is not there: a
// port that refuses, as a Redis Service without endpoints does. For each role, the time from
// spawn to its port answering /healthz, and from SIGTERM to exit on its default deadline.
// Prints one JSON line last. Goals (issue 33): every role listening within 5 s, stopped within
// 10 s. The tests (test/cli/start-without-redis.test.ts) check what does not depend on the
// machine: nothing before the port opens waits on Redis, the API server or Slack.
//   npm run bench:start      (builds first)
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { makeAgentCerts } from '../test/helpers/agent-tls.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/bin/pod-doctor.js');
const RUNS = 3;
const GOALS = { listen_ms: 5000, stop_ms: 10_000 };

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Spawns `pod-doctor <args>`, waits for the line giving its port, checks /healthz, then SIGTERMs it. */
async function startStop(args: string[], env: NodeJS.ProcessEnv, portLine: RegExp, scheme = 'http'): Promise<{ listen_ms: number; stop_ms: number }> {
  const started = performance.now();
  const p: ChildProcess = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pod-doctor ${args.join(' ')}: no port line within 60 s`)), 60_000);
      for (const stream of [p.stdout!, p.stderr!])
        createInterface({ input: stream }).on('line', (l) => {
          const m = portLine.exec(l);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      p.once('exit', (code) => reject(new Error(`pod-doctor ${args.join(' ')} exited with ${code}`)));
    });
    if (scheme === 'http') {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status !== 200) throw new Error(`pod-doctor ${args.join(' ')}: /healthz ${res.status}`);
    }
    const listen = performance.now() - started;
    const stopping = performance.now();
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
    return { listen_ms: Math.round(listen), stop_ms: Math.round(performance.now() - stopping) };
  } finally {
    p.kill('SIGKILL');
  }
}

/** The slowest of RUNS starts and stops. */
async function worst(run: () => Promise<{ listen_ms: number; stop_ms: number }>): Promise<{ listen_ms: number; stop_ms: number }> {
  const all = [];
  for (let i = 0; i < RUNS; i++) all.push(await run());
  return { listen_ms: Math.max(...all.map((r) => r.listen_ms)), stop_ms: Math.max(...all.map((r) => r.stop_ms)) };
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (npm run bench:start does)');
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-start-'));
  const certs = makeAgentCerts();
  try {
    // An API server nobody answers on, a Slack nobody answers on, Redis refusing.
    writeFileSync(
      join(dir, 'kubeconfig'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        'users: [{name: u, user: {token: t}}]',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'token'), 'bench-agent-token-0123456789');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      SLACK_BOT_TOKEN: 'xoxb-bench',
      SLACK_SIGNING_SECRET: 'bench-signing-secret',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: '0',
      POD_DOCTOR_METRICS_PORT: '0',
      KUBECONFIG: join(dir, 'kubeconfig'),
      LOG_LEVEL: 'info',
      POD_DOCTOR_CLUSTER: 'bench',
    };
    const bot = await worst(() => startStop(['bot'], env, /metrics on :(\d+)/));
    const botSplit = await worst(() => startStop(['bot', '--no-worker'], env, /metrics on :(\d+)/));
    const worker = await worst(() => startStop(['worker'], env, /metrics on :(\d+)/));
    const agentEnv = { ...env, POD_DOCTOR_AGENT_TLS_CERT: certs.certFile, POD_DOCTOR_AGENT_TLS_KEY: certs.keyFile };
    const agent = await worst(() =>
      startStop(
        ['agent', '--port', '0', '--host', '127.0.0.1', '--token-file', join(dir, 'token'), '--node-name', 'bench'],
        agentEnv,
        /"port":(\d+).*"msg":"agent listening"/,
        'https',
      ),
    );
    const roles = { bot, bot_split: botSplit, worker, agent };
    const met = Object.values(roles).every((r) => r.listen_ms <= GOALS.listen_ms && r.stop_ms <= GOALS.stop_ms);
    console.log(
      JSON.stringify({
        redis: 'refusing',
        runs: RUNS,
        ...Object.fromEntries(
          Object.entries(roles).flatMap(([name, r]) => [
            [`${name}_listen_ms`, r.listen_ms],
            [`${name}_stop_ms`, r.stop_ms],
          ]),
        ),
        goal_listen_ms: GOALS.listen_ms,
        goal_stop_ms: GOALS.stop_ms,
        goals_met: met,
      }),
    );
  } finally {
    certs.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
