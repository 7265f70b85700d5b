// node.pressure: Node under memory, disk or PID pressure: the kubelet evicts pods.

import { eventEvidence, formatDuration, newestFirst, nodeCondition, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { parseQuantity } from '../quantity.js';
import { defineRule } from '../rule.js';
import type { Evidence, Node, Pod } from '../types.js';

// The kubelet sets MemoryPressure / DiskPressure / PIDPressure when an eviction threshold is crossed
// (`KubeletHasInsufficientMemory: kubelet has insufficient memory available`), taints the node
// (node.kubernetes.io/memory-pressure:NoSchedule) and evicts pods to recover (EvictionThresholdMet
// "Attempting to reclaim memory", then Evicted pods). The node is Ready; it is short of a resource.

const PRESSURES = [
  { type: 'MemoryPressure', resource: 'memory' },
  { type: 'DiskPressure', resource: 'ephemeral-storage' },
  { type: 'PIDPressure', resource: 'pids' },
] as const;

/** Memory requests of the pods on the node against its allocatable: an overcommitted node evicts. */
function memoryBooking(node: Node, pods: Pod[]): string | undefined {
  const allocatable = parseQuantity(node.status?.allocatable?.memory ?? '');
  if (!allocatable || pods.length === 0) return undefined;
  let requested = 0;
  let limited = 0;
  for (const p of pods)
    for (const c of p.spec?.containers ?? []) {
      requested += parseQuantity(c.resources?.requests?.memory ?? '') || 0;
      limited += parseQuantity(c.resources?.limits?.memory ?? '') || 0;
    }
  const pct = (n: number) => `${Math.round((100 * n) / allocatable)}%`;
  return `${pods.length} pods request ${pct(requested)} of allocatable memory${limited > 0 ? ` and may use up to ${pct(limited)} (limits)` : ''}`;
}

export const rule = defineRule({
  meta: {
    id: 'node.pressure',
    title: 'Node under memory, disk or PID pressure: the kubelet evicts pods',
    category: 'node',
    severity: 'error',
    needs: ['node', 'nodeEvents', 'podsOnNode'],
    priority: 58,
    doc:
      'The node reports MemoryPressure, DiskPressure or PIDPressure True (`kubelet has insufficient memory available`, `kubelet has disk pressure`), ' +
      'is tainted against new pods and evicts running ones (EvictionThresholdMet, Evicted). ' +
      'Quotes the condition and the eviction events, and how much of the node its pods book. For one evicted pod, evicted.node-pressure explains the eviction.',
    messages: {
      title: 'Node {{node}} is under {{kinds}}',
      titleFor: 'Node {{node}} is under {{kinds}} for {{duration}}',
      reports:
        'The kubelet on {{node}} reports {{conditions}}: the node crossed an eviction threshold, so it is tainted against new pods and evicts running ones, ' +
        'lowest priority and furthest above its requests first.',
      booking: 'On it, {{booking}}: pods that use more than they request push the node over.',
      findMemory:
        'Find what uses the memory: `kubectl top pods -A --sort-by=memory` on {{node}}; ' +
        'set memory requests close to real use (and limits), or move heavy pods away.',
      freeDisk:
        'Free disk on {{node}}: images (`crictl rmi --prune`), container logs, emptyDir volumes; set ephemeral-storage limits on pods that write a lot.',
      findForks: 'Find the pod that forks without bound on {{node}} (`ps -eLf | wc -l` by container); set pod PID limits (podPidsLimit).',
      reserve: "Reserve room for the system (kubelet --system-reserved/--kube-reserved) so pressure is caught by eviction before the kernel's OOM killer.",
      prevent: 'Alert on node pressure conditions and on requests far below real use; keep requests honest so the scheduler does not overbook nodes.',
    },
  },
  check(snapshot) {
    const node = snapshot.node;
    if (!node || snapshot.target.kind !== 'node') return null;
    const name = node.metadata?.name ?? '?';
    const active = PRESSURES.map((p) => ({ ...p, c: nodeCondition(node, p.type) })).filter((p) => p.c?.status === 'True');
    if (active.length === 0) return null;
    const evidence: Evidence[] = active.map((p) => ({
      source: `node ${name} status.conditions[${p.type}]`,
      text: `True ${p.c?.reason ?? ''}: ${p.c?.message ?? ''}`,
    }));
    const events = newestFirst(snapshot.nodeEvents ?? []).filter((e) =>
      ['EvictionThresholdMet', 'SystemOOM', 'FreeDiskSpaceFailed', 'ImageGCFailed'].includes(e.reason ?? ''),
    );
    for (const e of events.slice(0, 3)) evidence.push(eventEvidence(e));
    const memory = active.some((p) => p.type === 'MemoryPressure') ? memoryBooking(node, snapshot.podsOnNode ?? []) : undefined;
    if (memory) evidence.push({ source: `pods on node ${name}`, text: memory });
    const since = Math.max(...active.map((p) => secondsSince(snapshot, p.c?.lastTransitionTime) ?? 0));
    const kinds = active.map((p) => p.type).join(' and ');
    return {
      title: since > 0 ? msg('titleFor', { node: name, kinds, duration: formatDuration(since) }) : msg('title', { node: name, kinds }),
      cause: [
        msg('reports', { node: name, conditions: active.map((p) => `${p.type} ("${p.c?.message ?? p.c?.reason ?? ''}")`).join(', ') }),
        memory ? msg('booking', { booking: memory }) : null,
      ],
      evidence,
      advice: [
        active.some((p) => p.type === 'MemoryPressure')
          ? msg('findMemory', { node: name })
          : active.some((p) => p.type === 'DiskPressure')
            ? msg('freeDisk', { node: name })
            : msg('findForks', { node: name }),
        msg('reserve'),
      ],
      prevent: [msg('prevent')],
      causeKey: `node/${name}:pressure:${active.map((p) => p.resource).join('+')}`,
      params: { node: name, pressures: active.map((p) => p.type) },
    };
  },
});
