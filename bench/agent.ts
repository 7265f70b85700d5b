// Node agent benchmark: a fixture proc tree of 2,000 processes with 50 mounts each, timed through
// the mount-holders probe (median of several runs), then the agent's memory: an agent server in a
// child process scans the same tree over HTTP and its resident set is read when idle.
// Last line: {"mount_scan_ms": N, "rss_mb": N} (goals: <= 300 ms, <= 80 MB).
//
// Every process gets its own mount namespace and its own mountinfo file (no sharing to dedupe),
// the worst case for the scan; a realistic node shares namespaces and is faster.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAgent } from '../src/agent/server.js';
import { createLogger } from '../src/log.js';
import { probe as mountHolders } from '../src/probes/mount-holders.js';
import { runProbe } from '../src/probes/probe.js';

const PROCESSES = 2000;
const MOUNTS = 50;
const RUNS = 9;
const TOKEN = 'bench-agent-token-0123456789abcdef';
const TARGET = '98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36';

function hex(n: number, len = 64): string {
  let s = '';
  let x = (n * 2654435761) >>> 0;
  while (s.length < len) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += x.toString(16).padStart(8, '0');
  }
  return s.slice(0, len);
}

function mountinfo(pid: number): string {
  const lines = [
    '41 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/centos-root rw,attr2,inode64,noquota',
    '19 41 0:3 / /proc rw,nosuid,nodev,noexec,relatime shared:5 - proc proc rw',
    '18 41 0:18 / /sys rw,nosuid,nodev,noexec,relatime shared:6 - sysfs sysfs rw',
    '20 41 0:5 / /dev rw,nosuid shared:2 - devtmpfs devtmpfs rw,size=8118884k,nr_inodes=2029721,mode=755',
    '24 41 0:20 / /run rw,nosuid,nodev shared:22 - tmpfs tmpfs rw,mode=755',
  ];
  for (let i = lines.length; i < MOUNTS; i++) {
    const layer = hex(pid * MOUNTS + i);
    if (i % 3 === 0)
      lines.push(
        `${100 + i} 41 0:${60 + i} / /var/lib/kubelet/pods/${hex(i, 8)}-0000-4000-8000-${hex(pid, 12)}/volumes/kubernetes.io~secret/token-${i} rw,relatime shared:${100 + i} - tmpfs tmpfs rw,size=16384k`,
      );
    else
      lines.push(
        `${100 + i} 41 0:${60 + i} / /var/lib/docker/overlay2/${layer}/merged rw,relatime shared:${100 + i} - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/${hex(i, 26).toUpperCase()}:/var/lib/docker/overlay2/l/${hex(i + 1, 26).toUpperCase()},upperdir=/var/lib/docker/overlay2/${layer}/diff,workdir=/var/lib/docker/overlay2/${layer}/work`,
      );
  }
  // A few namespaces (service units started after that container) keep the target's merged dir.
  if (pid % 400 === 7)
    lines.push(
      `296 183 0:183 / /var/lib/docker/overlay/${TARGET}/merged rw,relatime shared:88 - overlay overlay rw,lowerdir=/var/lib/docker/overlay/5e2a/root,upperdir=/var/lib/docker/overlay/${TARGET}/upper,workdir=/var/lib/docker/overlay/${TARGET}/work`,
    );
  return `${lines.join('\n')}\n`;
}

function buildTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'pd-bench-proc-'));
  const proc = join(root, 'proc');
  mkdirSync(proc);
  writeFileSync(join(proc, 'stat'), 'cpu  1 2 3 4\nbtime 1700000000\n');
  for (let pid = 1; pid <= PROCESSES; pid++) {
    const d = join(proc, String(pid));
    mkdirSync(join(d, 'ns'), { recursive: true });
    symlinkSync(`mnt:[${4026531840 + pid}]`, join(d, 'ns', 'mnt'));
    writeFileSync(join(d, 'mountinfo'), mountinfo(pid));
    writeFileSync(join(d, 'stat'), `${pid} (svc-${pid}) S 1 ${pid} ${pid} 0 -1 4194560 100 0 0 0 10 5 0 0 20 0 1 0 ${1000 + pid} 1000000 200 0\n`);
    writeFileSync(join(d, 'cmdline'), `/usr/sbin/svc-${pid}\0--foreground\0`);
    writeFileSync(join(d, 'cgroup'), `1:name=systemd:/system.slice/svc-${pid}.service\n0::/system.slice/svc-${pid}.service\n`);
  }
  return root;
}

