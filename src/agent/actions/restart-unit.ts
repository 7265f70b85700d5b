// Restart a systemd service, but only one that holds one of the pod's mounts right now: the
// mount-holders probe is run again here, on the node, at the moment of the request (the finding
// the plan came from may be minutes old, and the pid may have been reused).
import { ActionRefused, type AgentActionDef, mountHoldersNow, podLabel } from './types.js';

/** Units whose restart is never pod-scoped: the runtime, the kubelet, the node's own plumbing. */
export const PROTECTED_UNITS = new Set([
  'kubelet.service',
  'docker.service',
  'containerd.service',
  'crio.service',
  'cri-docker.service',
  'dbus.service',
  'sshd.service',
  'ssh.service',
  'systemd-journald.service',
  'systemd-logind.service',
  'systemd-udevd.service',
  'systemd-networkd.service',
  'systemd-resolved.service',
  'NetworkManager.service',
  'network.service',
]);

export const action: AgentActionDef<'restart-unit'> = {
  async run(req, env) {
    if (PROTECTED_UNITS.has(req.unit)) throw new ActionRefused(403, `${req.unit} is not a pod-scoped unit; it is never restarted through this action`);
    const mh = await mountHoldersNow(req.pod, env);
    const holders = mh.holders.filter((h) => !h.hostNamespace && !h.ownPod);
    const mine = holders.filter((h) => h.unit === req.unit);
    if (mine.length === 0) {
      const others = [...new Set(holders.map((h) => h.unit ?? `pid ${h.pid}`))];
      throw new ActionRefused(
        403,
        `${req.unit} does not hold a mount of pod ${podLabel(req.pod)} now${others.length ? `; holders now: ${others.join(', ')}` : '; nothing outside the host mount namespace holds one'}`,
      );
    }
    const result = await env.exec.restartUnit(req.unit);
    if (!result.ok) throw new ActionRefused(502, `systemctl restart ${req.unit} failed: ${result.detail}`);
    const pids = mine.map((h) => h.pid);
    const mounts = [...new Set(mine.flatMap((h) => h.mounts))];
    return { changed: true, detail: `restarted ${req.unit} (pid ${pids.join(', ')} held ${mounts.join(', ')})`, items: mounts };
  },
};
