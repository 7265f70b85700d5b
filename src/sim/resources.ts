// The resource table: every API resource the simulator serves, with the per-resource
// behaviour the real registry strategies give it (status subresource, generation, graceful
// delete, selectable fields, strategic-merge metadata...).
import type { KubeObject } from '../diagnosis/types.js';
import { getPath } from './json.js';
import type { SmpSchema } from './patch.js';
import { SMP } from './smp-schemas.js';
import type { GroupKind, GroupResource } from './status.js';

export type Subresource = 'status' | 'scale' | 'log' | 'eviction' | 'finalize';

/** Reads a selectable field as the string the field selector compares against. */
export type FieldGetter = (obj: KubeObject) => string;

export interface ResourceDef {
  group: string;
  /** Served versions, preferred first. All versions share one storage (only apiVersion differs). */
  versions: string[];
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  subresources: Subresource[];
  /** True when status is only writable through the status subresource (main writes keep it). */
  statusSubresource: boolean;
  /** metadata.generation: 'spec' bumps on spec changes, 'all' on any non-metadata change (custom resources). */
  generation?: 'spec' | 'all';
  /** Field labels this resource supports in fieldSelector, besides metadata.name/namespace. */
  fields?: Record<string, FieldGetter>;
  /** Fields indexed for fast equality lookups (field selectors). Must be keys of `fields`. */
  indexes?: string[];
  /** Strategic merge patch metadata; undefined means SMP is refused with 415 (custom resources). */
  smp?: SmpSchema;
  /** Pods: DELETE sets deletionTimestamp and waits for the kubelet (RESTGracefulDeleteStrategy). */
  graceful?: boolean;
  /** DELETE answers with the object rather than a Success Status (Store.ReturnDeletedObject). */
  returnsDeletedObject?: boolean;
  /** PUT to a missing object creates it (strategy.AllowCreateOnUpdate). */
  allowCreateOnUpdate?: boolean;
  /** Garbage-collection finalizers (orphan/foregroundDeletion) are never added. */
  gcUnsupported?: boolean;
  /** metadata.name validation: DNS-1123 subdomain (default), label, or any path segment. */
  nameRule?: 'subdomain' | 'label' | 'path-segment';
  /** Custom resource: unstructured, SMP unsupported, list items keep apiVersion/kind. */
  custom?: boolean;
}

const str =
  (path: string): FieldGetter =>
  (o) => {
    const v = getPath(o, path);
    return v === undefined || v === null ? '' : String(v);
  };

/** Storage identity shared by all served versions: `apps/deployments`, `/pods`. */
export function storageKey(def: ResourceDef): string {
  return `${def.group}/${def.resource}`;
}

export function groupResource(def: ResourceDef): GroupResource {
  return { group: def.group, resource: def.resource };
}

