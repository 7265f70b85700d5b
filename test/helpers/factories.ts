// Factories for wire-format Kubernetes objects and snapshots. Tests describe only what
// differs from a healthy default, so each case reads as the failure it models.
import type { Event, KubeObject, Node, Pod, Snapshot, Target } from '../../src/diagnosis/types.js';

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
    metadata: { name: patch.metadata?.name ?? 'node-1', uid: uid(), labels: { 'kubernetes.io/hostname': patch.metadata?.name ?? 'node-1' }, creationTimestamp: ago(86400 * 30) },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: ago(10), lastTransitionTime: ago(86400) },
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
    metadata: { name: `${involved.name}.${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}`, namespace: involved.namespace ?? 'default', creationTimestamp: first },
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
