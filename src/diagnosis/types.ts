// Core vocabulary of the diagnosis engine. Everything here is data: rules are pure
// functions from a Snapshot to findings, so this file has no I/O and no runtime deps.
import type * as k8s from '@kubernetes/client-node';
import type { Target } from '../kube/target.js';
import type { AgentFacts } from '../probes/types.js';

/**
 * Kubernetes objects as they travel on the wire (timestamps are RFC 3339 strings).
 * client-node's model types say `Date`; the collector converts responses back to wire
 * form so that a snapshot from the API and one from saved YAML (`--from`) are identical.
 */
export type Wire<T> = T extends Date ? string : T extends (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

export type Pod = Wire<k8s.V1Pod>;
export type Node = Wire<k8s.V1Node>;
export type Event = Wire<k8s.CoreV1Event>;
export type Namespace = Wire<k8s.V1Namespace>;
export type PersistentVolumeClaim = Wire<k8s.V1PersistentVolumeClaim>;
export type Lease = Wire<k8s.V1Lease>;
export type ContainerStatus = Wire<k8s.V1ContainerStatus>;
export type Container = Wire<k8s.V1Container>;

/** Any object with apiVersion/kind/metadata: owners, CRDs, saved lists. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Wire<k8s.V1ObjectMeta>;
  spec?: Record<string, unknown> | undefined;
  status?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

// Defined with its schema, parser and key in src/kube/target.ts; most of the code reads it from here.
export type { Target };

export type Severity = 'critical' | 'error' | 'warning' | 'info';
export const SEVERITY_ORDER: Record<Severity, number> = { critical: 4, error: 3, warning: 2, info: 1 };

/** A quoted fact that proves a finding: where it came from and the exact text. */
export interface Evidence {
  /** e.g. `event FailedScheduling (x6)`, `pod.status.containerStatuses[api]`, `node agent: mount-holders`. */
  source: string;
  text: string;
}

/** Values for a message's `{{placeholders}}`: quoted names, counts, durations already formatted. */
export type MessageData = Readonly<Record<string, string | number>>;

/**
 * A message of the rule's `meta.messages`, by id, with its placeholder values: typescript-eslint's
 * `messageId` + `data`. Rules decide which message and with what; the words live in the metadata.
 */
export interface Said<M extends string = string> {
  readonly messageId: M;
  readonly data?: MessageData;
}

/** Sentences of one text, joined by a space; `false`/`null`/`undefined` parts (a sentence under a condition) are left out. */
export type Prose<M extends string = string> = Said<M> | readonly (Said<M> | false | null | undefined)[];

/** A list of texts (advice, prevention) in which a conditional item may be `false`/`null`/`undefined`. */
export type ProseList<M extends string = string> = readonly (Prose<M> | false | null | undefined)[];

/** What a rule returns. The engine renders its messages and fills in defaults from the rule meta. */
export interface FindingDraft<M extends string = string> {
  /** Overrides the rule's default severity when the evidence warrants it. */
  severity?: Severity;
  title: Prose<M>;
  cause: Prose<M>;
  evidence: Evidence[];
  advice: ProseList<M>;
  /** What prevents a repeat (catalogue: "what prevents a repeat"). */
  prevent?: ProseList<M>;
  /** Overrides the meta playbook (e.g. none when a guard applies) — `null` suppresses it. */
  playbook?: string | null;
  /**
   * What this finding is about and what makes its cause distinct, used for dedup, storm
   * grouping and "is it gone?" after a fix. Subject: `pod/ns/name`, `node/name`...
   * Cause key: the shared root cause (`node/n1:holder/ntpd.service`, `image/reg/x:registry:auth`).
   */
  subject?: string;
  causeKey?: string;
  /** Parameters a playbook needs (finalizer names, holder unit, mount path, image). */
  params?: Record<string, string | number | boolean | string[]>;
  /** The mechanism the finding explains its decisive line by (src/diagnosis/mechanisms/). */
  mechanism?: MechanismRef;
}

/** Which mechanism of the catalogue a finding names, the variant its pod's spec selected, and the knobs it points at. */
export interface MechanismRef {
  id: string;
  variant: string;
  /** The signature that read the decisive line (`errno.erofs`, `server.max-map-count`...). */
  signature: string;
  /** Paths of the knobs the advice names, in order. */
  knobs: string[];
}

export interface Finding {
  rule: string;
  severity: Severity;
  title: string;
  cause: string;
  evidence: Evidence[];
  advice: string[];
  prevent: string[];
  playbook: string | null;
  subject: string;
  causeKey: string;
  /** `rule|subject|causeKey`: stable across runs for the same problem. */
  fingerprint: string;
  params: Record<string, string | number | boolean | string[]>;
  /** Rule ids of findings folded into this one (symptoms of the same cause). */
  merged: string[];
  /** Rules that read the same evidence as another cause; set when a playbook was withheld for it. */
  alternatives?: string[];
  mechanism?: MechanismRef;
}

/**
 * Why a check could not run, decided where the failure is seen (never parsed back from text):
 * `timeout`, `unreachable`, `server-error` and `throttled` may pass on a retry; the others will not.
 */
export type GapKind =
  | 'forbidden'
  | 'unauthorized'
  | 'not-found'
  | 'timeout'
  | 'unreachable'
  | 'server-error'
  | 'throttled'
  | 'bad-response'
  | 'not-configured'
  | 'unavailable'
  | 'failed';

export const TRANSIENT_GAP_KINDS: ReadonlySet<GapKind> = new Set(['timeout', 'unreachable', 'server-error', 'throttled']);

/** A check that could not run: a forbidden or failed API call, an unreachable agent. */
export interface Gap {
  check: string;
  reason: string;
  kind: GapKind;
  /** Where the check runs: the Kubernetes API or the node agent. */
  origin: 'api' | 'agent';
}

/** The kind of a failed HTTP exchange, from its status code. */
export function gapKindOfStatus(status: number): GapKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'server-error';
  return 'failed';
}

