// Pull the pod's image again on its node (after remove-image).
import { z } from 'zod';
import { imageRefSchema } from '../../agent/actions/types.js';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ ...podScopedParams, image: imageRefSchema });

export const action = defineAction({
  kind: 'pull-image',
  summary: "Pull the pod's image on its node (node agent)",
  params,
  destructive: false,
  timeoutMs: 600_000,
  describe: (p) => [`node agent on ${p.node}: pull image ${p.image}`],
  run: (ctx, p) => callAgent(ctx, 'pull-image', { node: p.node, pod: podRef(p), image: p.image }),
});
