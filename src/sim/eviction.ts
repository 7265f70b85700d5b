// POST pods/<name>/eviction (pkg/registry/core/pod/storage/eviction.go, 1.20 behaviour; the body
// must be a policy/v1beta1 Eviction):
// a pod that is Pending or terminal is deleted at once; otherwise the single matching
// PodDisruptionBudget must allow a disruption, which the eviction consumes. There is no
// disruption controller in the sim, so a PDB's status is whatever the fixture (or a status
// write) says; a PDB created through the API has observedGeneration 0 and blocks evictions,
// exactly as on a cluster whose controller has not processed it yet.
import type { KubeObject } from '../diagnosis/types.js';
import { type LabelSelectorObject, matchLabels, requirementsFromSelector } from '../kube/selectors.js';
import { clone, formatTime, isObject } from './json.js';
import type { Registry } from './registry.js';
import type { ResourceDef } from './resources.js';
import { errors, failure, type StatusBody, successStatus } from './status.js';
import type { DeleteOptions } from './validation.js';

const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

export function evict(registry: Registry, pods: ResourceDef, namespace: string, name: string, body: unknown, now: () => Date): StatusBody {
  if (!isObject(body)) throw errors.badRequest('the body of the request must be an Eviction object');
  const apiVersion = body.apiVersion;
  // 1.20 registers Eviction in policy/v1beta1 only (policy/v1 came in 1.22): a policy/v1 body
  // is refused, one without apiVersion/kind is decoded as v1beta1 (checked by test/envtest/fidelity.test.ts).
  if (apiVersion !== undefined && apiVersion !== 'policy/v1beta1') {
    const av = String(apiVersion);
    throw errors.badRequest(
      `Eviction in version ${JSON.stringify(av.slice(av.lastIndexOf('/') + 1))} cannot be handled as a Eviction: no kind "Eviction" is registered for version ${JSON.stringify(av)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`,
    );
  }
  const bodyName = isObject(body.metadata) ? body.metadata.name : undefined;
  if (bodyName !== name) throw errors.badRequest('name in URL does not match name in Eviction object');
  const deleteOptions = (isObject(body.deleteOptions) ? body.deleteOptions : {}) as DeleteOptions;

  const pod = registry.get(pods, namespace, name);
  const phase = pod.status?.phase;
  // canIgnorePDB: the pod is not (yet / any more) part of the application's availability.
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending') {
    registry.delete(pods, namespace, name, withRvPrecondition(deleteOptions, pod));
    return successStatus(201);
  }

  const pdbDef = registry.store.table.lookup('policy', 'v1', 'poddisruptionbudgets');
  const pdbs = pdbDef ? matchingBudgets(registry, pdbDef, pod) : [];
  if (pdbs.length > 1) {
    return failure(500, '', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  }
  const pdb = pdbs[0];
  if (pdb && pdbDef) consumeDisruption(registry, pdbDef, pdb, name, now, deleteOptions.dryRun?.includes('All') ?? false);
  registry.delete(pods, namespace, name, deleteOptions);
  return successStatus(201);
}

/** Deleting a pod that may ignore PDBs pins its resourceVersion, as upstream does. */
function withRvPrecondition(o: DeleteOptions, pod: KubeObject): DeleteOptions {
  if (o.preconditions?.resourceVersion !== undefined) return o;
  return { ...o, preconditions: { ...o.preconditions, resourceVersion: pod.metadata?.resourceVersion ?? '' } };
}

/** getPodDisruptionBudgets: a PDB with an empty selector matches nothing. */
function matchingBudgets(registry: Registry, pdbDef: ResourceDef, pod: KubeObject): KubeObject[] {
  return registry.store.list(pdbDef, { namespace: pod.metadata?.namespace ?? '' }).filter((pdb) => {
    const reqs = requirementsFromSelector(pdb.spec?.selector as LabelSelectorObject | undefined);
    return reqs.length > 0 && matchLabels(reqs, pod.metadata?.labels);
  });
}

/** checkAndDecrement. */
function consumeDisruption(registry: Registry, pdbDef: ResourceDef, pdb: KubeObject, podName: string, now: () => Date, dryRun: boolean): void {
  const pdbName = pdb.metadata?.name ?? '';
  const status = pdb.status ?? {};
  const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
  if (num(status.observedGeneration) < (pdb.metadata?.generation ?? 0)) {
    throw errors.tooManyRequests(VIOLATION, 0, [
      { reason: 'DisruptionBudget', message: `The disruption budget ${pdbName} is still being processed by the server.` },
    ]);
  }
  const allowed = num(status.disruptionsAllowed);
  if (allowed < 0) throw errors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, 'pdb disruptions allowed is negative');
  if (allowed === 0) {
    throw errors.tooManyRequests(VIOLATION, 0, [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${pdbName} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`,
      },
    ]);
  }
  if (dryRun) return;
  const next = clone(pdb);
  const disrupted = isObject(status.disruptedPods) ? { ...status.disruptedPods } : {};
  disrupted[podName] = formatTime(now());
  next.status = { ...status, disruptionsAllowed: allowed - 1, disruptedPods: disrupted };
  registry.store.update(pdbDef, next);
}
