// Restart the kubelet of this node (a node-scoped action: the request only names the node).
import { ActionRefused, type AgentActionDef } from './types.js';

export const action: AgentActionDef<'restart-kubelet'> = {
  async run(_req, env) {
    const r = await env.exec.restartUnit('kubelet.service');
    if (!r.ok) throw new ActionRefused(502, `systemctl restart kubelet.service failed: ${r.detail}`);
    return { changed: true, detail: 'restarted kubelet.service', items: ['kubelet.service'] };
  },
};
