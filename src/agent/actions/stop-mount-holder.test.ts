// stop-mount-holder over a temp proc tree (the shape of the real-node reproduction: the kubelet
// in the host namespace, `unshare -m … sleep` working inside the pod's emptyDir) with a fake
// HostExec that records signals and decides which pids are alive. Plus the real kill(2) calls.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silent } from '../../../test/helpers/logger.js';
import { hostProcessAlive, signalHostProcess } from './host-exec.js';
import { createActionHandler } from './index.js';
import { nodeCriticalName } from './stop-mount-holder.js';
import type { ExecResult, HostExec } from './types.js';

const UID = 'fb153396-24b1-43e2-82ae-2782ebdef33c';
const OTHER_UID = '00000000-0000-4000-8000-00000000abcd';
const CID = 'ab'.repeat(32);
const VOL = `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~empty-dir/cache`;
const HOST_NS = 'mnt:[4026531840]';
const pod = { uid: UID, namespace: 'shop', name: 'web-1', containerIds: [] };

interface Proc {
  pid: number;
  comm: string;
  argv: string[];
  ns: string;
  cgroup: string;
  holds?: boolean;
  cwd?: string;
  startTicks?: number;
}

const SESSION = '0::/user.slice/user-0.slice/session-3.scope';
const PROCS: Proc[] = [
  { pid: 1, comm: 'systemd', argv: ['/sbin/init'], ns: HOST_NS, cgroup: '0::/init.scope', holds: true },
  {
    pid: 500,
    comm: 'kubelet',
    argv: ['/usr/bin/kubelet', '--config=/var/lib/kubelet/config.yaml'],
    ns: HOST_NS,
    cgroup: '0::/system.slice/kubelet.service',
    holds: true,
  },
  { pid: 501, comm: 'bash', argv: ['-bash'], ns: HOST_NS, cgroup: SESSION, holds: true },
  // The reproduction: a slave mount namespace, working inside the emptyDir.
  { pid: 777, comm: 'sleep', argv: ['sleep', '100000'], ns: 'mnt:[4026532300]', cgroup: SESSION, holds: true, cwd: `${VOL}/sessions` },
  { pid: 778, comm: 'backupd', argv: ['/usr/sbin/backupd', '-f'], ns: 'mnt:[4026532301]', cgroup: '0::/system.slice/backupd.service', holds: true },
  { pid: 779, comm: 'hyperkube', argv: ['/hyperkube', 'kubelet', '--v=2'], ns: 'mnt:[4026532302]', cgroup: SESSION, holds: true },
  { pid: 780, comm: 'sshd', argv: ['sshd: root@pts/0'], ns: 'mnt:[4026532303]', cgroup: SESSION, holds: true },
  {
    pid: 781,
    comm: 'containerd-shim',
    argv: ['/usr/bin/containerd-shim-runc-v2', '-namespace', 'k8s.io', '-id', 'abc'],
    ns: 'mnt:[4026532304]',
    cgroup: SESSION,
    holds: true,
  },
  {
    pid: 888,
    comm: 'app',
    argv: ['/app'],
    ns: 'mnt:[4026532400]',
    cgroup: `0::/kubepods.slice/kubepods-pod${UID.replace(/-/g, '_')}.slice/cri-containerd-${CID}.scope`,
    holds: true,
  },
  {
    pid: 889,
    comm: 'node-agent',
    argv: ['/bin/node-agent'],
    ns: 'mnt:[4026532401]',
    cgroup: `0::/kubepods.slice/kubepods-pod${OTHER_UID.replace(/-/g, '_')}.slice/cri-containerd-${'cd'.repeat(32)}.scope`,
    holds: true,
  },
  { pid: 999, comm: 'sleep', argv: ['sleep', '5'], ns: 'mnt:[4026532500]', cgroup: SESSION },
];

function statLine(p: { pid: number; comm: string; startTicks?: number }, state = 'S'): string {
  return `${p.pid} (${p.comm}) ${state} 1 ${p.pid} ${p.pid} 0 -1 4194560 100 0 0 0 10 5 0 0 20 0 1 0 ${p.startTicks ?? 1000 + p.pid} 1000000 200 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n`;
}

function writeTree(root: string): void {
  writeFileSync(join(root, 'stat'), 'btime 1700000000\n');
  for (const p of PROCS) {
    const d = join(root, String(p.pid));
    mkdirSync(join(d, 'ns'), { recursive: true });
    writeFileSync(join(d, 'ns', 'mnt'), p.ns);
    writeFileSync(join(d, 'comm'), `${p.comm}\n`);
    writeFileSync(join(d, 'cmdline'), `${p.argv.join('\0')}\0`);
    writeFileSync(join(d, 'stat'), statLine(p));
    writeFileSync(join(d, 'cgroup'), `${p.cgroup}\n`);
    const mounts = [
      '41 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
      ...(p.holds ? [`62 44 0:58 / ${VOL} rw,relatime shared:8 - tmpfs tmpfs rw`] : []),
    ];
    writeFileSync(join(d, 'mountinfo'), `${mounts.join('\n')}\n`);
    if (p.cwd) symlinkSync(p.cwd, join(d, 'cwd'));
  }
}

