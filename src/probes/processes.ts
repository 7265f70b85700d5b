// processes: the pod's processes as the kernel sees them. A container whose init is a zombie
// (`[java] <defunct>`, seed 000) can never be killed by the runtime; processes in D state are
// stuck in the kernel, typically on a hung network filesystem.

import { join } from 'node:path';
import { z } from 'zod';
import { capped, checkAborted, clipText, containerIdSchema, defineProbe, type ProbeEnv, podUidSchema } from './probe.js';
import { listPids, mapPool, type ProcStat, parseCgroup, podCgroupNeedles, readBootTime, readCmdline, readStat, readText, startTimeIso } from './proc.js';

export const params = z.object({
  podUid: podUidSchema,
  /** The pod's container ids from its status (sandbox ids are found from cgroups). */
  containerIds: z.array(containerIdSchema).max(32).default([]),
});
export type ProcessesParams = z.infer<typeof params>;

const MAX_LISTED = 32;

const proc = z.object({
  pid: z.number(),
  ppid: z.number(),
  /** Kernel state letter: Z zombie, D uninterruptible sleep. */
  state: z.string(),
  comm: z.string(),
  command: z.string(),
  startedAt: z.string().optional(),
  containerId: z.string().optional(),
});
export type ProcInfo = z.infer<typeof proc>;

const container = z.object({
  id: z.string(),
  /** Named in the request (a container of the pod's status) rather than found from cgroups only. */
  known: z.boolean(),
  processCount: z.number(),
  initPid: z.number().optional(),
  initState: z.string().optional(),
  initCommand: z.string().optional(),
  /** The init exists and is not a zombie. */
  initAlive: z.boolean(),
  zombies: z.number(),
  uninterruptible: z.number(),
});
export type ContainerProcesses = z.infer<typeof container>;

export const result = z.object({
  podUid: z.string(),
  /** Processes found in the pod's cgroups. */
  processes: z.number(),
  containers: z.array(container),
  zombies: z.array(proc),
  uninterruptible: z.array(proc),
  /** D-state processes on the whole node (a hung mount blocks more than one pod). */
  nodeUninterruptible: z.object({ count: z.number(), sample: z.array(proc) }),
  /** A live process of the pod (for reading its network namespace). */
  samplePid: z.number().optional(),
  truncated: z.boolean(),
});
export type ProcessesResult = z.infer<typeof result>;

interface Row {
  stat: ProcStat;
  cgroup?: string;
}

export async function scanProcesses(p: ProcessesParams, env: ProbeEnv): Promise<ProcessesResult> {
  const limit = env.concurrency ?? 64;
  const [pids, bootTime] = await Promise.all([listPids(env.procRoot), readBootTime(env.procRoot)]);
  const needles = podCgroupNeedles(p.podUid);
  const rows = await mapPool(
    pids,
    limit,
    async (pid): Promise<Row | undefined> => {
      const stat = await readStat(env.procRoot, pid);
      if (!stat) return undefined;
      // Membership is only known from the cgroup file; it is tested with indexOf, not parsed.
      const cgroup = await readText(join(env.procRoot, String(pid), 'cgroup'));
      return { stat, cgroup };
    },
    env.signal,
  );
  checkAborted(env.signal);

  const live = rows.filter((r) => r !== undefined);
  const inPod = new Map<number, { row: Row; containerId?: string }>();
  for (const row of live) {
    const text = row.cgroup;
    if (!text || !needles.some((n) => text.includes(n))) continue;
    inPod.set(row.stat.pid, { row, containerId: parseCgroup(text)?.containerId });
  }
  // A zombie's cgroup may already read as `/`: adopt zombies whose parent is in the pod.
  for (const row of live) {
    if (row.stat.state === 'Z' && !inPod.has(row.stat.pid)) {
      const parent = inPod.get(row.stat.ppid);
      if (parent) inPod.set(row.stat.pid, { row, containerId: parent.containerId });
    }
  }

  const toInfo = async (row: Row, containerId?: string): Promise<ProcInfo> => ({
    pid: row.stat.pid,
    ppid: row.stat.ppid,
    state: row.stat.state,
    comm: row.stat.comm,
    command: clipText((await readCmdline(env.procRoot, row.stat.pid)) ?? `[${row.stat.comm}]${row.stat.state === 'Z' ? ' <defunct>' : ''}`, 300),
    startedAt: startTimeIso(bootTime, row.stat.startTicks),
    containerId,
  });

  // Group by container; the init is the member whose parent is outside the container
  // (the shim), earliest started — exec'd processes are also children of the shim, but later.
  const byContainer = new Map<string, Row[]>();
  for (const { row, containerId } of inPod.values()) {
    const key = containerId ?? '';
    const list = byContainer.get(key);
    if (list) list.push(row);
    else byContainer.set(key, [row]);
  }
  const resolveId = (id: string) => [...byContainer.keys()].find((k) => k?.startsWith(id)) ?? id;
  const ids = new Set<string>([...p.containerIds.map(resolveId), ...[...byContainer.keys()].filter(Boolean)]);
  const containers: ContainerProcesses[] = [];
  for (const id of ids) {
    const members = byContainer.get(id) ?? [];
    const memberPids = new Set(members.map((m) => m.stat.pid));
    const init = members.filter((m) => !memberPids.has(m.stat.ppid)).sort((a, b) => a.stat.startTicks - b.stat.startTicks || a.stat.pid - b.stat.pid)[0];
    containers.push({
      id,
      known: p.containerIds.some((c) => id.startsWith(c)),
      processCount: members.length,
      initPid: init?.stat.pid,
      initState: init?.stat.state,
      initCommand: init ? clipText((await readCmdline(env.procRoot, init.stat.pid)) ?? `[${init.stat.comm}]`, 300) : undefined,
      initAlive: init !== undefined && init.stat.state !== 'Z' && init.stat.state !== 'X',
      zombies: members.filter((m) => m.stat.state === 'Z').length,
      uninterruptible: members.filter((m) => m.stat.state === 'D').length,
    });
  }

  const podRows = [...inPod.values()];
  const zombies = capped(
    podRows.filter((r) => r.row.stat.state === 'Z'),
    MAX_LISTED,
  );
  const dState = capped(
    podRows.filter((r) => r.row.stat.state === 'D'),
    MAX_LISTED,
  );
  const nodeD = live.filter((r) => r.stat.state === 'D');
  const sample = podRows.find((r) => r.row.stat.state !== 'Z' && r.row.stat.state !== 'X');
  return {
    podUid: p.podUid,
    processes: inPod.size,
    containers: containers.slice(0, MAX_LISTED),
    zombies: await Promise.all(zombies.items.map((r) => toInfo(r.row, r.containerId))),
    uninterruptible: await Promise.all(dState.items.map((r) => toInfo(r.row, r.containerId))),
    nodeUninterruptible: { count: nodeD.length, sample: await Promise.all(nodeD.slice(0, 8).map((r) => toInfo(r))) },
    samplePid: sample?.row.stat.pid,
    truncated: zombies.truncated || dState.truncated || containers.length > MAX_LISTED,
  };
}

export const probe = defineProbe({
  name: 'processes',
  description: "Zombie (Z) and uninterruptible (D) processes of the pod's containers, and whether each container's init still lives.",
  params,
  result,
  timeoutMs: 5000,
  run: scanProcesses,
});
