// Evict a pod through the policy/v1 Eviction subresource: unlike a delete, the API server
// refuses (429) when a PodDisruptionBudget does not allow it.
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, uidValue } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({ namespace: namespaceName, pod: objectName, uid: uidValue });

export const action = defineAction({
  kind: 'evict',
  summary: 'Evict a pod (policy/v1 Eviction; respects PodDisruptionBudgets)',
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [`POST pods/${p.namespace}/${p.pod}/eviction (policy/v1 Eviction, respects PodDisruptionBudgets), precondition uid=${p.uid}`],
  async run(ctx, p) {
    const evict = (apiVersion: string) =>
      ctx.kube.core.createNamespacedPodEviction({
        name: p.pod,
        namespace: p.namespace,
        body: { apiVersion, kind: 'Eviction', metadata: { name: p.pod, namespace: p.namespace }, deleteOptions: { preconditions: { uid: p.uid } } },
      });
    try {
      await evict('policy/v1').catch((err: unknown) => {
        // API servers before 1.22 know only policy/v1beta1 Evictions.
        if (apiStatus(err) === 400 && /no kind "Eviction" is registered for version "policy\/v1"/.test(apiMessage(err))) return evict('policy/v1beta1');
        throw err;
      });
    } catch (err) {
      if (isNotFound(err)) return { detail: `pod ${p.namespace}/${p.pod} is already gone` };
      const status = apiStatus(err);
      if (status === 429)
        throw new StepError(`a PodDisruptionBudget does not allow evicting ${p.namespace}/${p.pod} now: ${apiMessage(err)}`, { cause: err, status });
      if (status === 409)
        throw new StepError(`pod ${p.namespace}/${p.pod} was recreated (UID changed), not evicted: ${apiMessage(err)}`, { cause: err, status });
      throw new StepError(`eviction failed: ${apiMessage(err)}`, { cause: err, status });
    }
    return { detail: `pod ${p.namespace}/${p.pod} evicted` };
  },
  async recheck(ctx, p) {
    const pod = await ctx.kube.getPod(p.namespace, p.pod);
    return !pod || pod.metadata?.uid !== p.uid || pod.metadata?.deletionTimestamp ? 'done' : 'not-done';
  },
});
