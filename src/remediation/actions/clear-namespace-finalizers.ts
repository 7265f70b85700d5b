// Clear a Terminating namespace's spec.finalizers through the finalize subresource (the only
// way to change them): PUT /api/v1/namespaces/<ns>/finalize with `spec.finalizers: []`. The
// namespace then goes; objects still stored in it and external resources are orphaned.
import { z } from 'zod';
import { apiMessage, apiStatus, isNotFound, namespaceName, uidValue } from '../kube.js';
import { defineAction, StepError } from './types.js';

const params = z.object({ namespace: namespaceName, namespaceUid: uidValue.optional() });

export const action = defineAction({
  kind: 'clear-namespace-finalizers',
  summary: "Clear a Terminating namespace's spec.finalizers (PUT …/finalize)",
  params,
  destructive: true,
  timeoutMs: 15_000,
  describe: (p) => [`PUT /api/v1/namespaces/${p.namespace}/finalize with spec.finalizers: []${p.namespaceUid ? ` (namespace uid ${p.namespaceUid})` : ''}`],
  async run(ctx, p) {
    try {
      const ns = await ctx.kube.core.readNamespace({ name: p.namespace });
      if (p.namespaceUid && ns.metadata?.uid !== p.namespaceUid) throw new StepError(`namespace ${p.namespace} was recreated (UID changed); nothing changed`);
      if (!ns.metadata?.deletionTimestamp) throw new StepError(`namespace ${p.namespace} is not being deleted; refusing to clear its finalizers`);
      const before = ns.spec?.finalizers ?? [];
      // resourceVersion from the read makes a concurrent change fail with 409 instead of being overwritten.
      await ctx.kube.core.replaceNamespaceFinalize({ name: p.namespace, body: { ...ns, spec: { ...ns.spec, finalizers: [] } } });
      return { detail: `cleared finalizers [${before.join(', ')}] of namespace ${p.namespace}` };
    } catch (err) {
      if (err instanceof StepError) throw err;
      if (isNotFound(err)) return { detail: `namespace ${p.namespace} is already gone` };
      throw new StepError(`finalize of namespace ${p.namespace} failed: ${apiMessage(err)}`, { cause: err, status: apiStatus(err) });
    }
  },
  async recheck(ctx, p) {
    const ns = await ctx.kube.getNamespace(p.namespace);
    if (!ns || (p.namespaceUid && ns.metadata?.uid !== p.namespaceUid)) return 'done';
    return (ns.spec?.finalizers ?? []).length === 0 ? 'done' : 'not-done';
  },
});
