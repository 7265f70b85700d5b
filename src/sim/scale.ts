// The `scale` subresource of deployments, replicasets and statefulsets
// (pkg/registry/apps/*/storage ScaleREST): an autoscaling/v1 Scale view whose writes change
// only spec.replicas, with the parent's resourceVersion as the concurrency token.
import type { KubeObject } from '../diagnosis/types.js';
import { formatSelector, type LabelSelectorObject } from '../kube/selectors.js';
import { clone, isObject, type JsonObject, meta } from './json.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patch.js';
import { patchFailure, patchType, type Registry } from './registry.js';
import { groupResource, type ResourceDef } from './resources.js';
import { SMP } from './smp-schemas.js';
import { errors, invalidValue, required } from './status.js';

/** scaleFromDeployment (and its ReplicaSet/StatefulSet twins). */
export function toScale(obj: KubeObject): KubeObject {
  const m = obj.metadata ?? {};
  const replicas = typeof obj.spec?.replicas === 'number' ? obj.spec.replicas : 0;
  const statusReplicas = typeof obj.status?.replicas === 'number' ? obj.status.replicas : 0;
  const selector = formatSelector(obj.spec?.selector as LabelSelectorObject | undefined);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    // autoscaling/v1 ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas ? { replicas } : {},
    status: { replicas: statusReplicas, ...(selector ? { selector } : {}) },
  };
}

export function getScale(registry: Registry, def: ResourceDef, namespace: string, name: string): KubeObject {
  const parent = registry.store.get(def, namespace, name);
  // 1.20: the Deployment and ReplicaSet ScaleREST.Get name the subresource (`deployments/scale.apps
  // "x" not found`); StatefulSet's passes the store's error on. Writes always get the store's.
  if (!parent) throw errors.notFound({ group: def.group, resource: def.resource === 'statefulsets' ? def.resource : `${def.resource}/scale` }, name);
  return toScale(parent);
}

export function updateScale(registry: Registry, def: ResourceDef, namespace: string, name: string, body: unknown, dryRun = false): KubeObject {
  if (!isObject(body)) throw errors.badRequest('the body of the request must be a Scale object');
  const scale = clone(body) as KubeObject;
  if (scale.kind !== undefined && scale.kind !== 'Scale')
    throw errors.badRequest(`the kind in the data (${String(scale.kind)}) does not match the expected kind (Scale)`);
  const m = meta(scale);
  if (m.name !== name) throw errors.badRequest(`the name of the object (${m.name ?? ''}) does not match the name on the URL (${name})`);
  if (m.namespace && m.namespace !== namespace)
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  return applyScale(registry, def, namespace, name, scale, dryRun);
}

export function patchScale(
  registry: Registry,
  def: ResourceDef,
  namespace: string,
  name: string,
  contentType: string,
  rawBody: string,
  dryRun = false,
): KubeObject {
  const type = patchType(def, contentType);
  const current = toScale(registry.get(def, namespace, name)) as JsonObject;
  let patch: unknown;
  try {
    patch = JSON.parse(rawBody);
  } catch (err) {
    throw errors.badRequest((err as Error).message);
  }
  let patched: unknown;
  try {
    if (type === 'json') patched = applyJsonPatch(current, patch);
    else if (type === 'merge') {
      if (!isObject(patch)) throw new PatchError('bad-request', 'Invalid JSON Patch');
      patched = applyMergePatch(current, patch);
    } else patched = applyStrategicMergePatch(current, patch, SMP.generic);
  } catch (err) {
    if (err instanceof PatchError) throw patchFailure(err);
    throw err;
  }
  if (!isObject(patched)) throw errors.badRequest('the patched Scale is not an object');
  const scale = patched as KubeObject;
  if (scale.metadata?.name !== name)
    throw errors.badRequest(`the name of the object (${scale.metadata?.name ?? ''}) does not match the name on the URL (${name})`);
  return applyScale(registry, def, namespace, name, scale, dryRun);
}

/** scaleUpdatedObjectInfo.UpdatedObject: validate the Scale, copy replicas onto the parent. */
function applyScale(registry: Registry, def: ResourceDef, namespace: string, name: string, scale: KubeObject, dryRun: boolean): KubeObject {
  const parent = registry.store.get(def, namespace, name);
  if (!parent) throw errors.notFound(groupResource(def), name);
  const replicas = scale.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw errors.invalid({ group: 'autoscaling', kind: 'Scale' }, name, [required('spec.replicas')]);
  }
  if (replicas < 0) {
    throw errors.invalid({ group: 'autoscaling', kind: 'Scale' }, name, [invalidValue('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
  const next = clone(parent);
  next.spec = { ...next.spec, replicas };
  meta(next).resourceVersion = scale.metadata?.resourceVersion ?? '';
  const { object } = registry.update(def, namespace, name, next, 'main', { dryRun });
  return toScale(object);
}
