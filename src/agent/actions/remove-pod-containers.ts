// Remove the pod's containers through the runtime, and only those: each container's
// `io.kubernetes.pod.uid` label must be the pod's UID (checked here, not just in the filter).
import { ActionRefused, type AgentActionDef, POD_UID_LABEL, podLabel } from './types.js';

export const action: AgentActionDef<'remove-pod-containers'> = {
  async run(req, env) {
    const all = await env.exec.listPodContainers(req.pod.uid);
    const mine = all.filter((c) => c.labels[POD_UID_LABEL] === req.pod.uid);
    let chosen = mine;
    if (req.containerIds && req.containerIds.length > 0) {
      const foreign = req.containerIds.filter((id) => !mine.some((c) => c.id.startsWith(id)));
      if (foreign.length > 0) throw new ActionRefused(403, `container(s) ${foreign.join(', ')} are not containers of pod ${podLabel(req.pod)} on this node`);
      chosen = mine.filter((c) => req.containerIds?.some((id) => c.id.startsWith(id)));
    }
    if (chosen.length === 0) return { changed: false, detail: `no containers of pod ${podLabel(req.pod)} left on this node`, items: [] };
    const removed: string[] = [];
    const failed: string[] = [];
    for (const c of chosen) {
      const r = await env.exec.removeContainer(c.id);
      if (r.ok || r.code === 404) removed.push(c.id.slice(0, 12));
      else failed.push(`${c.id.slice(0, 12)}: ${r.detail}`);
    }
    if (failed.length > 0)
      throw new ActionRefused(502, `removed ${removed.length} of ${chosen.length} containers of pod ${podLabel(req.pod)}; failed: ${failed.join('; ')}`);
    return { changed: true, detail: `removed ${removed.length} container(s) of pod ${podLabel(req.pod)}: ${removed.join(', ')}`, items: removed };
  },
};
