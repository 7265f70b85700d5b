// pending.scheduling-gated: Not scheduled on purpose: scheduling gates were never removed.

import { formatDuration, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

// A pod with spec.schedulingGates is held back from the scheduler on purpose (PodScheduled False,
// reason SchedulingGated, "Scheduling is blocked due to non-empty scheduling gates"): a controller
// (Kueue, a quota admission controller, an operator) removes its gate when the pod may run. A gate
// that stays for long means that controller has not admitted it, or is not running.

/** Gated this long is no longer "waiting to be admitted". */
const GATED_SECONDS = 600;

export const rule = defineRule({
  meta: {
    id: 'pending.scheduling-gated',
    title: 'Not scheduled on purpose: scheduling gates were never removed',
    category: 'pending',
    severity: 'warning',
    needs: ['pod', 'events'],
    priority: 50,
    doc:
      'PodScheduled is False with reason SchedulingGated and the pod still has spec.schedulingGates: ' +
      'the scheduler ignores it until the controller that owns each gate (Kueue, a quota or admission operator) removes it. ' +
      'Names the gates; the controller, not the scheduler, is where to look.',
    messages: {
      titleGate: 'Held back by scheduling gate {{gates}} for {{duration}}',
      titleGates: 'Held back by scheduling gates {{gates}} for {{duration}}',
      gated: 'The pod is not scheduled because it still has scheduling gates ({{gates}}).',
      gatedSaying: 'The pod is not scheduled because it still has scheduling gates ({{gates}}): "{{message}}".',
      ignored:
        'The scheduler ignores gated pods on purpose; the controller that owns each gate removes it when the pod may run, ' +
        'and it has not for {{duration}}.',
      findController:
        "Find the controller that owns {{gate}} (e.g. Kueue's kueue.x-k8s.io/admission): " +
        'is it running, and why does it not admit the pod (quota, a queue)?',
      removeByHand: 'Removing a gate by hand schedules the pod, bypassing that controller: only if you know it is gone for good.',
      prevent: 'Monitor the admission controllers that gate pods, and alert on pods gated for longer than their queue allows.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || pod.spec?.nodeName || pod.metadata?.deletionTimestamp) return null;
    const gates = ((pod.spec as { schedulingGates?: { name?: string }[] } | undefined)?.schedulingGates ?? []).map((g) => g.name ?? '?');
    const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated');
    if (gates.length === 0 && !cond) return null;
    const gated = secondsSince(snapshot, cond?.lastTransitionTime ?? pod.metadata?.creationTimestamp) ?? 0;
    if (gated < GATED_SECONDS) return null;
    const duration = formatDuration(gated);
    const named = gates.join(', ') || 'unnamed';
    return {
      title: msg(gates.length === 1 ? 'titleGate' : 'titleGates', { gates: gates.join(', '), duration }),
      cause: [cond?.message ? msg('gatedSaying', { gates: named, message: cond.message }) : msg('gated', { gates: named }), msg('ignored', { duration })],
      evidence: [
        ...(cond ? [{ source: 'pod.status.conditions[PodScheduled]', text: `False ${cond.reason}: ${cond.message ?? ''}` }] : []),
        { source: 'pod.spec.schedulingGates', text: gates.join(', ') || '(none listed)' },
      ],
      advice: [msg('findController', { gate: gates[0] ?? 'the gate' }), msg('removeByHand')],
      prevent: [msg('prevent')],
      causeKey: `pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}:gated:${gates.join(',')}`,
      params: { gates },
    };
  },
});