export function groupKind(def: ResourceDef): GroupKind {
  return { group: def.group, kind: def.kind };
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** Value of a field label for an object, or undefined when the resource does not support it. */
export function fieldGetter(def: ResourceDef, field: string): FieldGetter | undefined {
  if (field === 'metadata.name') return str('metadata.name');
  if (field === 'metadata.namespace' && def.namespaced) return str('metadata.namespace');
  return def.fields?.[field];
}

const workload = (resource: string, kind: string, shortNames: string[], scale: boolean, smp: SmpSchema): ResourceDef => ({
  group: 'apps',
  versions: ['v1'],
  resource,
  kind,
  namespaced: true,
  shortNames,
  categories: ['all'],
  subresources: scale ? ['status', 'scale'] : ['status'],
  statusSubresource: true,
  generation: 'spec',
  smp,
});

const BUILTIN: ResourceDef[] = [
  {
    group: '',
    versions: ['v1'],
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'log', 'eviction'],
    statusSubresource: true,
    fields: {
      'spec.nodeName': str('spec.nodeName'),
      'spec.restartPolicy': str('spec.restartPolicy'),
      'spec.schedulerName': str('spec.schedulerName'),
      'spec.serviceAccountName': str('spec.serviceAccountName'),
      'status.phase': str('status.phase'),
      'status.podIP': str('status.podIP'),
      'status.nominatedNodeName': str('status.nominatedNodeName'),
    },
    indexes: ['spec.nodeName'],
    smp: SMP.pod,
    graceful: true,
    returnsDeletedObject: true,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
    statusSubresource: false,
    fields: {
      'involvedObject.kind': str('involvedObject.kind'),
      'involvedObject.namespace': str('involvedObject.namespace'),
      'involvedObject.name': str('involvedObject.name'),
      'involvedObject.uid': str('involvedObject.uid'),
      'involvedObject.apiVersion': str('involvedObject.apiVersion'),
      'involvedObject.resourceVersion': str('involvedObject.resourceVersion'),
      'involvedObject.fieldPath': str('involvedObject.fieldPath'),
      reason: str('reason'),
      reportingComponent: str('reportingComponent'),
      source: str('source.component'),
      type: str('type'),
    },
    indexes: ['involvedObject.uid'],
    smp: SMP.generic,
    allowCreateOnUpdate: true,
    gcUnsupported: true,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'nodes',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    statusSubresource: true,
    fields: { 'spec.unschedulable': (o) => String(getPath(o, 'spec.unschedulable') === true) },
    smp: SMP.node,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    statusSubresource: true,
    fields: { 'status.phase': str('status.phase'), name: str('metadata.name') },
    smp: SMP.namespace,
    returnsDeletedObject: true,
    nameRule: 'label',
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    shortNames: ['cm'],
    subresources: [],
    statusSubresource: false,
    smp: SMP.generic,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'secrets',
    kind: 'Secret',
    namespaced: true,
    subresources: [],
    statusSubresource: false,
    fields: { type: str('type') },
    smp: SMP.generic,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
    statusSubresource: true,
    smp: SMP.persistentVolumeClaim,
    returnsDeletedObject: true,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'persistentvolumes',
    kind: 'PersistentVolume',
    namespaced: false,
    shortNames: ['pv'],
    subresources: ['status'],
    statusSubresource: true,
    smp: SMP.generic,
    returnsDeletedObject: true,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'services',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
    statusSubresource: true,
    smp: SMP.service,
    allowCreateOnUpdate: true,
    nameRule: 'label',
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'endpoints',
    kind: 'Endpoints',
    namespaced: true,
    shortNames: ['ep'],
    subresources: [],
    statusSubresource: false,
    smp: SMP.generic,
    allowCreateOnUpdate: true,
  },
  {
    group: '',
    versions: ['v1'],
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [],
    statusSubresource: false,
    smp: SMP.serviceAccount,
    returnsDeletedObject: true,
  },
  workload('deployments', 'Deployment', ['deploy'], true, SMP.deployment),
  { ...workload('replicasets', 'ReplicaSet', ['rs'], true, SMP.workload), fields: { 'status.replicas': str('status.replicas') } },
  workload('statefulsets', 'StatefulSet', ['sts'], true, SMP.workload),
  workload('daemonsets', 'DaemonSet', ['ds'], false, SMP.daemonSet),
  // The rollout history of StatefulSets and DaemonSets: `data` (the template patch) and `revision`, no spec or status.
  {
    group: 'apps',
    versions: ['v1'],
    resource: 'controllerrevisions',
    kind: 'ControllerRevision',
    namespaced: true,
    subresources: [],
    statusSubresource: false,
    smp: SMP.generic,
  },
  {
    group: 'batch',
    versions: ['v1'],
    resource: 'jobs',
    kind: 'Job',
    namespaced: true,
    categories: ['all'],
    subresources: ['status'],
    statusSubresource: true,
    // batch/v1 Jobs carry no metadata.generation in 1.20.
    fields: { 'status.successful': (o) => String(getPath(o, 'status.succeeded') ?? 0) },
    smp: SMP.workload,
  },
  {
    group: 'coordination.k8s.io',
    versions: ['v1'],
    resource: 'leases',
    kind: 'Lease',
    namespaced: true,
    subresources: [],
    statusSubresource: false,
    smp: SMP.generic,
  },
  {
    // kube-apiserver 1.20 serves policy/v1beta1 only; client-node 1.4 speaks policy/v1. Both share storage.
    group: 'policy',
    versions: ['v1', 'v1beta1'],
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
    statusSubresource: true,
    generation: 'spec',
    smp: SMP.podDisruptionBudget,
  },
  // What changed before a failure (src/collect/history.ts): an HPA's scale changes, NetworkPolicy edits.
  {
    // 1.20 serves autoscaling/v2beta2 (v2 from 1.23); the collector asks v2 first. Both share storage.
    group: 'autoscaling',
    versions: ['v2', 'v2beta2'],
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    statusSubresource: true,
    generation: 'spec',
    smp: SMP.horizontalPodAutoscaler,
  },
  {
    group: 'networking.k8s.io',
    versions: ['v1'],
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    shortNames: ['netpol'],
    subresources: [],
    statusSubresource: false,
    generation: 'spec',
    smp: SMP.generic,
  },
  // What the pod's ServiceAccount may do (src/collect/access.ts).
  ...(['roles:Role:true', 'rolebindings:RoleBinding:true', 'clusterroles:ClusterRole:false', 'clusterrolebindings:ClusterRoleBinding:false'] as const).map(
    (spec): ResourceDef => {
      const [resource, kind, namespaced] = spec.split(':') as [string, string, string];
      return {
        group: 'rbac.authorization.k8s.io',
        versions: ['v1'],
        resource,
        kind,
        namespaced: namespaced === 'true',
        subresources: [],
        statusSubresource: false,
        smp: SMP.generic,
      };
    },
  ),
  // What a stuck volume or a refused pod is read through (src/collect/storage.ts, admission.ts).
  ...(['storageclasses:StorageClass:sc', 'csinodes:CSINode:'] as const).map((spec): ResourceDef => {
    const [resource, kind, short] = spec.split(':') as [string, string, string];
    return {
      group: 'storage.k8s.io',
      versions: ['v1'],
      resource,
      kind,
      namespaced: false,
      ...(short ? { shortNames: [short] } : {}),
      subresources: [],
      statusSubresource: false,
      smp: SMP.generic,
    };
  }),
  {
    group: 'storage.k8s.io',
    versions: ['v1'],
    resource: 'volumeattachments',
    kind: 'VolumeAttachment',
    namespaced: false,
    subresources: ['status'],
    statusSubresource: true,
    smp: SMP.generic,
  },
  ...(['validatingwebhookconfigurations:ValidatingWebhookConfiguration', 'mutatingwebhookconfigurations:MutatingWebhookConfiguration'] as const).map(
    (spec): ResourceDef => {
      const [resource, kind] = spec.split(':') as [string, string];
      return {
        group: 'admissionregistration.k8s.io',
        versions: ['v1'],
        resource,
        kind,
        namespaced: false,
        subresources: [],
        statusSubresource: false,
        generation: 'all',
        smp: SMP.generic,
      };
    },
  ),
  {
    group: 'crd.projectcalico.org',
    versions: ['v1'],
    resource: 'workloadendpoints',
    kind: 'WorkloadEndpoint',
    namespaced: true,
    subresources: [],
    statusSubresource: false,
    generation: 'all',
    custom: true,
  },
];