/** Pids are alive while in `alive`; SIGTERM ends them unless they ignore it; `onSignal` plays the host. */
function fakeExec(options: { ignoresTerm?: number[]; onSignal?: (pid: number, signal: string) => void } = {}) {
  const alive = new Set(PROCS.map((p) => p.pid));
  const signals: string[] = [];
  const unused = (): Promise<ExecResult> => Promise.reject(new Error('not used by stop-mount-holder'));
  const exec: HostExec = {
    async signalProcess(pid, signal) {
      if (!alive.has(pid)) return { ok: false, detail: `no process ${pid}`, code: 404 };
      signals.push(`${signal} ${pid}`);
      if (signal === 'SIGKILL' || !options.ignoresTerm?.includes(pid)) alive.delete(pid);
      options.onSignal?.(pid, signal);
      return { ok: true, detail: '', code: 0 };
    },
    async processAlive(pid) {
      return alive.has(pid);
    },
    restartUnit: unused,
    lazyUnmount: unused,
    listPodContainers: () => Promise.reject(new Error('not used by stop-mount-holder')),
    removeContainer: unused,
    removeImage: unused,
    pullImage: unused,
  };
  return { exec, alive, signals };
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pd-proc-'));
  writeTree(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function handler(exec: HostExec, stopGraceMs = 300) {
  const probeEnv = {
    procRoot: root,
    hostRoot: root,
    dockerSockets: [join(root, 'no-docker.sock')],
    containerdSockets: [join(root, 'no-containerd.sock')],
    runtimeCallTimeoutMs: 200,
    logFiles: [],
  };
  const handle = createActionHandler({ exec, probeEnv, nodeName: 'node-1', log: silent, stopGraceMs });
  return async (body: Record<string, unknown>) => handle('stop-mount-holder', JSON.stringify({ node: 'node-1', pod, ...body }));
}

describe('stop-mount-holder refuses', () => {
  it('input that is not a positive integer pid, or extra fields (400)', async () => {
    const { exec, signals } = fakeExec();
    const call = handler(exec);
    for (const pid of [0, -1, 1.5, '777', 2 ** 23]) expect((await call({ pid })).status, String(pid)).toBe(400);
    expect((await call({ pid: 777, signal: 'SIGKILL' })).status).toBe(400);
    expect(signals).toEqual([]);
  });

  it.each([
    ['pid 1', 1, 409, /pid 1 is the node's init; it is never stopped/],
    [
      'a kubelet (hyperkube kubelet in a namespace of its own)',
      779,
      409,
      /pid 779 \(\/hyperkube kubelet --v=2\) is hyperkube, a node daemon; it is never stopped/,
    ],
    ['sshd', 780, 409, /pid 780 \(sshd: root@pts\/0\) is sshd, a node daemon/],
    ['a containerd shim', 781, 409, /is containerd-shim-runc-v2, a node daemon/],
    [
      'a systemd service',
      778,
      409,
      /pid 778 \(\/usr\/sbin\/backupd -f\) runs in the systemd service backupd\.service, which would start it again: restart the unit instead \(action restart-unit, playbook release-mount-holder\)/,
    ],
    ["the pod's own process", 888, 403, /pid 888 \(\/app\) is a process of pod shop\/web-1 \(uid fb153396-.*\) itself/],
    [
      "another pod's process",
      889,
      409,
      /pid 889 \(\/bin\/node-agent\) belongs to pod 00000000-0000-4000-8000-00000000abcd \(container cdcdcdcdcdcd\); restart or delete that pod instead/,
    ],
    [
      'a process that holds nothing of the pod',
      999,
      403,
      /pid 999 does not hold a mount of pod shop\/web-1 .* outside the host mount namespace now; holders now: pid 777 \(session-3\.scope\), pid 778 \(backupd\.service\)/,
    ],
    ['a process in the host mount namespace', 501, 403, /pid 501 does not hold a mount of pod shop\/web-1/],
  ])('%s', async (_name, pid, status, reason) => {
    const { exec, signals } = fakeExec();
    const r = await handler(exec)({ pid });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(String(r.body.error)).toMatch(reason);
    expect(signals).toEqual([]);
  });

  it('a pid that holds nothing any more but is still there: 403; one that no longer exists: already gone (200, unchanged)', async () => {
    const { exec, alive, signals } = fakeExec();
    rmSync(join(root, '777'), { recursive: true });
    expect((await handler(exec)({ pid: 777 })).status).toBe(403);
    alive.delete(777);
    const r = await handler(exec)({ pid: 777 });
    expect(r).toMatchObject({ status: 200, body: { ok: true, action: 'stop-mount-holder', changed: false, detail: 'pid 777 is already gone', items: [] } });
    expect(signals).toEqual([]);
  });
});

describe('stop-mount-holder stops the holder', () => {
  it('with SIGTERM when it exits', async () => {
    const { exec, signals } = fakeExec();
    const r = await handler(exec)({ pid: 777 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ changed: true, items: ['777'] });
    expect(String(r.body.detail)).toMatch(new RegExp(`^stopped pid 777 \\(sleep 100000\\), which held ${VOL}: it exited [0-9.]+s after SIGTERM$`));
    expect(signals).toEqual(['SIGTERM 777']);
  });

  it('with SIGKILL when it ignores SIGTERM for the grace time', async () => {
    const { exec, signals } = fakeExec({ ignoresTerm: [777] });
    const started = performance.now();
    const r = await handler(exec, 300)({ pid: 777 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(String(r.body.detail)).toMatch(/^stopped pid 777 \(sleep 100000\), which held .*: it ignored SIGTERM for 0\.3s, killed with SIGKILL$/);
    expect(signals).toEqual(['SIGTERM 777', 'SIGKILL 777']);
  });

  it('a zombie counts as gone (its mounts are released): no SIGKILL', async () => {
    const p = PROCS.find((x) => x.pid === 777)!;
    const { exec, signals } = fakeExec({ ignoresTerm: [777], onSignal: () => writeFileSync(join(root, '777', 'stat'), statLine(p, 'Z')) });
    const r = await handler(exec)({ pid: 777 });
    expect(r.body).toMatchObject({ changed: true });
    expect(String(r.body.detail)).toMatch(/exited .* after SIGTERM/);
    expect(signals).toEqual(['SIGTERM 777']);
  });

  it('never SIGKILLs another process that took the pid after the holder exited', async () => {
    const p = PROCS.find((x) => x.pid === 777)!;
    const { exec, signals } = fakeExec({
      ignoresTerm: [777],
      onSignal: () => writeFileSync(join(root, '777', 'stat'), statLine({ ...p, comm: 'cron', startTicks: 999_999 })),
    });
    const r = await handler(exec)({ pid: 777 });
    expect(r.body).toMatchObject({ changed: true });
    expect(signals).toEqual(['SIGTERM 777']);
  });
});

describe('nodeCriticalName', () => {
  it.each([
    ['/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml', undefined, 'kubelet'],
    ['/usr/bin/containerd', undefined, 'containerd'],
    ['/usr/bin/containerd-shim-runc-v2 -namespace k8s.io', 'containerd-shim', 'containerd-shim-runc-v2'],
    ['/usr/bin/docker-containerd-shim abc', undefined, 'docker-containerd-shim'],
    ['/usr/bin/dockerd -H fd://', undefined, 'dockerd'],
    ['/usr/local/bin/crio', undefined, 'crio'],
    ['runc init', undefined, 'runc'],
    ['/lib/systemd/systemd --user', undefined, 'systemd'],
    ['/lib/systemd/systemd-journald', undefined, 'systemd-journald'],
    ['sshd: root@pts/0', 'sshd', 'sshd'],
    // comm decides when argv was rewritten
    ['renamed worker', 'dockerd', 'dockerd'],
    ['sleep 100000', 'sleep', undefined],
    ['/usr/sbin/ntpd -u ntp:ntp -g', 'ntpd', undefined],
    ['/opt/kubelet-helper/run', undefined, undefined],
  ])('%s (comm %s) → %s', (command, comm, want) => {
    expect(nodeCriticalName(command, comm)).toBe(want);
  });
});

describe('the real HostExec signals', () => {
  it('signals a host process by pid: alive, SIGTERM, then gone (404)', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid!;
    const exited = new Promise((r) => child.once('exit', r));
    expect(hostProcessAlive(pid)).toBe(true);
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toContain('(sleep)');
    expect(signalHostProcess(pid, 'SIGTERM')).toEqual({ ok: true, detail: '', code: 0 });
    await exited;
    expect(hostProcessAlive(pid)).toBe(false);
    expect(signalHostProcess(pid, 'SIGKILL')).toMatchObject({ ok: false, code: 404 });
    // (0 and -1 would mean "the process group" and "everything": the schema test above covers them.)
    expect(() => signalHostProcess(1.5, 'SIGTERM')).toThrow();
    expect(() => signalHostProcess(2 ** 23, 'SIGTERM')).toThrow();
    expect(() => signalHostProcess(pid, 'SIGHUP' as 'SIGTERM')).toThrow();
  });
});
