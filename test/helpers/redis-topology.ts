// Real Redis topologies for tests and benches: a Redis Cluster (primaries + replicas) or a
// Sentinel setup (primary, replica, three sentinels), made of Debian's `redis-server`
// processes on free loopback ports in a temp dir. Every process is killed by stop(), and on
// process exit if the caller never got there.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keySlot } from '../../src/redis/replication.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Ports that are free now and not adjacent-reserved: cluster buses use port + 10000. */
async function freePorts(n: number, bus = false): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort();
    if (bus && p + 10_000 > 65_535) continue;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

const live = new Set<ChildProcess>();
let hooked = false;
/** Kill `child` when the test process exits, whatever happens to the test. */
export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  return child;
}

/** Credentials of a topology's nodes: an ACL user on every data node (the `default` user off), and the sentinels' own password. */
export interface TopologyAuth {
  user: string;
  password: string;
  /** Sentinels require it (`requirepass`), and give it to each other (`sentinel sentinel-pass`). */
  sentinelPassword?: string;
}

/** What the helpers' own redis-cli calls log in with, per port. */
const cliAuth = new Map<number, { user?: string; password: string }>();

/** redis-cli's arguments and environment for `port`: REDISCLI_AUTH keeps the password off the command line. */
function cliLogin(port: number): { args: string[]; env: NodeJS.ProcessEnv } {
  const auth = cliAuth.get(port);
  if (!auth) return { args: [], env: process.env };
  return { args: [...(auth.user ? ['--user', auth.user] : []), '--no-auth-warning'], env: { ...process.env, REDISCLI_AUTH: auth.password } };
}

/** The arguments that give a data node the ACL user (and its replication login as that user). */
function authArgs(auth: TopologyAuth | undefined): string[] {
  if (!auth) return [];
  return [
    '--user',
    'default',
    'off',
    '--user',
    auth.user,
    'on',
    `>${auth.password}`,
    '~*',
    '&*',
    '+@all',
    '--masteruser',
    auth.user,
    '--masterauth',
    auth.password,
  ];
}

export async function cli(port: number, ...args: string[]): Promise<string> {
  const login = cliLogin(port);
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...login.args, ...args], { timeout: 30_000, env: login.env });
  return stdout.trim();
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Until `port`'s replicas stream writes: a freshly synced replica gets the write stream only
 * after its first REPLCONF ACK (up to a second later), so WAIT times out before that.
 */
async function replicasStreaming(port: number, key: string): Promise<void> {
  await until(`replicas of :${port} acknowledging`, async () => {
    const login = cliLogin(port);
    const child = spawn('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...login.args], { stdio: ['pipe', 'pipe', 'ignore'], env: login.env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(`SET ${key} 1\nWAIT 1 200\nDEL ${key}\n`);
    await new Promise((r) => child.once('exit', r));
    return out.split('\n')[1]?.trim() === '1';
  });
}

export interface RedisNode {
  port: number;
  process: ChildProcess;
}

function startServer(dir: string, port: number, extra: string[]): ChildProcess {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir, ...extra],
    { stdio: 'ignore' },
  );
  return track(child);
}

/** The cluster's live primaries as `port` sees them (CLUSTER NODES). */
async function primariesOf(port: number): Promise<{ port: number; replicas: number[]; slots: [number, number][] }[]> {
  const raw = await cli(port, 'cluster', 'nodes');
  const rows = raw.split('\n').map((l) => l.split(' '));
  const masters = rows.filter((r) => r[2]!.includes('master') && !r[2]!.includes('fail') && r.length > 8);
  return masters.map((m) => ({
    port: Number(m[1]!.split('@')[0]!.split(':')[1]),
    replicas: rows.filter((r) => r[3] === m[0] && !r[2]!.includes('fail')).map((r) => Number(r[1]!.split('@')[0]!.split(':')[1])),
    slots: m
      .slice(8)
      .filter((s) => /^\d+(-\d+)?$/.test(s))
      .map((s) => s.split('-').map(Number))
      .map((s) => [s[0]!, s[1] ?? s[0]!] as [number, number]),
  }));
}

export interface RedisClusterTopology {
  nodes: RedisNode[];
  /** `[{host, port}]` of every node: what POD_DOCTOR_REDIS_OPTIONS' clusterNodes takes. */
  clusterNodes: { host: string; port: number }[];
  /** Primaries (port) and the slot ranges they serve, from CLUSTER SHARDS' view. */
  primaries(): Promise<{ port: number; replicas: number[]; slots: [number, number][] }[]>;
  /** kill -9 one node. */
  kill(port: number): void;
  stop(): Promise<void>;
}

