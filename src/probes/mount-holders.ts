// mount-holders: which processes still have a mount (a container's overlay/devicemapper dir,
// its shm, a pod volume) in their mount namespace. A service started with PrivateTmp=true after
// a container copied the container's mounts into its private namespace and pins them (seed 001).
//
// Fast on big nodes: processes sharing a mount namespace are read once (grouped by the ns/mnt
// inode), files are read through a bounded pool, and lines are only parsed around an indexOf hit.
import { open, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { capped, checkAborted, clipText, defineProbe, matchSchema, type ProbeEnv, podUidSchema } from './probe.js';
import {
  findKubeletPid,
  listPids,
  type MountEntry,
  mapPool,
  parseMountinfoLine,
  readBootTime,
  readCgroup,
  readCmdline,
  readMountNamespace,
  readStat,
  startTimeIso,
} from './proc.js';
import { isTrue, namespaceSettings, readUnit, type UnitFile } from './systemd.js';

export const params = z.object({
  /** Texts to look for in mount points and sources (container id, layer dir, pod UID). */
  match: z.array(matchSchema).min(1).max(16),
  /** Marks the pod's own processes (they legitimately hold its mounts). */
  podUid: podUidSchema.optional(),
});
export type MountHoldersParams = z.infer<typeof params>;

const MAX_NAMESPACES = 32;
const MAX_MOUNTS_PER_NS = 16;
const MAX_PIDS_PER_NS = 16;
const MAX_HOLDERS = 48;
const MAX_LINE = 1000;

const heldMount = z.object({
  mountPoint: z.string(),
  source: z.string(),
  fsType: z.string(),
  /** The match text this mount contains. */
  match: z.string(),
  /** The mountinfo line as read, for quoting. */
  line: z.string(),
});
export type HeldMount = z.infer<typeof heldMount>;

const holder = z.object({
  pid: z.number(),
  /** Command line (`[comm]` for zombies and kernel threads). */
  command: z.string(),
  state: z.string().optional(),
  /** ISO start time from stat field 22 and the boot time. */
  startedAt: z.string().optional(),
  mountNamespace: z.string(),
  /** True when the holder shares the host's mount namespace (the kubelet's, else pid 1's). */
  hostNamespace: z.boolean(),
  /** systemd unit from the cgroup (`ntpd.service`, `docker-<id>.scope`). */
  unit: z.string().optional(),
  unitFile: z.string().optional(),
  /** Whether that unit sets PrivateTmp (undefined when no unit file was found). */
  privateTmp: z.boolean().optional(),
  /** Unit settings that create a private mount namespace (`PrivateTmp=true`, `ProtectSystem=full`). */
  namespaceSettings: z.array(z.string()),
  podUid: z.string().optional(),
  containerId: z.string().optional(),
  /** The holder belongs to the pod the probe was asked about. */
  ownPod: z.boolean(),
  /** Mount points this holder's namespace keeps. */
  mounts: z.array(z.string()),
  /** Of those, the ones the host namespace no longer has: a leaked copy that pins the mount. */
  notInHost: z.array(z.string()),
  /** Of those, the ones this process works inside (its cwd or root is there): what makes umount busy. */
  inUse: z.array(z.string()).default([]),
});
export type MountHolder = z.infer<typeof holder>;

export const result = z.object({
  match: z.array(z.string()),
  hostMountNamespace: z.string().optional(),
  /** Whose mount namespace counts as the host's: the kubelet's, or pid 1's when none runs. */
  hostReference: z.string().optional(),
  namespaces: z.array(
    z.object({
      mountNamespace: z.string(),
      hostNamespace: z.boolean(),
      pidCount: z.number(),
      pids: z.array(z.number()),
      mounts: z.array(heldMount),
    }),
  ),
  /** Processes outside the host mount namespace holding a matched mount, others before the pod's own. */
  holders: z.array(holder),
  scanned: z.object({ processes: z.number(), namespaces: z.number(), unreadable: z.number() }),
  truncated: z.boolean(),
});
export type MountHoldersResult = z.infer<typeof result>;

interface NsGroup {
  ns: string;
  pids: number[];
}

type Found = MountEntry & { match: string };

/** Keep a hit when the needle is in the mount point or source (not in options), once per line. */
function keepLine(line: string, needle: string, found: Found[]): void {
  const entry = parseMountinfoLine(line);
  if (entry && (entry.mountPoint.includes(needle) || entry.source.includes(needle))) found.push({ ...entry, match: needle });
}

/** Find mountinfo lines whose mount point or source contains one of `needles`. */
export function findMounts(content: string, needles: readonly string[]): Found[] {
  const found: Found[] = [];
  const seen = new Set<number>();
  for (const needle of needles) {
    let at = content.indexOf(needle);
    while (at >= 0) {
      const start = content.lastIndexOf('\n', at) + 1;
      let end = content.indexOf('\n', at);
      if (end < 0) end = content.length;
      if (!seen.has(start)) {
        const before = found.length;
        keepLine(content.slice(start, end), needle, found);
        if (found.length > before) seen.add(start);
      }
      at = content.indexOf(needle, end);
    }
  }
  return found;
}

/**
 * The same search over raw bytes: a scan reads thousands of files, and searching each in a
 * reused buffer keeps the agent from turning megabytes of mount tables into strings. Only
 * lines with a hit are decoded.
 */
export function findMountsInBuffer(buf: Buffer, needles: readonly Buffer[]): Found[] {
  const found: Found[] = [];
  const seen = new Set<number>();
  for (const needle of needles) {
    const text = needle.toString('utf8');
    let at = buf.indexOf(needle);
    while (at >= 0) {
      const start = buf.lastIndexOf(0x0a, at) + 1;
      let end = buf.indexOf(0x0a, at);
      if (end < 0) end = buf.length;
      if (!seen.has(start)) {
        const before = found.length;
        keepLine(buf.toString('utf8', start, end), text, found);
        if (found.length > before) seen.add(start);
      }
      at = buf.indexOf(needle, end);
    }
  }
  return found;
}

/** Read a whole (proc) file into `buf`, growing it when needed; /proc files report size 0. */
async function readInto(path: string, buf: Buffer): Promise<{ buf: Buffer; length: number } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) return { buf, length };
      length += bytesRead;
    }
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

