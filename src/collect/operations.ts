// Every Kubernetes API operation the product performs, in one list: the RBAC roles are
// generated from it and the envtest fidelity suite (test/envtest/fidelity.test.ts) checks that
// each one behaves the same on the simulated API and on a real kube-apiserver. Adding a call to
// src/collect/kube-source.ts or a step in src/remediation/actions/ means adding it here.
//
// Roles: `diagnose` is what collecting a snapshot reads (KubeSource). `remediate` is what the
// playbook steps do beyond that; the remediation worker also diagnoses and rechecks through
// KubeSource, so it needs both roles.

/** RBAC verbs (`list` across all namespaces needs a ClusterRole). */
export type ApiVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export type ApiRole = 'diagnose' | 'remediate';

export interface ApiOperation {
  /** API group ('' for core). */
  group: string;
  version: string;
  /** Plural resource name as RBAC and the URL spell it. */
  resource: string;
  subresource?: string;
  verbs: readonly ApiVerb[];
  role: ApiRole;
  namespaced: boolean;
  /** Lists in every namespace at once (`/api/v1/pods`), not only inside one. */
  allNamespaces?: boolean;
  /** Only performed when this setting is on (RBAC for it is opt-in). */
  optIn?: string;
  /** Where the product makes the request. */
  usedBy: readonly string[];
}

