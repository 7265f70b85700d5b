// Reading a /proc tree (the real one or a fixture): pids, command lines, stat fields, mount
// namespaces and cgroups. Every reader returns undefined for a process that went away or that
// we may not read: a scan over thousands of processes must not fail on one of them.
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Clock ticks per second used by /proc/<pid>/stat start times (USER_HZ is 100 on Linux). */
export const CLK_TCK = 100;

export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

export async function listPids(procRoot: string): Promise<number[]> {
  const names = await readdir(procRoot);
  const pids: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids.sort((a, b) => a - b);
}

/** Run `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) throw new Error('aborted: probe time limit');
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** `/proc/<pid>/cmdline` with NULs as spaces; undefined for kernel threads and zombies. */
export async function readCmdline(procRoot: string, pid: number): Promise<string | undefined> {
  const raw = await readText(join(procRoot, String(pid), 'cmdline'));
  if (!raw) return undefined;
  const text = raw.replace(/\0+$/, '').split('\0').join(' ').trim();
  return text || undefined;
}

export interface ProcStat {
  pid: number;
  comm: string;
  /** R, S, D, Z, T, t, X, I... */
  state: string;
  ppid: number;
  /** Start time in clock ticks after boot (field 22). */
  startTicks: number;
}

/** Parse `/proc/<pid>/stat`. The command may contain spaces and parentheses, so split after the last `)`. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  const state = rest[0] ?? '?';
  const ppid = Number(rest[1]);
  const startTicks = Number(rest[19]);
  if (!Number.isFinite(pid)) return undefined;
  return { pid, comm: text.slice(open + 1, close), state, ppid: Number.isFinite(ppid) ? ppid : 0, startTicks: Number.isFinite(startTicks) ? startTicks : 0 };
}

export async function readStat(procRoot: string, pid: number): Promise<ProcStat | undefined> {
  const text = await readText(join(procRoot, String(pid), 'stat'));
  return text ? parseStat(text) : undefined;
}

/** Boot time (seconds since the epoch) from the `btime` line of `<procRoot>/stat`. */
export async function readBootTime(procRoot: string): Promise<number | undefined> {
  const text = await readText(join(procRoot, 'stat'));
  if (!text) return undefined;
  const at = text.indexOf('\nbtime ');
  const start = at >= 0 ? at + 7 : text.startsWith('btime ') ? 6 : -1;
  if (start < 0) return undefined;
  const end = text.indexOf('\n', start);
  const value = Number.parseInt(text.slice(start, end < 0 ? undefined : end), 10);
  return Number.isFinite(value) ? value : undefined;
}

export function startTimeIso(bootTime: number | undefined, startTicks: number): string | undefined {
  if (bootTime === undefined) return undefined;
  return new Date((bootTime + startTicks / CLK_TCK) * 1000).toISOString();
}

/**
 * The mount namespace of a process: the `ns/mnt` link target (`mnt:[4026531840]`). Fixture
 * trees may store it as a plain file instead of a link.
 */
