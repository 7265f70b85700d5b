// A kubelet stand-in for envtest: the control plane has no kubelet, so this registers Node
// objects, keeps the ones a scenario wants alive (node status + Lease renewals), completes
// deletions on live nodes, and writes the pod states only a kubelet produces (through the
// status subresource) with the core/v1 events a kubelet records, in the wording of a current
// kubelet (containerd) or of the 1.20 kubelet this control plane belongs to (dockershim).
//
// Node lifecycle facts for scenarios (harness timings: monitor 2s, grace 10s):
// - a stopped node turns Ready=Unknown and gets the unreachable NoSchedule + NoExecute taints
//   ~12 s after its last heartbeat; pods are evicted after their toleration (DefaultTolerationSeconds
//   gives 300 s, so give pods `tolerationSeconds: 5` for node.kubernetes.io/unreachable) and then
//   stay Terminating, since no kubelet confirms the deletion;
// - keep at least one other node heartbeating: when every node is down the controller enters
//   "master disruption mode", removes the NoExecute taints and stops evicting.
import { createHash, randomBytes } from 'node:crypto';
import type { ControlPlane, KubeClient, KubeObject } from './harness.js';
import { KubeHttpError } from './harness.js';

export interface StandInNodeSpec {
  name: string;
  labels?: Record<string, string>;
  taints?: Array<{ key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }>;
  unschedulable?: boolean;
  capacity?: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  /** Reserved for system daemons (allocatable = capacity - reserved); same keys as capacity. */
  reserved?: { cpu?: string; memory?: string };
}

/**
 * Wording differs by kubelet release (see kubernetes-facts.md's cheat-sheet): `current` is a
 * v1.33-era kubelet (what production clusters show now), `v1.20` matches this control plane.
 */
export type KubeletStyle = 'current' | 'v1.20';

interface Wording {
  kubeletVersion: string;
  /** Container runtime of that era: `containerd` now, `docker` (dockershim) around 1.20. */
  runtime: 'containerd' | 'docker';
  runtimeVersion: string;
  /** The image pull error for a tag that does not exist. */
  notFound: (image: string) => string;
  created: (c: string) => string;
  started: (c: string) => string;
  pulled: (image: string) => string;
  pullBackOffWaiting: (image: string, error: string) => string;
  crashLoopEvent: (c: string, podRef: string) => string;
  reporting: boolean;
  /** The kubelet's default sandbox (pause) image of that era. */
  pauseImage: string;
  /** RunPodSandbox error when the pause image is not on the node and the registry refuses the pull. */
  sandboxImageAuthError: (image: string) => string;
  /** RunPodSandbox error when the sandbox's init process is killed at start (a memory limit of a few bytes). */
  sandboxKilledAtStart: (pod: string) => string;
  /** A container whose start fails because its subPath source under volume-subpaths/ is gone. */
  subPathGone: (p: SubPathFacts) => { terminated: { exitCode: number; reason: string; message: string }; event: string };
  /** Eviction message (pkg/kubelet/eviction/helpers.go of that era) for one container using more than its request. */
  evictionMessage: (e: EvictionFacts) => string;
  /** Terminated state of a container the eviction killed (exit code 137). */
  evictedContainer: { reason: string; message?: string };
  /** Pod conditions added since: PodReadyToStartContainers (1.29), DisruptionTarget on kubelet eviction (1.26). */
  readyToStartCondition: boolean;
  disruptionTarget: boolean;
}

interface SubPathFacts {
  podUid: string;
  volume: string;
  container: string;
  /** Index of the volumeMount in the container's volumeMounts (the kubelet's volume-subpaths/<vol>/<c>/<index>). */
  index: number;
  mountPath: string;
  containerId: string;
}

interface EvictionFacts {
  resource: string;
  container: string;
  usage: string;
  request: string;
  threshold: string;
  available: string;
}

/** A subPath source as the kubelet prepares it. */
const subPathSource = (p: SubPathFacts) => `/var/lib/kubelet/pods/${p.podUid}/volume-subpaths/${p.volume}/${p.container}/${p.index}`;

