// pending.pod-affinity: Not scheduled: pod (anti-)affinity rules no node satisfies.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence } from '../types.js';

// Inter-pod (anti-)affinity no node satisfies: `0/5 nodes are available: 2 node(s) didn't match
// pod anti-affinity rules, 3 node(s) didn't match pod affinity rules.` (1.20+), older
// `node(s) didn't match pod affinity/anti-affinity`, ≤1.8 `MatchInterPodAffinity`, and
// `didn't satisfy existing pods anti-affinity rules` (another pod's anti-affinity repels this one).

function terms(kind: 'podAffinity' | 'podAntiAffinity', affinity: Record<string, unknown> | undefined): string[] {
  const a = (affinity?.[kind] ?? {}) as {
    requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey?: string; labelSelector?: unknown; namespaces?: string[] }[];
  };
  return (a.requiredDuringSchedulingIgnoredDuringExecution ?? []).map(
    (t) => `${JSON.stringify(t.labelSelector ?? {})} per ${t.topologyKey ?? '?'}${t.namespaces?.length ? ` in ${t.namespaces.join(',')}` : ''}`,
  );
}

export const rule = defineRule({
  meta: {
    id: 'pending.pod-affinity',
    title: 'Not scheduled: pod (anti-)affinity rules no node satisfies',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 55,
    doc:
      "FailedScheduling says `node(s) didn't match pod affinity rules`, `didn't match pod anti-affinity rules` " +
      "or `didn't satisfy existing pods anti-affinity rules` (older: `pod affinity/anti-affinity`, `MatchInterPodAffinity`): " +
      'required inter-pod (anti-)affinity leaves no node, typically more replicas than topology domains with a hostname anti-affinity, ' +
      'or an affinity to pods that do not exist.',
    messages: {
      title: 'Pod cannot be scheduled: {{reasons}}',
      ruledOut: 'The pod has been Pending for {{duration}}: {{count}} node(s) are ruled out by required inter-pod rules ({{reasons}}).',
      antiAffinity: 'Its anti-affinity: {{terms}}.',
      affinity: 'Its affinity: {{terms}}, which needs a matching pod already running in the same topology domain.',
      repelled: 'Some nodes run pods whose own anti-affinity keeps this pod away.',
      othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
      onePerNode:
        'A required anti-affinity per kubernetes.io/hostname allows one replica per node: reduce replicas to the number of eligible nodes, ' +
        'add nodes, or make it preferredDuringScheduling (or use topologySpreadConstraints with whenUnsatisfiable: ScheduleAnyway).',
      checkTargets:
        'Check that the pods the affinity refers to exist and carry the labels it selects (`kubectl get pods -A -l <selector>`), ' +
        'and that the topologyKey label is set on the nodes.',
      preferPreferred: 'Use preferredDuringScheduling for spreading wishes; required rules block scheduling whenever the cluster shape changes.',
      prevent: 'Keep replicas ≤ eligible topology domains for required anti-affinity, and prefer topologySpreadConstraints for spreading.',
    },
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'pod-affinity');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;
    const affinity = pod.spec?.affinity as Record<string, unknown> | undefined;
    const anti = terms('podAntiAffinity', affinity);
    const pro = terms('podAffinity', affinity);
    const evidence: Evidence[] = [...failure.evidence];
    if (anti.length) evidence.push({ source: 'pod.spec.affinity.podAntiAffinity.required', text: anti.join('; ') });
    if (pro.length) evidence.push({ source: 'pod.spec.affinity.podAffinity.required', text: pro.join('; ') });
    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const repelled = reasons.some((r) => /existing pods anti-affinity/.test(r.text));
    const others = otherReasons(fit, 'pod-affinity');
    const hostname = anti.some((t) => t.endsWith('per kubernetes.io/hostname'));
    return {
      severity: rankSeverity(snapshot, fit, 'pod-affinity'),
      title: msg('title', { reasons: reasons.map((r) => r.text.replace(/^node\(s\) /, '')).join(', ') }),
      cause: [
        msg('ruledOut', {
          duration: formatDuration(failure.seconds),
          count: nodeCount,
          reasons: reasons.map((r) => `${r.count} ${r.text}`).join(', '),
        }),
        anti.length > 0 && msg('antiAffinity', { terms: anti.join('; ') }),
        pro.length > 0 && msg('affinity', { terms: pro.join('; ') }),
        repelled && msg('repelled'),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      evidence,
      advice: [hostname ? msg('onePerNode') : msg('checkTargets'), msg('preferPreferred')],
      prevent: [msg('prevent')],
      causeKey: `pod-affinity:${pod.metadata?.namespace ?? ''}/${pod.metadata?.ownerReferences?.[0]?.name ?? pod.metadata?.name ?? ''}`,
      params: { nodes: nodeCount, ...(anti.length ? { antiAffinity: anti } : {}), ...(pro.length ? { affinity: pro } : {}) },
    };
  },
});
