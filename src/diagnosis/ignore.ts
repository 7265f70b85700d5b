// False positives a team has marked: `pod-doctor.io/ignore: rule[,rule]` on a pod or on one of its
// owners (ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob) keeps those rules' findings
// about it out of the answer; the answer still says what it left out and why.
import type { Snapshot, Target } from './types.js';

export const IGNORE_ANNOTATION = 'pod-doctor.io/ignore';

/** Rule id → the object whose annotation ignores it (`pod shop/web-1`, `Deployment web`). */
export function ignoredRules(snapshot: Snapshot): Map<string, string> {
  const out = new Map<string, string>();
  const add = (value: string | undefined, by: string) => {
    for (const rule of (value ?? '').split(',')) {
      const id = rule.trim();
      if (id && !out.has(id)) out.set(id, by);
    }
  };
  const pod = snapshot.pod;
  if (pod) add(pod.metadata?.annotations?.[IGNORE_ANNOTATION], `pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
  for (const o of snapshot.owners ?? []) add(o.object?.metadata?.annotations?.[IGNORE_ANNOTATION], `${o.kind} ${o.name}`);
  return out;
}

/**
 * A finding someone marked **Not a problem** in chat: kept (src/jobs/not-a-problem.ts) for the
 * object it was about and the rule, until `until`. `user` is the chat id of who pressed it.
 */
export interface Mark {
  rule: string;
  user: string;
  /** RFC 3339. */
  at: string;
  until: string;
}

/**
 * What a mark is recorded for: the pod's top owner workload (`shop/Deployment web`), else the pod
 * (`shop/Pod web-1`), else the node; undefined for a namespace diagnosis (it has no one object).
 */
export function markObject(target: Target, workload: string | undefined): string | undefined {
  if (target.kind === 'pod') return `${target.namespace}/${workload ?? `Pod ${target.name}`}`;
  if (target.kind === 'node') return `Node ${target.name}`;
  return undefined;
}

/** The mark object of a snapshot, before any rule ran (the same as the diagnosis' {@link markObject}). */
export function markObjectOf(snapshot: Snapshot): string | undefined {
  const top = snapshot.owners?.at(-1);
  return markObject(snapshot.target, top ? `${top.kind} ${top.name}` : undefined);
}
