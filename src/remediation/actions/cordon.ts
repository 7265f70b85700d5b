// Cordon nodes: `spec.unschedulable: true` by merge patch, as `kubectl cordon` does. Reversible
// (`kubectl uncordon`), so not counted as destructive.

import { PatchStrategy } from '@kubernetes/client-node';
import { z } from 'zod';
import { apiMessage, apiStatus, objectName, patchAs } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({ nodes: z.array(objectName).min(1).max(100) });

export const action = defineAction({
  kind: 'cordon',
  summary: 'Cordon nodes (spec.unschedulable: true)',
  params,
  destructive: false,
  timeoutMs: 30_000,
  describe: (p) => p.nodes.map((n) => `PATCH node ${n}: set spec.unschedulable=true (cordon)`),
  async run(ctx, p) {
    const done: string[] = [];
    for (const name of p.nodes) {
      try {
        await ctx.kube.core.patchNode({ name, body: { spec: { unschedulable: true } } }, patchAs(PatchStrategy.MergePatch));
        done.push(name);
      } catch (err) {
        throw new StepError(`cordon of node ${name} failed${done.length ? ` (cordoned so far: ${done.join(', ')})` : ''}: ${apiMessage(err)}`, {
          cause: err,
          status: apiStatus(err),
        });
      }
    }
    return { detail: `cordoned ${done.join(', ')}` };
  },
});
