// evicted.preempted: Preempted for a higher-priority pod.

import { eventEvidence, eventTime, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

// Priority at work: the scheduler deleted this pod to make room for a higher-priority pod that did
// not fit anywhere (DisruptionTarget PreemptionByScheduler, "default-scheduler: preempting to
// accommodate a higher priority pod"; event Preempted "Preempted by pod <uid> on node <node>"), or
// the kubelet did so to admit a critical pod (status reason Preempting). Not a failure of the pod:
// the cluster is full, and its priority is lower than what came.

const RECENT_SECONDS = 3600;

export const rule = defineRule({
  meta: {
    id: 'evicted.preempted',
    title: 'Preempted for a higher-priority pod',
    category: 'evicted',
    severity: 'warning',
    needs: ['pod', 'events'],
    priority: 48,
    doc:
      'The pod is being (or was) removed by preemption: DisruptionTarget reason PreemptionByScheduler ("preempting to accommodate a higher priority pod"), ' +
      'a Preempted event ("Preempted by pod <uid> on node <node>"), or the kubelet\'s Preempting to admit a critical pod. ' +
      "The cluster has no room for a higher-priority pod; this one's priority (its PriorityClass) is lower. Add capacity or revisit the priorities.",
    messages: {
      titleKubelet: '{{pod}} was preempted by the kubelet to admit a critical pod',
      titleScheduler: '{{pod}} was preempted for a higher-priority pod',
      kubeletStopped: 'The kubelet on {{node}} stopped this pod to admit a critical pod.',
      schedulerDeleting: 'The scheduler is deleting this pod to make room for a higher-priority pod that fits nowhere else.',
      schedulerDeletingFor:
        'The scheduler is deleting this pod to make room for a higher-priority pod ({{preemptor}}, for node {{node}}) that fits nowhere else.',
      runsAtClass: 'This pod runs at PriorityClass {{className}}.',
      runsAtClassValue: 'This pod runs at PriorityClass {{className}} ({{priority}}).',
      runsAtDefault: 'This pod runs at the default priority.',
      runsAtDefaultValue: 'This pod runs at the default priority ({{priority}}).',
      nothingWrong: 'Nothing is wrong with the pod itself: the cluster is out of room for what has higher priority.',
      addCapacity:
        'Add capacity (or let the cluster autoscaler do it) so both fit; `kubectl get pods -A --field-selector status.phase=Pending` shows what waits.',
      raisePriority:
        "If this workload must not be preempted, give it a PriorityClass at least as high as the preemptor's; " +
        'if it may be, a PodDisruptionBudget limits how many go at once.',
      prevent: 'Keep headroom for high-priority workloads (overprovisioning with low-priority placeholder pods), and review which PriorityClasses may preempt.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod) return null;
    const disruption = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True' && /Preemption/.test(c.reason ?? ''));
    const kubelet = pod.status?.reason === 'Preempting' ? pod.status : undefined;
    const event = newestFirst(snapshot.events).find(
      (e) => (e.reason === 'Preempted' || e.reason === 'Preempting') && (secondsSince(snapshot, eventTime(e)) ?? Infinity) <= RECENT_SECONDS,
    );
    if (!disruption && !kubelet && !event) return null;
    const evidence: Evidence[] = [];
    if (disruption) evidence.push({ source: 'pod.status.conditions[DisruptionTarget]', text: `${disruption.reason}: ${disruption.message ?? ''}` });
    if (kubelet) evidence.push({ source: 'pod.status', text: `${kubelet.reason}: ${kubelet.message ?? ''}` });
    if (event) evidence.push(eventEvidence(event));
    const preemptor = /Preempted by pod (\S+) on node (\S+)/.exec(event?.message ?? '');
    const priority = pod.spec?.priority;
    const className = pod.spec?.priorityClassName;
    const byKubelet = Boolean(kubelet) || event?.reason === 'Preempting';
    const name = pod.metadata?.name ?? 'Pod';
    return {
      title: byKubelet ? msg('titleKubelet', { pod: name }) : msg('titleScheduler', { pod: name }),
      cause: [
        byKubelet
          ? msg('kubeletStopped', { node: pod.spec?.nodeName ?? 'the node' })
          : preemptor
            ? msg('schedulerDeletingFor', { preemptor: preemptor[1] ?? '', node: preemptor[2] ?? '' })
            : msg('schedulerDeleting'),
        className
          ? priority !== undefined
            ? msg('runsAtClassValue', { className, priority })
            : msg('runsAtClass', { className })
          : priority !== undefined
            ? msg('runsAtDefaultValue', { priority })
            : msg('runsAtDefault'),
        msg('nothingWrong'),
      ],
      evidence,
      advice: [msg('addCapacity'), msg('raisePriority')],
      prevent: [msg('prevent')],
      causeKey: `pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}:preempted`,
      params: { ...(className ? { priorityClass: className } : {}), ...(priority !== undefined ? { priority } : {}), byKubelet },
    };
  },
});
