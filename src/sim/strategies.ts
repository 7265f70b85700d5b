// Per-resource behaviour of writes, after pkg/registry/*/strategy.go and the v1 scheme
// defaulters: defaults applied to every decoded write (so a PUT of a client's copy of an
// object compares equal to what is stored), create-time resets and admission-added fields,
// what a main-resource, status or finalize write may change, and validation.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../diagnosis/types.js';
import { clone, deepEqual, isObject, type JsonObject, type JsonValue, meta } from './json.js';
import type { ResourceDef } from './resources.js';
import { type FieldError, invalidValue } from './status.js';
import { validateFinalizers, validateName, validatePodCreate, validatePodSpecUpdate } from './validation.js';

const is = (def: ResourceDef, group: string, resource: string): boolean => def.group === group && def.resource === resource;

// --- scheme defaulting (SetDefaults_*), run on every decoded write ---

/** Applies the v1 defaulters of the kinds the sim serves (mutates `obj`). */
export function applyDefaults(def: ResourceDef, obj: KubeObject): void {
  if (is(def, '', 'pods')) {
    obj.spec = defaultPodSpec(obj.spec, true);
    if (isObject(obj.status)) defaultConditions(obj.status, ['lastProbeTime', 'lastTransitionTime']);
  } else if (is(def, '', 'nodes')) {
    // NodeStatus.daemonEndpoints and nodeInfo are structs: always serialized.
    const status: JsonObject = { ...(obj.status as JsonObject | undefined) };
    defaultConditions(status, ['lastHeartbeatTime', 'lastTransitionTime']);
    status.daemonEndpoints ??= { kubeletEndpoint: { Port: 0 } };
    status.nodeInfo = { ...EMPTY_NODE_INFO, ...(isObject(status.nodeInfo) ? status.nodeInfo : {}) };
    obj.status = status;
  } else if (is(def, '', 'services')) {
    const spec: JsonObject = { ...(obj.spec as JsonObject | undefined) };
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (Array.isArray(spec.ports)) {
      spec.ports = spec.ports.map((p) => (isObject(p) ? { ...p, protocol: p.protocol ?? 'TCP', targetPort: p.targetPort ?? p.port ?? 0 } : p));
    }
    obj.spec = spec;
  } else if (is(def, '', 'events')) {
    const e = obj as JsonObject;
    e.source ??= {};
    e.firstTimestamp ??= null;
    e.lastTimestamp ??= null;
    e.eventTime ??= null;
    e.reportingComponent ??= '';
    e.reportingInstance ??= '';
  } else if (is(def, '', 'secrets')) {
    (obj as JsonObject).type ??= 'Opaque';
  } else if (is(def, '', 'persistentvolumeclaims')) {
    obj.spec = { volumeMode: 'Filesystem', ...obj.spec };
  } else if (is(def, '', 'endpoints')) {
    const e = obj as JsonObject;
    if (Array.isArray(e.subsets)) {
      e.subsets = e.subsets.map((sub) =>
        isObject(sub) && Array.isArray(sub.ports) ? { ...sub, ports: sub.ports.map((p) => (isObject(p) ? { ...p, protocol: p.protocol ?? 'TCP' } : p)) } : sub,
      );
    }
  } else if (is(def, 'storage.k8s.io', 'storageclasses')) {
    const sc = obj as JsonObject;
    sc.reclaimPolicy ??= 'Delete';
    sc.volumeBindingMode ??= 'Immediate';
  } else if (is(def, 'storage.k8s.io', 'volumeattachments')) {
    // VolumeAttachmentStatus is a struct and `attached` a plain bool: always serialized.
    obj.status = { attached: false, ...(obj.status as JsonObject | undefined) };
  } else if (def.group === 'admissionregistration.k8s.io') {
    const mutating = def.resource === 'mutatingwebhookconfigurations';
    const hooks = (obj as JsonObject).webhooks;
    if (Array.isArray(hooks)) {
      (obj as JsonObject).webhooks = hooks.map((w) =>
        isObject(w)
          ? {
              failurePolicy: 'Fail',
              matchPolicy: 'Equivalent',
              namespaceSelector: {},
              objectSelector: {},
              timeoutSeconds: 10,
              ...(mutating ? { reinvocationPolicy: 'Never' } : {}),
              ...w,
              ...(isObject(w.clientConfig) && isObject(w.clientConfig.service)
                ? { clientConfig: { ...w.clientConfig, service: { port: 443, ...w.clientConfig.service } } }
                : {}),
            }
          : w,
      );
    }
  } else if (def.group === 'apps') {
    defaultWorkload(def, obj);
  } else if (is(def, 'batch', 'jobs')) {
    const spec: JsonObject = { ...(obj.spec as JsonObject | undefined) };
    if (spec.completions === undefined && spec.parallelism === undefined) {
      spec.completions = 1;
      spec.parallelism = 1;
    }
    spec.parallelism ??= 1;
    spec.backoffLimit ??= 6;
    spec.template = defaultTemplate(spec.template);
    obj.spec = spec;
    defaultLabelsFromTemplate(obj);
  }
}

