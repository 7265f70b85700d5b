// Idle resident memory of the built roles (dist/, as the image runs them): the bot with its
// in-process worker thread, the bot alone (split deployment), the worker, and the node agent.
// Each runs against a simulated cluster for a few seconds after start, then its VmRSS is read
// from /proc. Prints one JSON line last. Goals: bot (split) <= 150 MB, agent <= 60 MB.
//   npm run bench:rss      (builds first)
//   BENCH_RSS_ROLES=agent npm run bench:rss   (only the roles named, comma-separated: bot,bot_split,worker,agent)
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAgentCerts } from '../test/helpers/agent-tls.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/bin/pod-doctor.js');
const SETTLE_MS = 8000;
// What the image sets (Dockerfile ENV NODE_OPTIONS).
const NODE_FLAGS = ['--max-semi-space-size=2'];
const ROLES = new Set((process.env.BENCH_RSS_ROLES || 'bot,bot_split,worker,agent').split(',').map((r) => r.trim()));
/** The agent's own V8 flags: the `command` of deploy/base/agent.yaml (e.g. --lite-mode). */
function agentFlags(): string[] {
  const manifest = readFileSync(join(ROOT, 'deploy/base/agent.yaml'), 'utf8');
  const command = /^\s*command:\s*\[([^\]]*)\]/m.exec(manifest)?.[1] ?? '';
  return command
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('--'));
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round((Number(m?.[1] ?? 0) / 1024) * 10) / 10;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(args: string[], env: NodeJS.ProcessEnv, flags: string[] = []): Promise<number> {
  const p: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, ...flags, CLI, ...args], { env, stdio: 'ignore' });
  try {
    await sleep(SETTLE_MS);
    if (p.exitCode !== null) throw new Error(`pod-doctor ${args.join(' ')} exited with ${p.exitCode}`);
    return rssMb(p.pid!);
  } finally {
    p.kill('SIGTERM');
    await sleep(500);
    p.kill('SIGKILL');
  }
}

/** As deployed: HTTPS from a certificate and key file, /metrics served. */
async function measureAgent(env: NodeJS.ProcessEnv, dir: string): Promise<number> {
  const certs = makeAgentCerts();
  const agentEnv = { ...env, POD_DOCTOR_AGENT_TLS_CERT: certs.certFile, POD_DOCTOR_AGENT_TLS_KEY: certs.keyFile };
  return measure(['agent', '--port', '0', '--host', '127.0.0.1', '--token-file', join(dir, 'token'), '--node-name', 'bench'], agentEnv, agentFlags()).finally(
    () => certs.cleanup(),
  );
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (npm run bench:rss does)');
  const dir = mkdtempSync(join(tmpdir(), 'pd-bench-rss-'));
  const sim = spawn(process.execPath, [CLI, 'sim', join(ROOT, 'test/fixtures/incidents/crash-liveness-probe'), '--write-kubeconfig', join(dir, 'kubeconfig')], {
    stdio: 'ignore',
  });
  try {
    await sleep(3000);
    writeFileSync(join(dir, 'token'), 'bench-agent-token-0123456789');
    const env = {
      ...process.env,
      SLACK_BOT_TOKEN: 'xoxb-bench',
      SLACK_SIGNING_SECRET: 'bench-signing-secret',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: '0',
      POD_DOCTOR_METRICS_PORT: '0',
      KUBECONFIG: join(dir, 'kubeconfig'),
      LOG_LEVEL: 'warn',
      POD_DOCTOR_CLUSTER: 'bench',
    };
    const bot = ROLES.has('bot') ? await measure(['bot'], env) : undefined;
    const botSplit = ROLES.has('bot_split') ? await measure(['bot', '--no-worker'], env) : undefined;
    const worker = ROLES.has('worker') ? await measure(['worker'], env) : undefined;
    const agent = ROLES.has('agent') ? await measureAgent(env, dir) : undefined;
    console.log(
      JSON.stringify({
        bot_rss_mb: bot,
        bot_split_rss_mb: botSplit,
        worker_rss_mb: worker,
        agent_rss_mb: agent,
        node_flags: NODE_FLAGS.join(' '),
        agent_flags: agentFlags().join(' '),
      }),
    );
  } finally {
    sim.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
