// Remove the pod's containers on its node (docker rm -f, or CRI stop + remove of the containers
// and the sandbox on containerd/CRI-O), scoped by the container label
// io.kubernetes.pod.uid. Removing them again removes nothing, so a repeat after a crash is safe.
import { z } from 'zod';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object(podScopedParams);

export const action = defineAction({
  kind: 'remove-pod-containers',
  summary: "Remove the pod's containers on its node (node agent; only containers labelled with the pod's UID)",
  params,
  destructive: true,
  timeoutMs: 90_000,
  describe: (p) => [
    `node agent on ${p.node}: remove the containers labelled io.kubernetes.pod.uid=${p.uid} (pod ${p.namespace}/${p.pod}; docker rm -f, or CRI stop + remove)`,
  ],
  run: (ctx, p) => callAgent(ctx, 'remove-pod-containers', { node: p.node, pod: podRef(p) }),
  recheck: async () => 'not-done',
});
