// pending.insufficient-resources: Not scheduled: not enough free cpu/memory/GPU on any node.

import { claimNames, volumePin } from '../claims.js';
import { formatDuration } from '../facts.js';
import { formatResource } from '../quantity.js';
import { defineRule } from '../rule.js';
import {
  freeOf,
  isDaemonSetPod,
  type NodeUsage,
  nodeUsage,
  otherReasons,
  podRequests,
  rankSeverity,
  reasonsOf,
  schedulingFailure,
  selectorCheck,
  untoleratedTaints,
} from '../scheduling.js';
import type { Evidence } from '../types.js';

export const rule = defineRule({
  meta: {
    id: 'pending.insufficient-resources',
    title: 'Not scheduled: not enough free cpu/memory/GPU on any node',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes', 'podsOnNode', 'pvcs', 'volumes'],
    // All FitError-based pending.* rules share one priority: severity picks the dominant cause.
    priority: 55,
    doc: 'FailedScheduling says `Insufficient <resource>`: the pod requests more than any node has left (allocatable minus the requests of pods already there). The finding shows the request against the best node.',
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'resources');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;
    const resources = [...new Set(reasons.map((r) => r.resource ?? '?'))].sort();
    const requests = podRequests(pod);
    // Compare only with nodes the pod could otherwise use: not cordoned, taints tolerated, selector met.
    const all = nodeUsage(snapshot).filter((u) => !u.cordoned);
    const check = selectorCheck(pod, snapshot.nodes ?? [], isDaemonSetPod(pod));
    const eligible = all.filter((u) => untoleratedTaints(pod, u.node).length === 0 && (!check || check.matching.includes(u.name)));
    const usage = eligible.length > 0 ? eligible : all;
    const requestsKnown = snapshot.podsOnNode !== undefined;

    const evidence: Evidence[] = [...failure.evidence];
    const comparisons: string[] = [];
    let neverFits = false;
    let bestNode: string | undefined;
    for (const resource of resources) {
      const want = requests[resource];
      const wantText = want === undefined ? 'nothing explicit' : formatResource(resource, want);
      const best = [...usage].sort((a, b) => freeOf(b, resource) - freeOf(a, resource))[0];
      if (!best) {
        comparisons.push(`${resource}: the pod requests ${wantText}`);
        continue;
      }
      bestNode ??= best.name;
      const free = freeOf(best, resource);
      const alloc = best.allocatable[resource] ?? 0;
      const largest = Math.max(...usage.map((u: NodeUsage) => u.allocatable[resource] ?? 0));
      if (want !== undefined && want > largest) neverFits = true;
      const detail = requestsKnown
        ? `${formatResource(resource, Math.max(0, free))} free of ${formatResource(resource, alloc)} allocatable`
        : `${formatResource(resource, alloc)} allocatable (requests of its pods unknown)`;
      comparisons.push(`${resource}: the pod requests ${wantText}; the best node, ${best.name}, has ${detail}`);
      evidence.push({
        source: `node ${best.name} status.allocatable − requests of its pods`,
        text: `${resource}: allocatable ${formatResource(resource, alloc)}${
          requestsKnown
            ? `, requested ${formatResource(resource, best.requested?.[resource] ?? 0)} by ${best.podCount ?? 0} pods, free ${formatResource(resource, Math.max(0, free))}`
            : ''
        }`,
      });
    }

    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const others = otherReasons(fit, 'resources');
    const pinnedByVolume =
      reasonsOf(fit, 'volume').length > 0 &&
      volumePin(
        snapshot,
        claimNames(pod).map((name) => ({ name, pvc: snapshot.pvcs?.[name] })),
      ) !== undefined;
    const gapNote = usage.length === 0 ? ' Node capacity could not be compared: the nodes were not collected.' : '';
    return {
      // When a bound volume pins the pod to the nodes that lack room, pending.pvc names the real
      // constraint (room there, not anywhere); this finding is then a detail of it.
      severity: pinnedByVolume ? 'warning' : rankSeverity(snapshot, fit, 'resources'),
      title: `Pod cannot be scheduled: insufficient ${resources.join(', ')}`,
      cause:
        `The pod has been Pending for ${formatDuration(failure.seconds)}: ${nodeCount} node(s) do not have enough unrequested ${resources.join(' and ')} for it ` +
        `(the scheduler counts requests, not actual usage). ${comparisons.join('. ')}.` +
        (neverFits ? ' The request is larger than the allocatable capacity of every node, so it can never fit as is.' : '') +
        (others.length ? ` Other nodes were ruled out for: ${others.join(', ')}.` : '') +
        gapNote,
      evidence,
      advice: [
        neverFits
          ? `Lower the pod's ${resources.join('/')} request below the largest node's allocatable, or add a node type large enough.`
          : `Lower the pod's ${resources.join('/')} request to what it really needs, or free capacity (scale down or remove unused workloads on ${bestNode ?? 'the nodes'}).`,
        'Add nodes (or let the cluster autoscaler do it: check its status and node-group limits).',
        '`kubectl describe node <node>` shows "Allocated resources" per node.',
      ],
      prevent: [
        'Size requests from observed usage (e.g. VPA recommendations) instead of guesses.',
        'Alert on cluster requested/allocatable ratio and keep headroom or an autoscaler with room to grow.',
      ],
      causeKey: `resource:${resources.join(',')}`,
      params: { resources, ...(bestNode ? { bestNode } : {}) },
    };
  },
});
