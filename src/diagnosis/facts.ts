// Pure helpers rules share to read a snapshot: time, events, container states, node state.
// Rules stay short by asking questions here instead of walking objects themselves.
import { excerpt } from './decisive.js';
import type { Container, ContainerStatus, Event, Evidence, Node, Pod, Snapshot } from './types.js';

/** The namespace a diagnosis is about: the pod's, a missing pod's target's, or a namespace target itself. */
export function namespaceOf(snapshot: Snapshot): string {
  if (snapshot.pod?.metadata?.namespace) return snapshot.pod.metadata.namespace;
  const t = snapshot.target;
  return t.kind === 'pod' ? t.namespace : t.name;
}

/**
 * Milliseconds since the epoch; undefined when absent or the zero time: a runtime reports
 * `1970-01-01T00:00:00Z` (or Go's `0001-01-01`) for a container that never ran, and no
 * duration may be computed from that.
 */
export function ms(time: string | undefined | null): number | undefined {
  if (!time) return undefined;
  let t = parsed.get(time);
  if (t === undefined) {
    // Rules ask for the same few timestamps again and again (snapshot.now above all).
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(time, (t = Date.parse(time)));
  }
  return Number.isNaN(t) || t <= 0 ? undefined : t;
}

const PARSED_MAX = 4096;
const parsed = new Map<string, number>();

