// The workload controllers above a pod (ReplicaSet → Deployment, Job → CronJob, StatefulSet,
// DaemonSet), each with its object (conditions, replicas) and its own events (FailedCreate,
// BackoffLimitExceeded...). A pod that was never created, or is gone, is found through them.
import type { Event, OwnerFact, Pod } from '../diagnosis/types.js';
import { type Guard, sortEvents } from './guard.js';
import { type FactSource, OWNER_KINDS, type OwnerKind } from './source.js';

type OwnerRef = NonNullable<NonNullable<Pod['metadata']>['ownerReferences']>[number];

export async function collectOwners(source: FactSource, pod: Pod, guard: Guard): Promise<OwnerFact[]> {
  return ownerChain(source, pod.metadata?.namespace ?? 'default', pod.metadata?.ownerReferences ?? [], guard);
}

/** Workloads a namespace target looks at: those named by its Warning events, bounded. */
const MAX_NAMESPACE_OWNERS = 10;

/**
 * A namespace's workloads in trouble, from its Warning events: a ReplicaSet's FailedCreate
 * (quota, PodSecurity, webhooks) leaves no pod to diagnose, only the owner's events and
 * conditions. Each named owner is read with its chain (ReplicaSet → Deployment).
 */
export async function collectNamespaceOwners(source: FactSource, namespace: string, guard: Guard): Promise<{ owners: OwnerFact[]; warnings: Event[] }> {
  const warnings = await guard('warning events of the namespace', () => source.listNamespaceWarnings(namespace), [] as Event[]);
  const named = new Map<string, { kind: string; name: string }>();
  for (const e of sortEvents(warnings).reverse()) {
    const { kind, name } = e.involvedObject;
    if (kind && name && OWNER_KINDS.includes(kind as OwnerKind)) named.set(`${kind}/${name}`, { kind, name });
  }
  const chains = await Promise.all([...named.values()].slice(0, MAX_NAMESPACE_OWNERS).map((o) => ownerChain(source, namespace, [ref(o.kind, o.name)], guard)));
  // A Deployment reached from two of its ReplicaSets is listed once.
  const seen = new Set<string>();
  return { owners: chains.flat().filter((o) => !seen.has(`${o.kind}/${o.name}`) && seen.add(`${o.kind}/${o.name}`)), warnings };
}

function ref(kind: string, name: string): OwnerRef {
  return { apiVersion: '', kind, name, uid: '', controller: true };
}

export async function ownerChain(source: FactSource, namespace: string, start: OwnerRef[], guard: Guard): Promise<OwnerFact[]> {
  const owners: OwnerFact[] = [];
  let refs = start;
  // ReplicaSet → Deployment, Job → CronJob: at most two hops.
  for (let depth = 0; depth < 2; depth++) {
    const next = refs.find((r) => r.controller) ?? refs[0];
    if (!next || !OWNER_KINDS.includes(next.kind as OwnerKind)) break;
    const kind = next.kind as OwnerKind;
    const [object, events] = await Promise.all([
      guard(`${kind} ${next.name}`, () => source.getOwner(namespace, kind, next.name), null),
      guard(`events of ${kind} ${next.name}`, () => source.listObjectEvents(namespace, kind, next.name), [] as Event[]),
    ]);
    owners.push({ kind, name: next.name, ...(object ? { object } : {}), events: sortEvents(events) });
    refs = object?.metadata?.ownerReferences ?? [];
  }
  return owners;
}

/** The random suffix the controllers give pod and job names (k8s.io/apimachinery's alphabet, 5 characters). */
const RAND = '[bcdfghjklmnpqrstvwxz2456789]{5}';

/**
 * The owners a pod name points at, most specific first: `web-2` is StatefulSet web's third pod,
 * `web-7d9f8c6b5-x2k4q` ReplicaSet web-7d9f8c6b5 of Deployment web, `backup-29384721-abcde` a pod
 * of Job backup-29384721 of CronJob backup, `agent-x2k4q` DaemonSet agent's. A bare workload name
 * (`shop/web`) is its own owner.
 */
export function ownerCandidates(name: string): { kind: OwnerKind; name: string }[] {
  const out: { kind: OwnerKind; name: string }[] = [];
  const add = (kind: OwnerKind, n: string | undefined) => {
    if (n && !out.some((o) => o.kind === kind && o.name === n)) out.push({ kind, name: n });
  };
  add('StatefulSet', /^(.+)-\d+$/.exec(name)?.[1]);
  const rand = new RegExp(`^(.+)-${RAND}$`).exec(name)?.[1];
  add('ReplicaSet', rand);
  add('Job', rand);
  add('DaemonSet', rand);
  // An indexed Job's pod: <job>-<index>-<rand>.
  add('Job', new RegExp(`^(.+)-\\d+-${RAND}$`).exec(name)?.[1]);
  // The ReplicaSet may be gone after a rollout; its Deployment is <rs> minus the template hash.
  add('Deployment', rand ? /^(.+)-[a-z0-9]{6,10}$/.exec(rand)?.[1] : undefined);
  // A CronJob names its Jobs <cronjob>-<minutes since the epoch>.
  const job = rand ? /^(.+)-\d{8,10}$/.exec(rand)?.[1] : undefined;
  add('CronJob', job);
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const) add(kind, name);
  return out;
}

/**
 * For a pod that does not exist: the owner chain of the first candidate owner that does, or
 * undefined. All candidates are asked at once (a few GETs, most of them 404).
 */
export async function findOwnerOfMissingPod(source: FactSource, namespace: string, name: string, guard: Guard): Promise<OwnerFact[] | undefined> {
  const candidates = ownerCandidates(name);
  const found = await Promise.all(candidates.map((c) => guard(`${c.kind} ${c.name}`, () => source.getOwner(namespace, c.kind, c.name), null)));
  const index = found.findIndex((o) => o !== null);
  const hit = candidates[index];
  if (!hit) return undefined;
  return ownerChain(source, namespace, [ref(hit.kind, hit.name)], guard);
}
