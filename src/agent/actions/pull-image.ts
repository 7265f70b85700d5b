// Pull an image again: only one the pod uses, or one removed for this pod by remove-image a
// short while ago (its containers are gone by then, so the grant is what proves the link).
import { grantKey } from './remove-image.js';
import { ActionRefused, type AgentActionDef, POD_UID_LABEL, podLabel, runsImage } from './types.js';

export const action: AgentActionDef<'pull-image'> = {
  async run(req, env) {
    const granted = (env.grants.get(grantKey(req.pod.uid, req.image)) ?? 0) > env.now();
    if (!granted) {
      const containers = (await env.exec.listPodContainers(req.pod.uid)).filter((c) => c.labels[POD_UID_LABEL] === req.pod.uid);
      if (!containers.some((c) => runsImage(c, req.image)))
        throw new ActionRefused(403, `image ${req.image} is not an image of pod ${podLabel(req.pod)} on this node`);
    }
    const r = await env.exec.pullImage(req.image);
    if (!r.ok) throw new ActionRefused(502, `pull of ${req.image} failed: ${r.detail}`);
    return { changed: true, detail: `pulled ${req.image}${r.detail ? `: ${r.detail}` : ''}`, items: [req.image] };
  },
};
