// fs-mounts: FUSE and network filesystems on the node, each checked with `stat` in a child
// process under a kill timer. A hung glusterfs mount (seed 000) blocks any process that touches
// it in uninterruptible sleep; doing the stat in a child means only that child is stuck, and we
// report the mount as hung instead of hanging the agent.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { capped, clipText, defineProbe, type ProbeEnv, podUidSchema } from './probe.js';
import { mapPool, parseMountinfoLine, readText } from './proc.js';

export const params = z.object({
  /** Marks mounts under this pod's volume directory. */
  podUid: podUidSchema.optional(),
});
export type FsMountsParams = z.infer<typeof params>;

const MAX_CHECKED = 32;
const DEFAULT_STAT = ['stat', '-c', '%i'] as const;

const NETWORK_TYPES = new Set(['nfs', 'nfs4', 'ceph', 'cifs', 'smb3', 'smbfs', 'glusterfs', '9p', 'lustre', 'afs', 'davfs', 'gfs2', 'ocfs2']);

/** FUSE and network filesystems: the ones that can stop answering. */
export function isRemoteFs(fsType: string): boolean {
  return fsType === 'fuse' || fsType.startsWith('fuse.') || fsType === 'fuseblk' || NETWORK_TYPES.has(fsType);
}

const mountCheck = z.object({
  mountPoint: z.string(),
  fsType: z.string(),
  source: z.string(),
  /** `hung`: stat did not return within the limit; `error`: it returned an error. */
  state: z.enum(['ok', 'hung', 'error']),
  detail: z.string().optional(),
  ms: z.number(),
  /** Under the pod's volume directory. */
  podMount: z.boolean(),
  line: z.string(),
});
export type MountCheck = z.infer<typeof mountCheck>;

export const result = z.object({
  mounts: z.array(mountCheck),
  hung: z.number(),
  statTimeoutMs: z.number(),
  truncated: z.boolean(),
});
export type FsMountsResult = z.infer<typeof result>;

/** Run the stat command on `path`; resolve `hung` after `timeoutMs` without waiting for the child. */
export function statWithTimeout(
  command: readonly string[],
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ state: 'ok' | 'hung' | 'error'; detail?: string; ms: number }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const [cmd, ...args] = command;
    let settled = false;
    let stderr = '';
    const child = spawn(cmd ?? 'stat', [...args, path], { stdio: ['ignore', 'ignore', 'pipe'] });
    const finish = (value: { state: 'ok' | 'hung' | 'error'; detail?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ ...value, ms: elapsed() });
    };
    const abandon = (detail: string) => {
      // A child stuck in D state may ignore even SIGKILL until the mount answers: do not wait for it.
      child.kill('SIGKILL');
      child.stderr?.destroy();
      child.unref();
      finish({ state: 'hung', detail });
    };
    const onAbort = () => abandon('probe time limit reached');
    const timer = setTimeout(() => abandon(`stat did not return within ${timeoutMs}ms`), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < 500) stderr += chunk;
    });
    child.on('error', (err) => finish({ state: 'error', detail: `cannot run ${cmd}: ${err.message}` }));
    child.on('close', (code, sig) => {
      if (code === 0) finish({ state: 'ok' });
      else finish({ state: 'error', detail: clipText(stderr.trim() || `exit ${code ?? sig}`, 300) });
    });
  });
}

export async function checkFsMounts(p: FsMountsParams, env: ProbeEnv): Promise<FsMountsResult> {
  const text = (await readText(join(env.procRoot, '1', 'mountinfo'))) ?? (await readText(join(env.procRoot, 'self', 'mountinfo')));
  if (text === undefined) throw new Error(`cannot read ${join(env.procRoot, '1', 'mountinfo')}`);
  const seen = new Set<string>();
  const remote = [];
  for (const line of text.split('\n')) {
    const entry = parseMountinfoLine(line);
    if (!entry || !isRemoteFs(entry.fsType) || seen.has(entry.mountPoint)) continue;
    seen.add(entry.mountPoint);
    remote.push(entry);
  }
  // The pod's own mounts first, so the cap never drops them.
  const podDir = p.podUid ? `/pods/${p.podUid}/` : undefined;
  remote.sort((a, b) => Number(podDir ? b.mountPoint.includes(podDir) : 0) - Number(podDir ? a.mountPoint.includes(podDir) : 0));
  const { items, truncated } = capped(remote, MAX_CHECKED);
  const statTimeoutMs = env.statTimeoutMs ?? 2000;
  const command = env.statCommand ?? DEFAULT_STAT;
  const mounts = await mapPool(items, 16, async (entry): Promise<MountCheck> => {
    const outcome = await statWithTimeout(command, join(env.hostRoot, entry.mountPoint), statTimeoutMs, env.signal);
    return {
      mountPoint: entry.mountPoint,
      fsType: entry.fsType,
      source: entry.source,
      ...outcome,
      podMount: podDir !== undefined && entry.mountPoint.includes(podDir),
      line: clipText(entry.line, 1000),
    };
  });
  return { mounts, hung: mounts.filter((m) => m.state === 'hung').length, statTimeoutMs, truncated };
}

export const probe = defineProbe({
  name: 'fs-mounts',
  description: 'FUSE and network mounts (glusterfs, nfs, ceph, cifs), each checked with stat in a child process under a timeout: ok, error or hung.',
  params,
  result,
  timeoutMs: 8000,
  run: checkFsMounts,
});