export async function readMountNamespace(procRoot: string, pid: number | 'self'): Promise<string | undefined> {
  const path = join(procRoot, String(pid), 'ns', 'mnt');
  try {
    return await readlink(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') return undefined;
    return (await readText(path))?.trim() || undefined;
  }
}

/**
 * The kubelet's pid, if one runs here: its mount namespace is the one whose view counts (it does
 * the unmounts). That is pid 1's on most nodes, not where the kubelet runs in a container (RKE1,
 * kind) or in a namespace of its own.
 */
export async function findKubeletPid(
  procRoot: string,
  pids: readonly number[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<number | undefined> {
  let found: number | undefined;
  await mapPool(
    pids,
    options.concurrency ?? 32,
    async (pid) => {
      if (found !== undefined) return;
      if ((await readText(join(procRoot, String(pid), 'comm')))?.trim() === 'kubelet') found ??= pid;
    },
    options.signal,
  );
  return found;
}

export interface CgroupInfo {
  /** The cgroup path of the systemd hierarchy (v1 `name=systemd`) or the unified one (v2). */
  path: string;
  /** The systemd unit the process runs in: `ntpd.service`, `docker-<id>.scope`, `session-3.scope`. */
  unit?: string;
  /** Pod UID (dashed form) when the process belongs to a pod. */
  podUid?: string;
  /** Container id when the process belongs to a container. */
  containerId?: string;
}

const HEX64 = /[0-9a-f]{64}/;

/** Parse `/proc/<pid>/cgroup` (v1 and v2, cgroupfs and systemd drivers). */
export function parseCgroup(text: string): CgroupInfo | undefined {
  let path: string | undefined;
  let anyPath: string | undefined;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const p = line.slice(second + 1);
    if (controllers === 'name=systemd' || (controllers === '' && line.startsWith('0:'))) {
      // v1's systemd hierarchy names the unit; on hybrid hosts prefer it over the empty v2 path.
      if (!path || controllers === 'name=systemd') path = p;
    }
    if (!anyPath && p.length > 1) anyPath = p;
  }
  // A v1 line with kubepods (memory, cpu...) knows the pod even if name=systemd says `/`.
  const kube = [path, anyPath].find((p) => p?.includes('kubepods')) ?? path ?? anyPath;
  if (!kube) return undefined;
  const info: CgroupInfo = { path: kube };
  const segments = kube.split('/').filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    if (s.endsWith('.service') || s.endsWith('.scope')) {
      info.unit = s;
      break;
    }
  }
  const podAt = kube.indexOf('pod');
  for (let at = podAt; at >= 0; at = kube.indexOf('pod', at + 3)) {
    const candidate = kube.slice(at + 3, at + 39).replace(/_/g, '-');
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(candidate)) {
      info.podUid = candidate;
      break;
    }
  }
  const last = segments[segments.length - 1] ?? '';
  const id = HEX64.exec(last);
  if (id) info.containerId = id[0];
  return info;
}

export async function readCgroup(procRoot: string, pid: number): Promise<CgroupInfo | undefined> {
  const text = await readText(join(procRoot, String(pid), 'cgroup'));
  return text ? parseCgroup(text) : undefined;
}

/** The two spellings of a pod UID in cgroup paths: `pod<uid>` (cgroupfs) and `pod<uid_with_underscores>` (systemd). */
export function podCgroupNeedles(podUid: string): string[] {
  return [`pod${podUid}`, `pod${podUid.replace(/-/g, '_')}`];
}

export interface MountEntry {
  mountId: string;
  root: string;
  mountPoint: string;
  fsType: string;
  source: string;
  /** The whole mountinfo line, for quoting. */
  line: string;
}

/** Parse one mountinfo line: `id parent major:minor root mountpoint opts [optional...] - fstype source superopts`. */
export function parseMountinfoLine(line: string): MountEntry | undefined {
  const sep = line.indexOf(' - ');
  if (sep < 0) return undefined;
  const left = line.slice(0, sep).split(' ');
  const right = line.slice(sep + 3).split(' ');
  if (left.length < 5 || right.length < 2) return undefined;
  return {
    mountId: left[0]!,
    root: unescapeMount(left[3]!),
    mountPoint: unescapeMount(left[4]!),
    fsType: right[0]!,
    source: unescapeMount(right[1]!),
    line,
  };
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
export function unescapeMount(s: string): string {
  return s.indexOf('\\') < 0 ? s : s.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8)));
}

/** Pids whose cgroup names the pod (both spellings of its UID), in pid order, at most `max`. */
export async function findPodPids(
  procRoot: string,
  podUid: string,
  options: { concurrency?: number; signal?: AbortSignal; max?: number } = {},
): Promise<number[]> {
  const needles = podCgroupNeedles(podUid);
  const pids = await listPids(procRoot);
  const hits = await mapPool(
    pids,
    options.concurrency ?? 64,
    async (pid) => {
      const text = await readText(join(procRoot, String(pid), 'cgroup'));
      return text !== undefined && needles.some((n) => text.includes(n));
    },
    options.signal,
  );
  return pids.filter((_, i) => hits[i]).slice(0, options.max ?? Number.MAX_SAFE_INTEGER);
}
