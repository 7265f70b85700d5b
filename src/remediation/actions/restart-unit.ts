// Restart the systemd service that pins one of the pod's mounts in its private mount namespace
// (ntpd with PrivateTmp in seed 001). The agent refuses unless the unit holds such a mount now.
import { z } from 'zod';
import { unitSchema } from '../../agent/actions/types.js';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ ...podScopedParams, unit: unitSchema });

export const action = defineAction({
  kind: 'restart-unit',
  summary: "Restart the systemd unit holding one of the pod's mounts (node agent; refused unless it holds one now)",
  params,
  destructive: true,
  timeoutMs: 90_000,
  describe: (p) => [`node agent on ${p.node}: systemctl restart ${p.unit} (only if it still holds a mount of pod ${p.namespace}/${p.pod})`],
  run: (ctx, p) => callAgent(ctx, 'restart-unit', { node: p.node, pod: podRef(p), unit: p.unit }),
});
