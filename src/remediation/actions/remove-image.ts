// Remove the pod's image from its node (with the pod's containers that use it), so the next
// pull fetches a fresh copy. The agent refuses images the pod does not use.
import { z } from 'zod';
import { imageRefSchema } from '../../agent/actions/types.js';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ ...podScopedParams, image: imageRefSchema });

export const action = defineAction({
  kind: 'remove-image',
  summary: "Remove the pod's image (and the pod's containers using it) from its node (node agent)",
  params,
  destructive: true,
  timeoutMs: 120_000,
  describe: (p) => [
    `node agent on ${p.node}: remove the containers of pod ${p.namespace}/${p.pod} that use ${p.image}, then remove image ${p.image} (not forced)`,
  ],
  run: (ctx, p) => callAgent(ctx, 'remove-image', { node: p.node, pod: podRef(p), image: p.image }),
});
