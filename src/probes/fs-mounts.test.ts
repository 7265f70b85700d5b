import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRemoteFs, probe, statWithTimeout } from './fs-mounts.js';
import { runProbe } from './probe.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const seed000 = { procRoot: join(FIXTURES, '000', 'proc'), hostRoot: join(FIXTURES, '000', 'host'), timeoutMs: 5000 };
// A stat that never returns, like stat(2) on a glusterfs mount whose server is gone.
const HANGING_STAT = [process.execPath, '-e', 'setTimeout(() => {}, 60000)'];
// Hangs only for glusterfs paths, answers for the rest.
const GLUSTER_HANGS = [process.execPath, '-e', "if (process.argv[1].includes('glusterfs')) setTimeout(() => {}, 60000)"];

describe('isRemoteFs', () => {
  it.each([
    ['fuse.glusterfs', true],
    ['nfs4', true],
    ['ceph', true],
    ['cifs', true],
    ['fuse.sshfs', true],
    ['fusectl', false],
    ['overlay', false],
    ['tmpfs', false],
  ])('%s', (t, want) => expect(isRemoteFs(t)).toBe(want));
});

describe('fs-mounts', () => {
  it('seed 000: both glusterfs mounts are reported hung within the stat limit, never hanging the probe', async () => {
    const started = performance.now();
    const out = await runProbe(probe, { podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19' }, { ...seed000, statCommand: HANGING_STAT, statTimeoutMs: 300 });
    const elapsed = performance.now() - started;
    if (!out.ok) throw new Error(out.error);
    expect(elapsed).toBeLessThan(3000);
    expect(out.hung).toBe(2);
    expect(out.mounts[0]).toMatchObject({
      fsType: 'fuse.glusterfs',
      source: '10.10.64.58:xxxx-log',
      state: 'hung',
      podMount: true,
      mountPoint: '/var/lib/kubelet/pods/2b8e5882-5146-11e9-b3b3-525400dd6f19/volumes/kubernetes.io~glusterfs/xxxx-xxxxx-index-task-volume-log',
    });
    expect(out.mounts[1]).toMatchObject({ state: 'hung', podMount: false });
    // overlay, tmpfs, xfs are not checked.
    expect(out.mounts).toHaveLength(2);
  });

  it('with the real stat: existing mount points answer', async () => {
    const out = await runProbe(probe, {}, { ...seed000, statTimeoutMs: 5000 });
    if (!out.ok) throw new Error(out.error);
    expect(out.mounts.map((m) => m.state)).toEqual(['ok', 'ok']);
  });

  it('a path that is gone is an error, not hung', async () => {
    const r = await statWithTimeout(['stat', '-c', '%i'], '/nonexistent/pod-doctor/mount', 5000);
    expect(r.state).toBe('error');
    expect(r.detail).toMatch(/No such file/);
  });

  it('a stat command that cannot run is an error', async () => {
    const r = await statWithTimeout(['/nonexistent/stat'], '/', 5000);
    expect(r).toMatchObject({ state: 'error', detail: expect.stringMatching(/cannot run/) });
  });

  it('the probe time limit wins over slow stats: outcome is a timeout, in time', async () => {
    const started = performance.now();
    const out = await runProbe(probe, {}, { ...seed000, statCommand: GLUSTER_HANGS, statTimeoutMs: 30_000, timeoutMs: 400 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(out).toMatchObject({ ok: false, timedOut: true, error: expect.stringMatching(/fs-mounts did not finish within 400ms/) });
  });
});
