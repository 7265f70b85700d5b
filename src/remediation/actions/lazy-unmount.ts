// Lazy-unmount a hung FUSE/network mount (`umount -l`): processes blocked on it are released
// and the runtime can act again. The agent refuses other file system types and mounts that
// neither belong to the pod nor hang. Unmounting what is no longer mounted does nothing.
import { z } from 'zod';
import { mountPathSchema } from '../../agent/actions/types.js';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ ...podScopedParams, mount: mountPathSchema, fsType: z.string().max(64).optional() });

export const action = defineAction({
  kind: 'lazy-unmount',
  summary: 'Lazy-unmount a hung FUSE/network mount of the pod (node agent; umount -l)',
  params,
  destructive: true,
  timeoutMs: 60_000,
  describe: (p) => [
    `node agent on ${p.node}: umount -l ${p.mount}${p.fsType ? ` (${p.fsType})` : ''} — only a FUSE/network mount of pod ${p.namespace}/${p.pod} or one that hangs`,
  ],
  run: (ctx, p) => callAgent(ctx, 'lazy-unmount', { node: p.node, pod: podRef(p), mount: p.mount }),
  recheck: async () => 'not-done',
});