async function groupByNamespace(env: ProbeEnv, pids: number[], limit: number): Promise<{ groups: NsGroup[]; unreadable: number }> {
  const nsOf = await mapPool(pids, limit, (pid) => readMountNamespace(env.procRoot, pid), env.signal);
  const byNs = new Map<string, number[]>();
  let unreadable = 0;
  pids.forEach((pid, i) => {
    const ns = nsOf[i];
    if (!ns) unreadable += 1;
    // A process whose namespace link is unreadable is still scanned, alone.
    const key = ns ?? `unknown:${pid}`;
    const list = byNs.get(key);
    if (list) list.push(pid);
    else byNs.set(key, [pid]);
  });
  return { groups: [...byNs.entries()].map(([ns, list]) => ({ ns, pids: list })), unreadable };
}

/** Mounts of a namespace matching the needles, read from its first member whose file is still readable. */
async function scanNamespace(procRoot: string, group: NsGroup, needles: readonly Buffer[], scratch: { buf: Buffer }): Promise<Found[] | undefined> {
  for (const pid of group.pids.slice(0, 4)) {
    const read = await readInto(join(procRoot, String(pid), 'mountinfo'), scratch.buf);
    if (!read) continue;
    scratch.buf = read.buf;
    return findMountsInBuffer(read.buf.subarray(0, read.length), needles);
  }
  return undefined;
}

