// pending.topology-spread: Not scheduled: a topology spread constraint leaves no node.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence, Node } from '../types.js';

// topologySpreadConstraints with whenUnsatisfiable: DoNotSchedule are hard: a node qualifies only if
// placing the pod there keeps the skew between topology domains (zones, hosts) within maxSkew.
// FailedScheduling: `N node(s) didn't match pod topology spread constraints` (and `... (missing
// required label)` for nodes without the topology key). The domain that would balance the skew is
// full or gone, so every node that has room makes the skew worse.

interface Constraint {
  maxSkew?: number;
  topologyKey?: string;
  whenUnsatisfiable?: string;
  labelSelector?: { matchLabels?: Record<string, string> };
  minDomains?: number;
}

function domains(nodes: readonly Node[], key: string): { values: string[]; unlabeled: number } {
  const values = new Set<string>();
  let unlabeled = 0;
  for (const n of nodes) {
    const v = n.metadata?.labels?.[key];
    if (v === undefined) unlabeled++;
    else values.add(v);
  }
  return { values: [...values].sort(), unlabeled };
}

export const rule = defineRule({
  meta: {
    id: 'pending.topology-spread',
    title: 'Not scheduled: a topology spread constraint leaves no node',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 55,
    doc:
      "FailedScheduling says `node(s) didn't match pod topology spread constraints` (or `(missing required label)`): " +
      'a DoNotSchedule constraint allows only nodes that keep the skew between its topology domains within maxSkew, ' +
      'and those are full, tainted or gone (a zone without capacity, a zone the node group no longer has). ' +
      'Names the constraint, its domains and what rules out the others.',
    messages: {
      title: 'Pod cannot be scheduled: its topology spread constraint rules out {{count}} node(s)',
      pending: 'The pod has been Pending for {{duration}}: {{reasons}}.',
      constraintAllows: 'Its hard constraint ({{constraints}}) allows only nodes that keep the pods of its selector balanced across the domains;',
      someConstraintAllows: 'Its hard topology spread constraint allows only nodes that keep the pods of its selector balanced across the domains;',
      allowedRuledOut: 'the nodes it allows are ruled out for other reasons ({{others}}).',
      allowedRuledOutUnlabeled: 'the nodes it allows are ruled out for other reasons ({{others}}), and nodes without the topology label never count.',
      noneAllowed: 'no node it allows is left.',
      noneAllowedUnlabeled: 'no node it allows is left, and nodes without the topology label never count.',
      noRoom: 'The domain that would restore the balance has no room (or no node at all), and placing the pod elsewhere would exceed maxSkew.',
      addCapacity: 'Add capacity in the domain the pods are missing from (a node group per zone, or let the autoscaler scale that zone), or free room there.',
      relax: 'If availability allows, relax the constraint: a higher maxSkew, or whenUnsatisfiable: ScheduleAnyway (a preference instead of a rule).',
      prevent:
        'Give every zone its own node group (the autoscaler scales zones separately), ' + 'and keep DoNotSchedule for workloads that truly need the spread.',
    },
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const { pod, fit } = failure;
    const spread = reasonsOf(fit, 'topology-spread');
    if (spread.length === 0) return null;
    const constraints = ((pod.spec as { topologySpreadConstraints?: Constraint[] } | undefined)?.topologySpreadConstraints ?? []).filter(
      (c) => (c.whenUnsatisfiable ?? 'DoNotSchedule') === 'DoNotSchedule',
    );
    const nodes = snapshot.nodes ?? [];
    const evidence: Evidence[] = [...failure.evidence];
    const described = constraints.map((c) => {
      const d = domains(nodes, c.topologyKey ?? '');
      const text =
        `topologyKey ${c.topologyKey}, maxSkew ${c.maxSkew ?? 1}${c.minDomains ? `, minDomains ${c.minDomains}` : ''}, DoNotSchedule; ` +
        `domains: ${d.values.join(', ') || 'none'}${d.unlabeled ? `; ${d.unlabeled} node(s) without the label` : ''}`;
      evidence.push({ source: 'pod.spec.topologySpreadConstraints', text });
      return text;
    });
    const others = otherReasons(fit, 'topology-spread');
    const missingLabel = spread.some((r) => /missing required label/.test(r.text));
    return {
      severity: rankSeverity(snapshot, fit, 'topology-spread'),
      title: msg('title', { count: spread.reduce((n, r) => n + r.count, 0) }),
      cause: [
        msg('pending', { duration: formatDuration(failure.seconds), reasons: spread.map((r) => `${r.count} ${r.text}`).join(', ') }),
        described.length ? msg('constraintAllows', { constraints: described.join('; ') }) : msg('someConstraintAllows'),
        others.length
          ? msg(missingLabel ? 'allowedRuledOutUnlabeled' : 'allowedRuledOut', { others: others.join(', ') })
          : msg(missingLabel ? 'noneAllowedUnlabeled' : 'noneAllowed'),
        msg('noRoom'),
      ],
      evidence,
      advice: [msg('addCapacity'), msg('relax')],
      prevent: [msg('prevent')],
      causeKey: `pending/${pod.metadata?.namespace ?? ''}/${pod.metadata?.labels?.app ?? pod.metadata?.name ?? ''}:topology-spread`,
      params: { constraints: constraints.map((c) => c.topologyKey ?? '') },
    };
  },
});
