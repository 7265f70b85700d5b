// pod-doctor roles as the real processes Kubernetes runs (`node --import tsx
// src/bin/pod-doctor.ts <role>`), a private redis-server a test may kill, and how long a SIGTERM
// takes to end a process. Every process started here is killed when the test process exits.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, redisUp } from './jobs.js';
import { track } from './redis-topology.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'src/bin/pod-doctor.ts');

export interface RoleProcess {
  child: ChildProcess;
  /** Everything written to stderr so far (pino lines, the exit watchdog's line). */
  stderr(): string;
  /** The first output line, stdout or stderr, matching `re` (already written or to come). */
  line(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (cleanup). */
  kill(): Promise<void>;
}

/** `pod-doctor <args>` with exactly `env` (plus PATH and HOME), from the repository root. */
export function spawnRole(args: string[], env: Record<string, string>): RoleProcess {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      cwd: REPO,
      // A free metrics port unless the test names one: roles of parallel tests must not share 9464.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', POD_DOCTOR_METRICS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const onLine = (l: string) => {
    lines.push(l);
    for (const w of waiters) w();
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stderr: () => stderr,
    exited,
    line: (re, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (const l of lines) {
            const m = re.exec(l);
            if (m) {
              done();
              resolve(m);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no output line matching ${re} within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        void exited.then(() => {
          if (!waiters.has(check)) return;
          done();
          reject(new Error(`exited before an output line matched ${re}; stderr:\n${stderr.slice(-2000)}`));
        });
        waiters.add(check);
        check();
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Sends SIGTERM and resolves when the process has exited, with how long that took (killed after `giveUpMs`). */
export async function sigterm(role: RoleProcess, giveUpMs = 60_000): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null }> {
  const started = Date.now();
  const killer = setTimeout(() => role.child.kill('SIGKILL'), giveUpMs);
  role.child.kill('SIGTERM');
  const { code, signal } = await role.exited;
  clearTimeout(killer);
  return { ms: Date.now() - started, code, signal };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** kill -9: the connections break, nothing answers on the port any more. */
  kill(): Promise<void>;
  /** Send `signal` while it runs: SIGSTOP freezes it (connections stay up, nothing answers), SIGCONT resumes it. */
  signal(signal: NodeJS.Signals): void;
}

/**
 * redis-server on a loopback port (free, or `port`: one a role was started against before Redis
 * was there), no persistence; answers PING when this resolves. `args` add to the command line
 * (`--requirepass`, TLS); `url` is how to reach it then (its credentials, `rediss://`), with
 * `options` for ioredis (a CA).
 */
export async function startPrivateRedis(
  o: { port?: number; args?: string[]; url?: (port: number) => string; options?: Record<string, unknown> } = {},
): Promise<PrivateRedis> {
  const port = o.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'pd-redis-'));
  const server = track(
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...(o.args ?? [])], {
      stdio: 'ignore',
    }),
  );
  const url = o.url?.(port) ?? `redis://127.0.0.1:${port}`;
  await redisUp(port, url, o.options);
  return {
    url,
    port,
    signal: (signal) => {
      if (server.exitCode === null && server.signalCode === null) server.kill(signal);
    },
    kill: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const gone = new Promise((r) => server.once('exit', r));
        server.kill('SIGKILL');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP server on loopback that accepts connections and never answers: a frozen Redis or API server. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** GET `url`: status, body and how long the answer took. */
export async function timedGet(url: string, timeoutMs = 10_000): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  return { status: res.status, body, ms: Date.now() - started };
}
