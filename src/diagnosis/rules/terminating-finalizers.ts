// terminating.finalizers: Deletion blocked by finalizers.

import { containerStatuses, eventTime, formatDuration, isStuckTerminating, ms, nodeNotReady, secondsPastDeletion, stopConfirmed } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Pod, Snapshot } from '../types.js';

// Finalizers → the controller most likely to own them, so the finding names who to ask.
const OWNERS: [RegExp, string][] = [
  [/^foregroundDeletion$/, 'the garbage collector (foreground cascading deletion waits for dependents)'],
  [/^orphan$/, 'the garbage collector (orphaning dependents)'],
  [/^kubernetes\.io\/pvc-protection$/, 'the PVC protection controller'],
  [/^kubernetes\.io\/pv-protection$/, 'the PV protection controller'],
  [/^batch\.kubernetes\.io\/job-tracking$/, 'the Job controller'],
  [/^([a-z0-9.-]+)\//, 'the controller of API group or domain "$1"'],
];

/** Kubelet events that say it is still stopping the pod's containers (a kill or a preStop hook failing). */
const STILL_STOPPING = ['FailedKillPod', 'FailedPreStopHook'];

export function likelyOwner(finalizer: string): string {
  for (const [re, who] of OWNERS) {
    const m = re.exec(finalizer);
    if (m) return who.replace('$1', m[1] ?? '');
  }
  return 'an unknown controller';
}

/**
 * The kubelet (or a force delete) asked for immediate removal: the API server then sets
 * deletionGracePeriodSeconds to 0 and only finalizers keep the object. Before that, removing
 * the finalizers would not remove the pod: the kubelet must still confirm its containers stopped.
 */
function removalRequested(pod: Pod): boolean {
  return stopConfirmed(pod) || !pod.spec?.nodeName;
}

/** The kubelet reports, since the deletion, that it cannot stop a container that still runs. */
function kubeletStillStopping(snapshot: Snapshot, pod: Pod): boolean {
  if (!containerStatuses(pod).some((s) => s.status.state?.running)) return false;
  const grace = pod.metadata?.deletionGracePeriodSeconds ?? 30;
  const requested = (ms(pod.metadata?.deletionTimestamp) ?? 0) - grace * 1000;
  return snapshot.events.some((e) => STILL_STOPPING.includes(e.reason ?? '') && (ms(eventTime(e)) ?? 0) >= requested);
}

/** A Job controller that lists the pod among its uncounted terminated pods is removing job-tracking now. */
function jobAccounting(snapshot: Snapshot, pod: Pod, finalizers: string[]): string | undefined {
  if (!finalizers.every((f) => f === 'batch.kubernetes.io/job-tracking')) return undefined;
  const uid = pod.metadata?.uid;
  const job = (snapshot.owners ?? []).find((o) => o.kind === 'Job');
  const uncounted: unknown = job?.object?.status?.uncountedTerminatedPods;
  if (!uid || !job || typeof uncounted !== 'object' || uncounted === null) return undefined;
  const listed = Object.values(uncounted).some((uids) => Array.isArray(uids) && uids.includes(uid));
  return listed ? job.name : undefined;
}

export const rule = defineRule({
  meta: {
    id: 'terminating.finalizers',
    title: 'Deletion blocked by finalizers',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'owners'],
    playbook: 'remove-finalizers',
    priority: 70,
    doc:
      'A deleted pod stays while `metadata.finalizers` is non-empty; the controller that owns each finalizer has not removed it. ' +
      'The finalizers are the blocker once the kubelet has confirmed the stop (deletionGracePeriodSeconds 0); ' +
      'while the kubelet still reports failing to stop the containers, or the node is lost, removing them would not remove the pod, ' +
      'so no playbook is offered then. A Job controller that is still accounting the pod (status.uncountedTerminatedPods) is working, not stuck.',
    messages: {
      title: 'Pod deletion blocked by {{finalizerWord}} {{finalizers}}',
      prevent: 'Keep the controllers that add finalizers running and healthy; uninstall them only after their objects are gone.',
      jobCounting:
        'The pod keeps {{owned}}, but Job {{job}} lists it in status.uncountedTerminatedPods: ' +
        'the Job controller is counting it and removes the finalizer next.',
      jobCountingAdvice: 'Nothing to do unless the pod stays listed there; then check the kube-controller-manager logs for Job {{job}}.',
      nodeLost:
        'The pod was deleted {{overdue}} past its grace period and keeps {{owned}}, but its node is not Ready, ' +
        'so the kubelet cannot confirm the containers stopped: removing the finalizers alone would not remove the pod.',
      nodeFirst: 'Deal with the node first (see terminating.node-lost); then remove the finalizers if their owner is gone.',
      checkOwners: 'Check why {{owners}} has not finished (its logs, its health).',
      kubeletStopping:
        'The pod keeps {{owned}}, but the kubelet has not finished stopping it ' +
        '(a container still runs and the kubelet reports failing to stop it since the deletion): ' +
        'that is the blocker now, and removing the finalizers would not remove the pod.',
      kubeletFirst:
        'Follow the node-side finding for this pod (kill, preStop hook, mount or runtime) first; look at the finalizers once the containers are gone.',
      blocked:
        'The pod was deleted {{overdue}} past its grace period but keeps {{owned}}; the API server removes the object only when every finalizer is gone.',
      removeIfGone: 'If the owner is gone for good, remove the finalizers (playbook remove-finalizers, needs approval).',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const finalizers = pod?.metadata?.finalizers ?? [];
    if (!pod || finalizers.length === 0 || !isStuckTerminating(snapshot, pod)) return null;
    const overdue = secondsPastDeletion(snapshot, pod) ?? 0;
    const owned = finalizers.map((f) => `"${f}" (owned by ${likelyOwner(f)})`).join(', ');
    const owners = msg('checkOwners', { owners: finalizers.map(likelyOwner).join(' / ') });
    const base = {
      title: msg('title', { finalizerWord: finalizers.length > 1 ? 'finalizers' : 'finalizer', finalizers: finalizers.join(', ') }),
      evidence: [
        {
          source: 'pod.metadata.deletionTimestamp',
          text: `${pod.metadata?.deletionTimestamp ?? ''} (deletionGracePeriodSeconds ${pod.metadata?.deletionGracePeriodSeconds ?? '?'})`,
        },
        { source: 'pod.metadata.finalizers', text: JSON.stringify(finalizers) },
      ],
      prevent: [msg('prevent')],
      causeKey: `finalizers:${[...finalizers].sort().join(',')}`,
      params: { finalizers },
    };

    const job = jobAccounting(snapshot, pod, finalizers);
    if (job)
      return {
        ...base,
        severity: 'info',
        cause: msg('jobCounting', { owned, job }),
        advice: [msg('jobCountingAdvice', { job })],
        playbook: null,
      };
    // On a lost node the kubelet is the blocker (terminating.node-lost): finalizers are secondary.
    if (nodeNotReady(snapshot.node) && !removalRequested(pod))
      return {
        ...base,
        severity: 'warning',
        cause: msg('nodeLost', { overdue: formatDuration(overdue), owned }),
        advice: [msg('nodeFirst'), owners],
        playbook: null,
      };
    if (!removalRequested(pod) && kubeletStillStopping(snapshot, pod))
      return {
        ...base,
        severity: 'info',
        cause: msg('kubeletStopping', { owned }),
        advice: [msg('kubeletFirst')],
        playbook: null,
      };
    return {
      ...base,
      severity: 'error',
      cause: msg('blocked', { overdue: formatDuration(overdue), owned }),
      advice: [owners, msg('removeIfGone')],
    };
  },
});