export const API_OPERATIONS: readonly ApiOperation[] = [
  // ---- diagnose: KubeSource (src/collect/kube-source.ts)
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    allNamespaces: true,
    usedBy: [
      'KubeSource.getPod',
      'KubeSource.listPods (fieldSelector spec.nodeName, labelSelector; one namespace or all; the pods a Service without endpoints nearly selects)',
      'KubeSource.listNamespaceContents',
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: 'log',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.podLog (container, previous, tailLines)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'events',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    allNamespaces: true,
    usedBy: [
      'KubeSource.listPodEvents / listObjectEvents (fieldSelector involvedObject.kind,name)',
      'KubeSource.listNamespaceWarnings (fieldSelector type=Warning)',
      'KubeSource.listNodeEvents (all namespaces)',
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'nodes',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getNode', 'KubeSource.listNodes'],
  },
  { group: '', version: 'v1', resource: 'namespaces', verbs: ['get'], role: 'diagnose', namespaced: false, usedBy: ['KubeSource.getNamespace'] },
  {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.configMapExists (as=PartialObjectMetadata)', 'KubeSource.configMetadata (as=PartialObjectMetadata: who edited it, when)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'secrets',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    optIn: 'POD_DOCTOR_CHECK_SECRETS',
    // RBAC cannot grant metadata only: `get` on secrets allows reading data; the product never asks for it.
    usedBy: ['KubeSource.secretExists (as=PartialObjectMetadata)', 'KubeSource.configMetadata (as=PartialObjectMetadata: who edited it, when; never its data)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'persistentvolumeclaims',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getPvc', 'KubeSource.listNamespaceContents'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'persistentvolumes',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getPersistentVolume (the volumes bound claims of an unscheduled pod use)'],
  },
  {
    group: 'policy',
    version: 'v1',
    resource: 'poddisruptionbudgets',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listDisruptionBudgets (1.21+; also what changed: the budgets selecting the pod)'],
  },
  {
    group: 'policy',
    version: 'v1beta1',
    resource: 'poddisruptionbudgets',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listDisruptionBudgets (servers before 1.21)'],
  },
  // What changed before a failure (src/collect/history.ts): scale changes and NetworkPolicy edits.
  {
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ["KubeSource.listAutoscalers (1.23+; the HPA of the pod's workload: when it last scaled, to how many)"],
  },
  {
    group: 'autoscaling',
    version: 'v2beta2',
    resource: 'horizontalpodautoscalers',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listAutoscalers (servers before 1.23)'],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    resource: 'networkpolicies',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listNetworkPolicies (the policies selecting the pod: who created or edited them, when)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'services',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: [
      'KubeSource.listServices (those selecting an unready pod; the one whose ClusterIP a refused connection names)',
      'KubeSource.listNamespaceContents',
      "KubeSource.getService (the Service an admission webhook calls, or a dependency the pod's log names)",
    ],
  },
  {
    group: '',
    version: 'v1',
    resource: 'endpoints',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getEndpoints (the Service an admission webhook calls, or a dependency the log names: does it have ready addresses?)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ["KubeSource.serviceAccountMetadata (as=PartialObjectMetadata; a FailedCreate's account, or the pod's own under a cloud SDK error)"],
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'storageclasses',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getStorageClass (the class a claim names)'],
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'volumeattachments',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getVolumeAttachment (csi-<sha256(handle+driver+node)>: the attacher error)'],
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    resource: 'csinodes',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getCsiNode (the CSI drivers registered on a node)'],
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    resource: 'validatingwebhookconfigurations',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.listWebhookConfigurations (the webhook a refusal names)'],
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    resource: 'mutatingwebhookconfigurations',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.listWebhookConfigurations (the webhook a refusal names)'],
  },
  // What the pod's ServiceAccount may do, read when its log says the API server refused it (src/collect/access.ts).
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'rolebindings',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listRoleBindings (the namespace a refusal names)'],
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterrolebindings',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.listClusterRoleBindings'],
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'roles',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getRole (a Role a binding of the ServiceAccount names)'],
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterroles',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: false,
    usedBy: ['KubeSource.getRole (a ClusterRole a binding of the ServiceAccount names)'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getOwner(ReplicaSet)', "KubeSource.listRevisions(ReplicaSet) (labelSelector: a Deployment's rollout history)"],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'controllerrevisions',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listRevisions(ControllerRevision) (labelSelector: the rollout history of a StatefulSet or DaemonSet)'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getOwner(Deployment)', 'KubeSource.listNamespaceContents'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getOwner(StatefulSet)', 'KubeSource.listNamespaceContents'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getOwner(DaemonSet)', 'KubeSource.listNamespaceContents'],
  },
  {
    group: 'batch',
    version: 'v1',
    resource: 'jobs',
    verbs: ['get', 'list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getOwner(Job)', 'KubeSource.listNamespaceContents'],
  },
  // batch/v1 CronJob is served from 1.21; on older servers the read is a 404 (owner unknown).
  { group: 'batch', version: 'v1', resource: 'cronjobs', verbs: ['get'], role: 'diagnose', namespaced: true, usedBy: ['KubeSource.getOwner(CronJob)'] },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    resource: 'leases',
    verbs: ['get'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.getLease (kube-system/kube-scheduler)'],
  },
  {
    group: 'crd.projectcalico.org',
    version: 'v1',
    resource: 'workloadendpoints',
    verbs: ['list'],
    role: 'diagnose',
    namespaced: true,
    usedBy: ['KubeSource.listWorkloadEndpoints (404 = Calico not installed)'],
  },

  // ---- remediate: playbook steps (src/remediation/actions/)
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    verbs: ['patch', 'delete'],
    role: 'remediate',
    namespaced: true,
    usedBy: ['remove-finalizers (JSON patch with test ops)', 'force-delete (grace 0, preconditions.uid)', 'delete (preconditions.uid)'],
  },
  { group: '', version: 'v1', resource: 'pods', subresource: 'eviction', verbs: ['create'], role: 'remediate', namespaced: true, usedBy: ['evict'] },
  { group: '', version: 'v1', resource: 'nodes', verbs: ['patch'], role: 'remediate', namespaced: false, usedBy: ['cordon (merge patch spec.unschedulable)'] },
  {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    verbs: ['get'],
    role: 'remediate',
    namespaced: false,
    usedBy: ['clear-namespace-finalizers (reads the namespace it PUTs back)'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    subresource: 'finalize',
    verbs: ['update'],
    role: 'remediate',
    namespaced: false,
    usedBy: ['clear-namespace-finalizers'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    subresource: 'scale',
    verbs: ['get', 'patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ['scale (Deployment)'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    subresource: 'scale',
    verbs: ['get', 'patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ['scale (StatefulSet)'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    subresource: 'scale',
    verbs: ['get', 'patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ['scale (ReplicaSet)'],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    verbs: ['patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ["rollback (JSON patch: test metadata.generation, replace spec.template with a ReplicaSet revision's)"],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    verbs: ['patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ["rollback (JSON patch: test metadata.generation, replace spec.template with a ControllerRevision's)"],
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    verbs: ['patch'],
    role: 'remediate',
    namespaced: true,
    usedBy: ["rollback (JSON patch: test metadata.generation, replace spec.template with a ControllerRevision's)"],
  },
  // ---- remediate: the audit trail (src/audit/events.ts), written by the workers of the cluster
  {
    group: '',
    version: 'v1',
    resource: 'events',
    verbs: ['create'],
    role: 'remediate',
    namespaced: true,
    usedBy: ['audit trail: an Event on the target of each approval, denial, expiry and run (src/audit/events.ts)'],
  },
];

/** Non-resource URLs the product requests (readiness of the worker). */
export const NON_RESOURCE_OPERATIONS: readonly { path: string; verbs: readonly ApiVerb[]; role: ApiRole; usedBy: readonly string[] }[] = [
  { path: '/version', verbs: ['get'], role: 'diagnose', usedBy: ['worker readiness (VersionApi.getCode)'] },
];

/** `apps/v1 deployments/scale patch`: one key per verb, as the fidelity suite counts coverage. */
export function operationKey(op: { group: string; version: string; resource: string; subresource?: string }, verb: string): string {
  const gv = op.group ? `${op.group}/${op.version}` : op.version;
  return `${gv} ${op.resource}${op.subresource ? `/${op.subresource}` : ''} ${verb}`;
}

/** Every (operation, verb) key of a role, or of all roles. */
export function operationKeys(role?: ApiRole): string[] {
  const keys = API_OPERATIONS.filter((o) => !role || o.role === role).flatMap((o) => o.verbs.map((v) => operationKey(o, v)));
  return [...new Set(keys)].sort();
}