/** Lookup tables over the served resources; custom resources can be added at start-up. */
export class ResourceTable {
  readonly defs: ResourceDef[] = [];
  private readonly byGvr = new Map<string, ResourceDef>();
  private readonly byGvk = new Map<string, ResourceDef>();

  constructor(defs: ResourceDef[] = BUILTIN) {
    for (const d of defs) this.add(d);
  }

  add(def: ResourceDef): void {
    this.defs.push(def);
    for (const v of def.versions) {
      this.byGvr.set(`${def.group}/${v}/${def.resource}`, def);
      this.byGvk.set(`${apiVersionOf(def.group, v)}/${def.kind}`, def);
    }
  }

  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.byGvr.get(`${group}/${version}/${resource}`);
  }

  forKind(apiVersion: string, kind: string): ResourceDef | undefined {
    return this.byGvk.get(`${apiVersion}/${kind}`);
  }

  /** Group/versions served, core first, in table order. */
  groupVersions(): { group: string; versions: string[] }[] {
    const out: { group: string; versions: string[] }[] = [];
    for (const d of this.defs) {
      const g = out.find((x) => x.group === d.group);
      if (!g) out.push({ group: d.group, versions: [...d.versions] });
      else for (const v of d.versions) if (!g.versions.includes(v)) g.versions.push(v);
    }
    return out;
  }

  inGroupVersion(group: string, version: string): ResourceDef[] {
    return this.defs.filter((d) => d.group === group && d.versions.includes(version));
  }

  /**
   * Registers an unknown custom kind met in fixtures as a generic custom resource
   * (plural = lowercased kind + "s"), so saved cluster dumps with CRs load unchanged.
   */
  addCustom(apiVersion: string, kind: string, namespaced: boolean): ResourceDef {
    const { group, version } = splitApiVersion(apiVersion);
    const lower = kind.toLowerCase();
    const resource = lower.endsWith('s') ? `${lower}es` : lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
    const def: ResourceDef = {
      group,
      versions: [version],
      resource,
      kind,
      namespaced,
      subresources: [],
      statusSubresource: false,
      generation: 'all',
      custom: true,
    };
    this.add(def);
    return def;
  }
}
