// Graceful delete of a pod (its controller recreates it), with a UID precondition so only the
// approved incarnation is deleted.
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, uidValue } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({
  namespace: namespaceName,
  pod: objectName,
  uid: uidValue,
  /** Default: the pod's own terminationGracePeriodSeconds. */
  gracePeriodSeconds: z.number().int().min(1).max(86_400).optional(),
});

export const action = defineAction({
  kind: 'delete',
  summary: 'Delete a pod gracefully (its controller recreates it), only if its UID is still the approved one',
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [
    `DELETE pod ${p.namespace}/${p.pod}${p.gracePeriodSeconds !== undefined ? ` with gracePeriodSeconds=${p.gracePeriodSeconds}` : ' (its own grace period)'}, precondition uid=${p.uid}`,
  ],
  async run(ctx, p) {
    try {
      await ctx.kube.core.deleteNamespacedPod({
        name: p.pod,
        namespace: p.namespace,
        ...(p.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: p.gracePeriodSeconds } : {}),
        body: { preconditions: { uid: p.uid }, ...(p.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: p.gracePeriodSeconds } : {}) },
      });
    } catch (err) {
      if (isNotFound(err)) return { detail: `pod ${p.namespace}/${p.pod} is already gone` };
      const status = apiStatus(err);
      if (status === 409)
        throw new StepError(`pod ${p.namespace}/${p.pod} was recreated (UID changed), not deleted: ${apiMessage(err)}`, { cause: err, status });
      throw new StepError(`DELETE failed: ${apiMessage(err)}`, { cause: err, status });
    }
    return { detail: `pod ${p.namespace}/${p.pod} deleted (graceful)` };
  },
  async recheck(ctx, p) {
    const pod = await ctx.kube.getPod(p.namespace, p.pod);
    if (!pod || pod.metadata?.uid !== p.uid || pod.metadata?.deletionTimestamp) return 'done';
    return 'not-done';
  },
});