/** A workload controller in the pod's owner chain, nearest first. */
export interface OwnerFact {
  kind: string;
  name: string;
  object?: KubeObject;
  /** Events whose involvedObject is this owner (FailedCreate, quota, PodSecurity...). */
  events: Event[];
}

/** A claim the pod mounts, with everything that decides whether it binds, attaches and mounts. */
export interface ClaimFact {
  name: string;
  /** null: the claim does not exist. */
  claim: PersistentVolumeClaim | null;
  /** The claim's own events (ProvisioningFailed, ExternalProvisioning, FailedBinding...), oldest first. */
  events: Event[];
  /** The StorageClass it names: null when that class does not exist; absent when it names none. */
  storageClass?: KubeObject | null;
  /** The PersistentVolume it is bound to: null when that volume does not exist. */
  volume?: KubeObject | null;
  /** The CSI VolumeAttachment of that volume to the pod's node: null when none exists. */
  attachment?: KubeObject | null;
}

/** An admission webhook that a refusal names, and whether the service it calls can answer. */
export interface WebhookFact {
  /** `ValidatingWebhookConfiguration/<name>` or `MutatingWebhookConfiguration/<name>`. */
  configuration: string;
  name: string;
  failurePolicy?: string;
  timeoutSeconds?: number;
  /** The in-cluster Service it calls (absent for a URL webhook). */
  service?: { namespace: string; name: string; port?: number; path?: string };
  url?: string;
  /** Whether that Service exists (absent when not read). */
  serviceExists?: boolean;
  /** Ready and not-ready addresses of the Service; null: no Endpoints object. */
  endpoints?: { ready: number; notReady: number } | null;
}

/**
 * A cluster component a failure points at: cluster DNS, the CNI agent or a CSI node plugin on the
 * node, or the API server a silent kubelet can no longer talk to.
 */
export interface ComponentFact {
  role: 'dns' | 'cni' | 'csi' | 'apiserver';
  /** The line that pointed at it. */
  why: string;
  /** What the line names: the CSI driver, the CNI plugin type, the DNS server address. */
  name?: string;
  /** The component's pods (CoreDNS in kube-system; the agent or plugin pods on the pod's node). */
  pods: Pod[];
  /** For csi: the drivers the node's CSINode lists as registered (null: no CSINode object). */
  registered?: string[] | null;
  /** Log tails of the component's pods that are not Ready (the crashed run when one restarted); the API server's always. */
  logs?: (LogTail & { pod: string })[];
}

/**
 * What the pod's ServiceAccount may do, read because its log says the API server refused it: the
 * refusal as the log names it, and the bindings that name the account (or a group it is in) with
 * whether their role grants the refused call.
 */
