// pending.nodes-cordoned: Not scheduled: the nodes that would fit are cordoned.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence } from '../types.js';

// Cordoned nodes (spec.unschedulable, a drain or maintenance) take no new pods: FailedScheduling
// `N node(s) were unschedulable`. When those are the nodes the pod would fit, it waits for the
// maintenance to end; the nodes are fine, they are closed.

export const rule = defineRule({
  meta: {
    id: 'pending.nodes-cordoned',
    title: 'Not scheduled: the nodes that would fit are cordoned',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 54,
    doc:
      'FailedScheduling says `node(s) were unschedulable`: nodes are cordoned (spec.unschedulable, a drain or maintenance in progress) ' +
      'and the others do not fit. Names the cordoned nodes and since when; uncordon them when the maintenance is over, or add capacity.',
    messages: {
      title: 'Pod cannot be scheduled: {{count}} node(s) are cordoned',
      cordoned: 'The pod has been Pending for {{duration}}: {{reasons}}: cordoned for a drain or maintenance, they take no new pods.',
      cordonedNamed: 'The pod has been Pending for {{duration}}: {{reasons}} ({{nodes}}): cordoned for a drain or maintenance, they take no new pods.',
      othersRuledOut: 'The other nodes were ruled out for: {{others}}.',
      noOtherNode: 'No other node exists.',
      uncordon: 'If the maintenance is over: `kubectl uncordon {{node}}`.',
      uncordonAll: 'If the maintenance is over: `kubectl uncordon {{node}}` (and the others).',
      waitByDesign: 'If it is not, the pod waits by design; add capacity elsewhere if it cannot wait.',
      prevent: 'Uncordon nodes as the last step of every maintenance (automation that drains should also uncordon), and alert on nodes cordoned for hours.',
    },
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const { fit } = failure;
    const closed = reasonsOf(fit, 'unschedulable');
    if (closed.length === 0) return null;
    const cordoned = (snapshot.nodes ?? []).filter((n) => n.spec?.unschedulable);
    const names = cordoned.map((n) => n.metadata?.name ?? '?');
    const evidence: Evidence[] = [...failure.evidence];
    if (names.length)
      evidence.push({ source: 'nodes with spec.unschedulable', text: names.slice(0, 10).join(', ') + (names.length > 10 ? ` (+${names.length - 10})` : '') });
    const others = otherReasons(fit, 'unschedulable');
    return {
      severity: rankSeverity(snapshot, fit, 'unschedulable'),
      title: msg('title', { count: closed.reduce((n, r) => n + r.count, 0) }),
      cause: [
        msg(names.length ? 'cordonedNamed' : 'cordoned', {
          duration: formatDuration(failure.seconds),
          reasons: closed.map((r) => `${r.count} ${r.text}`).join(', '),
          nodes: names.slice(0, 5).join(', ') + (names.length > 5 ? '…' : ''),
        }),
        others.length ? msg('othersRuledOut', { others: others.join(', ') }) : msg('noOtherNode'),
      ],
      evidence,
      advice: [msg(names.length > 1 ? 'uncordonAll' : 'uncordon', { node: names[0] ?? '<node>' }), msg('waitByDesign')],
      prevent: [msg('prevent')],
      causeKey: `cluster:cordoned:${names.join(',')}`,
      params: { cordoned: names },
    };
  },
});
