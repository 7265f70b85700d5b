// pending.unschedulable-selector: Not scheduled: no node matches the pod's nodeSelector/affinity.

import { formatDuration } from '../facts.js';
import { defineRule } from '../rule.js';
import { isDaemonSetPod, otherReasons, rankSeverity, reasonsOf, schedulingFailure, selectorCheck } from '../scheduling.js';
import type { Evidence } from '../types.js';

export const rule = defineRule({
  meta: {
    id: 'pending.unschedulable-selector',
    title: "Not scheduled: no node matches the pod's nodeSelector/affinity",
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 55,
    doc: "FailedScheduling says `node(s) didn't match Pod's node affinity/selector` (≈1.20: `didn't match node selector`; ≤1.8: `MatchNodeSelector`). The finding names the labels that no node has.",
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'selector');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;
    const ds = isDaemonSetPod(pod);
    const nodes = snapshot.nodes;
    const check = nodes ? selectorCheck(pod, nodes, ds) : undefined;
    // A DaemonSet pod is pinned to one node through matchFields: the other nodes "don't match"
    // by design. Without a user selector that fails, this reason is not the problem.
    if (ds && (!check || check.unmet.length === 0)) return null;

    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const others = otherReasons(fit, 'selector');
    const evidence: Evidence[] = [...failure.evidence];
    if (pod.spec?.nodeSelector) evidence.push({ source: 'pod.spec.nodeSelector', text: JSON.stringify(pod.spec.nodeSelector) });
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (required) evidence.push({ source: 'pod.spec.affinity.nodeAffinity.required', text: JSON.stringify(required.nodeSelectorTerms) });

    let detail: string;
    if (!nodes) detail = 'The node labels could not be compared: the nodes were not collected.';
    else if (!check) detail = 'The pod sets no nodeSelector or required node affinity of its own; the affinity may come from the scheduler profile.';
    else if (check.unmet.length > 0) detail = `No node has: ${check.unmet.join(', ')} (checked ${nodes.length} nodes).`;
    else if (check.matching.length === 0)
      detail = `Each requirement is met by some node, but no node meets all of them together: ${check.requirements.join(', ')}.`;
    else
      detail = `Only ${check.matching.join(', ')} match${check.matching.length === 1 ? 'es' : ''} the selector (${check.requirements.join(', ')}); ${check.matching.length === 1 ? 'it is' : 'they are'} ruled out for the other reasons.`;
    if (check && nodes)
      evidence.push({
        source: `labels of ${nodes.length} nodes`,
        text: check.unmet.length ? `no node has ${check.unmet.join(', ')}` : `matching nodes: ${check.matching.join(', ') || 'none'}`,
      });

    const labels = check?.unmet ?? [];
    return {
      severity: rankSeverity(snapshot, fit, 'selector'),
      title: labels.length
        ? `Pod cannot be scheduled: no node has label ${labels.join(', ')}`
        : "Pod cannot be scheduled: no node matches the pod's node selector/affinity",
      cause:
        `The pod has been Pending for ${formatDuration(failure.seconds)}: ${nodeCount} node(s) do not match its nodeSelector or required node affinity. ${detail}` +
        (others.length ? ` Other nodes were ruled out for: ${others.join(', ')}.` : ''),
      evidence,
      advice: [
        labels.length
          ? `Label the node(s) meant to run it (\`kubectl label node <node> ${labels[0]?.replace(/ \(exists\)$/, '=<value>')}\`) or fix the selector in the workload spec.`
          : 'Fix the selector/affinity in the workload spec, or label a node to match it.',
        '`kubectl get nodes --show-labels` lists the labels the scheduler compares.',
      ],
      prevent: [
        'Manage node labels with the node pool / provisioning config, not by hand, so replacements keep them.',
        'Prefer preferredDuringScheduling affinity where the placement is a wish, not a must.',
      ],
      causeKey: labels.length ? `selector:${[...labels].sort().join(',')}` : 'selector',
      params: { labels },
    };
  },
});
