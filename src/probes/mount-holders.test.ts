import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findMounts, probe } from './mount-holders.js';
import { runProbe } from './probe.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const LAYER = '98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36';
const env = (seed: string) => ({ procRoot: join(FIXTURES, seed, 'proc'), hostRoot: join(FIXTURES, seed, 'host'), timeoutMs: 5000 });

describe('findMounts', () => {
  const content = [
    '41 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/centos-root rw',
    `296 183 0:183 / /var/lib/docker/overlay/${LAYER}/merged rw,relatime shared:88 - overlay overlay rw,upperdir=/var/lib/docker/overlay/${LAYER}/upper`,
    // The id only in the super options (a container's own root): not a hit.
    `1211 1140 0:55 / / rw,relatime - overlay overlay rw,upperdir=/var/lib/docker/overlay/${LAYER}/upper`,
  ].join('\n');
  it('matches mount point or source, not options, once per line', () => {
    const hits = findMounts(content, [LAYER, `${LAYER}/merged`]);
    expect(hits.map((h) => h.mountId)).toEqual(['296']);
    expect(hits[0]?.match).toBe(LAYER);
  });
});

describe('mount-holders on fixture trees', () => {
  it('seed 001: ntpd (PrivateTmp) holds the overlay merged dir the host has dropped', async () => {
    const out = await runProbe(probe, { match: [LAYER] }, env('001'));
    expect(out.ok, JSON.stringify(out)).toBe(true);
    if (!out.ok) return;
    expect(out.holders).toHaveLength(1);
    expect(out.holders[0]).toMatchObject({
      pid: 2725007,
      command: '/usr/sbin/ntpd -u ntp:ntp -g',
      startedAt: '2019-01-07T03:12:00.000Z',
      mountNamespace: 'mnt:[4026532601]',
      hostNamespace: false,
      unit: 'ntpd.service',
      unitFile: '/usr/lib/systemd/system/ntpd.service',
      privateTmp: true,
      namespaceSettings: ['PrivateTmp=true'],
      notInHost: [`/var/lib/docker/overlay/${LAYER}/merged`],
    });
    // The real mountinfo line is quoted as read.
    expect(out.namespaces[0]?.mounts[0]?.line).toMatch(
      /^296 183 0:183 \/ \/var\/lib\/docker\/overlay\/98a56d.*\/merged rw,relatime shared:88 - overlay overlay /,
    );
    expect(out.hostMountNamespace).toBe('mnt:[4026531840]');
    expect(out.scanned.processes).toBe(5);
  });

  it("takes the kubelet's mount namespace as the host's when the kubelet does not run in pid 1's", async () => {
    // The kubelet in a namespace of its own (RKE1's containerised kubelet; the real-node suite):
    // its namespace is the reference, and pid 1's copy of the pod's mount is a holder like any other.
    const root = mkdtempSync(join(tmpdir(), 'pd-proc-'));
    try {
      const vol = '/var/lib/kubelet/pods/5f0c1d2e-0000-4000-8000-000000000001/volumes/kubernetes.io~empty-dir/cache';
      const line = `62 44 0:58 / ${vol} rw,relatime shared:8 - tmpfs tmpfs rw`;
      const proc = (pid: number, ns: string, comm: string, mounts: string) => {
        const d = join(root, String(pid));
        mkdirSync(join(d, 'ns'), { recursive: true });
        writeFileSync(join(d, 'ns', 'mnt'), ns);
        writeFileSync(join(d, 'comm'), `${comm}\n`);
        writeFileSync(join(d, 'cmdline'), `${comm}\0`);
        writeFileSync(join(d, 'mountinfo'), `41 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n${mounts}`);
      };
      writeFileSync(join(root, 'stat'), 'btime 1700000000\n');
      proc(1, 'mnt:[4026531840]', 'init', `${line}\n`);
      proc(500, 'mnt:[4026532200]', 'kubelet', `${line}\n`);
      proc(777, 'mnt:[4026532300]', 'sleep', `${line}\n`);
      // The holder works inside the mount: that is what makes the kubelet's umount busy.
      symlinkSync(`${vol}/sessions`, join(root, '777', 'cwd'));
      const out = await runProbe(probe, { match: ['5f0c1d2e-0000-4000-8000-000000000001'] }, { procRoot: root, hostRoot: root, timeoutMs: 5000 });
      expect(out.ok, JSON.stringify(out)).toBe(true);
      if (!out.ok) return;
      expect(out.hostMountNamespace).toBe('mnt:[4026532200]');
      expect(out.hostReference).toBe('kubelet (pid 500)');
      expect(out.holders.map((h) => h.pid).sort()).toEqual([1, 777]);
      expect(out.holders.some((h) => h.pid === 500)).toBe(false);
      expect(out.holders.find((h) => h.pid === 777)?.inUse).toEqual([vol]);
      expect(out.holders.find((h) => h.pid === 1)?.inUse).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds nothing for text no mount contains', async () => {
    const out = await runProbe(probe, { match: ['0000000000000000000000000000000000000000000000000000000000000000'] }, env('001'));
    expect(out).toMatchObject({ ok: true, holders: [], namespaces: [] });
  });

  it("lists the host namespace but never as a holder; marks the pod's own processes", async () => {
    const uid = '2b8e5882-5146-11e9-b3b3-525400dd6f19';
    const out = await runProbe(probe, { match: [uid], podUid: uid }, env('000'));
    if (!out.ok) throw new Error(out.error);
    expect(out.namespaces.find((n) => n.hostNamespace)?.mounts.map((m) => m.fsType)).toEqual(['tmpfs', 'fuse.glusterfs']);
    expect(out.holders.every((h) => !h.hostNamespace)).toBe(true);
  });

  it('refuses match text that is not an id, UUID or safe path', async () => {
    for (const bad of ['../../etc/shadow', 'a b', '$(reboot)', 'x']) {
      const out = await runProbe(probe, { match: [bad] }, env('001'));
      expect(out.ok, bad).toBe(false);
    }
  });
});

// On the real kernel: a process in its own mount namespace keeps a tmpfs that its parent
// namespace has already unmounted (what ntpd's PrivateTmp namespace did in seed 001).
describe('mount-holders on the real /proc', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-test-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the pid that holds the mount', async () => {
    const script = [
      'mount -t tmpfs pd-holder "$0" || exit 1',
      'unshare -m --propagation private sh -c \'echo "holder $$"; exec sleep 60\' &',
      'h=$!',
      // Wait until the holder has its own namespace (a copy with the tmpfs), then drop ours.
      'while [ "$(readlink /proc/$h/ns/mnt)" = "$(readlink /proc/$$/ns/mnt)" ]; do sleep 0.02; done',
      'umount "$0" && echo unmounted',
      'wait',
    ].join('\n');
    child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, dir], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const holderPid = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no holder: ${out} ${err}`)), 10_000);
      child!.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /holder (\d+)[\s\S]*unmounted/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child!.on('exit', (code) => reject(new Error(`setup exited ${code}: ${err}`)));
    });

    const outcome = await runProbe(probe, { match: [basename(dir)] }, { procRoot: '/proc', hostRoot: '/', timeoutMs: 10_000 });
    if (!outcome.ok) throw new Error(outcome.error);
    const holder = outcome.holders.find((h) => h.pid === holderPid);
    expect(holder, JSON.stringify(outcome.holders)).toBeDefined();
    expect(holder).toMatchObject({ hostNamespace: false, notInHost: [dir], command: 'sleep 60' });
    expect(outcome.namespaces.find((n) => n.pids.includes(holderPid))?.mounts[0]).toMatchObject({ mountPoint: dir, fsType: 'tmpfs', source: 'pd-holder' });
    // The parent namespace unmounted it: only the holder's namespace has it.
    expect(outcome.namespaces).toHaveLength(1);
  });
});
