// Remove the pod's image from the node: only an image one of the pod's containers uses. The
// pod's containers that use it are removed first (the runtime refuses to remove an image in
// use); the image removal is not forced, so an image other pods still use stays.
import { ActionRefused, type AgentActionDef, POD_UID_LABEL, podLabel, runsImage } from './types.js';

export function grantKey(uid: string, image: string): string {
  return `${uid} ${image}`;
}

export const action: AgentActionDef<'remove-image'> = {
  async run(req, env) {
    const containers = (await env.exec.listPodContainers(req.pod.uid)).filter((c) => c.labels[POD_UID_LABEL] === req.pod.uid);
    const users = containers.filter((c) => runsImage(c, req.image));
    const key = grantKey(req.pod.uid, req.image);
    const granted = (env.grants.get(key) ?? 0) > env.now();
    if (users.length === 0 && !granted) throw new ActionRefused(403, `image ${req.image} is not used by a container of pod ${podLabel(req.pod)} on this node`);
    const removed: string[] = [];
    for (const c of users) {
      const r = await env.exec.removeContainer(c.id);
      if (!r.ok && r.code !== 404) throw new ActionRefused(502, `cannot remove container ${c.id.slice(0, 12)} of pod ${podLabel(req.pod)}: ${r.detail}`);
      removed.push(c.id.slice(0, 12));
    }
    // Allow the re-pull (and a repeat of this call) for this pod and image for a while.
    env.grants.set(key, env.now() + env.pullGrantMs);
    const r = await env.exec.removeImage(req.image);
    if (r.code === 404)
      return {
        changed: removed.length > 0,
        detail: `image ${req.image} was not present${removed.length ? `; removed containers ${removed.join(', ')}` : ''}`,
        items: removed,
      };
    if (!r.ok) throw new ActionRefused(r.code === 409 ? 409 : 502, `cannot remove image ${req.image}: ${r.detail}`);
    return {
      changed: true,
      detail: `removed image ${req.image}${removed.length ? ` and the pod's containers using it (${removed.join(', ')})` : ''}`,
      items: [req.image, ...removed],
    };
  },
};