export interface AccessFact {
  user: string;
  verb: string;
  resource: string;
  group: string;
  /** Absent: refused at the cluster scope. */
  namespace?: string;
  bindings: { kind: 'RoleBinding' | 'ClusterRoleBinding'; name: string; namespace?: string; role: string; grants: boolean | null }[];
}

/** A Service the pod's log names as a dependency it cannot resolve or reach, as the cluster has it. */
export interface DependencyFact {
  /** As the log names it (`postgres.db.svc.cluster.local:5432`). */
  host: string;
  port?: number;
  namespace: string;
  name: string;
  /** null: no Service of that name in that namespace. */
  service: { ports: { port: number; targetPort?: string | number; name?: string }[]; type?: string; headless: boolean } | null;
  /** Ready and not-ready addresses; null: no Endpoints object. Absent when the Service does not exist. */
  endpoints?: { ready: number; notReady: number } | null;
  /** The Service's selector; absent when it has none (its Endpoints are written by hand or by another controller). */
  selector?: Record<string, string>;
  /**
   * Read only when no address is ready: the pods of its namespace that its selector matches (no `differs`), and
   * those that match all of its labels but one (`differs` names that label: the value wanted, the pod's own).
   */
  pods?: { name: string; ready: boolean; phase?: string; differs?: { key: string; want: string; have?: string } }[];
}

/** Previous/current log tail for a container (crash rules quote it). */
export interface LogTail {
  container: string;
  previous: boolean;
  lines: string[];
}

/** What namespace.terminating shows: kinds still present in a Terminating namespace. */
export interface NamespaceContent {
  kind: string;
  names: string[];
}

/**
 * Facts gathered once per job. Optional fields are absent when not collected (not needed
 * by enabled rules) and listed in `gaps` when collection failed.
 */
export interface Snapshot {
  /** Evaluation time; rules never call Date.now() so fixtures are reproducible. */
  now: string;
  cluster: string;
  target: Target;
  pod?: Pod;
  /** Events of the pod (matched by involvedObject.uid), oldest first. */
  events: Event[];
  node?: Node;
  /** Events of the pod's node (NodeNotReady, Rebooted...). */
  nodeEvents?: Event[];
  nodes?: Node[];
  /** Non-terminal pods bound to the pod's node (field selector spec.nodeName). */
  podsOnNode?: Pod[];
  /**
   * For an unscheduled pod, the nodes whose pods `podsOnNode` holds in full (the capacity
   * candidates); absent when `podsOnNode` covers every node it mentions.
   */
  capacityNodes?: string[];
  /** Pods with hostPorts in the cluster (hostport conflict). */
  hostPortPods?: Pod[];
  owners?: OwnerFact[];
  namespace?: Namespace;
  namespaceContents?: NamespaceContent[];
  /** Referenced ConfigMaps by name → exists. */
  configMaps?: Record<string, boolean>;
  /** Referenced Secrets (and imagePullSecrets) by name → exists; only with the opt-in permission. */
  secrets?: Record<string, boolean>;
  pvcs?: Record<string, PersistentVolumeClaim | null>;
  /** kube-scheduler pods (kube-system, component=kube-scheduler) and its leader lease. */
  schedulerPods?: Pod[];
  schedulerLease?: Lease | null;
  /** The pod's claims with their events, StorageClass, PersistentVolume and VolumeAttachment. */
  claims?: ClaimFact[];
  /** Admission webhooks that a refusal in the events names, with the state of their service. */
  webhooks?: WebhookFact[];
  /** A ServiceAccount that a refusal names (`serviceaccount "x" not found`), and whether it exists now. */
  serviceAccount?: { name: string; exists: boolean };
  /** Cluster components a failure points at (DNS, CNI agent, CSI node plugin). */
  components?: ComponentFact[];
  /**
   * The target pod does not exist, and this is how it was looked for through its owner: the
   * owner chain is in `owners` (nearest first) when one was found.
   */
  missingPod?: { name: string; via?: string };
  /** PersistentVolumes bound to the pod's claims, by name (collected for an unscheduled pod). */
  volumes?: Record<string, KubeObject | null>;
  /** PodDisruptionBudgets of the pod's namespace whose selector matches it (collected on a cordoned node). */
  disruptionBudgets?: KubeObject[];
  /** Other pods a Multi-Attach event names as users of the pod's volume. */
  volumeUsers?: Pod[];
  /** Services of the pod's namespace whose selector matches the pod (collected for a Running, unready pod). */
  services?: KubeObject[];
  /** Calico WorkloadEndpoints in the pod's namespace (crd.projectcalico.org/v1), when installed. */
  workloadEndpoints?: KubeObject[];
  /** Recently scheduled pods of the pod's workload across nodes (cascade detection). */
  workloadPods?: Pod[];
  logs?: LogTail[];
  /** The pod's ServiceAccount's bindings, for each API refusal its log shows. */
  access?: AccessFact[];
  /** Services its log names as dependencies it cannot resolve or reach. */
  dependencies?: DependencyFact[];
  /**
   * The pod's own ServiceAccount (metadata only), read when its log shows a cloud SDK without credentials or refused a
   * token exchange: the annotations that federate it to a cloud identity (eks.amazonaws.com/, iam.gke.io/,
   * azure.workload.identity/ keys only).
   */
  podServiceAccount?: { name: string; exists: boolean; annotations: Record<string, string> };
  /** The rollout history of the pod's workload and the metadata of the config it uses (collected for a pod in trouble). */
  history?: HistoryFact;
  agent?: AgentFacts;
  gaps: Gap[];
}

