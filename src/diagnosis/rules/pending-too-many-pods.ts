// pending.too-many-pods: Not scheduled: nodes are at their pod limit (--max-pods).

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { nodeUsage, otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence, Node } from '../types.js';

/** Usable pod IPs in the node's IPv4 pod CIDR: a /24 gives 254 (network and broadcast excluded). */
export function podCidrBound(node: Node): number | undefined {
  const cidr = node.spec?.podCIDR;
  const m = cidr ? /^\d+\.\d+\.\d+\.\d+\/(\d+)$/.exec(cidr) : null;
  if (!m) return undefined;
  const prefix = Number(m[1]);
  return prefix >= 31 ? undefined : 2 ** (32 - prefix) - 2;
}

export const rule = defineRule({
  meta: {
    id: 'pending.too-many-pods',
    title: 'Not scheduled: nodes are at their pod limit (--max-pods)',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes', 'podsOnNode'],
    priority: 55,
    doc:
      'FailedScheduling says `Too many pods` (≤1.8: `Insufficient pods`): ' +
      'the nodes run `status.allocatable.pods` pods already (kubelet `--max-pods`, default 110). Raising it is bounded by the node pod CIDR.',
    messages: {
      title: 'Pod cannot be scheduled: {{count}} node(s) already run their maximum number of pods',
      atLimit: "The pod has been Pending for {{duration}}: {{count}} node(s) reached the kubelet's pod limit (kubelet --max-pods, default 110).",
      atLimitFull:
        "The pod has been Pending for {{duration}}: {{count}} node(s) reached the kubelet's pod limit (kubelet --max-pods, default 110); " +
        'full now: {{full}}.',
      atKnownLimit:
        "The pod has been Pending for {{duration}}: {{count}} node(s) reached the kubelet's pod limit " +
        '(allocatable pods {{limits}}, set by kubelet --max-pods; the default is 110).',
      atKnownLimitFull:
        "The pod has been Pending for {{duration}}: {{count}} node(s) reached the kubelet's pod limit " +
        '(allocatable pods {{limits}}, set by kubelet --max-pods; the default is 110); full now: {{full}}.',
      cidrBound: 'The node pod CIDR allows about {{bound}} pod IPs, which bounds --max-pods.',
      othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
      raiseAbove:
        'Raise kubelet --max-pods (maxPods in the kubelet config) above {{limit}}, but not beyond about {{bound}} (the pod CIDR bound), ' +
        'then restart the kubelet.',
      raiseWithin:
        'Raise kubelet --max-pods (maxPods in the kubelet config) within the pod CIDR bound (a /24 allows about 254 pods), then restart the kubelet.',
      addNodes: 'Or add nodes, or remove finished/unused pods (completed Jobs, evicted pods) that still occupy slots.',
      planMaxPods: 'Plan max-pods together with the per-node pod CIDR size and the CNI (cloud CNIs limit pods by ENI/IP count).',
      cleanUp: 'Clean up completed Jobs (ttlSecondsAfterFinished) and alert on KubeletTooManyPods.',
    },
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'pods');
    if (reasons.length === 0) return null;
    const { fit } = failure;
    const usage = nodeUsage(snapshot);
    const full = usage.filter((u) => u.podCount !== undefined && (u.allocatable.pods ?? Infinity) - u.podCount <= 0);
    const limits = [...new Set(usage.map((u) => u.allocatable.pods).filter((n): n is number => n !== undefined))].sort((a, b) => a - b);
    const bounds = [...new Set(usage.map((u) => podCidrBound(u.node)).filter((n): n is number => n !== undefined))].sort((a, b) => a - b);
    const bound = bounds[0];
    const limit = limits[limits.length - 1];

    const evidence: Evidence[] = [...failure.evidence];
    for (const u of full.slice(0, 5)) {
      evidence.push({
        source: `node ${u.name} status.allocatable.pods`,
        text: `${u.podCount} pods bound of ${u.allocatable.pods} allowed${u.node.spec?.podCIDR ? ` (podCIDR ${u.node.spec.podCIDR})` : ''}`,
      });
    }
    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const others = otherReasons(fit, 'pods');
    const headroom = bound !== undefined && limit !== undefined ? bound - limit : undefined;
    return {
      severity: rankSeverity(snapshot, fit, 'pods'),
      title: msg('title', { count: nodeCount }),
      cause: [
        msg(limit !== undefined ? (full.length ? 'atKnownLimitFull' : 'atKnownLimit') : full.length ? 'atLimitFull' : 'atLimit', {
          duration: formatDuration(failure.seconds),
          count: nodeCount,
          limits: limits.join('/'),
          full: full.map((u) => u.name).join(', '),
        }),
        bound !== undefined && msg('cidrBound', { bound }),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      evidence,
      advice: [
        headroom !== undefined && headroom > 0 && limit !== undefined && bound !== undefined ? msg('raiseAbove', { limit, bound }) : msg('raiseWithin'),
        msg('addNodes'),
      ],
      prevent: [msg('planMaxPods'), msg('cleanUp')],
      causeKey: 'max-pods',
      params: { nodes: full.map((u) => u.name), ...(limit !== undefined ? { maxPods: limit } : {}), ...(bound !== undefined ? { podCidrBound: bound } : {}) },
    };
  },
});
