// The subset of kube-apiserver validation the simulator enforces: object names, finalizer
// names, the pod fields a create needs, pod spec immutability, DeleteOptions. Messages are
// the ones k8s.io/apimachinery/pkg/util/validation and pkg/apis/core/validation produce.
import type { KubeObject } from '../diagnosis/types.js';
import { isQualifiedName, LABEL_MSG, LABEL_RE, SUBDOMAIN_MSG, SUBDOMAIN_RE } from '../kube/names.js';
import { deepEqual, isObject, type JsonObject } from './json.js';
import type { ResourceDef } from './resources.js';
import { type FieldError, invalidValue, notSupported, required } from './status.js';

export function validateName(def: ResourceDef, name: string, field = 'metadata.name'): FieldError[] {
  const rule = def.nameRule ?? 'subdomain';
  if (rule === 'path-segment') {
    if (name === '.' || name === '..') return [invalidValue(field, name, `may not be '${name}'`)];
    if (/[/%]/.test(name)) return [invalidValue(field, name, `may not contain '/'`)];
    return [];
  }
  const max = rule === 'label' ? 63 : 253;
  const errs: FieldError[] = [];
  if (name.length > max) errs.push(invalidValue(field, name, `must be no more than ${max} characters`));
  if (!(rule === 'label' ? LABEL_RE : SUBDOMAIN_RE).test(name)) errs.push(invalidValue(field, name, rule === 'label' ? LABEL_MSG : SUBDOMAIN_MSG));
  return errs;
}

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** ValidateFinalizerName of pkg/apis/core/validation (built-in types only). */
export function validateFinalizers(finalizers: readonly string[] | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    const path = `${field}[${i}]`;
    for (const msg of isQualifiedName(f)) errs.push(invalidValue(path, f, msg));
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f))
      errs.push(invalidValue(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
  });
  return errs;
}

/** The pod fields a create cannot do without (ValidatePodSpec, abridged). */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const containers = Array.isArray(pod.spec?.containers) ? (pod.spec.containers as unknown[]) : [];
  if (containers.length === 0) return [required('spec.containers')];
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const container = isObject(c) ? c : {};
    if (typeof container.name !== 'string' || !container.name) errs.push(required(`spec.containers[${i}].name`));
    if (typeof container.image !== 'string' || !container.image) errs.push(required(`spec.containers[${i}].image`));
  });
  return errs;
}

/**
 * ValidatePodUpdate: a pod's spec is immutable except container images,
 * activeDeadlineSeconds and added tolerations.
 */
export function validatePodSpecUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const neutral = (spec: unknown, imagesFrom: unknown): JsonObject => {
    const s: JsonObject = isObject(spec) ? structuredClone(spec) : {};
    const from = isObject(imagesFrom) ? imagesFrom : {};
    for (const list of ['containers', 'initContainers'] as const) {
      const target = s[list];
      const source = from[list];
      if (!Array.isArray(target) || !Array.isArray(source)) continue;
      target.forEach((c, i) => {
        const src = source[i];
        if (isObject(c) && isObject(src) && src.image !== undefined) c.image = src.image;
      });
    }
    delete s.activeDeadlineSeconds;
    delete s.tolerations;
    return s;
  };
  if (deepEqual(neutral(next.spec, old.spec), neutral(old.spec, old.spec))) return [];
  return [
    {
      type: 'FieldValueForbidden',
      field: 'spec',
      detail:
        'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)',
    },
  ];
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

/** ValidateDeleteOptions. */
export function validateDeleteOptions(o: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push(invalidValue('propagationPolicy', o.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (o.propagationPolicy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(o.propagationPolicy)) {
    errs.push(notSupported('propagationPolicy', o.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  for (const d of o.dryRun ?? []) if (d !== 'All') errs.push(notSupported('dryRun', d, ['All']));
  return errs;
}