export async function scanMountHolders(p: MountHoldersParams, env: ProbeEnv): Promise<MountHoldersResult> {
  const limit = env.concurrency ?? 32;
  const [pids, bootTime] = await Promise.all([listPids(env.procRoot), readBootTime(env.procRoot)]);
  // "The host" is the kubelet's mount namespace (it does the unmounts), else pid 1's.
  const kubeletPid = await findKubeletPid(env.procRoot, pids, { concurrency: limit, signal: env.signal });
  const hostNs =
    (kubeletPid !== undefined ? await readMountNamespace(env.procRoot, kubeletPid) : undefined) ??
    (await readMountNamespace(env.procRoot, 1)) ??
    (await readMountNamespace(env.procRoot, 'self'));
  checkAborted(env.signal);
  const { groups, unreadable } = await groupByNamespace(env, pids, limit);
  checkAborted(env.signal);

  // One scratch buffer per worker, reused for every file that worker reads.
  const needles = p.match.map((m) => Buffer.from(m));
  const scratch = Array.from({ length: limit }, () => ({ buf: Buffer.allocUnsafe(64 * 1024) }));
  let next = 0;
  const hits: ({ group: NsGroup; mounts: Found[] } | undefined)[] = [];
  await Promise.all(
    scratch.map(async (mine) => {
      while (next < groups.length) {
        checkAborted(env.signal);
        const group = groups[next++]!;
        const mounts = await scanNamespace(env.procRoot, group, needles, mine);
        if (mounts && mounts.length > 0) hits.push({ group, mounts });
      }
    }),
  );
  // Workers finish in any order; keep namespaces in pid order for stable output.
  hits.sort((a, b) => (a?.group.pids[0] ?? 0) - (b?.group.pids[0] ?? 0));
  const matched = hits.filter((h) => h !== undefined);
  checkAborted(env.signal);

  let truncated = false;
  const namespaces = matched.map(({ group, mounts }) => {
    const m = capped(mounts, MAX_MOUNTS_PER_NS);
    const ps = capped(group.pids, MAX_PIDS_PER_NS);
    truncated ||= m.truncated || ps.truncated;
    return {
      mountNamespace: group.ns,
      hostNamespace: group.ns === hostNs,
      pidCount: group.pids.length,
      pids: ps.items,
      mounts: m.items.map((x) => ({ mountPoint: x.mountPoint, source: x.source, fsType: x.fsType, match: x.match, line: clipText(x.line, MAX_LINE) })),
    };
  });

  // Holders: members of the matched namespaces other than the host's, with who they are.
  const unitCache = new Map<string, Promise<UnitFile | undefined>>();
  const unitOf = (unit: string) => {
    let cached = unitCache.get(unit);
    if (!cached) unitCache.set(unit, (cached = readUnit(env.hostRoot, unit)));
    return cached;
  };
  const hostMountPoints = new Set(matched.filter((m) => m.group.ns === hostNs).flatMap((m) => m.mounts.map((x) => x.mountPoint)));
  const candidates: { pid: number; ns: (typeof namespaces)[number] }[] = [];
  for (const ns of namespaces) {
    if (ns.hostNamespace) continue;
    for (const pid of ns.pids) candidates.push({ pid, ns });
  }
  const details = await mapPool(candidates.slice(0, MAX_HOLDERS * 2), 16, async ({ pid, ns }): Promise<MountHolder | undefined> => {
    const [stat, cmdline, cgroup, cwd, rootDir] = await Promise.all([
      readStat(env.procRoot, pid),
      readCmdline(env.procRoot, pid),
      readCgroup(env.procRoot, pid),
      readlink(join(env.procRoot, String(pid), 'cwd')).catch(() => undefined),
      readlink(join(env.procRoot, String(pid), 'root')).catch(() => undefined),
    ]);
    if (!stat && !cmdline) return undefined; // exited meanwhile
    const unit = cgroup?.unit;
    const file = unit ? await unitOf(unit) : undefined;
    return {
      pid,
      command: clipText(cmdline ?? (stat ? `[${stat.comm}]` : '?'), 500),
      state: stat?.state,
      startedAt: stat ? startTimeIso(bootTime, stat.startTicks) : undefined,
      mountNamespace: ns.mountNamespace,
      hostNamespace: false,
      unit,
      unitFile: file?.file,
      privateTmp: file ? isTrue(file.service.PrivateTmp) : undefined,
      namespaceSettings: file ? namespaceSettings(file) : [],
      podUid: cgroup?.podUid,
      containerId: cgroup?.containerId,
      ownPod: p.podUid !== undefined && cgroup?.podUid === p.podUid,
      mounts: ns.mounts.map((m) => m.mountPoint),
      notInHost: ns.mounts.map((m) => m.mountPoint).filter((m) => !hostMountPoints.has(m)),
      inUse: ns.mounts.map((m) => m.mountPoint).filter((m) => [cwd, rootDir].some((d) => d !== undefined && d !== '/' && (d === m || d.startsWith(`${m}/`)))),
    };
  });
  const holders = details.filter((h) => h !== undefined).sort((a, b) => Number(a.ownPod) - Number(b.ownPod) || a.pid - b.pid);
  const h = capped(holders, MAX_HOLDERS);
  const n = capped(namespaces, MAX_NAMESPACES);
  return {
    match: p.match,
    hostMountNamespace: hostNs,
    hostReference: kubeletPid !== undefined ? `kubelet (pid ${kubeletPid})` : 'pid 1',
    namespaces: n.items,
    holders: h.items,
    scanned: { processes: pids.length, namespaces: groups.length, unreadable },
    truncated: truncated || h.truncated || n.truncated || candidates.length > MAX_HOLDERS * 2,
  };
}

export const probe = defineProbe({
  name: 'mount-holders',
  description: 'Processes whose mount namespace holds a mount containing the match text (pid, command, start time, namespace, systemd unit, PrivateTmp).',
  params,
  result,
  timeoutMs: 5000,
  run: scanMountHolders,
});
