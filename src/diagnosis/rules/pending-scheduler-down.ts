// pending.scheduler-down: Not scheduled: no scheduler is working.

import { eventsWithReason, eventTime, formatDuration, ms, newestFirst, podLabel, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { unscheduledPod } from '../scheduling.js';
import type { Evidence, Lease, Pod, Snapshot } from '../types.js';

const DEFAULT_SCHEDULER = 'default-scheduler';

/**
 * A leader renews the lease every few seconds (renewDeadline 10s, leaseDuration 15s). Four
 * lease durations (at least a minute) without a renewal means no scheduler is leading.
 */
export function leaseStaleSeconds(snapshot: Snapshot, lease: Lease | null | undefined): number | undefined {
  const renewed = lease?.spec?.renewTime ?? lease?.spec?.acquireTime;
  if (!lease || !renewed) return undefined;
  const age = secondsSince(snapshot, renewed);
  const limit = Math.max(4 * (lease.spec?.leaseDurationSeconds ?? 15), 60);
  return age !== undefined && age > limit ? age : undefined;
}

function schedulerPodProblem(p: Pod): string | undefined {
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  const waiting = p.status?.containerStatuses?.find((s) => s.state?.waiting)?.state?.waiting;
  if (p.status?.phase === 'Running' && ready?.status === 'True') return undefined;
  const restarts = p.status?.containerStatuses?.reduce((n, s) => n + s.restartCount, 0) ?? 0;
  return (
    `${p.status?.phase ?? 'no phase'}${waiting?.reason ? ` / ${waiting.reason}` : ''}` +
    `${ready ? `, Ready=${ready.status}` : ''}${restarts ? `, ${restarts} restarts` : ''}`
  );
}

export const rule = defineRule({
  meta: {
    id: 'pending.scheduler-down',
    title: 'Not scheduled: no scheduler is working',
    category: 'pending',
    severity: 'critical',
    needs: ['pod', 'events', 'scheduler'],
    // Above the other pending.* rules: while no scheduler runs, fixing capacity or labels changes nothing.
    priority: 68,
    doc:
      'The pod has no node, no scheduler has written a FailedScheduling event since the scheduler stopped, ' +
      'and kube-scheduler pods are not Running or its leader lease `kube-system/kube-scheduler` is no longer renewed.',
    messages: {
      customTitle: 'Pod waits for scheduler "{{scheduler}}", which has not acted on it',
      customSilent:
        'The pod asks for schedulerName "{{scheduler}}" and has been Pending for {{duration}} without a single scheduling attempt; ' +
        'the default scheduler ignores it. That scheduler is not running or does not watch this namespace.',
      checkCustom: 'Check that the "{{scheduler}}" scheduler is deployed and running, or remove schedulerName to use the default scheduler.',
      preventCustom: 'Monitor custom schedulers like the default one (leader lease, pending pods per scheduler).',
      downTitle: 'No kube-scheduler is running: pods stay Pending without a node',
      noRecentAttempt: 'The pod has been Pending for {{duration}} with no node and no recent scheduling attempt:',
      noAttempt: 'The pod has been Pending for {{duration}} with no node and no scheduling attempt at all:',
      leaseStale: 'its leader lease kube-system/kube-scheduler was last renewed {{ago}} ago.',
      leaseStaleAnd: 'its leader lease kube-system/kube-scheduler was last renewed {{ago}} ago;',
      podDown: 'kube-scheduler pod {{pods}}.',
      podsDown: 'kube-scheduler pods {{pods}}.',
      nothingAssigns: 'Nothing assigns pods to nodes, so every new pod in the cluster waits.',
      checkControlPlane:
        'On the control-plane nodes check kube-scheduler: static pod `/etc/kubernetes/manifests/kube-scheduler.yaml` ' +
        'and `crictl ps -a --name kube-scheduler`, or `systemctl status kube-scheduler` / `ps -elf | grep kube-scheduler` for a binary install; ' +
        'start it and read its log (kubeconfig, certificates, --leader-elect).',
      managedControlPlane: 'On a managed control plane (EKS/GKE/AKS) open a case with the provider.',
      preventDown: 'Run several kube-scheduler replicas with leader election and alert on KubeSchedulerDown / a stale scheduler lease.',
      neverTriedTitle: 'Pod was never tried by the scheduler',
      neverTried:
        'The pod has been Pending for {{duration}} without a node, a FailedScheduling event or a PodScheduled condition: ' +
        "no scheduler has looked at it. The scheduler's own state could not be checked (no kube-scheduler pods or lease visible).",
      checkScheduler:
        'Check that kube-scheduler runs on the control plane ' +
        '(`kubectl get lease -n kube-system kube-scheduler`, `kubectl get pods -n kube-system -l component=kube-scheduler`).',
      preventNeverTried: 'Alert on a stale kube-scheduler lease and on pods Pending without events.',
    },
  },
  check(snapshot, ctx) {
    const waiting = unscheduledPod(snapshot, ctx);
    if (!waiting) return null;
    const { pod, seconds } = waiting;
    if ((pod.spec?.schedulingGates ?? []).length > 0) return null;
    const schedulerName = pod.spec?.schedulerName ?? DEFAULT_SCHEDULER;
    const lastFailure = newestFirst(eventsWithReason(snapshot, 'FailedScheduling'))[0];
    const lastFailureAt = lastFailure ? ms(eventTime(lastFailure)) : undefined;

    const evidence: Evidence[] = [{ source: 'pod.spec.nodeName', text: `unset; Pending for ${formatDuration(seconds)}, schedulerName ${schedulerName}` }];
    evidence.push(
      lastFailure
        ? {
            source: 'event FailedScheduling (newest)',
            text: `last seen ${formatDuration(secondsSince(snapshot, eventTime(lastFailure)) ?? 0)} ago: ${lastFailure.message ?? ''}`,
          }
        : { source: 'pod events', text: 'no FailedScheduling or Scheduled event: no scheduler has tried this pod' },
    );

    if (schedulerName !== DEFAULT_SCHEDULER) {
      // A custom scheduler's health is not visible here; only its silence is.
      if (lastFailure || seconds < 300) return null;
      return {
        severity: 'error',
        title: msg('customTitle', { scheduler: schedulerName }),
        cause: msg('customSilent', { scheduler: schedulerName, duration: formatDuration(seconds) }),
        evidence,
        advice: [msg('checkCustom', { scheduler: schedulerName })],
        prevent: [msg('preventCustom')],
        causeKey: `scheduler:${schedulerName}`,
        params: { scheduler: schedulerName },
      };
    }

    const lease = snapshot.schedulerLease;
    const stale = leaseStaleSeconds(snapshot, lease);
    const renewedAt = ms(lease?.spec?.renewTime ?? lease?.spec?.acquireTime);
    const badPods = (snapshot.schedulerPods ?? []).map((p) => ({ p, problem: schedulerPodProblem(p) })).filter((x) => x.problem);
    const allPodsBad = (snapshot.schedulerPods ?? []).length > 0 && badPods.length === snapshot.schedulerPods?.length;
    const leaseFresh = lease !== undefined && lease !== null && stale === undefined && renewedAt !== undefined;

    if (lease) {
      const renewed =
        renewedAt !== undefined ? `${formatDuration(secondsSince(snapshot, lease.spec?.renewTime ?? lease.spec?.acquireTime) ?? 0)} ago` : 'never';
      evidence.push({
        source: 'lease kube-system/kube-scheduler',
        text: `holder ${lease.spec?.holderIdentity ?? '?'}, last renewed ${renewed} (leaseDurationSeconds ${lease.spec?.leaseDurationSeconds ?? '?'})`,
      });
    }
    for (const { p, problem } of badPods.slice(0, 3)) evidence.push({ source: `pod ${podLabel(p)}`, text: problem ?? '' });

    const confirmed = stale !== undefined || (allPodsBad && !leaseFresh);
    if (confirmed) {
      // An attempt after the scheduler's last sign of life would contradict "down".
      if (lastFailureAt !== undefined && renewedAt !== undefined && lastFailureAt > renewedAt + 60_000) return null;
      // The lease sentence and the pods sentence are one clause list: `; ` between them, `.` after the last.
      const pods = badPods.map(({ p, problem }) => `${p.metadata?.name ?? '?'} (${problem ?? ''})`).join(', ');
      return {
        title: msg('downTitle'),
        cause: [
          msg(lastFailure ? 'noRecentAttempt' : 'noAttempt', { duration: formatDuration(seconds) }),
          stale !== undefined && msg(badPods.length ? 'leaseStaleAnd' : 'leaseStale', { ago: formatDuration(stale) }),
          badPods.length > 0 && msg(badPods.length > 1 ? 'podsDown' : 'podDown', { pods }),
          msg('nothingAssigns'),
        ],
        evidence,
        advice: [msg('checkControlPlane'), msg('managedControlPlane')],
        prevent: [msg('preventDown')],
        causeKey: `scheduler:${schedulerName}`,
        params: { scheduler: schedulerName, ...(lease?.spec?.holderIdentity ? { leaseHolder: lease.spec.holderIdentity } : {}) },
      };
    }

    // Scheduler state unknown (not collected, managed control plane without visible pods or lease):
    // speak only if the pod was never tried, and say what could not be checked.
    const unknown = lease === undefined || (lease === null && (snapshot.schedulerPods ?? []).length === 0);
    if (!unknown || lastFailure || pod.status?.conditions?.some((c) => c.type === 'PodScheduled') || seconds < 300) return null;
    return {
      severity: 'warning',
      title: msg('neverTriedTitle'),
      cause: msg('neverTried', { duration: formatDuration(seconds) }),
      evidence,
      advice: [msg('checkScheduler')],
      prevent: [msg('preventNeverTried')],
      causeKey: `scheduler:${schedulerName}`,
      params: { scheduler: schedulerName },
    };
  },
});