/**
 * What "what changed" reads: the pod's workload with its revisions (ReplicaSets of a Deployment,
 * ControllerRevisions of a StatefulSet or DaemonSet), and the ConfigMaps and Secrets it uses as
 * metadata only (managedFields say who edited them and when; a Secret's data is never read).
 */
export interface HistoryFact {
  workload?: { kind: 'Deployment' | 'StatefulSet' | 'DaemonSet'; name: string; object: KubeObject; revisions: KubeObject[] };
  configs: KubeObject[];
  /** RoleBindings of the namespace that name the pod's ServiceAccount (created or edited when, by whom). */
  bindings?: KubeObject[];
  /** HorizontalPodAutoscalers of the namespace whose scaleTargetRef is the pod's workload. */
  autoscalers?: KubeObject[];
  /** NetworkPolicies of the namespace whose podSelector selects the pod. */
  networkPolicies?: KubeObject[];
  /** PodDisruptionBudgets of the namespace whose selector matches the pod. */
  disruptionBudgets?: KubeObject[];
}

/** One change in the window before a failure: a rollout, a config edit, a node event. */
export interface Change {
  at: string;
  kind: 'rollout' | 'config' | 'access' | 'node' | 'scaling' | 'policy';
  /** `Deployment web`, `ConfigMap web-config`, `node worker-1`, `HorizontalPodAutoscaler web`, `NetworkPolicy deny-egress`. */
  object: string;
  /** What changed: `revision 2: image web 2.3.1 → 2.4.0`. */
  text: string;
  /** The managedFields manager that made it, when known. */
  by?: string;
  revision?: number;
  /** Seconds between this change and the failure's start, when the change explains the failure. */
  explains?: number;
}

export type FactName =
  | 'pod'
  | 'events'
  | 'node'
  | 'nodeEvents'
  | 'nodes'
  | 'podsOnNode'
  | 'hostPortPods'
  | 'owners'
  | 'namespace'
  | 'namespaceContents'
  | 'configMaps'
  | 'secrets'
  | 'pvcs'
  | 'scheduler'
  | 'services'
  | 'volumeUsers'
  | 'disruptionBudgets'
  | 'volumes'
  | 'workloadEndpoints'
  | 'workloadPods'
  | 'logs'
  | 'access'
  | 'dependencies'
  | 'claims'
  | 'webhooks'
  | 'serviceAccount'
  | 'components'
  | 'changes'
  | 'agent';

export interface Diagnosis {
  target: Target;
  cluster: string;
  findings: Finding[];
  skipped: Gap[];
  /** Rules that threw: reported, never fatal. */
  ruleErrors: { rule: string; error: string }[];
  /** The target pod does not exist; the diagnosis went through the owner its name points at. */
  missing?: { name: string; via?: string };
  /** What changed in the window before the failure (rollouts, config edits, the node), oldest first. */
  changes?: Change[];
  /** The pod's top workload (`Deployment web`) and node, when known: what a recurrence is keyed by. */
  workload?: string;
  node?: string;
  /**
   * Findings left out because the pod or its owner says `pod-doctor.io/ignore: <rule>` (`by` names
   * that object), or because someone marked them Not a problem (`mark`: who, until when).
   */
  ignored?: { rule: string; by: string; mark?: { user: string; until: string } }[];
  at: string;
}
