// Force delete a pod: grace period 0 with a UID precondition, so a pod recreated under the same
// name (a StatefulSet replacement) is never the one deleted. The API server then removes the
// object without waiting for the kubelet (finalizers still hold it).
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, uidValue } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({ namespace: namespaceName, pod: objectName, uid: uidValue });

export const action = defineAction({
  kind: 'force-delete',
  summary: 'Delete a pod with grace period 0 (force), only if its UID is still the approved one',
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [`DELETE pod ${p.namespace}/${p.pod} with gracePeriodSeconds=0 (force), precondition uid=${p.uid}`],
  async run(ctx, p) {
    try {
      await ctx.kube.core.deleteNamespacedPod({
        name: p.pod,
        namespace: p.namespace,
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, preconditions: { uid: p.uid } },
      });
    } catch (err) {
      if (isNotFound(err)) return { detail: `pod ${p.namespace}/${p.pod} is already gone` };
      const status = apiStatus(err);
      if (status === 409)
        throw new StepError(`pod ${p.namespace}/${p.pod} was recreated (UID changed), not deleted: ${apiMessage(err)}`, { cause: err, status });
      throw new StepError(`DELETE failed: ${apiMessage(err)}`, { cause: err, status });
    }
    const left = await ctx.kube.getPod(p.namespace, p.pod);
    if (left && left.metadata?.uid === p.uid) {
      return {
        detail: `pod ${p.namespace}/${p.pod} force-deleted; the object stays until its finalizers [${(left.metadata?.finalizers ?? []).join(', ')}] are removed`,
      };
    }
    return { detail: `pod ${p.namespace}/${p.pod} force-deleted` };
  },
  async recheck(ctx, p) {
    const pod = await ctx.kube.getPod(p.namespace, p.pod);
    if (!pod || pod.metadata?.uid !== p.uid) return 'done';
    // The UID precondition makes a repeat harmless.
    return pod.metadata?.deletionGracePeriodSeconds === 0 ? 'done' : 'not-done';
  },
});
