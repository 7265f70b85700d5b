// pods/<name>/log: the apiserver's container checks (pkg/registry/core/pod/rest/log.go,
// LogLocation) followed by the kubelet's (validateContainerLogStatus), serving lines from
// `PodLog` fixture documents instead of a container runtime.
import type { KubeObject } from '../diagnosis/types.js';
import { isObject } from './json.js';
import { errors } from './status.js';

/** A `pod-doctor.dev/v1` PodLog fixture: the log of one container (or its previous instance). */
export interface PodLog {
  namespace: string;
  pod: string;
  /** Omitted: the pod's only container. */
  container?: string;
  previous: boolean;
  lines: string[];
}

export interface LogQuery {
  container?: string;
  previous?: boolean;
  tailLines?: number;
  limitBytes?: number;
}

function names(list: unknown): string[] {
  return Array.isArray(list) ? list.filter(isObject).map((c) => String(c.name ?? '')) : [];
}

export class PodLogStore {
  private readonly logs = new Map<string, PodLog>();

  constructor(logs: PodLog[] = []) {
    for (const l of logs) this.add(l);
  }

  add(log: PodLog): void {
    this.logs.set(key(log.namespace, log.pod, log.container ?? '', log.previous), log);
  }

  /**
   * The text `GET .../pods/<name>/log` returns, undefined for "no content" (an unscheduled
   * pod: 204), or a 400 ApiError with the real message.
   */
  read(pod: KubeObject, q: LogQuery): string | undefined {
    const podName = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace ?? '';
    const containers = names(pod.spec?.containers);
    const init = names(pod.spec?.initContainers);
    const ephemeral = names(pod.spec?.ephemeralContainers);
    let container = q.container;
    if (!container) {
      if (containers.length === 1) container = containers[0] ?? '';
      else if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${podName}`);
      else {
        let msg = `a container name must be specified for pod ${podName}, choose one of: [${containers.join(' ')}]`;
        if (init.length) msg += ` or one of the init containers: [${init.join(' ')}]`;
        throw errors.badRequest(msg);
      }
    } else if (![...containers, ...init, ...ephemeral].includes(container)) {
      throw errors.badRequest(`container ${container} is not valid for pod ${podName}`);
    }
    // An unscheduled pod has no kubelet to ask: the apiserver answers 204 No Content.
    if (!pod.spec?.nodeName) return undefined;

    const onlyContainer = containers.length === 1 && containers[0] === container;
    const doc =
      this.logs.get(key(namespace, podName, container, q.previous ?? false)) ??
      (onlyContainer ? this.logs.get(key(namespace, podName, '', q.previous ?? false)) : undefined);
    if (!doc) kubeletCheck(pod, container, q.previous ?? false);
    return render(doc?.lines ?? [], q);
  }
}

function key(namespace: string, pod: string, container: string, previous: boolean): string {
  return `${namespace}/${pod}/${container}/${previous ? 'previous' : 'current'}`;
}

function render(lines: string[], q: LogQuery): string {
  let out = q.tailLines !== undefined && q.tailLines >= 0 ? lines.slice(Math.max(0, lines.length - q.tailLines)) : lines;
  if (q.tailLines === 0) out = [];
  let text = out.map((l) => `${l}\n`).join('');
  if (q.limitBytes !== undefined && q.limitBytes > 0) text = Buffer.from(text).subarray(0, q.limitBytes).toString('utf8');
  return text;
}

/**
 * The kubelet's validateContainerLogStatus, used when no fixture log exists, so a waiting
 * or never-restarted container answers like a real node would.
 */
function kubeletCheck(pod: KubeObject, container: string, previous: boolean): void {
  const podName = pod.metadata?.name ?? '';
  const statuses = [pod.status?.containerStatuses, pod.status?.initContainerStatuses, pod.status?.ephemeralContainerStatuses]
    .flatMap((l) => (Array.isArray(l) ? l : []))
    .filter(isObject);
  const status = statuses.find((s) => s.name === container);
  if (!status) {
    // Without any status the sim cannot tell; a fixture without statuses gets an empty log.
    if (statuses.length === 0 && !previous) return;
    if (previous) throw errors.badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    throw errors.badRequest(`container "${container}" in pod "${podName}" is not available`);
  }
  const state = isObject(status.state) ? status.state : {};
  const last = isObject(status.lastState) ? status.lastState : {};
  const lastTerminated = isObject(last.terminated) ? last.terminated : undefined;
  if (previous) {
    if (!lastTerminated?.containerID) {
      throw errors.badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    }
    return;
  }
  if (isObject(state.running)) return;
  if (isObject(state.terminated)) {
    if (state.terminated.containerID || lastTerminated?.containerID) return;
    throw errors.badRequest(`container "${container}" in pod "${podName}" is terminated`);
  }
  if (lastTerminated) {
    if (lastTerminated.containerID) return;
    throw errors.badRequest(`container "${container}" in pod "${podName}" is terminated`);
  }
  if (isObject(state.waiting)) {
    const reason = String(state.waiting.reason ?? '');
    const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
    throw errors.badRequest(`container "${container}" in pod "${podName}" is waiting to start: ${why}`);
  }
  throw errors.badRequest(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
}