function defaultWorkload(def: ResourceDef, obj: KubeObject): void {
  const spec: JsonObject = { ...(obj.spec as JsonObject | undefined) };
  if (def.resource !== 'daemonsets') spec.replicas ??= 1;
  if (def.resource === 'deployments') {
    spec.strategy ??= { type: 'RollingUpdate' };
    if (isObject(spec.strategy) && spec.strategy.type === 'RollingUpdate') {
      spec.strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...(isObject(spec.strategy.rollingUpdate) ? spec.strategy.rollingUpdate : {}) };
    }
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
  } else if (def.resource === 'statefulsets') {
    spec.podManagementPolicy ??= 'OrderedReady';
    spec.updateStrategy ??= { type: 'RollingUpdate' };
    if (isObject(spec.updateStrategy) && spec.updateStrategy.type === 'RollingUpdate') {
      spec.updateStrategy.rollingUpdate = { partition: 0, ...(isObject(spec.updateStrategy.rollingUpdate) ? spec.updateStrategy.rollingUpdate : {}) };
    }
    spec.revisionHistoryLimit ??= 10;
  } else if (def.resource === 'daemonsets') {
    spec.updateStrategy ??= { type: 'RollingUpdate' };
    if (isObject(spec.updateStrategy) && spec.updateStrategy.type === 'RollingUpdate') {
      spec.updateStrategy.rollingUpdate = { maxUnavailable: 1, ...(isObject(spec.updateStrategy.rollingUpdate) ? spec.updateStrategy.rollingUpdate : {}) };
    }
    spec.revisionHistoryLimit ??= 10;
  }
  spec.template = defaultTemplate(spec.template);
  obj.spec = spec;
  if (isObject(obj.status)) defaultConditions(obj.status, ['lastTransitionTime']);
}

/** SetDefaults_Job: a job without labels takes its pod template's. */
function defaultLabelsFromTemplate(obj: KubeObject): void {
  const template = obj.spec?.template;
  const labels = isObject(template) && isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : undefined;
  const m = meta(obj);
  if (labels && Object.keys(labels).length && (!m.labels || Object.keys(m.labels).length === 0)) m.labels = clone(labels) as Record<string, string>;
}

/** PodTemplateSpec: ObjectMeta is a struct, so `creationTimestamp: null` always shows. */
function defaultTemplate(t: JsonValue | undefined): JsonObject {
  const template: JsonObject = isObject(t) ? { ...t } : {};
  template.metadata = { creationTimestamp: null, ...(isObject(template.metadata) ? template.metadata : {}) };
  template.spec = defaultPodSpec(isObject(template.spec) ? template.spec : undefined, false);
  return template;
}

