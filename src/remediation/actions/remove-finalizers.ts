// Remove a deleted pod's finalizers with a JSON patch that first tests the UID and the exact
// finalizer list a human approved: if a controller changed the list meanwhile (or the pod was
// recreated), the API server rejects the whole patch and nothing is removed.

import { PatchStrategy } from '@kubernetes/client-node';
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, patchAs, uidValue } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({
  namespace: namespaceName,
  pod: objectName,
  uid: uidValue,
  finalizers: z.array(z.string().min(1).max(316)).min(1),
});

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export const action = defineAction({
  kind: 'remove-finalizers',
  summary: "Remove a pod's finalizers (JSON patch guarded by a test of the UID and the exact list)",
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [`PATCH pod ${p.namespace}/${p.pod}: remove finalizers [${p.finalizers.join(', ')}]`],
  async run(ctx, p) {
    const patch = [
      { op: 'test', path: '/metadata/uid', value: p.uid },
      { op: 'test', path: '/metadata/finalizers', value: p.finalizers },
      { op: 'remove', path: '/metadata/finalizers' },
    ];
    try {
      await ctx.kube.core.patchNamespacedPod({ name: p.pod, namespace: p.namespace, body: patch }, patchAs(PatchStrategy.JsonPatch));
    } catch (err) {
      if (isNotFound(err)) return { detail: `pod ${p.namespace}/${p.pod} is already gone` };
      const status = apiStatus(err);
      if (status === 422 || status === 409) {
        throw new StepError(`the pod changed since approval (UID or finalizers differ), nothing was removed: ${apiMessage(err)}`, { cause: err, status });
      }
      throw new StepError(`PATCH failed: ${apiMessage(err)}`, { cause: err, status });
    }
    return { detail: `removed finalizers [${p.finalizers.join(', ')}] from pod ${p.namespace}/${p.pod}` };
  },
  async recheck(ctx, p) {
    const pod = await ctx.kube.getPod(p.namespace, p.pod);
    if (!pod || pod.metadata?.uid !== p.uid) return 'done';
    const now = pod.metadata?.finalizers ?? [];
    if (!p.finalizers.some((f) => now.includes(f))) return 'done';
    // Still exactly the approved list: the patch did not apply, and its tests make a retry safe.
    return sameList(now, p.finalizers) ? 'not-done' : 'unknown';
  },
});
