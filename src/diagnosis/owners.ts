// Pure questions about a pod's workload controllers (the snapshot's `owners`): does it have the
// pods it wants, which of its conditions say it is stuck. Rules that diagnose through an owner
// (a refused pod, a failed Job, a pod that does not exist) share these.
import type { KubeObject, OwnerFact } from './types.js';

export interface OwnerCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export function ownerConditions(o: KubeObject | undefined): OwnerCondition[] {
  return ((o?.status ?? {}) as { conditions?: OwnerCondition[] }).conditions ?? [];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Whether the owner has all the pods it wants now; undefined when the object does not say. */
export function ownerSatisfied(o: KubeObject | undefined): boolean | undefined {
  if (!o) return undefined;
  const spec = (o.spec ?? {}) as Record<string, unknown>;
  const status = (o.status ?? {}) as Record<string, unknown>;
  switch (o.kind) {
    case 'ReplicaSet':
    case 'StatefulSet':
      return (num(status.replicas) ?? 0) >= (num(spec.replicas) ?? 1);
    case 'Deployment':
      return (num(status.replicas) ?? 0) >= (num(spec.replicas) ?? 1) && (num(status.unavailableReplicas) ?? 0) === 0;
    case 'DaemonSet':
      return (num(status.currentNumberScheduled) ?? 0) >= (num(status.desiredNumberScheduled) ?? 0);
    case 'Job': {
      const conds = ownerConditions(o);
      if (conds.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) return true;
      return (num(status.active) ?? 0) >= (num(spec.parallelism) ?? 1);
    }
    default:
      return undefined;
  }
}

/** `2/3 ready` (or `2 of 3 created`) for a cause; empty when the object says nothing. */
export function ownerCounts(o: KubeObject | undefined): string {
  if (!o) return '';
  const spec = (o.spec ?? {}) as Record<string, unknown>;
  const status = (o.status ?? {}) as Record<string, unknown>;
  switch (o.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
      return `${num(status.readyReplicas) ?? 0}/${num(spec.replicas) ?? 1} ready, ${num(status.replicas) ?? 0} created`;
    case 'DaemonSet':
      return `${num(status.numberReady) ?? 0}/${num(status.desiredNumberScheduled) ?? 0} ready`;
    case 'Job':
      return `${num(status.active) ?? 0} active, ${num(status.succeeded) ?? 0} succeeded, ${num(status.failed) ?? 0} failed`;
    default:
      return '';
  }
}

/** Conditions that say a controller is stuck: ReplicaFailure, Progressing=False, Available=False, Failed. */
export function troubleConditions(o: OwnerFact): OwnerCondition[] {
  return ownerConditions(o.object).filter(
    (c) =>
      (c.type === 'ReplicaFailure' && c.status === 'True') ||
      (c.type === 'Failed' && c.status === 'True') ||
      (c.type === 'Progressing' && c.status === 'False') ||
      (c.type === 'Available' && c.status === 'False'),
  );
}