function defaultPodSpec(input: unknown, isPod: boolean): JsonObject {
  const spec: JsonObject = isObject(input) ? { ...input } : {};
  for (const list of ['containers', 'initContainers'] as const) {
    const v = spec[list];
    if (Array.isArray(v)) spec[list] = v.map((c) => (isObject(c) ? defaultContainer(c) : c));
  }
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  if (isPod) spec.enableServiceLinks ??= true;
  return spec;
}

const EMPTY_NODE_INFO: JsonObject = {
  machineID: '',
  systemUUID: '',
  bootID: '',
  kernelVersion: '',
  osImage: '',
  containerRuntimeVersion: '',
  kubeletVersion: '',
  kubeProxyVersion: '',
  operatingSystem: '',
  architecture: '',
};

const PROBE_DEFAULTS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

function defaultContainer(c: JsonObject): JsonObject {
  const image = typeof c.image === 'string' ? c.image : '';
  const tag = image.includes('@') ? 'digest' : (/:([^/:]+)$/.exec(image)?.[1] ?? 'latest');
  const out: JsonObject = {
    ...c,
    resources: c.resources ?? {},
    terminationMessagePath: c.terminationMessagePath ?? '/dev/termination-log',
    terminationMessagePolicy: c.terminationMessagePolicy ?? 'File',
    imagePullPolicy: c.imagePullPolicy ?? (tag === 'latest' ? 'Always' : 'IfNotPresent'),
  };
  if (Array.isArray(c.ports)) out.ports = c.ports.map((p) => (isObject(p) ? { ...p, protocol: p.protocol ?? 'TCP' } : p));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const v = c[probe];
    if (isObject(v)) out[probe] = { ...PROBE_DEFAULTS, ...v };
  }
  return out;
}

/** Condition timestamps are non-pointer metav1.Time: absent ones serialize as null. */
function defaultConditions(status: JsonObject, timeFields: string[]): void {
  const conditions = status.conditions;
  if (!Array.isArray(conditions)) return;
  status.conditions = conditions.map((c) => {
    if (!isObject(c)) return c;
    const out: JsonObject = { ...c };
    for (const f of timeFields) out[f] ??= null;
    return out;
  });
}

// --- create ---