/**
 * How to start the agent child: as compiled JavaScript on plain node, the way it runs in the
 * DaemonSet, so the TypeScript loader's own memory (about 30 MB for tsx) is not counted.
 * esbuild comes with tsx; without it the child runs under tsx and the note says so.
 */
async function agentCommand(dir: string): Promise<string[]> {
  const outfile = join(dir, 'agent-bench.mjs');
  try {
    const esbuild = (await import('esbuild' as string)) as { build(options: object): Promise<unknown> };
    await esbuild.build({
      entryPoints: [fileURLToPath(import.meta.url)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      banner: { js: "import { createRequire as __pdRequire } from 'node:module'; const require = __pdRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    return [process.execPath, outfile];
  } catch (err) {
    console.log(`note: cannot compile the agent (${err instanceof Error ? err.message : String(err)}); measuring it under the TypeScript loader`);
    return [process.execPath, ...process.execArgv, process.argv[1]!];
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function post(url: string, path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      `${url}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Child mode: serve the agent on the tree and print its URL. */
async function serve(procRoot: string): Promise<void> {
  const agent = await startAgent({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    // The probes' cost over loopback; bench:rss measures the agent as deployed (HTTPS).
    plainHttp: true,
    procRoot,
    hostRoot: procRoot,
    nodeName: 'bench',
    logger: createLogger({ level: 'silent' }),
    probeEnv: { dockerSockets: [], containerdSockets: [], logFiles: [] },
  });
  process.stdout.write(`${agent.url}\n`);
  process.once('SIGTERM', () => void agent.close().then(() => process.exit(0)));
}

async function main(): Promise<void> {
  if (process.argv[2] === '--serve') return serve(process.argv[3]!);
  const root = buildTree();
  const procRoot = join(root, 'proc');
  try {
    const env = { procRoot, hostRoot: root, timeoutMs: 30_000 };
    const times: number[] = [];
    let holders = 0;
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const out = await runProbe(mountHolders, { match: [TARGET] }, env);
      const ms = performance.now() - t0;
      if (!out.ok) throw new Error(out.error);
      holders = out.holders.length;
      if (i > 0) times.push(ms); // the first run warms the page cache and the JIT
    }
    const scanMs = median(times);
    console.log(
      `mount-holders: ${PROCESSES} processes x ${MOUNTS} mounts, ${PROCESSES} distinct namespaces; runs ${times.map((t) => t.toFixed(0)).join(', ')} ms; ${holders} holders found`,
    );

    // The agent in its own process: one scan over HTTP, then idle, then its resident set.
    const [cmd, ...args] = await agentCommand(root);
    const child = spawn(cmd!, [...args, '--serve', procRoot], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const line = out.split('\n')[0];
          if (out.includes('\n') && line) resolve(line.trim());
        });
        child.on('exit', (code) => reject(new Error(`agent exited ${code}`)));
      });
      const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
      const before = rssOf(child.pid!);
      const res = await post(url, '/v1/probes', {
        pod: { uid: '00000000-0000-4000-8000-000000000001', namespace: 'bench', name: 'bench-0', containerIds: [TARGET] },
        probes: ['mount-holders'],
      });
      if (res.status !== 200) throw new Error(`agent answered ${res.status}: ${res.body.slice(0, 200)}`);
      await new Promise((r) => setTimeout(r, 2000));
      const rssKb = rssOf(child.pid!);
      console.log(`agent pid ${child.pid}: VmRSS ${before} kB idle before, ${rssKb} kB after one scan over HTTP and 2 s idle`);
      console.log(JSON.stringify({ mount_scan_ms: Math.round(scanMs), rss_mb: Math.round((rssKb / 1024) * 10) / 10 }));
    } finally {
      child.kill('SIGTERM');
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
