// pending.taint: Not scheduled: node taints the pod does not tolerate.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import {
  CONTROL_PLANE_TAINTS,
  formatTaint,
  otherReasons,
  rankSeverity,
  reasonsOf,
  schedulingFailure,
  type TaintLike,
  untoleratedTaints,
} from '../scheduling.js';
import type { Evidence, Said } from '../types.js';

const messages = {
  titleTaints: 'Pod cannot be scheduled: untolerated taint {{taints}}',
  titleUnnamed: 'Pod cannot be scheduled: untolerated taint on nodes',
  untolerated: 'The pod has been Pending for {{duration}}: {{count}} node(s) carry a taint it does not tolerate.',
  untoleratedListed: 'The pod has been Pending for {{duration}}: {{count}} node(s) carry a taint it does not tolerate: {{taints}}.',
  othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
  reservedOne:
    '{{taints}} reserves nodes for cluster add-ons: do not tolerate it in application workloads; ' +
    'give them nodes of their own (a node pool without that taint).',
  reservedMany:
    '{{taints}} reserve nodes for cluster add-ons: do not tolerate it in application workloads; ' +
    'give them nodes of their own (a node pool without that taint).',
  conditionOne: '{{taints}} is set because of a node condition (NotReady, unreachable, pressure, cordon): fix those nodes rather than tolerating the taint.',
  conditionMany: '{{taints}} are set because of a node condition (NotReady, unreachable, pressure, cordon): fix those nodes rather than tolerating the taint.',
  tolerate:
    'If the pod belongs on those nodes, add a toleration for {{taints}} to the workload; ' +
    'otherwise remove the taint (`kubectl taint nodes <node> {{taint}}-`).',
  onlyControlPlane: 'Only control-plane nodes are left: add worker nodes, or (small/test clusters) remove the control-plane taint.',
  controlPlaneByDesign: 'The control-plane taint keeps ordinary pods off control-plane nodes by design; look at the other reasons.',
  describeNodes: 'The message does not name the taint (≤1.17 and ≥1.35 wording) and nodes were not collected: `kubectl describe nodes | grep Taints`.',
  tolerations: 'Give workloads that must run on dedicated nodes the matching tolerations (and a nodeSelector) in their templates.',
  alertNodes: 'Alert on nodes that stay NotReady or cordoned.',
} as const;
type Id = keyof typeof messages;

/** Taints the node lifecycle controller / cloud set for a node condition: fix the node, don't tolerate. */
const NODE_CONDITION_TAINT =
  /^node\.kubernetes\.io\/(not-ready|unreachable|memory-pressure|disk-pressure|pid-pressure|network-unavailable|unschedulable|out-of-service)$/;
const CLOUD_UNINITIALIZED_TAINT = /^node\.cloudprovider\.kubernetes\.io\/uninitialized$/;

/** Taints that reserve nodes for the system: workloads must not tolerate them to get scheduled. */
const SYSTEM_TAINT = /^CriticalAddonsOnly$/;

export const rule = defineRule({
  meta: {
    id: 'pending.taint',
    title: 'Not scheduled: node taints the pod does not tolerate',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 55,
    doc:
      "FailedScheduling says `had untolerated taint {k: v}` (≤1.17 `had taints that the pod didn't tolerate`, " +
      "1.18 `had taint {k: v}, that the pod didn't tolerate`, 1.35 `had untolerated taint(s)` without the key). " +
      'The finding names each taint and the nodes carrying it.',
    messages,
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'taint');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;

    // taint text → nodes carrying it. Node facts give the full taint; the message only `{k: v}`.
    const byTaint = new Map<string, { taint: TaintLike; nodes: string[] }>();
    for (const n of snapshot.nodes ?? []) {
      for (const t of untoleratedTaints(pod, n)) {
        const k = formatTaint(t);
        const entry = byTaint.get(k) ?? { taint: t, nodes: [] };
        entry.nodes.push(n.metadata?.name ?? '?');
        byTaint.set(k, entry);
      }
    }
    const named = reasons.flatMap((r) => (r.taint ? [r.taint] : []));
    // Keys the message names that the node list does not show (nodes not collected or changed since).
    for (const t of named) {
      if (![...byTaint.values()].some((e) => e.taint.key === t.key)) {
        byTaint.set(`${t.key}${t.value ? `=${t.value}` : ''}`, { taint: { key: t.key, value: t.value, effect: 'NoSchedule/NoExecute' }, nodes: [] });
      }
    }
    // When the message names keys, keep to those: other untolerated taints are on nodes that failed earlier filters.
    const entries = [...byTaint.entries()].filter(([, e]) => named.length === 0 || named.some((t) => t.key === e.taint.key));
    const keys = [...new Set(entries.map(([, e]) => e.taint.key))].sort();
    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const others = otherReasons(fit, 'taint');
    const listing = entries.map(([text, e]) => `${text}${e.nodes.length ? ` on ${e.nodes.join(', ')}` : ''}`);

    const evidence: Evidence[] = [...failure.evidence];
    for (const [text, e] of entries.slice(0, 6)) {
      if (e.nodes.length)
        evidence.push({ source: `node spec.taints (${e.nodes.length} node${e.nodes.length > 1 ? 's' : ''})`, text: `${text} on ${e.nodes.join(', ')}` });
    }
    evidence.push({ source: 'pod.spec.tolerations', text: JSON.stringify(pod.spec?.tolerations ?? []) });

    const conditionTaints = keys.filter((k) => NODE_CONDITION_TAINT.test(k) || CLOUD_UNINITIALIZED_TAINT.test(k));
    const controlPlane = keys.filter((k) => CONTROL_PLANE_TAINTS.includes(k));
    const reserved = keys.filter((k) => SYSTEM_TAINT.test(k));
    const custom = keys.filter((k) => !conditionTaints.includes(k) && !controlPlane.includes(k) && !reserved.includes(k));
    const advice: Said<Id>[] = [];
    if (reserved.length) advice.push(msg(reserved.length > 1 ? 'reservedMany' : 'reservedOne', { taints: reserved.join(', ') }));
    if (conditionTaints.length) advice.push(msg(conditionTaints.length > 1 ? 'conditionMany' : 'conditionOne', { taints: conditionTaints.join(', ') }));
    if (custom.length) advice.push(msg('tolerate', { taints: custom.join(', '), taint: String(custom[0]) }));
    if (controlPlane.length) {
      advice.push(
        controlPlane.length === keys.length && rankSeverity(snapshot, fit, 'taint') !== 'info' ? msg('onlyControlPlane') : msg('controlPlaneByDesign'),
      );
    }
    if (keys.length === 0) advice.push(msg('describeNodes'));

    return {
      severity: rankSeverity(snapshot, fit, 'taint'),
      title: keys.length ? msg('titleTaints', { taints: keys.join(', ') }) : msg('titleUnnamed'),
      cause: [
        listing.length
          ? msg('untoleratedListed', { duration: formatDuration(failure.seconds), count: nodeCount, taints: listing.join('; ') })
          : msg('untolerated', { duration: formatDuration(failure.seconds), count: nodeCount }),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      evidence,
      advice,
      prevent: [msg('tolerations'), msg('alertNodes')],
      // Control-plane taints show up beside most causes; group by the taints that matter when there are any.
      causeKey: keys.length ? `taint:${(controlPlane.length < keys.length ? keys.filter((k) => !controlPlane.includes(k)) : keys).join(',')}` : 'taint',
      params: { taints: keys, nodes: [...new Set(entries.flatMap(([, e]) => e.nodes))] },
    };
  },
});
