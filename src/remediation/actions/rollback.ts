// Roll a Deployment, StatefulSet or DaemonSet back to a revision of its history: its pod template
// becomes that revision's again (what `kubectl rollout undo --to-revision` does), and its
// controller replaces the pods. The JSON patch tests the workload's generation, so a rollout made
// after the re-check is never overwritten.
import { PatchStrategy } from '@kubernetes/client-node';
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, objectName, patchAs } from '../kube.js';
import { atRevision, readHistory, templateOf } from '../revisions.js';
import type { StepContext } from './types.js';
import { defineAction, StepError } from './types.js';

const params = z.object({
  namespace: namespaceName,
  kind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet']),
  name: objectName,
  /** The revision to go back to. */
  revision: z.number().int().min(1),
});
type Params = z.output<typeof params>;

async function history(ctx: StepContext, p: Params) {
  const h = await readHistory(ctx.kube, p.namespace, p.kind, p.name);
  if (!h) throw new StepError(`${p.kind} ${p.namespace}/${p.name} not found`, { status: 404 });
  const revision = h.revisions.find((r) => r.revision === p.revision);
  if (!revision) throw new StepError(`${p.kind} ${p.namespace}/${p.name} no longer has revision ${p.revision}`);
  return { ...h, revision };
}

export const action = defineAction({
  kind: 'rollback',
  summary: 'Set the pod template of a Deployment, StatefulSet or DaemonSet back to a revision of its history (kubectl rollout undo)',
  params,
  // Every pod of the workload is replaced.
  destructive: true,
  timeoutMs: 20_000,
  describe: (p) => [
    `PATCH ${p.kind} ${p.namespace}/${p.name}: spec.template := revision ${p.revision}'s (kubectl rollout undo --to-revision=${p.revision}), ` +
      `only if the ${p.kind} did not change since (test metadata.generation)`,
  ],
  async run(ctx, p) {
    const { object, revision } = await history(ctx, p);
    const ops = [
      { op: 'test', path: '/metadata/generation', value: object.metadata?.generation },
      { op: 'replace', path: '/spec/template', value: templateOf(revision) },
    ];
    try {
      const req = { name: p.name, namespace: p.namespace, body: ops };
      const opts = patchAs(PatchStrategy.JsonPatch);
      if (p.kind === 'Deployment') await ctx.kube.apps.patchNamespacedDeployment(req, opts);
      else if (p.kind === 'StatefulSet') await ctx.kube.apps.patchNamespacedStatefulSet(req, opts);
      else await ctx.kube.apps.patchNamespacedDaemonSet(req, opts);
    } catch (err) {
      if (isNotFound(err)) throw new StepError(`${p.kind} ${p.namespace}/${p.name} not found`, { cause: err, status: 404 });
      throw new StepError(`rolling back ${p.kind} ${p.namespace}/${p.name} failed (changed since the check?): ${apiMessage(err)}`, {
        cause: err,
        status: apiStatus(err),
      });
    }
    return {
      detail: `${p.kind} ${p.namespace}/${p.name} rolled back to revision ${p.revision} (${revision.name})`,
      data: { from: object.metadata?.generation },
    };
  },
  async recheck(ctx, p) {
    // Setting the same template again changes nothing.
    const h = await history(ctx, p).catch(() => undefined);
    if (!h) return 'unknown';
    return atRevision(h.object, h.revision) ? 'done' : 'not-done';
  },
});