export const KUBELET_WORDING: Record<KubeletStyle, Wording> = {
  current: {
    kubeletVersion: 'v1.33.1',
    runtime: 'containerd',
    runtimeVersion: 'containerd://1.6.20',
    notFound: (image) => notFoundPullError(image),
    created: (c) => `Created container: ${c}`,
    started: (c) => `Started container ${c}`,
    pulled: (image) => `Successfully pulled image "${image}" in 1.204s (1.204s including waiting). Image size: 72225393 bytes.`,
    pullBackOffWaiting: (image, error) => `Back-off pulling image "${image}": ErrImagePull: ${error}`,
    crashLoopEvent: (c, podRef) => `Back-off restarting failed container ${c} in pod ${podRef}`,
    reporting: true,
    pauseImage: 'registry.k8s.io/pause:3.9',
    // containerd's CRI: ensure the sandbox image, pull it, resolve the reference (401 from the registry).
    sandboxImageAuthError: (image) => {
      const ref = fullImageRef(image);
      return `rpc error: code = Unknown desc = failed to get sandbox image "${image}": failed to pull image "${image}": failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": unexpected status from HEAD request to ${manifestUrl(image)}: 401 Unauthorized`;
    },
    // runc >= 1.1 names the OOM kill of its init; containerd wraps the task creation.
    sandboxKilledAtStart: () =>
      'rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?): unknown',
    subPathGone: (p) => {
      const message = `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "${subPathSource(p)}" to rootfs at "${p.mountPath}": mount ${subPathSource(p)}:${p.mountPath} (via /proc/self/fd/6), flags: 0x5001: no such file or directory: unknown`;
      return { terminated: { exitCode: 128, reason: 'StartError', message }, event: `Error: ${message}` };
    },
    evictionMessage: (e) =>
      `The node was low on resource: ${e.resource}. Threshold quantity: ${e.threshold}, available: ${e.available}. Container ${e.container} was using ${e.usage}, request is ${e.request}, has larger consumption of ${e.resource}. `,
    evictedContainer: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' },
    readyToStartCondition: true,
    disruptionTarget: true,
  },
  'v1.20': {
    kubeletVersion: 'v1.20.2',
    runtime: 'docker',
    runtimeVersion: 'docker://19.3.15',
    notFound: (image) => `rpc error: code = Unknown desc = Error response from daemon: manifest for ${image} not found: manifest unknown: manifest unknown`,
    created: (c) => `Created container ${c}`,
    started: (c) => `Started container ${c}`,
    pulled: (image) => `Successfully pulled image "${image}" in 1.204s`,
    pullBackOffWaiting: (image) => `Back-off pulling image "${image}"`,
    crashLoopEvent: () => 'Back-off restarting failed container',
    reporting: false,
    pauseImage: 'k8s.gcr.io/pause:3.2',
    // dockershim ensureSandboxImageExists: `failed pulling image %q: %v` around dockerd's answer.
    sandboxImageAuthError: (image) =>
      `rpc error: code = Unknown desc = failed pulling image "${image}": Error response from daemon: Get ${manifestUrl(image)}: unauthorized: authentication required`,
    // dockershim RunPodSandbox `failed to start sandbox container for pod %q: %v`; runc of the docker 18/19 era (seed 003).
    sandboxKilledAtStart: (pod) =>
      `rpc error: code = Unknown desc = failed to start sandbox container for pod "${pod}": Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:301: running exec setns process for init caused \\"signal: killed\\"": unknown`,
    // docker reports a container that never ran as ContainerCannotRun (exit 128, message = State.Error);
    // dockershim's StartContainer wraps it as `failed to start container %q: %v` with the container ID.
    subPathGone: (p) => {
      const merged = `/var/lib/docker/overlay2/${imageDigest(p.containerId)}/merged`;
      const message = `OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:402: container init caused \\"rootfs_linux.go:58: mounting \\\\\\"${subPathSource(p)}\\\\\\" to rootfs \\\\\\"${merged}\\\\\\" at \\\\\\"${merged}${p.mountPath}\\\\\\" caused \\\\\\"no such file or directory\\\\\\"\\"": unknown`;
      return {
        terminated: { exitCode: 128, reason: 'ContainerCannotRun', message },
        event: `Error: failed to start container "${p.containerId.replace(/^docker:\/\//, '')}": Error response from daemon: ${message}`,
      };
    },
    evictionMessage: (e) =>
      `The node was low on resource: ${e.resource}. Container ${e.container} was using ${e.usage}, which exceeds its request of ${e.request}. `,
    evictedContainer: { reason: 'Error' },
    readyToStartCondition: false,
    disruptionTarget: false,
  },
};

export interface KubeletStandInOptions {
  /** Message wording (default `current`). */
  style?: KubeletStyle;
  /** Heartbeat period (default 2s; the harness's node-monitor-grace-period is 10s). */
  heartbeatMs?: number;
  leaseDurationSeconds?: number;
  /** Finish graceful deletions of pods on live nodes, as a kubelet does after killing containers (default true). */
  completeDeletions?: boolean;
  /** Kubelet port the API server dials for logs (status.daemonEndpoints); a KubeletLogServer's port. Default 10250. */
  kubeletPort?: number;
}

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

/** The kubelet's words for its pressure conditions (pkg/kubelet/nodestatus/setters.go) and the resource it reclaims. */
const PRESSURE: Record<PressureCondition, { resource: string; ok: [string, string]; bad: [string, string] }> = {
  MemoryPressure: {
    resource: 'memory',
    ok: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    bad: ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
  },
  DiskPressure: {
    resource: 'ephemeral-storage',
    ok: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    bad: ['KubeletHasDiskPressure', 'kubelet has disk pressure'],
  },
  PIDPressure: {
    resource: 'pids',
    ok: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    bad: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
  },
};

/**
 * Why a deleted pod is never confirmed gone. `kill-hangs`: the kubelet starts the kill (Killing
 * "Stopping container <c>") and it never finishes. `worker-blocked`: the pod worker is stuck in
 * an earlier sync (a postStart exec that never returns), so the kill does not even start.
 */
export type DeletionHang = 'kill-hangs' | 'worker-blocked';

interface NodeState {
  spec: StandInNodeSpec;
  uid: string;
  alive: boolean;
  bootID: string;
  podSeq: number;
  pressure: Set<PressureCondition>;
}

type Pod = KubeObject;

const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const now = () => isoSeconds(new Date());
/** metav1.MicroTime (Lease renewTime) has microseconds. */
const microNow = () => new Date().toISOString().replace(/Z$/, '000Z');
const hex = (n: number) =>
  randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
const containerId = (runtime: Wording['runtime'] = 'containerd') => `${runtime}://${hex(64)}`;
const imageDigest = (image: string) => createHash('sha256').update(image).digest('hex');

/** Canonical image ref as containerd reports it in imageID/events (docker.io/library/ prefix). */
export function fullImageRef(image: string): string {
  const [first] = image.split('/');
  const hasRegistry = image.includes('/') && first !== undefined && (first.includes('.') || first.includes(':') || first === 'localhost');
  let ref = hasRegistry ? image : image.includes('/') ? `docker.io/${image}` : `docker.io/library/${image}`;
  if (!/[:@][^/]*$/.test(ref.slice(ref.lastIndexOf('/')))) ref += ':latest';
  return ref;
}

/** The manifest URL a runtime asks the registry for (docker.io is served by registry-1.docker.io). */
export function manifestUrl(image: string): string {
  const ref = fullImageRef(image);
  const slash = ref.indexOf('/');
  const host = ref.slice(0, slash) === 'docker.io' ? 'registry-1.docker.io' : ref.slice(0, slash);
  const path = ref.slice(slash + 1);
  const at = path.indexOf('@');
  const [repo, tag] = at >= 0 ? [path.slice(0, at), path.slice(at + 1)] : [path.slice(0, path.lastIndexOf(':')), path.slice(path.lastIndexOf(':') + 1)];
  return `https://${host}/v2/${repo}/manifests/${tag}`;
}

