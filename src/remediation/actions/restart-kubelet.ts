// Restart the kubelet on a node (systemctl restart kubelet through the node agent).
import { z } from 'zod';
import { objectName } from '../kube.js';
import { callAgent } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ node: objectName });

export const action = defineAction({
  kind: 'restart-kubelet',
  summary: 'Restart the kubelet on a node (node agent)',
  params,
  destructive: true,
  timeoutMs: 90_000,
  describe: (p) => [`node agent on ${p.node}: systemctl restart kubelet.service`],
  run: (ctx, p) => callAgent(ctx, 'restart-kubelet', { node: p.node }),
});
