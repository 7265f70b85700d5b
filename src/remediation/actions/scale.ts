// Scale a workload through its scale subresource (only spec.replicas changes). The workload is
// named by the playbook's parameters: from the finding (contain-cascade) or from the pod's
// owner chain when the plan was made.

import { PatchStrategy } from '@kubernetes/client-node';
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, patchAs, WORKLOAD_KINDS, type WorkloadKind } from '../kube.js';
import type { StepContext } from './types.js';
import { defineAction, StepError } from './types.js';

const params = z.object({
  namespace: namespaceName,
  kind: z.enum(WORKLOAD_KINDS as [WorkloadKind, ...WorkloadKind[]]),
  name: objectName,
  replicas: z.number().int().min(0).max(10_000),
});
type Params = z.output<typeof params>;

async function readReplicas(ctx: StepContext, p: Params): Promise<number | undefined> {
  const req = { name: p.name, namespace: p.namespace };
  const scale =
    p.kind === 'Deployment'
      ? await ctx.kube.apps.readNamespacedDeploymentScale(req)
      : p.kind === 'StatefulSet'
        ? await ctx.kube.apps.readNamespacedStatefulSetScale(req)
        : await ctx.kube.apps.readNamespacedReplicaSetScale(req);
  return scale.spec?.replicas ?? 0;
}

export const action = defineAction({
  kind: 'scale',
  summary: 'Set the replicas of a Deployment, StatefulSet or ReplicaSet (scale subresource)',
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [`PATCH ${p.kind} ${p.namespace}/${p.name} (scale subresource): set spec.replicas=${p.replicas}`],
  async run(ctx, p) {
    let before: number | undefined;
    try {
      before = await readReplicas(ctx, p);
      const req = { name: p.name, namespace: p.namespace, body: { spec: { replicas: p.replicas } } };
      const opts = patchAs(PatchStrategy.MergePatch);
      if (p.kind === 'Deployment') await ctx.kube.apps.patchNamespacedDeploymentScale(req, opts);
      else if (p.kind === 'StatefulSet') await ctx.kube.apps.patchNamespacedStatefulSetScale(req, opts);
      else await ctx.kube.apps.patchNamespacedReplicaSetScale(req, opts);
    } catch (err) {
      if (isNotFound(err)) throw new StepError(`${p.kind} ${p.namespace}/${p.name} not found`, { cause: err, status: 404 });
      throw new StepError(`scaling ${p.kind} ${p.namespace}/${p.name} failed: ${apiMessage(err)}`, { cause: err, status: apiStatus(err) });
    }
    return { detail: `${p.kind} ${p.namespace}/${p.name} scaled from ${before ?? '?'} to ${p.replicas} replicas`, data: { before } };
  },
  async recheck(ctx, p) {
    // Setting the same replica count again is harmless.
    const now = await readReplicas(ctx, p).catch(() => undefined);
    return now === p.replicas ? 'done' : 'not-done';
  },
});