/** A Redis Cluster of `primaries` primaries with `replicasPerPrimary` replicas each. */
export async function startRedisCluster(
  options: { primaries?: number; replicasPerPrimary?: number; nodeTimeoutMs?: number; serverArgs?: string[]; auth?: TopologyAuth } = {},
): Promise<RedisClusterTopology> {
  const primaries = options.primaries ?? 3;
  const perPrimary = options.replicasPerPrimary ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'pd-rcluster-'));
  const ports = await freePorts(primaries * (1 + perPrimary), true);
  const nodes = ports.map((port) => ({
    port,
    process: startServer(dir, port, [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      String(options.nodeTimeoutMs ?? 2000),
      '--dbfilename',
      `dump-${port}.rdb`,
      '--appendfilename',
      `appendonly-${port}.aof`,
      '--appenddirname',
      `aof-${port}`,
      ...authArgs(options.auth),
      ...(options.serverArgs ?? []),
    ]),
  }));
  if (options.auth) for (const port of ports) cliAuth.set(port, options.auth);
  const stop = async () => {
    for (const n of nodes) {
      n.process.kill('SIGKILL');
      cliAuth.delete(n.port);
    }
    await Promise.all(
      nodes.map((n) => (n.process.exitCode === null && n.process.signalCode === null ? new Promise((r) => n.process.once('exit', r)) : undefined)),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const n of nodes) await until(`redis-server :${n.port}`, async () => (await cli(n.port, 'ping')) === 'PONG');
    const login = cliLogin(ports[0]!);
    await run(
      'redis-cli',
      [...login.args, '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(perPrimary), '--cluster-yes'],
      { timeout: 60_000, env: login.env },
    );
    await until(
      'cluster state ok',
      async () => {
        for (const n of nodes) if (!(await cli(n.port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
        // Every replica linked to its primary.
        const roles = await Promise.all(nodes.map((n) => cli(n.port, 'info', 'replication')));
        return roles.filter((r) => /role:slave/.test(r) && /master_link_status:up/.test(r)).length === primaries * perPrimary;
      },
      30_000,
    );
    if (perPrimary > 0)
      for (const p of await primariesOf(nodes[0]!.port)) {
        let i = 0;
        while (!p.slots.some(([a, b]) => keySlot(`warm-${i}`) >= a && keySlot(`warm-${i}`) <= b)) i++;
        await replicasStreaming(p.port, `warm-${i}`);
      }
  } catch (err) {
    await stop();
    throw err;
  }
  const primariesNow = async () => primariesOf(nodes.find((n) => n.process.exitCode === null && n.process.signalCode === null)!.port);
  return {
    nodes,
    clusterNodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    primaries: primariesNow,
    kill: (port) => nodes.find((n) => n.port === port)?.process.kill('SIGKILL'),
    stop,
  };
}

export interface SentinelTopology {
  primary: RedisNode;
  replica: RedisNode;
  sentinels: RedisNode[];
  name: string;
  /** What POD_DOCTOR_REDIS_OPTIONS takes. */
  options: { sentinels: { host: string; port: number }[]; name: string };
  /** The port Sentinel names as primary now. */
  currentPrimary(): Promise<number>;
  kill(port: number): void;
  stop(): Promise<void>;
}

/** One primary, one replica, three sentinels (quorum 2) watching them as `name`. */
export async function startSentinel(
  options: { name?: string; downAfterMs?: number; serverArgs?: string[]; auth?: TopologyAuth } = {},
): Promise<SentinelTopology> {
  const name = options.name ?? 'pdmaster';
  const dir = mkdtempSync(join(tmpdir(), 'pd-sentinel-'));
  const [pPort, rPort, ...sPorts] = await freePorts(5);
  const auth = options.auth;
  if (auth) {
    cliAuth.set(pPort!, auth);
    cliAuth.set(rPort!, auth);
    if (auth.sentinelPassword) for (const p of sPorts) cliAuth.set(p, { password: auth.sentinelPassword });
  }
  const all: RedisNode[] = [];
  const stop = async () => {
    for (const p of [pPort!, rPort!, ...sPorts]) cliAuth.delete(p);
    for (const n of all) n.process.kill('SIGKILL');
    await Promise.all(
      all.map((n) => (n.process.exitCode === null && n.process.signalCode === null ? new Promise((r) => n.process.once('exit', r)) : undefined)),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const primary = {
      port: pPort!,
      process: startServer(dir, pPort!, [
        '--dbfilename',
        `dump-${pPort}.rdb`,
        '--appenddirname',
        `aof-${pPort}`,
        ...authArgs(auth),
        ...(options.serverArgs ?? []),
      ]),
    };
    all.push(primary);
    const replica = {
      port: rPort!,
      process: startServer(dir, rPort!, [
        '--dbfilename',
        `dump-${rPort}.rdb`,
        '--appenddirname',
        `aof-${rPort}`,
        '--replicaof',
        '127.0.0.1',
        String(pPort),
        ...authArgs(auth),
        ...(options.serverArgs ?? []),
      ]),
    };
    all.push(replica);
    await until('replica link', async () => /master_link_status:up/.test(await cli(rPort!, 'info', 'replication')));
    await replicasStreaming(pPort!, 'warm');
    const sentinels = sPorts.map((port) => {
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${pPort} 2`,
          `sentinel down-after-milliseconds ${name} ${options.downAfterMs ?? 1000}`,
          `sentinel failover-timeout ${name} 5000`,
          `sentinel parallel-syncs ${name} 1`,
          ...(auth ? [`sentinel auth-user ${name} ${auth.user}`, `sentinel auth-pass ${name} ${auth.password}`] : []),
          ...(auth?.sentinelPassword ? [`requirepass ${auth.sentinelPassword}`, `sentinel sentinel-pass ${auth.sentinelPassword}`] : []),
          '',
        ].join('\n'),
      );
      const node = { port, process: track(spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' })) };
      all.push(node);
      return node;
    });
    await until(
      'sentinels see the replica and each other',
      async () => {
        for (const s of sentinels) {
          const info = await cli(s.port, 'sentinel', 'master', name);
          const field = (k: string) => Number(info.split('\n')[info.split('\n').indexOf(k) + 1]);
          if (field('num-slaves') < 1 || field('num-other-sentinels') < 2) return false;
        }
        return true;
      },
      30_000,
    );
    const currentPrimary = async () => {
      for (const s of sentinels) {
        if (s.process.exitCode !== null) continue;
        const out = await cli(s.port, 'sentinel', 'get-master-addr-by-name', name).catch(() => '');
        const port = Number(out.split('\n')[1]);
        if (port) return port;
      }
      throw new Error('no sentinel answered');
    };
    return {
      primary,
      replica,
      sentinels,
      name,
      options: { sentinels: sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })), name },
      currentPrimary,
      kill: (port) => all.find((n) => n.port === port)?.process.kill('SIGKILL'),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
