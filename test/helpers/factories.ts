// Factories for wire-format Kubernetes objects and snapshots. Tests describe only what
// differs from a healthy default, so each case reads as the failure it models.
import type { ClaimFact, Event, Gap, KubeObject, Node, Pod, Snapshot, Target } from '../../src/diagnosis/types.js';

export const NOW = '2026-11-21T10:00:00Z';

/** ISO time `seconds` before NOW (negative = after). */
export function ago(seconds: number, from = NOW): string {
  return new Date(Date.parse(from) - seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge where arrays replace and `undefined` deletes. */
export function merge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = isPlainObject(v) && isPlainObject(out[k]) ? merge(out[k], v) : v;
  }
  return out as T;
}

let uidCounter = 0;
export function uid(): string {
  uidCounter += 1;
  return `00000000-0000-4000-8000-${uidCounter.toString(16).padStart(12, '0')}`;
}

export function pod(patch: DeepPartial<Pod> = {}): Pod {
  const name = patch.metadata?.name ?? 'web-7d9f8c6b5-x2k4q';
  const base: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      uid: uid(),
      creationTimestamp: ago(3600),
      labels: { app: 'web' },
    },
    spec: {
      nodeName: 'node-1',
      restartPolicy: 'Always',
      containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
    },
    status: {
      phase: 'Running',
      podIP: '10.244.1.12',
      startTime: ago(3590),
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
      containerStatuses: [
        {
          name: 'web',
          ready: true,
          started: true,
          restartCount: 0,
          image: 'registry.example.com/shop/web:1.4.2',
          imageID: '',
          containerID: 'containerd://4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d',
          state: { running: { startedAt: ago(3580) } },
        },
      ],
    },
  };
  return merge(base, patch);
}

export function node(patch: DeepPartial<Node> = {}): Node {
  const base: Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: patch.metadata?.name ?? 'node-1',
      uid: uid(),
      labels: { 'kubernetes.io/hostname': patch.metadata?.name ?? 'node-1' },
      creationTimestamp: ago(86400 * 30),
    },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: ago(10),
          lastTransitionTime: ago(86400),
        },
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: 'b',
        containerRuntimeVersion: 'containerd://1.7.24',
        kernelVersion: '6.1.0-27-amd64',
        kubeProxyVersion: 'v1.31.4',
        kubeletVersion: 'v1.31.4',
        machineID: 'm',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: 's',
      },
    },
  };
  return merge(base, patch);
}

/** A node whose kubelet stopped posting status (node lifecycle controller's view). */
export function lostNode(name = 'node-1', sinceSeconds = 900): Node {
  const unknown = (type: string) => ({
    type,
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
    lastHeartbeatTime: ago(sinceSeconds + 50),
    lastTransitionTime: ago(sinceSeconds),
  });
  return node({
    metadata: { name },
    spec: {
      taints: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: ago(sinceSeconds) },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ago(sinceSeconds) },
      ],
    },
    status: { conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map(unknown) },
  });
}

export interface EventInit {
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  count?: number;
  /** Seconds before NOW of the last occurrence. */
  lastSeenAgo?: number;
  firstSeenAgo?: number;
  component?: string;
  host?: string;
  fieldPath?: string;
  involved?: { kind: string; name: string; namespace?: string; uid?: string };
}

