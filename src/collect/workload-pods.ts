// A workload's pods, as `kubectl get pods -l <its selector>` lists them, and which of them are
// unhealthy, worst first: what a workload alert expands to (alerts/expand.ts) and what
// `pod-doctor diagnose deploy/NAME` diagnoses. Pure helpers, then the one read.
import type { KubeObject, Pod } from '../diagnosis/types.js';
import type { WorkloadRef } from '../kube/target.js';
import type { FactSource } from './source.js';

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** The workload's `spec.selector` as a label selector string; null when it has none. */
export function selectorOf(owner: KubeObject): string | null {
  const sel = (owner.spec as { selector?: LabelSelector } | undefined)?.selector;
  if (!sel) return null;
  const parts = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else return null;
  }
  // An empty selector matches everything in the namespace: never what a workload means.
  return parts.length > 0 ? parts.join(',') : null;
}

/** How many pods the workload wants now; undefined when its object does not say. */
export function desiredPods(owner: KubeObject): number | undefined {
  const spec = owner.spec ?? {};
  const status = owner.status ?? {};
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  switch (owner.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return num(spec.replicas) ?? 1;
    case 'DaemonSet':
      return num(status.desiredNumberScheduled);
    default:
      return undefined;
  }
}

/** Whether the pod's controller (if it names one) is this workload. */
export function ownedBy(pod: Pod, workload: WorkloadRef): boolean {
  const ref = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller) ?? pod.metadata?.ownerReferences?.[0];
  if (!ref) return true;
  if (workload.kind === 'Deployment') return ref.kind === 'ReplicaSet' && ref.name.startsWith(`${workload.name}-`);
  return ref.kind === workload.kind && ref.name === workload.name;
}

/** Why a pod counts as unhealthy (a short word for the thread), or null if it is fine. */
export function unhealthyReason(pod: Pod): string | null {
  if (pod.metadata?.deletionTimestamp) return 'Terminating';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') return null;
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const waiting = statuses.map((s) => s.state?.waiting?.reason).find((r) => r && r !== 'PodInitializing');
  if (phase === 'Failed') return pod.status?.reason ? `Failed (${pod.status.reason})` : 'Failed';
  if (waiting) return waiting;
  if (phase === 'Pending') return 'Pending';
  if (phase === 'Unknown' || !phase) return 'Unknown';
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return ready ? null : 'NotReady';
}

const RANK: Record<string, number> = { Terminating: 0, Pending: 2, NotReady: 3, Unknown: 3 };

/** Unhealthy pods of the workload, worst first (waiting reasons and failures, then Pending, NotReady), bounded. */
export function pickUnhealthyPods(
  pods: Pod[],
  workload: WorkloadRef,
  max: number,
): { picked: { pod: Pod; reason: string }[]; unhealthy: number; total: number } {
  const owned = pods.filter((p) => ownedBy(p, workload));
  const bad = owned.flatMap((pod) => {
    const reason = unhealthyReason(pod);
    return reason ? [{ pod, reason }] : [];
  });
  const restarts = (p: Pod) => (p.status?.containerStatuses ?? []).reduce((n, s) => n + (s.restartCount ?? 0), 0);
  bad.sort(
    (a, b) =>
      (RANK[a.reason] ?? 1) - (RANK[b.reason] ?? 1) ||
      restarts(b.pod) - restarts(a.pod) ||
      (a.pod.metadata?.name ?? '').localeCompare(b.pod.metadata?.name ?? ''),
  );
  return { picked: bad.slice(0, max), unhealthy: bad.length, total: owned.length };
}

export type WorkloadPods =
  | { problem: 'not-found' | 'no-selector'; message: string }
  | (ReturnType<typeof pickUnhealthyPods> & { problem?: undefined; desired: number | undefined });

/**
 * Reads the workload, lists its pods through its selector and picks the unhealthy ones, worst
 * first, at most `max`. A workload that is not there or has no selector to list by is a
 * `problem`; API errors are thrown (the caller decides whether to retry).
 */
export async function unhealthyPodsOf(source: Pick<FactSource, 'getOwner' | 'listPods'>, w: WorkloadRef, max: number): Promise<WorkloadPods> {
  const owner = await source.getOwner(w.namespace, w.kind, w.name);
  if (!owner) return { problem: 'not-found', message: `${w.kind} ${w.namespace}/${w.name} not found` };
  const selector = selectorOf(owner);
  if (!selector) return { problem: 'no-selector', message: `${w.kind} ${w.namespace}/${w.name} has no usable pod selector` };
  const pods = await source.listPods({ namespace: w.namespace, labelSelector: selector });
  return { ...pickUnhealthyPods(pods, w, max), desired: desiredPods(owner) };
}
