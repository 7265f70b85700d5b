// Where facts come from. The collector asks these questions in the same order whether the
// answers come from a live API server or from saved YAML, so `diagnose --from` and
// `diagnose` against a cluster build the same snapshot from the same objects.
import type { Event, KubeObject, Lease, Namespace, NamespaceContent, Node, PersistentVolumeClaim, Pod } from '../diagnosis/types.js';

/**
 * A question the source cannot answer, as opposed to "no such object": saved objects that hold
 * no object of a kind at all say nothing about whether one exists. The collector makes it a gap.
 */
export class UnanswerableError extends Error {
  readonly gapKind = 'unavailable' as const;
}

export type OwnerKind = 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob';

export const OWNER_KINDS: readonly OwnerKind[] = ['ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

export interface PodQuery {
  namespace?: string;
  nodeName?: string;
  labelSelector?: string;
}

export interface FactSource {
  /** A short label for messages: the API server URL or the files read. */
  readonly description: string;
  getPod(namespace: string, name: string): Promise<Pod | null>;
  /** Events whose involvedObject is the named pod (any incarnation; callers filter by uid). */
  listPodEvents(namespace: string, name: string): Promise<Event[]>;
  getNode(name: string): Promise<Node | null>;
  listNodeEvents(name: string): Promise<Event[]>;
  listNodes(): Promise<Node[]>;
  listPods(query: PodQuery): Promise<Pod[]>;
  getNamespace(name: string): Promise<Namespace | null>;
  getOwner(namespace: string, kind: OwnerKind, name: string): Promise<KubeObject | null>;
  /** Events whose involvedObject is the named object of any kind in one namespace (a claim's ProvisioningFailed). */
  listObjectEvents(namespace: string, kind: string, name: string): Promise<Event[]>;
  /** A StorageClass by name; null when it does not exist. */
  getStorageClass(name: string): Promise<KubeObject | null>;
  /** A VolumeAttachment by name (`csi-<sha256(volumeHandle + driver + node)>`); null when there is none. */
  getVolumeAttachment(name: string): Promise<KubeObject | null>;
  /** A node's CSINode (the CSI drivers registered on it); null when it has none. */
  getCsiNode(name: string): Promise<KubeObject | null>;
  /** Validating and mutating webhook configurations, both kinds in one list. */
  listWebhookConfigurations(): Promise<KubeObject[]>;
  getService(namespace: string, name: string): Promise<KubeObject | null>;
  /** The core/v1 Endpoints of a Service (served by every version); null when there is none. */
  getEndpoints(namespace: string, name: string): Promise<KubeObject | null>;
  /** A ServiceAccount's metadata only (its annotations name the cloud identity it is federated to); null when it does not exist. */
  serviceAccountMetadata(namespace: string, name: string): Promise<KubeObject | null>;
  /** RoleBindings of one namespace and ClusterRoleBindings: who is granted what, for a refusal the pod's log names. */
  listRoleBindings(namespace: string): Promise<KubeObject[]>;
  listClusterRoleBindings(): Promise<KubeObject[]>;
  /** A Role (namespace given) or ClusterRole by name; null when it does not exist. */
  getRole(namespace: string | undefined, name: string): Promise<KubeObject | null>;
  /** A PersistentVolume (cluster-scoped) by name; null when it does not exist. */
  getPersistentVolume(name: string): Promise<KubeObject | null>;
  /** Services of one namespace (the readiness rule looks for the ones selecting the pod). */
  listServices(namespace: string): Promise<KubeObject[]>;
  /** PodDisruptionBudgets of one namespace (policy/v1, or policy/v1beta1 on servers before 1.21). */
  listDisruptionBudgets(namespace: string): Promise<KubeObject[]>;
  /** autoscaling/v2 HorizontalPodAutoscalers of one namespace ("what changed": a scale change before a failure). */
  listAutoscalers(namespace: string): Promise<KubeObject[]>;
  /** networking.k8s.io/v1 NetworkPolicies of one namespace ("what changed": a policy selecting the pod created or edited). */
  listNetworkPolicies(namespace: string): Promise<KubeObject[]>;
  /** Warning events of one namespace (fieldSelector type=Warning): what a namespace target reads. */
  listNamespaceWarnings(namespace: string): Promise<Event[]>;
  configMapExists(namespace: string, name: string): Promise<boolean>;
  /**
   * A ConfigMap's or Secret's metadata only (PartialObjectMetadata: managedFields say who edited
   * it and when); null when it does not exist. Never its data: a Secret's values are not read.
   */
  configMetadata(namespace: string, kind: 'ConfigMap' | 'Secret', name: string): Promise<KubeObject | null>;
  /**
   * A workload's rollout history: the ReplicaSets (Deployment) or ControllerRevisions
   * (StatefulSet, DaemonSet) of one namespace that the label selector matches.
   */
  listRevisions(namespace: string, kind: 'ReplicaSet' | 'ControllerRevision', labelSelector: string): Promise<KubeObject[]>;
  /** Existence only, through a metadata-only request: secret data is never read. */
  secretExists(namespace: string, name: string): Promise<boolean>;
  getPvc(namespace: string, name: string): Promise<PersistentVolumeClaim | null>;
  getLease(namespace: string, name: string): Promise<Lease | null>;
  /** Calico WorkloadEndpoints in a namespace; null when the CRD is not installed. */
  listWorkloadEndpoints(namespace: string): Promise<KubeObject[] | null>;
  /** Last lines of a container's log; null when there is no such log. */
  podLog(namespace: string, pod: string, container: string, previous: boolean, tailLines: number): Promise<string[] | null>;
  /** What is left in a namespace: kind → names (bounded). */
  listNamespaceContents(namespace: string): Promise<NamespaceContent[]>;
  /**
   * Optional: this source for a diagnosis asked for at `since` (ms since the epoch), whose
   * reads may be shared with concurrent diagnoses as long as they started at or after `since`.
   */
  sharing?(since: number): FactSource;
}
