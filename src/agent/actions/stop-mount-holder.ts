// Stop a process that is not part of any systemd service (started by hand, by a supervisor other
// than systemd, `unshare -m … sleep`) and pins one of the pod's mounts in its own mount
// namespace: SIGTERM, then SIGKILL when it is still there after the grace time. As in
// restart-unit, the mount-holders probe is run again here, on the node, at the moment of the
// request: the pid must hold one of this pod's mounts now. A service goes through restart-unit
// (systemd would start it again); pid 1, the agent and the node's own daemons are never stopped.
import { basename } from 'node:path';
import { type ProcStat, readStat } from '../../probes/proc.js';
import { type ActionEnv, ActionRefused, type AgentActionDef, mountHoldersNow, podLabel } from './types.js';

/** Commands (argv[0]'s base name, or comm) that are the node itself. */
const NODE_CRITICAL: readonly RegExp[] = [
  /^kubelet$/,
  /^hyperkube$/,
  /^containerd$/,
  /^containerd-shim/,
  /^docker-containerd/,
  /^dockerd$/,
  /^crio$/,
  /^conmon$/,
  /^runc$/,
  /^systemd$/,
  /^systemd-/,
  /^init$/,
  /^sshd$/,
];

/** The node daemon a process is (`sshd: root@pts/0` is sshd), or undefined. */
export function nodeCriticalName(command: string, comm?: string): string | undefined {
  const first = command.replace(/^\[(.*)\]$/, '$1').split(' ')[0] ?? '';
  const argv0 = basename(first).replace(/:$/, '');
  return [argv0, comm?.trim() ?? ''].find((n) => n !== '' && NODE_CRITICAL.some((re) => re.test(n)));
}

const POLL_MS = 100;
/** After SIGKILL: how long to wait for the kernel to reap it (a process in D state lingers). */
const KILL_WAIT_MS = 5_000;

/** Still the process that was checked: there, same start time, not a zombie (which has dropped its mounts). */
async function stillThere(env: ActionEnv, pid: number, before: ProcStat): Promise<boolean> {
  if (!(await env.exec.processAlive(pid))) return false;
  const now = await readStat(env.probeEnv.procRoot, pid);
  return now !== undefined && now.startTicks === before.startTicks && now.state !== 'Z' && now.state !== 'X';
}

async function waitGone(env: ActionEnv, pid: number, before: ProcStat, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (!(await stillThere(env, pid, before))) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, left)));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export const action: AgentActionDef<'stop-mount-holder'> = {
  async run(req, env) {
    const { pid } = req;
    const pod = podLabel(req.pod);
    if (pid === 1) throw new ActionRefused(409, "pid 1 is the node's init; it is never stopped (restart or reboot the node instead)");
    if (pid === process.pid) throw new ActionRefused(409, `pid ${pid} is the node agent itself`);

    const mh = await mountHoldersNow(req.pod, env);
    const holder = mh.holders.find((h) => h.pid === pid);
    if (!holder || holder.hostNamespace) {
      if (!(await env.exec.processAlive(pid))) return { changed: false, detail: `pid ${pid} is already gone`, items: [] };
      const others = [...new Set(mh.holders.filter((h) => !h.hostNamespace && !h.ownPod).map((h) => `pid ${h.pid}${h.unit ? ` (${h.unit})` : ''}`))];
      throw new ActionRefused(
        403,
        `pid ${pid} does not hold a mount of pod ${pod} outside the host mount namespace now` +
          (others.length ? `; holders now: ${others.join(', ')}` : '; nothing outside the host mount namespace holds one'),
      );
    }
    if (holder.ownPod) throw new ActionRefused(403, `pid ${pid} (${holder.command}) is a process of pod ${pod} itself; remove the pod's containers instead`);

    const before = await readStat(env.probeEnv.procRoot, pid);
    if (!before) return { changed: false, detail: `pid ${pid} is already gone`, items: [] };
    const critical = nodeCriticalName(holder.command, before.comm);
    if (critical) throw new ActionRefused(409, `pid ${pid} (${holder.command}) is ${critical}, a node daemon; it is never stopped through this action`);
    if (holder.podUid) {
      throw new ActionRefused(
        409,
        `pid ${pid} (${holder.command}) belongs to pod ${holder.podUid}` +
          `${holder.containerId ? ` (container ${holder.containerId.slice(0, 12)})` : ''}; restart or delete that pod instead`,
      );
    }
    if (holder.unit?.endsWith('.service')) {
      throw new ActionRefused(
        409,
        `pid ${pid} (${holder.command}) runs in the systemd service ${holder.unit}, which would start it again: ` +
          'restart the unit instead (action restart-unit, playbook release-mount-holder)',
      );
    }

    const what = `pid ${pid} (${holder.command}), which held ${holder.mounts.join(', ')}`;
    const term = await env.exec.signalProcess(pid, 'SIGTERM');
    if (!term.ok) {
      if (term.code === 404) return { changed: false, detail: `pid ${pid} is already gone`, items: [] };
      throw new ActionRefused(502, `cannot send SIGTERM to pid ${pid}: ${term.detail}`);
    }
    const started = performance.now();
    if (await waitGone(env, pid, before, env.stopGraceMs)) {
      return { changed: true, detail: `stopped ${what}: it exited ${seconds(performance.now() - started)} after SIGTERM`, items: [String(pid)] };
    }
    const kill = await env.exec.signalProcess(pid, 'SIGKILL');
    if (!kill.ok && kill.code !== 404)
      throw new ActionRefused(502, `pid ${pid} ignored SIGTERM for ${seconds(env.stopGraceMs)} and SIGKILL failed: ${kill.detail}`);
    if (!(await waitGone(env, pid, before, KILL_WAIT_MS))) {
      const state = (await readStat(env.probeEnv.procRoot, pid))?.state ?? '?';
      throw new ActionRefused(
        502,
        `pid ${pid} ignored SIGTERM for ${seconds(env.stopGraceMs)} and is still there ${seconds(KILL_WAIT_MS)} after SIGKILL ` +
          `(state ${state}${state === 'D' ? ': uninterruptible, stuck in the kernel' : ''})`,
      );
    }
    return { changed: true, detail: `stopped ${what}: it ignored SIGTERM for ${seconds(env.stopGraceMs)}, killed with SIGKILL`, items: [String(pid)] };
  },
};