/** CrashLoopBackOff delay after `restarts` restarts: 10s doubling, capped at 5m, Go duration text. */
export function backOffText(restarts: number): string {
  const secs = Math.min(300, 10 * 2 ** Math.max(0, restarts - 1));
  const m = Math.floor(secs / 60);
  return m > 0 ? `${m}m${secs % 60}s` : `${secs}s`;
}

/** Default image pull error: a tag that does not exist (containerd, k8s ≥ 1.28 wording). */
export function notFoundPullError(image: string): string {
  const ref = fullImageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

export class KubeletStandIn {
  private readonly nodes = new Map<string, NodeState>();
  private readonly heartbeatMs: number;
  private readonly leaseDurationSeconds: number;
  private readonly wording: Wording;
  private readonly completeDeletions: boolean;
  private readonly kubeletPort: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private readonly deletionSent = new Set<string>();
  /** `<ns>/<name>` of pods whose deletion this kubelet never confirms. */
  private readonly hung = new Map<string, DeletionHang>();
  private eventSeq = 0;
  /** Errors from the background heartbeat (tests can assert it stays empty). */
  readonly errors: string[] = [];

  constructor(
    private readonly client: KubeClient,
    opts: KubeletStandInOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 2000;
    this.leaseDurationSeconds = opts.leaseDurationSeconds ?? 40;
    this.wording = KUBELET_WORDING[opts.style ?? 'current'];
    this.completeDeletions = opts.completeDeletions ?? true;
    this.kubeletPort = opts.kubeletPort ?? 10250;
  }

  /** A stand-in using the admin client, stopped by `cp.stop()`. */
  static for(cp: ControlPlane, opts: KubeletStandInOptions = {}): KubeletStandIn {
    const k = new KubeletStandIn(cp.client, opts);
    cp.onStop(() => k.stop());
    return k;
  }

  // ------------------------------------------------------------ nodes

  /**
   * Creates the Node (as kubelet registration does), posts Ready status, creates its Lease and
   * keeps it alive. Waits until the node lifecycle controller has removed the
   * `node.kubernetes.io/not-ready` taint that admission put on the new node.
   */
  async registerNode(spec: StandInNodeSpec, { waitReady = true }: { waitReady?: boolean } = {}): Promise<KubeObject> {
    const labels = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': spec.name,
      'kubernetes.io/os': 'linux',
      ...spec.labels,
    };
    const created = await this.client.create('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: spec.name, labels, annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } },
      spec: { ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    });
    const state: NodeState = { spec, uid: created.metadata!.uid, alive: true, bootID: cryptoUuid(), podSeq: 0, pressure: new Set() };
    this.nodes.set(spec.name, state);
    await this.postNodeStatus(state, true);
    await this.renewLease(state);
    this.ensureTimer();
    if (!waitReady) return this.client.get(`/api/v1/nodes/${spec.name}`);
    return this.client.waitFor(
      `node ${spec.name} Ready without the not-ready taint`,
      () => this.client.get(`/api/v1/nodes/${spec.name}`),
      (n) => !(n.spec?.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/not-ready'),
      { timeoutMs: 30_000 },
    );
  }

  /** Stops status updates and Lease renewals: the node lifecycle controller will mark it Unknown. */
  stopHeartbeat(name: string): void {
    this.node(name).alive = false;
  }

  /** Resumes heartbeats (the controller marks the node Ready again and removes the taints). */
  async resumeHeartbeat(name: string): Promise<void> {
    const state = this.node(name);
    state.alive = true;
    await this.postNodeStatus(state, true);
    await this.renewLease(state);
  }

  isAlive(name: string): boolean {
    return this.node(name).alive;
  }

  /** Stops all background work (does not delete anything). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const n of this.nodes.values()) n.alive = false;
  }

  private node(name: string): NodeState {
    const n = this.nodes.get(name);
    if (!n) throw new Error(`node ${name} is not managed by this kubelet stand-in`);
    return n;
  }

  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.heartbeatMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const state of this.nodes.values()) {
        if (!state.alive) continue;
        try {
          await this.renewLease(state);
          await this.postNodeStatus(state, false);
          await this.handleDeletions(state);
        } catch (err) {
          if (this.errors.length < 50) this.errors.push(`${state.spec.name}: ${String(err)}`);
        }
      }
    } finally {
      this.ticking = false;
    }
  }

  private capacity(spec: StandInNodeSpec): { capacity: Record<string, string>; allocatable: Record<string, string> } {
    const capacity = {
      cpu: spec.capacity?.cpu ?? '4',
      'ephemeral-storage': spec.capacity?.['ephemeral-storage'] ?? '102687672Ki',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: spec.capacity?.memory ?? '16392660Ki',
      pods: spec.capacity?.pods ?? '110',
    };
    const allocatable = { ...capacity };
    if (spec.reserved?.cpu) allocatable.cpu = `${Math.max(0, cpuMillis(capacity.cpu) - cpuMillis(spec.reserved.cpu))}m`;
    if (spec.reserved?.memory) allocatable.memory = `${Math.max(0, memKi(capacity.memory) - memKi(spec.reserved.memory))}Ki`;
    return { capacity, allocatable };
  }

  private async postNodeStatus(state: NodeState, transition: boolean): Promise<void> {
    const t = now();
    const existing = transition ? null : await this.client.get(`/api/v1/nodes/${state.spec.name}`);
    // Keep lastTransitionTime unless the status flips (e.g. back from Unknown).
    const prev = new Map<string, any>((existing?.status?.conditions ?? []).map((c: any) => [c.type, c]));
    const cond = (type: string, status: string, reason: string, message: string) => {
      const p = prev.get(type);
      return { type, status, reason, message, lastHeartbeatTime: t, lastTransitionTime: p && p.status === status ? p.lastTransitionTime : t };
    };
    const { capacity, allocatable } = this.capacity(state.spec);
    await this.client.patch(
      `/api/v1/nodes/${state.spec.name}/status`,
      {
        status: {
          capacity,
          allocatable,
          conditions: [
            ...(Object.keys(PRESSURE) as PressureCondition[]).map((type) => {
              const [reason, message] = state.pressure.has(type) ? PRESSURE[type].bad : PRESSURE[type].ok;
              return cond(type, state.pressure.has(type) ? 'True' : 'False', reason, message);
            }),
            cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
          ],
          // Loopback: nothing (e.g. `kubectl logs` through the API server) may dial out of this machine.
          addresses: [
            { type: 'InternalIP', address: '127.0.0.1' },
            { type: 'Hostname', address: state.spec.name },
          ],
          daemonEndpoints: { kubeletEndpoint: { Port: this.kubeletPort } },
          nodeInfo: {
            machineID: hex(32),
            systemUUID: state.uid,
            bootID: state.bootID,
            kernelVersion: '6.1.0-21-cloud-amd64',
            osImage: 'Debian GNU/Linux 12 (bookworm)',
            containerRuntimeVersion: this.wording.runtimeVersion,
            kubeletVersion: this.wording.kubeletVersion,
            kubeProxyVersion: this.wording.kubeletVersion,
            operatingSystem: 'linux',
            architecture: 'amd64',
          },
        },
      },
      'merge',
    );
  }

  private async renewLease(state: NodeState): Promise<void> {
    const name = state.spec.name;
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`;
    const spec = { holderIdentity: name, leaseDurationSeconds: this.leaseDurationSeconds, renewTime: microNow() };
    const patch = () => this.client.request('PATCH', leasePath, { body: { spec }, contentType: 'application/merge-patch+json' });
    let res = await patch();
    if (res.status === 404) {
      const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
      const created = await this.client.request('POST', leases, {
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace: 'kube-node-lease', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: state.uid }] },
          spec,
        },
      });
      if (created.status < 300) return;
      // 409: the heartbeat timer's renewal for this node created it between our PATCH and POST
      // (registerNode and tick run concurrently); renew the one that won.
      if (created.status !== 409) throw new KubeHttpError('POST', leases, created.status, created.body);
      res = await patch();
    }
    if (res.status >= 300) throw new KubeHttpError('PATCH', leasePath, res.status, res.body);
  }

  /**
   * Node pressure as the kubelet's eviction manager reports it: the condition turns True (False
   * again with `on: false`) in the next status updates, with the node events
   * `NodeHasInsufficientMemory` ("Node <n> status is now: ...") and `EvictionThresholdMet`
   * ("Attempting to reclaim memory"). The node lifecycle controller then taints the node
   * (`node.kubernetes.io/memory-pressure:NoSchedule`).
   */
  async setNodePressure(name: string, condition: PressureCondition, on = true): Promise<KubeObject> {
    const state = this.node(name);
    if (on) state.pressure.add(condition);
    else state.pressure.delete(condition);
    await this.postNodeStatus(state, false);
    const word =
      condition === 'MemoryPressure'
        ? on
          ? 'NodeHasInsufficientMemory'
          : 'NodeHasSufficientMemory'
        : condition === 'DiskPressure'
          ? on
            ? 'NodeHasDiskPressure'
            : 'NodeHasNoDiskPressure'
          : on
            ? 'NodeHasInsufficientPID'
            : 'NodeHasSufficientPID';
    await this.nodeEvent(name, { reason: word, message: `Node ${name} status is now: ${word}` });
    if (on) await this.nodeEvent(name, { reason: 'EvictionThresholdMet', type: 'Warning', message: `Attempting to reclaim ${PRESSURE[condition].resource}` });
    return this.client.get(`/api/v1/nodes/${name}`);
  }

  /** An event about the Node, as the kubelet records it (namespace default, involvedObject uid = node name). */
  async nodeEvent(name: string, e: { reason: string; message: string; type?: 'Normal' | 'Warning'; count?: number }): Promise<KubeObject> {
    const t = now();
    const nano = BigInt(Date.now()) * 1_000_000n + BigInt(this.eventSeq++ % 1_000_000);
    return this.client.create('/api/v1/namespaces/default/events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${nano.toString(16)}`, namespace: 'default' },
      involvedObject: { kind: 'Node', name, uid: name },
      reason: e.reason,
      message: e.message,
      type: e.type ?? 'Normal',
      source: { component: 'kubelet', host: name },
      firstTimestamp: t,
      lastTimestamp: t,
      count: e.count ?? 1,
      ...(this.wording.reporting ? { reportingComponent: 'kubelet', reportingInstance: name } : {}),
    });
  }

  /**
   * This kubelet never confirms the deletion of the pod (see DeletionHang): it stays Terminating
   * on a Ready node, as when the runtime cannot kill its containers.
   */
  hangDeletion(namespace: string, name: string, how: DeletionHang = 'kill-hangs'): void {
    this.hung.set(`${namespace}/${name}`, how);
  }

  /**
   * A kubelet confirms graceful deletion (grace 0 + UID precondition) once containers are gone;
   * for a pod whose deletion hangs it only records the start of the kill, once.
   */
  private async handleDeletions(state: NodeState): Promise<void> {
    const pods = await this.client.list('/api/v1/pods', { fieldSelector: `spec.nodeName=${state.spec.name}` });
    for (const p of pods.items) {
      const uid = p.metadata?.uid as string;
      if (!p.metadata?.deletionTimestamp || this.deletionSent.has(uid)) continue;
      const hang = this.hung.get(`${p.metadata.namespace}/${p.metadata.name}`);
      if (hang) {
        this.deletionSent.add(uid);
        if (hang === 'kill-hangs') {
          for (const s of (p.status?.containerStatuses ?? []) as any[]) {
            if (s.state?.running) await this.event(p, { reason: 'Killing', message: `Stopping container ${s.name}`, fieldPath: `spec.containers{${s.name}}` });
          }
        }
        continue;
      }
      if (!this.completeDeletions) continue;
      this.deletionSent.add(uid);
      const res = await this.client.request('DELETE', podPath(p.metadata.namespace, p.metadata.name), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } },
      });
      if (res.status >= 300 && res.status !== 404 && res.status !== 409) throw new KubeHttpError('DELETE', p.metadata.name, res.status, res.body);
    }
  }

  // ------------------------------------------------------------ pods

  /** Containers started and ready: phase Running, Ready=True; Pulling/Pulled/Created/Started events. */
  async podRunning(namespace: string, name: string, { ready = true }: { ready?: boolean } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const started = now();
    const containers: any[] = pod.spec.containers;
    const statuses = containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: `${fullImageRef(c.image).replace(/:[^:/]*$/, '')}@sha256:${imageDigest(c.image)}`,
      containerID: containerId(this.wording.runtime),
      ready,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: started } },
      lastState: {},
    }));
    const names = containers.map((c) => c.name);
    const result = await this.writeStatus(pod, {
      phase: 'Running',
      conditions: this.conditions(pod, ready ? [] : names),
      containerStatuses: statuses,
    });
    for (const c of containers) {
      const fieldPath = `spec.containers{${c.name}}`;
      await this.event(pod, { reason: 'Pulling', message: `Pulling image "${c.image}"`, fieldPath });
      await this.event(pod, { reason: 'Pulled', message: this.wording.pulled(c.image), fieldPath });
      await this.event(pod, { reason: 'Created', message: this.wording.created(c.name), fieldPath });
      await this.event(pod, { reason: 'Started', message: this.wording.started(c.name), fieldPath });
    }
    return result;
  }

  /**
   * Image pull failing and backed off: phase Pending, waiting ImagePullBackOff with the
   * kubelet's message (`Back-off pulling image "<img>": ErrImagePull: <error>` since v1.32,
   * `Back-off pulling image "<img>"` before), and the event sequence
   * Pulling → Failed → Failed(ErrImagePull) → BackOff → Failed(ImagePullBackOff).
   */
  async podImagePullBackOff(namespace: string, name: string, opts: { container?: string; error?: string; count?: number } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container);
    const error = opts.error ?? this.wording.notFound(c.image);
    const count = opts.count ?? 4;
    const waitingMessage = this.wording.pullBackOffWaiting(c.image, error);
    const result = await this.writeStatus(pod, {
      phase: 'Pending',
      conditions: this.conditions(pod, [c.name]),
      containerStatuses: this.otherStatuses(pod, c.name, {
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ImagePullBackOff', message: waitingMessage } },
        lastState: {},
      }),
    });
    const fieldPath = `spec.containers{${c.name}}`;
    await this.event(pod, { reason: 'Pulling', message: `Pulling image "${c.image}"`, fieldPath, count });
    await this.event(pod, { reason: 'Failed', type: 'Warning', message: `Failed to pull image "${c.image}": ${error}`, fieldPath, count });
    await this.event(pod, { reason: 'Failed', type: 'Warning', message: 'Error: ErrImagePull', fieldPath, count });
    await this.event(pod, { reason: 'BackOff', message: `Back-off pulling image "${c.image}"`, fieldPath, count: count * 2 });
    await this.event(pod, { reason: 'Failed', type: 'Warning', message: 'Error: ImagePullBackOff', fieldPath, count: count * 2 });
    return result;
  }

  /**
   * Crash loop after OOM kills: phase Running, waiting CrashLoopBackOff
   * (`back-off 5m0s restarting failed container=<c> pod=<pod>_<ns>(<uid>)`), lastState
   * terminated OOMKilled exit 137, restartCount, and the BackOff event.
   */
  async podCrashLoopOOMKilled(
    namespace: string,
    name: string,
    opts: { container?: string; restartCount?: number; exitCode?: number; reason?: string } = {},
  ): Promise<Pod> {
    return this.podCrashLoop(namespace, name, {
      ...(opts.container ? { container: opts.container } : {}),
      ...(opts.restartCount !== undefined ? { restartCount: opts.restartCount } : {}),
      terminated: { exitCode: opts.exitCode ?? 137, reason: opts.reason ?? 'OOMKilled' },
    });
  }

  /**
   * A crash loop: phase Running, waiting CrashLoopBackOff (`back-off <d> restarting failed
   * container=<c> pod=<pod>_<ns>(<uid>)`), the last run in lastState.terminated, restartCount,
   * and the events of every start: Pulled (already present), Created, then Started (or, when
   * the runtime could not start the container, `Failed` with its error), and BackOff.
   */
  async podCrashLoop(
    namespace: string,
    name: string,
    opts: {
      container?: string;
      restartCount?: number;
      terminated: { exitCode: number; reason: string; message?: string };
      /** How long the last run lasted (default 20 s; 0 for a container that never started). */
      ranSeconds?: number;
      /** startedAt as the runtime reports a container that never started (containerd: the epoch). */
      startedAt?: string;
      /** The `Failed` event text when the start itself failed (no Started event then). */
      startFailed?: string;
    },
  ): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container);
    const restarts = opts.restartCount ?? 5;
    const podRef = `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    const finished = new Date(Date.now() - 5_000);
    const startedAt = opts.startedAt ?? isoSeconds(new Date(finished.getTime() - (opts.ranSeconds ?? 20) * 1000));
    const cid = containerId(this.wording.runtime);
    const result = await this.writeStatus(pod, {
      phase: 'Running',
      conditions: this.conditions(pod, [c.name]),
      containerStatuses: this.otherStatuses(pod, c.name, {
        name: c.name,
        image: c.image,
        imageID: `${fullImageRef(c.image).replace(/:[^:/]*$/, '')}@sha256:${imageDigest(c.image)}`,
        containerID: cid,
        ready: false,
        started: false,
        restartCount: restarts,
        state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${backOffText(restarts)} restarting failed container=${c.name} pod=${podRef}` } },
        lastState: {
          terminated: {
            exitCode: opts.terminated.exitCode,
            reason: opts.terminated.reason,
            ...(opts.terminated.message ? { message: opts.terminated.message } : {}),
            startedAt,
            finishedAt: isoSeconds(finished),
            containerID: cid,
          },
        },
      }),
    });
    const fieldPath = `spec.containers{${c.name}}`;
    await this.event(pod, { reason: 'Pulled', message: `Container image "${c.image}" already present on machine`, fieldPath, count: restarts + 1 });
    await this.event(pod, { reason: 'Created', message: this.wording.created(c.name), fieldPath, count: restarts + 1 });
    if (opts.startFailed) await this.event(pod, { reason: 'Failed', type: 'Warning', message: opts.startFailed, fieldPath, count: restarts + 1 });
    else await this.event(pod, { reason: 'Started', message: this.wording.started(c.name), fieldPath, count: restarts + 1 });
    await this.event(pod, { reason: 'BackOff', type: 'Warning', message: this.wording.crashLoopEvent(c.name, podRef), fieldPath, count: restarts * 3 });
    return result;
  }

  /**
   * A liveness probe that keeps failing: Unhealthy `Liveness probe failed: <output>` (failureThreshold
   * per run), Killing `Container <c> failed liveness probe, will be restarted`, and the crash loop
   * that follows (exit 137 after the kill). The last run lasted just the probe's budget
   * (initialDelaySeconds + periodSeconds × failureThreshold): the app never passed a probe.
   */
  async podLivenessProbeFailing(
    namespace: string,
    name: string,
    opts: { container?: string; restartCount?: number; output?: string; exitCode?: number } = {},
  ): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container) as { name: string; image: string; livenessProbe?: any };
    const probe = c.livenessProbe;
    if (!probe) throw new Error(`container ${c.name} of pod ${namespace}/${name} has no livenessProbe`);
    const restarts = opts.restartCount ?? 4;
    const threshold = probe.failureThreshold ?? 3;
    const budget = (probe.initialDelaySeconds ?? 0) + (probe.periodSeconds ?? 10) * threshold;
    const fieldPath = `spec.containers{${c.name}}`;
    await this.event(pod, {
      reason: 'Unhealthy',
      type: 'Warning',
      message: `Liveness probe failed: ${opts.output ?? 'HTTP probe failed with statuscode: 503'}`,
      fieldPath,
      count: threshold * restarts,
    });
    await this.event(pod, { reason: 'Killing', message: `Container ${c.name} failed liveness probe, will be restarted`, fieldPath, count: restarts });
    return this.podCrashLoop(namespace, name, {
      container: c.name,
      restartCount: restarts,
      terminated: { exitCode: opts.exitCode ?? 137, reason: 'Error' },
      ranSeconds: budget + 1,
    });
  }

  /**
   * The subPath source the kubelet prepared under `volume-subpaths/` is gone (an earlier container
   * died unnoticed, seed 003): every start fails while mounting it into the rootfs (docker
   * ContainerCannotRun / containerd StartError, exit 128) and the container crash-loops.
   */
  async podSubPathMissing(namespace: string, name: string, opts: { container?: string; restartCount?: number } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container) as {
      name: string;
      image: string;
      volumeMounts?: Array<{ name: string; mountPath: string; subPath?: string }>;
    };
    const mounts = c.volumeMounts ?? [];
    const index = mounts.findIndex((m) => m.subPath);
    const mount = mounts[index];
    if (!mount) throw new Error(`container ${c.name} of pod ${namespace}/${name} mounts no subPath`);
    const gone = this.wording.subPathGone({
      podUid: pod.metadata.uid,
      volume: mount.name,
      container: c.name,
      index,
      mountPath: mount.mountPath,
      containerId: containerId(this.wording.runtime),
    });
    return this.podCrashLoop(namespace, name, {
      container: c.name,
      ...(opts.restartCount !== undefined ? { restartCount: opts.restartCount } : {}),
      terminated: gone.terminated,
      ranSeconds: 0,
      ...(this.wording.runtime === 'containerd' ? { startedAt: '1970-01-01T00:00:00Z' } : {}),
      startFailed: gone.event,
    });
  }

  /**
   * The container cannot be created because a ConfigMap, Secret or key it references is missing:
   * phase Pending, waiting CreateContainerConfigError with the kubelet's error (`configmap "x" not
   * found`, `couldn't find key K in ConfigMap ns/x`), and on every sync Pulled (already present)
   * and `Failed` `Error: <error>`.
   */
  async podCreateContainerConfigError(namespace: string, name: string, opts: { container?: string; error: string; count?: number }): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container);
    const count = opts.count ?? 6;
    const result = await this.writeStatus(pod, {
      phase: 'Pending',
      conditions: this.conditions(pod, [c.name]),
      containerStatuses: this.otherStatuses(pod, c.name, {
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'CreateContainerConfigError', message: opts.error } },
        lastState: {},
      }),
    });
    const fieldPath = `spec.containers{${c.name}}`;
    await this.event(pod, { reason: 'Pulled', message: `Container image "${c.image}" already present on machine`, fieldPath, count });
    await this.event(pod, { reason: 'Failed', type: 'Warning', message: `Error: ${opts.error}`, fieldPath, count });
    return result;
  }

  /**
   * The runtime cannot inspect the image on the node (its local copy is damaged, seed 003):
   * waiting ImageInspectError `Failed to inspect image "<img>": <error>`, events InspectFailed with
   * the same text and `Failed` `Error: ImageInspectError`. The default error is dockerd's (the
   * kubelet wording is the same in both eras; containerd reports damaged images when it creates
   * the container instead).
   */
  async podImageInspectError(namespace: string, name: string, opts: { container?: string; error?: string; count?: number } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container);
    const count = opts.count ?? 12;
    const error = opts.error ?? 'rpc error: code = Unknown desc = Error response from daemon: readlink /var/lib/docker/overlay2: invalid argument';
    const message = `Failed to inspect image "${c.image}": ${error}`;
    const result = await this.writeStatus(pod, {
      phase: 'Pending',
      conditions: this.conditions(pod, [c.name]),
      containerStatuses: this.otherStatuses(pod, c.name, {
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ImageInspectError', message } },
        lastState: {},
      }),
    });
    const fieldPath = `spec.containers{${c.name}}`;
    await this.event(pod, { reason: 'InspectFailed', type: 'Warning', message, fieldPath, count });
    await this.event(pod, { reason: 'Failed', type: 'Warning', message: 'Error: ImageInspectError', fieldPath, count });
    return result;
  }

  /**
   * The pod sandbox cannot be created: phase Pending, no IP, every container waiting
   * ContainerCreating, and `FailedCreatePodSandBox` `Failed to create pod sandbox: <CRI error>` on
   * every sync. The default error: the pause image is missing and the registry refuses its pull.
   */
  async podSandboxCreateFailed(namespace: string, name: string, opts: { error?: string; count?: number; pauseImage?: string } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const error = opts.error ?? this.wording.sandboxImageAuthError(opts.pauseImage ?? this.wording.pauseImage);
    const result = await this.writeCreating(pod);
    await this.event(pod, { reason: 'FailedCreatePodSandBox', type: 'Warning', message: `Failed to create pod sandbox: ${error}`, count: opts.count ?? 8 });
    return result;
  }

  /**
   * The sandbox is killed as it starts (a memory limit of a few bytes, seed 003): the kubelet finds
   * it dead at each sync, records SandboxChanged `Pod sandbox changed, it will be killed and
   * re-created.`, and the new one fails again: FailedCreatePodSandBox with the runtime's
   * "signal: killed" (docker) / "container init was OOM-killed" (runc >= 1.1). Containers stay
   * ContainerCreating.
   */
  async podSandboxKilledAtStart(namespace: string, name: string, opts: { count?: number } = {}): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const count = opts.count ?? 14;
    const result = await this.writeCreating(pod);
    await this.event(pod, { reason: 'SandboxChanged', message: 'Pod sandbox changed, it will be killed and re-created.', count });
    await this.event(pod, {
      reason: 'FailedCreatePodSandBox',
      type: 'Warning',
      message: `Failed to create pod sandbox: ${this.wording.sandboxKilledAtStart(pod.metadata.name)}`,
      count,
    });
    return result;
  }

  /**
   * The first container's postStart exec hook never returns (docker exec with hostPID or
   * shareProcessNamespace, kubernetes#92214; seed 002): the kubelet wrote the pod status before
   * it started the containers (all waiting ContainerCreating, phase Pending) and is now stuck in
   * that sync: Created and Started for the hooked container, nothing for the next ones. Its
   * deletion will never be confirmed either (hangDeletion 'worker-blocked').
   */
  async podPostStartHung(namespace: string, name: string): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const hooked = (pod.spec.containers as Array<{ name: string; image: string; lifecycle?: any }>).find((c) => c.lifecycle?.postStart?.exec);
    if (!hooked) throw new Error(`pod ${namespace}/${name} has no container with a postStart exec hook`);
    const result = await this.writeCreating(pod);
    const fieldPath = `spec.containers{${hooked.name}}`;
    await this.event(pod, { reason: 'Pulled', message: `Container image "${hooked.image}" already present on machine`, fieldPath });
    await this.event(pod, { reason: 'Created', message: this.wording.created(hooked.name), fieldPath });
    await this.event(pod, { reason: 'Started', message: this.wording.started(hooked.name), fieldPath });
    this.hangDeletion(namespace, name, 'worker-blocked');
    return result;
  }

  /**
   * Evicted by the kubelet under node pressure (pkg/kubelet/eviction): the `Evicted` event and
   * the status phase Failed, reason Evicted, message `The node was low on resource: <r>. ...`
   * (that era's wording), `Killing` for its containers, which end terminated with exit code 137;
   * current kubelets add the DisruptionTarget condition (TerminationByKubelet). Put the node under
   * pressure first (setNodePressure).
   */
  async podEvicted(
    namespace: string,
    name: string,
    opts: { container?: string; usage: string; request?: string; threshold?: string; available?: string },
  ): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, opts.container) as { name: string; image: string; resources?: any };
    const state = this.nodes.get(pod.spec.nodeName)!;
    const pressure = [...state.pressure][0];
    if (!pressure) throw new Error(`node ${pod.spec.nodeName} is under no pressure: call setNodePressure first`);
    const resource = PRESSURE[pressure].resource;
    const message = this.wording.evictionMessage({
      resource,
      container: c.name,
      usage: opts.usage,
      request: opts.request ?? String(c.resources?.requests?.[resource] ?? '0'),
      threshold: opts.threshold ?? '100Mi',
      available: opts.available ?? '86352Ki',
    });
    await this.event(pod, { reason: 'Evicted', type: 'Warning', message });
    const t = now();
    const finished = new Date();
    const result = await this.writeStatus(pod, {
      phase: 'Failed',
      reason: 'Evicted',
      message,
      conditions: [
        ...this.conditions(
          pod,
          (pod.spec.containers as Array<{ name: string }>).map((x) => x.name),
        ),
        ...(this.wording.disruptionTarget
          ? [{ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: t, reason: 'TerminationByKubelet', message }]
          : []),
      ],
      containerStatuses: (pod.spec.containers as Array<{ name: string; image: string }>).map((x) => {
        const prev = (pod.status?.containerStatuses ?? []).find((s: any) => s.name === x.name);
        return {
          name: x.name,
          image: x.image,
          imageID: prev?.imageID ?? `${fullImageRef(x.image).replace(/:[^:/]*$/, '')}@sha256:${imageDigest(x.image)}`,
          containerID: prev?.containerID ?? containerId(this.wording.runtime),
          ready: false,
          started: false,
          restartCount: prev?.restartCount ?? 0,
          state: {
            terminated: {
              exitCode: 137,
              ...this.wording.evictedContainer,
              startedAt: prev?.state?.running?.startedAt ?? isoSeconds(new Date(finished.getTime() - 3_600_000)),
              finishedAt: isoSeconds(finished),
              ...(prev?.containerID ? { containerID: prev.containerID } : {}),
            },
          },
          lastState: {},
        };
      }),
    });
    for (const x of pod.spec.containers as Array<{ name: string }>) {
      await this.event(pod, { reason: 'Killing', message: `Stopping container ${x.name}`, fieldPath: `spec.containers{${x.name}}` });
    }
    return result;
  }

  /** Pending before any container runs: all waiting ContainerCreating, no IP (no sandbox yet). */
  private async writeCreating(pod: Pod): Promise<Pod> {
    const containers = pod.spec.containers as Array<{ name: string; image: string }>;
    const names = containers.map((c) => c.name);
    return this.writeStatus(
      pod,
      {
        phase: 'Pending',
        conditions: [
          ...(this.wording.readyToStartCondition
            ? [{ type: 'PodReadyToStartContainers', status: 'False', lastProbeTime: null, lastTransitionTime: now() }]
            : []),
          ...this.conditions(pod, names),
        ],
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image,
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: { waiting: { reason: 'ContainerCreating' } },
          lastState: {},
        })),
      },
      { ip: false },
    );
  }

  /** Any other container state: writes the given container status fields over a default. */
  async podContainerStatus(namespace: string, name: string, container: string, status: Record<string, unknown>, phase = 'Pending'): Promise<Pod> {
    const pod = await this.boundPod(namespace, name);
    const c = this.container(pod, container);
    return this.writeStatus(pod, {
      phase,
      conditions: this.conditions(pod, [c.name]),
      containerStatuses: this.otherStatuses(pod, c.name, {
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: {},
        lastState: {},
        ...status,
      }),
    });
  }

  /**
   * A core/v1 Event as the kubelet records it: source kubelet/<node>, name `<pod>.<hex>`,
   * aggregated repeats as `count` with first/last timestamps.
   */
  async event(
    pod: Pod,
    e: { reason: string; message: string; type?: 'Normal' | 'Warning'; fieldPath?: string; count?: number; firstSeenSecondsAgo?: number },
  ): Promise<KubeObject> {
    const node = pod.spec?.nodeName as string;
    const count = e.count ?? 1;
    const last = new Date();
    const first = new Date(last.getTime() - (e.firstSeenSecondsAgo ?? (count > 1 ? 30 * (count - 1) : 0)) * 1000);
    const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const nano = BigInt(Date.now()) * 1_000_000n + BigInt(this.eventSeq++ % 1_000_000);
    return this.client.create(`/api/v1/namespaces/${pod.metadata.namespace}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${pod.metadata.name}.${nano.toString(16)}`, namespace: pod.metadata.namespace },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        resourceVersion: pod.metadata.resourceVersion,
        ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
      },
      reason: e.reason,
      message: e.message,
      type: e.type ?? 'Normal',
      source: { component: 'kubelet', host: node },
      firstTimestamp: iso(first),
      lastTimestamp: iso(last),
      count,
      ...(this.wording.reporting ? { reportingComponent: 'kubelet', reportingInstance: node } : {}),
    });
  }

  private async boundPod(namespace: string, name: string): Promise<Pod> {
    const pod = await this.client.waitFor(
      `pod ${namespace}/${name} bound to a node`,
      () => this.client.get(podPath(namespace, name)),
      (p) => Boolean(p.spec?.nodeName),
      { timeoutMs: 30_000 },
    );
    const node = pod.spec.nodeName as string;
    if (!this.nodes.has(node)) throw new Error(`pod ${namespace}/${name} is on node ${node}, which this kubelet stand-in does not run`);
    if (!this.nodes.get(node)!.alive) throw new Error(`node ${node} is not heartbeating: its kubelet cannot write pod status`);
    return pod;
  }

  private container(pod: Pod, name?: string): { name: string; image: string } {
    const cs: Array<{ name: string; image: string }> = pod.spec.containers;
    const c = name ? cs.find((x) => x.name === name) : cs[0];
    if (!c) throw new Error(`pod ${pod.metadata.name} has no container ${name ?? '(any)'}`);
    return c;
  }

  /** Statuses for every container: the given one, the others running and ready. */
  private otherStatuses(pod: Pod, name: string, status: Record<string, unknown>): Array<Record<string, unknown>> {
    const existing = new Map<string, any>((pod.status?.containerStatuses ?? []).map((s: any) => [s.name, s]));
    return (pod.spec.containers as Array<{ name: string; image: string }>).map((c) => {
      if (c.name === name) return status;
      return (
        existing.get(c.name) ?? {
          name: c.name,
          image: c.image,
          imageID: `${fullImageRef(c.image).replace(/:[^:/]*$/, '')}@sha256:${imageDigest(c.image)}`,
          containerID: containerId(this.wording.runtime),
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: now() } },
          lastState: {},
        }
      );
    });
  }

  /** Initialized/Ready/ContainersReady/PodScheduled as the kubelet status manager writes them. */
  private conditions(pod: Pod, unready: string[]): any[] {
    const t = now();
    const scheduled = (pod.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled') ?? {
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: t,
    };
    const readyCond = (type: string) =>
      unready.length === 0
        ? { type, status: 'True', lastProbeTime: null, lastTransitionTime: t }
        : {
            type,
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: t,
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${unready.join(' ')}]`,
          };
    return [{ type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: t }, readyCond('Ready'), readyCond('ContainersReady'), scheduled];
  }

  /** `ip: false`: no sandbox yet, so no pod IP. */
  private async writeStatus(pod: Pod, status: Record<string, unknown>, { ip = true }: { ip?: boolean } = {}): Promise<Pod> {
    const state = this.nodes.get(pod.spec.nodeName)!;
    const podIP = ip ? (pod.status?.podIP ?? `10.244.${[...this.nodes.keys()].indexOf(pod.spec.nodeName) + 1}.${++state.podSeq + 1}`) : undefined;
    return this.client.patch(
      `${podPath(pod.metadata.namespace, pod.metadata.name)}/status`,
      {
        status: {
          hostIP: '127.0.0.1',
          ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
          startTime: pod.status?.startTime ?? now(),
          ...status,
        },
      },
      'merge',
    );
  }
}

export function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${namespace}/pods/${name}`;
}

function cryptoUuid(): string {
  return globalThis.crypto.randomUUID();
}

function cpuMillis(q: string): number {
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000;
}

function memKi(q: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(q);
  if (!m) throw new Error(`unsupported memory quantity ${q}`);
  const n = Number(m[1]);
  return m[2] === 'Gi' ? n * 1024 * 1024 : m[2] === 'Mi' ? n * 1024 : m[2] === 'Ki' ? n : Math.floor(n / 1024);
}
