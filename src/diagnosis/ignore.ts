// False positives a team has marked: `pod-doctor.io/ignore: rule[,rule]` on a pod or on one of its
// owners (ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob) keeps those rules' findings
// about it out of the answer; the answer still says what it left out and why.
import type { Snapshot } from './types.js';

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