/** A core/v1 Event about `about` (a pod by default) as the kubelet or a controller writes it. */
export function event(about: Pod | KubeObject, init: EventInit): Event {
  const md = about.metadata ?? {};
  const involved = init.involved ?? { kind: about.kind ?? 'Pod', name: md.name ?? '', namespace: md.namespace, uid: md.uid };
  const last = ago(init.lastSeenAgo ?? 30);
  const first = ago(init.firstSeenAgo ?? init.lastSeenAgo ?? 30);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${involved.name}.${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}`,
      namespace: involved.namespace ?? 'default',
      creationTimestamp: first,
    },
    involvedObject: { apiVersion: 'v1', kind: involved.kind, name: involved.name, namespace: involved.namespace, uid: involved.uid, fieldPath: init.fieldPath },
    reason: init.reason,
    message: init.message,
    type: init.type ?? 'Warning',
    count: init.count ?? 1,
    firstTimestamp: first,
    lastTimestamp: last,
    source: { component: init.component ?? 'kubelet', host: init.host },
    reportingComponent: init.component ?? 'kubelet',
    reportingInstance: init.host ?? '',
  };
}

/** A gap of the node agent check, as the agent client records it. */
export function agentGap(node: string, reason: string, kind: Gap['kind'] = 'unreachable'): Gap {
  return { check: `node agent on ${node}`, reason, kind, origin: 'agent' };
}

export function target(p: Pod): Target {
  return { kind: 'pod', namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '' };
}

/** A snapshot of `p` with its node; pass more facts to override. */
export function snapshot(p: Pod | undefined, more: Partial<Snapshot> = {}): Snapshot {
  const t: Target = p ? target(p) : { kind: 'pod', namespace: 'shop', name: 'missing' };
  return {
    now: NOW,
    cluster: 'test',
    target: t,
    pod: p,
    events: [],
    node: p?.spec?.nodeName ? node({ metadata: { name: p.spec.nodeName } }) : undefined,
    gaps: [],
    ...more,
  };
}

// --- Container states for the image, crash and config rules -----------------------------

type PodContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];
type PodLogTail = NonNullable<Snapshot['logs']>[number];

/** A status for container `web`, Running and Ready by default; patch what differs. */
export function containerStatus(patch: DeepPartial<PodContainerStatus> = {}): PodContainerStatus {
  const base = pod().status?.containerStatuses?.[0] as PodContainerStatus;
  const out = merge(base, patch);
  // A waiting or terminated state replaces the default running one.
  if (patch.state) out.state = patch.state as PodContainerStatus['state'];
  return out;
}

/** A pod whose container `web` is waiting with `reason` (Pending, not ready): ErrImagePull, CreateContainerConfigError... */
export function waitingPod(reason: string, message?: string, patch: DeepPartial<Pod> = {}): Pod {
  const waiting = containerStatus({ ready: false, started: false, containerID: undefined, state: { waiting: { reason, ...(message ? { message } : {}) } } });
  const base = pod({
    status: {
      phase: 'Pending',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
      ],
      containerStatuses: [waiting],
    },
  });
  return merge(base, patch);
}

export interface CrashInit {
  exitCode: number;
  /** Terminated reason: `Error` (default for non-zero), `OOMKilled`, `Completed`, `StartError`... */
  reason?: string;
  message?: string;
  restarts?: number;
  /** Seconds the crashed run lasted (startedAt → finishedAt). */
  ranSeconds?: number;
  /** Seconds before NOW the crashed run ended. */
  finishedAgo?: number;
  /** Current state: CrashLoopBackOff (default), `terminated` (restartPolicy Never), `running` again. */
  now?: 'CrashLoopBackOff' | 'terminated' | 'running';
  container?: string;
  runtime?: 'containerd' | 'docker';
}

/** A terminated state as the runtime reports it. */
export function terminated(init: CrashInit) {
  const finishedAgo = init.finishedAgo ?? 60;
  const id = `${init.runtime ?? 'containerd'}://${'9'.repeat(64)}`;
  return {
    exitCode: init.exitCode,
    reason: init.reason ?? (init.exitCode === 0 ? 'Completed' : 'Error'),
    ...(init.message ? { message: init.message } : {}),
    startedAt: ago(finishedAgo + (init.ranSeconds ?? 5)),
    finishedAt: ago(finishedAgo),
    containerID: id,
  };
}