/** Seconds from `time` to the snapshot's `now`; undefined when the time is missing. */
export function secondsSince(snapshot: Snapshot, time: string | undefined | null): number | undefined {
  const t = ms(time);
  const now = ms(snapshot.now);
  if (t === undefined || now === undefined) return undefined;
  return (now - t) / 1000;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

/** An event's latest occurrence: events.k8s.io series, lastTimestamp, eventTime, first. */
export function eventTime(e: Event): string | undefined {
  return e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
}

export function eventCount(e: Event): number {
  return e.series?.count ?? e.count ?? 1;
}

export function eventsWithReason(snapshot: Snapshot, ...reasons: string[]): Event[] {
  return snapshot.events.filter((e) => e.reason !== undefined && reasons.includes(e.reason));
}

export function eventsMatching(events: readonly Event[], pattern: RegExp, reasons?: string[]): Event[] {
  return events.filter((e) => (!reasons || (e.reason !== undefined && reasons.includes(e.reason))) && pattern.test(e.message ?? ''));
}

/** Quote an event the way `kubectl describe` shows it: reason, count, source, message. */
export function eventEvidence(e: Event): Evidence {
  const count = eventCount(e);
  const from = e.source?.component ?? e.reportingComponent ?? '';
  return {
    source: `event ${e.reason ?? '?'}${count > 1 ? ` (x${count})` : ''}${from ? ` from ${from}` : ''}`,
    text: e.message ?? '',
  };
}

/** The newest event first; rules quote the freshest wording. */
export function newestFirst(events: readonly Event[]): Event[] {
  return [...events].sort((a, b) => (ms(eventTime(b)) ?? 0) - (ms(eventTime(a)) ?? 0));
}

export interface NamedStatus {
  status: ContainerStatus;
  init: boolean;
}

export function containerStatuses(pod: Pod | undefined): NamedStatus[] {
  if (!pod?.status) return [];
  return [
    ...(pod.status.initContainerStatuses ?? []).map((status) => ({ status, init: true })),
    ...(pod.status.containerStatuses ?? []).map((status) => ({ status, init: false })),
  ];
}

export function statusEvidence(s: NamedStatus, field: 'state' | 'lastState', detail: string): Evidence {
  const list = s.init ? 'initContainerStatuses' : 'containerStatuses';
  return { source: `pod.status.${list}[${s.status.name}].${field}`, text: detail };
}

export function podLabel(pod: Pod | undefined): string {
  return pod ? `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}` : '?';
}

/** Deletion requested: `deletionTimestamp` is deletion time plus the grace period. */
export function isDeleting(pod: Pod | undefined): boolean {
  return Boolean(pod?.metadata?.deletionTimestamp);
}

/**
 * The kubelet confirmed the pod's containers stopped (or a force delete asked for immediate
 * removal): the API server then sets deletionGracePeriodSeconds to 0, and only finalizers keep the
 * object. Kill timeouts and preStop failures from before are over.
 */
export function stopConfirmed(pod: Pod | undefined): boolean {
  return pod?.metadata?.deletionGracePeriodSeconds === 0;
}

/** Seconds the pod is overdue: now minus deletionTimestamp (negative while in grace). */
export function secondsPastDeletion(snapshot: Snapshot, pod: Pod | undefined): number | undefined {
  return secondsSince(snapshot, pod?.metadata?.deletionTimestamp);
}

/**
 * True once a deleted pod has outlived its grace period by `slackSeconds`.
 * `deletionTimestamp` already includes the grace period, so anything past it is stuck.
 */
export function isStuckTerminating(snapshot: Snapshot, pod: Pod | undefined, slackSeconds = 30): boolean {
  const past = secondsPastDeletion(snapshot, pod);
  return past !== undefined && past > slackSeconds;
}

export function nodeCondition(node: Node | undefined, type: string) {
  return node?.status?.conditions?.find((c) => c.type === type);
}

/** Ready condition is False or Unknown. */
export function nodeNotReady(node: Node | undefined): boolean {
  const ready = nodeCondition(node, 'Ready');
  return ready !== undefined && ready.status !== 'True';
}

export function nodeTaints(node: Node | undefined): string[] {
  return (node?.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
}

/** Completed pods (Succeeded, or Failed for reasons rules do not own) are not broken. */
export function isFinished(pod: Pod | undefined): boolean {
  const phase = pod?.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function ownerKinds(pod: Pod | undefined): string[] {
  return (pod?.metadata?.ownerReferences ?? []).map((o) => o.kind);
}

export function isStatefulSetPod(snapshot: Snapshot): boolean {
  if (ownerKinds(snapshot.pod).includes('StatefulSet')) return true;
  return (snapshot.owners ?? []).some((o) => o.kind === 'StatefulSet');
}

/** Container runtime of the node (`docker`, `containerd`, `cri-o`) from nodeInfo or container IDs. */
export function runtimeOf(snapshot: Snapshot): string | undefined {
  const v = snapshot.node?.status?.nodeInfo?.containerRuntimeVersion;
  if (v) return v.split(':')[0];
  const id = containerStatuses(snapshot.pod).find((s) => s.status.containerID)?.status.containerID;
  return id?.split(':')[0];
}

/**
 * Quote at most about `max` characters, so findings stay readable: the middle is elided, never
 * the end, and a multi-line text keeps its decisive lines (see decisive.ts).
 */
export function clip(text: string, max = 600): string {
  return excerpt(text, max);
}

/** Containers waiting with one of `reasons`, each with its spec. */
export function waitingWith(pod: Pod | undefined, ...reasons: string[]): (NamedStatus & { reason: string; message: string; spec?: Container })[] {
  return containerStatuses(pod).flatMap((s) => {
    const w = s.status.state?.waiting;
    if (!w?.reason || !reasons.includes(w.reason)) return [];
    const spec = (s.init ? pod?.spec?.initContainers : pod?.spec?.containers)?.find((c) => c.name === s.status.name);
    return [{ ...s, reason: w.reason, message: w.message ?? '', ...(spec ? { spec } : {}) }];
  });
}

/** The pod's events about container `name` (by fieldPath, else by its quoted name), newest first. */
export function eventsOfContainer(snapshot: Snapshot, s: NamedStatus, reasons: string[]): Event[] {
  const path = `spec.${s.init ? 'initContainers' : 'containers'}{${s.status.name}}`;
  const single = (snapshot.pod?.spec?.containers?.length ?? 0) + (snapshot.pod?.spec?.initContainers?.length ?? 0) === 1;
  return newestFirst(
    snapshot.events.filter((e) => {
      if (!reasons.includes(e.reason ?? '')) return false;
      const fp = e.involvedObject?.fieldPath;
      if (fp) return fp === path;
      return single || (e.message ?? '').includes(s.status.name);
    }),
  );
}
