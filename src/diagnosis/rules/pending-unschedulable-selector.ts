// pending.unschedulable-selector: Not scheduled: no node matches the pod's nodeSelector/affinity.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { isDaemonSetPod, otherReasons, rankSeverity, reasonsOf, schedulingFailure, selectorCheck } from '../scheduling.js';
import type { Evidence, Said } from '../types.js';

const messages = {
  titleLabels: 'Pod cannot be scheduled: no node has label {{labels}}',
  title: "Pod cannot be scheduled: no node matches the pod's node selector/affinity",
  noMatch: 'The pod has been Pending for {{duration}}: {{count}} node(s) do not match its nodeSelector or required node affinity.',
  notCollected: 'The node labels could not be compared: the nodes were not collected.',
  noOwnSelector: 'The pod sets no nodeSelector or required node affinity of its own; the affinity may come from the scheduler profile.',
  noNodeHas: 'No node has: {{labels}} (checked {{count}} nodes).',
  noNodeMeetsAll: 'Each requirement is met by some node, but no node meets all of them together: {{requirements}}.',
  onlyOneMatches: 'Only {{nodes}} matches the selector ({{requirements}}); it is ruled out for the other reasons.',
  onlySomeMatch: 'Only {{nodes}} match the selector ({{requirements}}); they are ruled out for the other reasons.',
  othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
  labelNode: 'Label the node(s) meant to run it (`kubectl label node <node> {{label}}`) or fix the selector in the workload spec.',
  fixSelector: 'Fix the selector/affinity in the workload spec, or label a node to match it.',
  showLabels: '`kubectl get nodes --show-labels` lists the labels the scheduler compares.',
  manageLabels: 'Manage node labels with the node pool / provisioning config, not by hand, so replacements keep them.',
  preferPreferred: 'Prefer preferredDuringScheduling affinity where the placement is a wish, not a must.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'pending.unschedulable-selector',
    title: "Not scheduled: no node matches the pod's nodeSelector/affinity",
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 55,
    doc:
      "FailedScheduling says `node(s) didn't match Pod's node affinity/selector` (≈1.20: `didn't match node selector`; ≤1.8: `MatchNodeSelector`). " +
      'The finding names the labels that no node has.',
    messages,
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

    let detail: Said<Id>;
    if (!nodes) detail = msg('notCollected');
    else if (!check) detail = msg('noOwnSelector');
    else if (check.unmet.length > 0) detail = msg('noNodeHas', { labels: check.unmet.join(', '), count: nodes.length });
    else if (check.matching.length === 0) detail = msg('noNodeMeetsAll', { requirements: check.requirements.join(', ') });
    else
      detail = msg(check.matching.length === 1 ? 'onlyOneMatches' : 'onlySomeMatch', {
        nodes: check.matching.join(', '),
        requirements: check.requirements.join(', '),
      });
    if (check && nodes)
      evidence.push({
        source: `labels of ${nodes.length} nodes`,
        text: check.unmet.length ? `no node has ${check.unmet.join(', ')}` : `matching nodes: ${check.matching.join(', ') || 'none'}`,
      });

    const labels = check?.unmet ?? [];
    return {
      severity: rankSeverity(snapshot, fit, 'selector'),
      title: labels.length ? msg('titleLabels', { labels: labels.join(', ') }) : msg('title'),
      cause: [
        msg('noMatch', { duration: formatDuration(failure.seconds), count: nodeCount }),
        detail,
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      evidence,
      advice: [labels.length ? msg('labelNode', { label: String(labels[0]?.replace(/ \(exists\)$/, '=<value>')) }) : msg('fixSelector'), msg('showLabels')],
      prevent: [msg('manageLabels'), msg('preferPreferred')],
      causeKey: labels.length ? `selector:${[...labels].sort().join(',')}` : 'selector',
      params: { labels },
    };
  },
});