/** A pod whose container crashed: CrashLoopBackOff with the crash in lastState by default. */
export function crashedPod(init: CrashInit, patch: DeepPartial<Pod> = {}): Pod {
  const name = init.container ?? 'web';
  const now = init.now ?? 'CrashLoopBackOff';
  const term = terminated(init);
  const podName = patch.metadata?.name ?? 'web-7d9f8c6b5-x2k4q';
  const state =
    now === 'terminated'
      ? { terminated: term }
      : now === 'running'
        ? { running: { startedAt: ago((init.finishedAgo ?? 60) - 1) } }
        : {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 5m0s restarting failed container=${name} pod=${podName}_shop(00000000-0000-4000-8000-000000000001)`,
            },
          };
  const status = containerStatus({
    name,
    ready: now === 'running',
    started: now === 'running',
    restartCount: init.restarts ?? (now === 'terminated' ? 0 : 7),
    containerID: term.containerID,
    state,
    ...(now === 'terminated' ? {} : { lastState: { terminated: term } }),
  });
  const ready = now === 'running' ? 'True' : 'False';
  const base = pod({
    metadata: { name: podName },
    spec: { containers: [{ name, image: 'registry.example.com/shop/web:1.4.2', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    status: {
      phase: now === 'terminated' ? 'Failed' : 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: ready },
        { type: 'Ready', status: ready },
      ],
      containerStatuses: [status],
    },
  });
  return merge(base, patch);
}

/** A container's log tail as the collector stores it (`previous` = the crashed run). */
export function logTail(container: string, lines: string[], previous = true): PodLogTail {
  return { container, previous, lines };
}

// --- Scheduling, namespace, owner and cloud-node facts (pending.*, sandbox, admission, node rules) ---

type NamespaceObject = NonNullable<Snapshot['namespace']>;
type PvcObject = NonNullable<NonNullable<Snapshot['pvcs']>[string]>;
type LeaseObject = NonNullable<Snapshot['schedulerLease']>;
type OwnerFactObject = NonNullable<Snapshot['owners']>[number];

/** A pod the scheduler has not placed: no node, Pending for `ageSeconds`, PodScheduled=False/Unschedulable with `message` (no condition when undefined). */
export function unscheduledPod(message: string | undefined, patch: DeepPartial<Pod> = {}, ageSeconds = 600): Pod {
  const base = pod({
    metadata: { creationTimestamp: ago(ageSeconds) },
    spec: { nodeName: undefined },
    status: {
      phase: 'Pending',
      podIP: undefined,
      startTime: undefined,
      containerStatuses: undefined,
      conditions:
        message === undefined ? [] : [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastTransitionTime: ago(ageSeconds - 1) }],
    },
  });
  return merge(base, patch);
}

/** The default scheduler's FailedScheduling event (events.k8s.io seen through core/v1), aggregated x6. */
export function failedScheduling(p: Pod, message: string, init: Partial<EventInit> = {}): Event {
  return event(p, { reason: 'FailedScheduling', message, component: 'default-scheduler', count: 6, ...init });
}

/** A healthy node with the extra conditions GKE (node-problem-detector), AKS or EKS add. */
export function cloudNode(provider: 'gke' | 'aks' | 'eks', name = 'node-1', patch: DeepPartial<Node> = {}): Node {
  const c = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: ago(20),
    lastTransitionTime: ago(86400),
  });
  const extra = {
    gke: [
      c('FrequentKubeletRestart', 'False', 'NoFrequentKubeletRestart', 'kubelet is functioning properly'),
      c('FrequentContainerdRestart', 'False', 'NoFrequentContainerdRestart', 'containerd is functioning properly'),
      c('KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock'),
      c('ReadonlyFilesystem', 'False', 'FilesystemIsNotReadOnly', 'Filesystem is not read-only'),
      c('CorruptDockerOverlay2', 'False', 'NoCorruptDockerOverlay2', 'docker overlay2 is functioning properly'),
      c('NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'),
    ],
    aks: [
      c('ContainerRuntimeProblem', 'False', 'ContainerRuntimeIsUp', 'Container runtime service is up'),
      c('KubeletProblem', 'False', 'KubeletIsUp', 'Kubelet service is up'),
      c('FilesystemCorruptionProblem', 'False', 'FilesystemIsOK', 'Filesystem is healthy'),
      c('VMEventScheduled', 'False', 'NoVMEventScheduled', 'VM has no scheduled event'),
      c('FrequentKubeletRestart', 'False', 'NoFrequentKubeletRestart', 'kubelet is functioning properly'),
      c('KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock'),
    ],
    eks: [
      c('ContainerRuntimeReady', 'True', 'ContainerRuntimeIsReady', 'Monitoring for the ContainerRuntime system is active'),
      c('KernelReady', 'True', 'KernelIsReady', 'Monitoring for the Kernel system is active'),
      c('NetworkingReady', 'True', 'NetworkingIsReady', 'Monitoring for the Networking system is active'),
      c('StorageReady', 'True', 'DiskIsReady', 'Monitoring for the Disk system is active'),
    ],
  }[provider];
  const base = node({ metadata: { name } });
  const conditions = [...extra, ...(base.status?.conditions ?? [])];
  return merge(base, merge({ status: { conditions } }, patch));
}

/** A Job pod that ran to completion (Succeeded, container terminated Completed). */
export function completedJobPod(patch: DeepPartial<Pod> = {}): Pod {
  const base = pod({
    metadata: {
      name: 'report-28791230-x7k2p',
      labels: { 'batch.kubernetes.io/job-name': 'report-28791230' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'report-28791230', uid: uid(), controller: true }],
    },
    spec: { restartPolicy: 'Never' },
    status: {
      phase: 'Succeeded',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True', reason: 'PodCompleted' },
        { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' },
        { type: 'Ready', status: 'False', reason: 'PodCompleted' },
      ],
      containerStatuses: [containerStatus({ ready: false, started: false, state: { terminated: terminated({ exitCode: 0, finishedAgo: 1800 }) } })],
    },
  });
  return merge(base, patch);
}

/** A healthy DaemonSet pod in node-exporter style (hostNetwork, hostPID, host port 9100). */
export function daemonSetPod(patch: DeepPartial<Pod> = {}): Pod {
  const base = pod({
    metadata: {
      name: 'node-exporter-8xk2p',
      namespace: 'monitoring',
      labels: { app: 'node-exporter' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'node-exporter', uid: uid(), controller: true }],
    },
    spec: {
      hostNetwork: true,
      hostPID: true,
      containers: [
        {
          name: 'node-exporter',
          image: 'quay.io/prometheus/node-exporter:v1.8.2',
          ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP', name: 'metrics' }],
        },
      ],
      tolerations: [{ operator: 'Exists' }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }],
          },
        },
      },
    },
  });
  return merge(base, patch);
}

export function namespaceObject(name: string, patch: DeepPartial<NamespaceObject> = {}): NamespaceObject {
  const base: NamespaceObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, uid: uid(), creationTimestamp: ago(86400 * 10), labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
  return merge(base, patch);
}

/** A PersistentVolumeClaim in `shop`, Bound to a dynamically provisioned volume unless patched. */
export function pvcObject(name: string, patch: DeepPartial<PvcObject> = {}): PvcObject {
  const base: PvcObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'shop',
      uid: uid(),
      creationTimestamp: ago(3600),
      annotations: { 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com' },
    },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'gp3', resources: { requests: { storage: '10Gi' } }, volumeName: `pvc-${uid()}` },
    status: { phase: 'Bound' },
  };
  return merge(base, patch);
}

/** The kube-scheduler leader lease, last renewed `renewedAgo` seconds before NOW. */
export function schedulerLease(renewedAgo: number, holder = 'master-1_6b9e5c1d-2f3a-4c5b-8d7e-1f2a3b4c5d6e'): LeaseObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'kube-scheduler', namespace: 'kube-system', uid: uid() },
    spec: { holderIdentity: holder, leaseDurationSeconds: 15, acquireTime: ago(renewedAgo + 86400), renewTime: ago(renewedAgo), leaseTransitions: 3 },
  };
}

/** An owner in the pod's chain with its object and events (FailedCreate...). */
export function ownerFact(kind: string, name: string, object?: Partial<KubeObject>, events: Event[] = []): OwnerFactObject {
  const obj: KubeObject | undefined = object ? { apiVersion: 'apps/v1', kind, metadata: { name, namespace: 'shop', uid: uid() }, ...object } : undefined;
  return obj ? { kind, name, object: obj, events } : { kind, name, events };
}

/** A claim as the collector reads it: the claim (Pending unless patched), its own events, class, volume. */
export function claimFact(name: string, init: { claim?: DeepPartial<PvcObject> | null; events?: Event[]; storageClass?: KubeObject | null } = {}): ClaimFact {
  const claim =
    init.claim === null
      ? null
      : pvcObject(name, merge({ metadata: { creationTimestamp: ago(1800) }, spec: { volumeName: undefined }, status: { phase: 'Pending' } }, init.claim ?? {}));
  return { name, claim, events: init.events ?? [], ...(init.storageClass !== undefined ? { storageClass: init.storageClass } : {}) };
}
