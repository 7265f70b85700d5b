// Pure questions about a pod's workload controllers (the snapshot's `owners`): does it have the
// pods it wants, which of its conditions say it is stuck. Rules that diagnose through an owner
// (a refused pod, a failed Job, a pod that does not exist) share these.
import { clip, eventEvidence, eventTime, newestFirst, secondsSince } from './facts.js';
import type { Evidence, KubeObject, OwnerFact, Snapshot } from './types.js';

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

// The ReplicaSet controller retries with back-off and repeats the event; a refusal last seen
// longer ago than this, with no other sign, is history.
const FRESH_SECONDS = 1800;

/** The owner's true ReplicaFailure condition: its message and when it was last set. */
function replicaFailure(o: OwnerFact): { message: string; at?: string } | undefined {
  const c = ownerConditions(o.object).find((x) => x.type === 'ReplicaFailure' && x.status === 'True' && x.message);
  // Deployments stamp lastUpdateTime too; a ReplicaSet's condition only has lastTransitionTime.
  return c?.message ? { message: c.message, at: c.lastUpdateTime ?? c.lastTransitionTime } : undefined;
}

/** A refusal to create the pod, as a parser read it, with where it was said and how long ago. */
export interface Refusal<T> {
  rejection: T;
  evidence: Evidence;
  owner?: OwnerFact;
  ageSeconds?: number;
}

/**
 * Every refusal to create pods that `parse` recognises: in the owners' ReplicaFailure conditions
 * and FailedCreate events (while the owner still lacks pods, or lately), and in the pod's own events.
 */
export function ownerRefusals<T>(snapshot: Snapshot, parse: (message: string) => T | undefined): Refusal<T>[] {
  const hits: Refusal<T>[] = [];
  for (const owner of snapshot.owners ?? []) {
    const satisfied = ownerSatisfied(owner.object);
    const condition = replicaFailure(owner);
    if (condition) {
      const rejection = parse(condition.message);
      if (rejection)
        hits.push({
          rejection,
          owner,
          // A condition without a time says nothing of when: no "last seen" then.
          ...(condition.at ? { ageSeconds: secondsSince(snapshot, condition.at) } : {}),
          evidence: { source: `${owner.kind} ${owner.name} status.conditions[ReplicaFailure]`, text: clip(condition.message) },
        });
    }
    if (satisfied === true) continue;
    for (const e of newestFirst(owner.events)) {
      const rejection = parse(e.message ?? '');
      const age = secondsSince(snapshot, eventTime(e));
      if (!rejection || age === undefined) continue;
      if (satisfied === undefined && age > FRESH_SECONDS) continue;
      const ev = eventEvidence(e);
      hits.push({ rejection, owner, ageSeconds: age, evidence: { source: `${ev.source} on ${owner.kind} ${owner.name}`, text: clip(e.message ?? '') } });
    }
  }
  // The pod's own events (a bare pod's re-creation, an ephemeral container) count as well.
  for (const e of newestFirst(snapshot.events)) {
    const rejection = parse(e.message ?? '');
    const age = secondsSince(snapshot, eventTime(e));
    if (rejection && age !== undefined && age <= FRESH_SECONDS)
      hits.push({ rejection, ageSeconds: age, evidence: { ...eventEvidence(e), text: clip(e.message ?? '') } });
  }
  return hits;
}

/** A Job that gave up: its Failed condition (or FailureTarget, 1.31+) and the events that say why. */
export interface JobFailure {
  job: OwnerFact;
  /** BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy, MaxFailedIndexesExceeded... */
  reason: string;
  message: string;
  evidence: Evidence[];
  /** The CronJob above it, when there is one. */
  cronJob?: OwnerFact;
}

export function jobFailure(snapshot: Snapshot): JobFailure | undefined {
  const owners = snapshot.owners ?? [];
  const job = owners.find((o) => o.kind === 'Job');
  if (!job) return undefined;
  const conds = ownerConditions(job.object);
  const failed = conds.find((c) => c.type === 'Failed' && c.status === 'True') ?? conds.find((c) => c.type === 'FailureTarget' && c.status === 'True');
  const event = newestFirst(job.events).find((e) => e.type === 'Warning' && e.reason === failed?.reason);
  if (!failed?.reason) return undefined;
  const evidence: Evidence[] = [
    { source: `Job ${job.name} status.conditions[${failed.type}]`, text: `${failed.reason}: ${failed.message ?? ''}` },
    ...(event ? [{ ...eventEvidence(event), source: `${eventEvidence(event).source} on Job ${job.name}` }] : []),
  ];
  const counts = ownerCounts(job.object);
  if (counts) evidence.push({ source: `Job ${job.name} status`, text: counts });
  const cronJob = owners.find((o) => o.kind === 'CronJob');
  return { job, reason: failed.reason, message: failed.message ?? '', evidence, ...(cronJob ? { cronJob } : {}) };
}