const NOT_READY_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** Kind-specific PrepareForCreate plus the default admission plugins' additions. */
export function prepareForCreate(def: ResourceDef, obj: KubeObject): void {
  const m = meta(obj);
  // rest.BeforeCreate: a create never carries deletion state.
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  if (is(def, '', 'pods')) {
    const spec: JsonObject = { ...(obj.spec as JsonObject | undefined) };
    // Priority and DefaultTolerationSeconds admission.
    spec.priority ??= 0;
    spec.preemptionPolicy ??= 'PreemptLowerPriority';
    const tolerations = Array.isArray(spec.tolerations) ? [...spec.tolerations] : [];
    for (const t of NOT_READY_TOLERATIONS) {
      if (!tolerations.some((x) => isObject(x) && x.key === t.key && (x.effect === undefined || x.effect === 'NoExecute'))) tolerations.push(t);
    }
    spec.tolerations = tolerations;
    obj.spec = spec;
    obj.status = { phase: 'Pending', qosClass: qosClass(spec.containers) };
  } else if (is(def, '', 'namespaces')) {
    obj.status = { phase: 'Active' };
    const spec = obj.spec ?? {};
    const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
    obj.spec = { ...spec, finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'] };
  } else if (def.group === 'apps') {
    // Non-omitempty counters of each workload status.
    obj.status =
      def.resource === 'statefulsets' || def.resource === 'replicasets'
        ? { replicas: 0 }
        : def.resource === 'daemonsets'
          ? { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }
          : {};
    if (def.resource === 'daemonsets') m.annotations = { ...m.annotations, [DS_TEMPLATE_GENERATION]: '1' };
  } else if (is(def, 'batch', 'jobs')) {
    obj.status = {};
    generateJobSelector(obj);
    defaultLabelsFromTemplate(obj);
  } else if (is(def, '', 'nodes')) {
    // TaintNodesByCondition admission: a new node is not ready until its kubelet says so.
    const spec: JsonObject = { ...(obj.spec as JsonObject | undefined) };
    const taints = Array.isArray(spec.taints) ? [...spec.taints] : [];
    if (!taints.some((t) => isObject(t) && t.key === 'node.kubernetes.io/not-ready'))
      taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    spec.taints = taints;
    obj.spec = spec;
  } else if (def.group === 'policy') {
    obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  } else if (is(def, '', 'services')) {
    obj.status = { loadBalancer: {} };
  } else if (is(def, '', 'persistentvolumeclaims') || is(def, '', 'persistentvolumes')) {
    obj.status = { phase: 'Pending' };
    // StorageObjectInUseProtection admission.
    const protection = def.resource === 'persistentvolumes' ? 'kubernetes.io/pv-protection' : 'kubernetes.io/pvc-protection';
    if (!m.finalizers?.includes(protection)) m.finalizers = [...(m.finalizers ?? []), protection];
  }
}

const DS_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** jobStrategy.PrepareForCreate → generateSelector: jobs select their pods by controller-uid. */
function generateJobSelector(job: KubeObject): void {
  const spec: JsonObject = { ...(job.spec as JsonObject | undefined) };
  if (spec.manualSelector === true) return;
  const m = meta(job);
  m.uid ||= randomUUID();
  const uid = m.uid;
  const template = isObject(spec.template) ? { ...spec.template } : {};
  const tmeta = isObject(template.metadata) ? { ...template.metadata } : {};
  tmeta.labels = { ...(isObject(tmeta.labels) ? tmeta.labels : {}), 'controller-uid': uid, 'job-name': m.name ?? '' };
  template.metadata = tmeta;
  spec.template = template;
  spec.selector = { matchLabels: { 'controller-uid': uid } };
  job.spec = spec;
}

/** qos.GetPodQOS, simplified to cpu/memory requests and limits. */
function qosClass(containers: unknown): string {
  const list = Array.isArray(containers) ? containers.filter(isObject) : [];
  let any = false;
  let guaranteed = list.length > 0;
  for (const c of list) {
    const res = isObject(c.resources) ? c.resources : {};
    const req = isObject(res.requests) ? res.requests : {};
    const lim = isObject(res.limits) ? res.limits : {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

// --- update ---

/** rest.BeforeUpdate: identity and deletion state come from the stored object. */
function keepIdentity(out: KubeObject, old: KubeObject): void {
  const m = meta(out);
  const om = old.metadata ?? {};
  m.uid ||= om.uid;
  if (om.creationTimestamp) m.creationTimestamp = om.creationTimestamp;
  // Clients cannot set generation; the store bumps it when the spec changes.
  if (om.generation !== undefined) m.generation = om.generation;
  else delete m.generation;
  if (om.deletionTimestamp) m.deletionTimestamp = om.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  else delete m.deletionGracePeriodSeconds;
}

/**
 * A main-resource write: status is kept when the resource has a status subresource; a
 * namespace's spec.finalizers only change through `finalize`.
 */
export function prepareForUpdate(def: ResourceDef, next: KubeObject, old: KubeObject): KubeObject {
  const out = clone(next);
  keepIdentity(out, old);
  if (def.statusSubresource) {
    if (old.status === undefined) delete out.status;
    else out.status = clone(old.status);
  }
  if (is(def, '', 'namespaces')) out.spec = { ...out.spec, finalizers: clone(old.spec?.finalizers ?? []) };
  if (is(def, 'apps', 'daemonsets')) {
    // spec.templateGeneration (served as this annotation) moves only with the template.
    const current = Number(old.metadata?.annotations?.[DS_TEMPLATE_GENERATION] ?? 0);
    const changed = !deepEqual(out.spec?.template, old.spec?.template);
    const m = meta(out);
    m.annotations = { ...m.annotations, [DS_TEMPLATE_GENERATION]: String(changed ? current + 1 : current) };
  }
  return out;
}

/**
 * A status-subresource write (the *StatusStrategy.PrepareForUpdate of 1.20): the spec is
 * kept; metadata comes from the request as for any update (so labels, annotations and
 * finalizers can change here too), except that deployments keep their labels and pods
 * their ownerReferences.
 */
export function prepareForStatusUpdate(def: ResourceDef, next: KubeObject, old: KubeObject): KubeObject {
  const out = clone(next);
  keepIdentity(out, old);
  if (old.spec === undefined) delete out.spec;
  else out.spec = clone(old.spec);
  const m = meta(out);
  if (is(def, 'apps', 'deployments')) {
    if (old.metadata?.labels) m.labels = clone(old.metadata.labels);
    else delete m.labels;
  }
  if (is(def, '', 'pods')) {
    if (old.metadata?.ownerReferences) m.ownerReferences = clone(old.metadata.ownerReferences);
    else delete m.ownerReferences;
  }
  return out;
}

/** namespaces/finalize (namespaceFinalizeStrategy): everything but status and identity from the request. */
export function prepareForFinalize(next: KubeObject, old: KubeObject): KubeObject {
  const out = clone(next);
  keepIdentity(out, old);
  if (old.status === undefined) delete out.status;
  else out.status = clone(old.status);
  return out;
}

/**
 * Go's `omitempty` on the way to storage: empty finalizer/owner lists and label/annotation
 * maps vanish, as does an emptied namespace spec.finalizers.
 */
export function dropEmpty(def: ResourceDef, obj: KubeObject): void {
  const m = meta(obj);
  if (m.finalizers?.length === 0) delete m.finalizers;
  if (m.ownerReferences?.length === 0) delete m.ownerReferences;
  if (m.labels && Object.keys(m.labels).length === 0) delete m.labels;
  if (m.annotations && Object.keys(m.annotations).length === 0) delete m.annotations;
  if (is(def, '', 'namespaces') && obj.spec && Array.isArray(obj.spec.finalizers) && obj.spec.finalizers.length === 0) {
    const { finalizers: _f, ...rest } = obj.spec;
    obj.spec = rest;
  }
}

// --- validation ---

export function validateCreate(def: ResourceDef, obj: KubeObject): FieldError[] {
  const name = obj.metadata?.name ?? '';
  const errs: FieldError[] = name ? validateName(def, name) : [];
  if (!def.custom) errs.push(...validateFinalizers(obj.metadata?.finalizers, 'metadata.finalizers'));
  if (is(def, '', 'pods')) errs.push(...validatePodCreate(obj));
  if (is(def, '', 'namespaces')) errs.push(...validateFinalizers(obj.spec?.finalizers as string[] | undefined, 'spec.finalizers'));
  return errs;
}

export function validateUpdate(def: ResourceDef, next: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (next.metadata?.uid !== old.metadata?.uid) errs.push(invalidValue('metadata.uid', next.metadata?.uid ?? '', 'field is immutable'));
  if (!def.custom) errs.push(...validateFinalizers(next.metadata?.finalizers, 'metadata.finalizers'));
  if (is(def, '', 'pods')) {
    // A real server defaults objects read from storage; fixtures may lack those defaults.
    // Compare both sides defaulted: a status write keeps the stored (undefaulted) spec.
    const stored = clone(old);
    applyDefaults(def, stored);
    const candidate = clone(next);
    applyDefaults(def, candidate);
    errs.push(...validatePodSpecUpdate(candidate, stored));
  }
  if (is(def, '', 'namespaces')) errs.push(...validateFinalizers(next.spec?.finalizers as string[] | undefined, 'spec.finalizers'));
  return errs;
}
