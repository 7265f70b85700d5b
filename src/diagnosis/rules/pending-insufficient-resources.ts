// pending.insufficient-resources: Not scheduled: not enough free cpu/memory/GPU on any node.

import { claimNames, volumePin } from '../claims.js';
import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
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
import type { Evidence, Said } from '../types.js';

const messages = {
  title: 'Pod cannot be scheduled: insufficient {{resources}}',
  notEnough:
    'The pod has been Pending for {{duration}}: {{count}} node(s) do not have enough unrequested {{resources}} for it ' +
    '(the scheduler counts requests, not actual usage).',
  requests: '{{resource}}: the pod requests {{want}}.',
  requestsVsFree: '{{resource}}: the pod requests {{want}}; the best node, {{node}}, has {{free}} free of {{allocatable}} allocatable.',
  requestsVsAllocatable: '{{resource}}: the pod requests {{want}}; the best node, {{node}}, has {{allocatable}} allocatable (requests of its pods unknown).',
  neverFits: 'The request is larger than the allocatable capacity of every node, so it can never fit as is.',
  othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
  notCollected: 'Node capacity could not be compared: the nodes were not collected.',
  lowerBelowLargest: "Lower the pod's {{resources}} request below the largest node's allocatable, or add a node type large enough.",
  lowerOrFree: "Lower the pod's {{resources}} request to what it really needs, " + 'or free capacity (scale down or remove unused workloads on {{node}}).',
  addNodes: 'Add nodes (or let the cluster autoscaler do it: check its status and node-group limits).',
  describeNode: '`kubectl describe node <node>` shows "Allocated resources" per node.',
  sizeRequests: 'Size requests from observed usage (e.g. VPA recommendations) instead of guesses.',
  alertRatio: 'Alert on cluster requested/allocatable ratio and keep headroom or an autoscaler with room to grow.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'pending.insufficient-resources',
    title: 'Not scheduled: not enough free cpu/memory/GPU on any node',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes', 'podsOnNode', 'pvcs', 'volumes'],
    // All FitError-based pending.* rules share one priority: severity picks the dominant cause.
    priority: 55,
    doc:
      'FailedScheduling says `Insufficient <resource>`: the pod requests more than any node has left ' +
      '(allocatable minus the requests of pods already there). The finding shows the request against the best node.',
    messages,
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
    const comparisons: Said<Id>[] = [];
    let neverFits = false;
    let bestNode: string | undefined;
    for (const resource of resources) {
      const want = requests[resource];
      const wantText = want === undefined ? 'nothing explicit' : formatResource(resource, want);
      const best = [...usage].sort((a, b) => freeOf(b, resource) - freeOf(a, resource))[0];
      if (!best) {
        comparisons.push(msg('requests', { resource, want: wantText }));
        continue;
      }
      bestNode ??= best.name;
      const free = freeOf(best, resource);
      const alloc = best.allocatable[resource] ?? 0;
      const largest = Math.max(...usage.map((u: NodeUsage) => u.allocatable[resource] ?? 0));
      if (want !== undefined && want > largest) neverFits = true;
      comparisons.push(
        requestsKnown
          ? msg('requestsVsFree', {
              resource,
              want: wantText,
              node: best.name,
              free: formatResource(resource, Math.max(0, free)),
              allocatable: formatResource(resource, alloc),
            })
          : msg('requestsVsAllocatable', { resource, want: wantText, node: best.name, allocatable: formatResource(resource, alloc) }),
      );
      evidence.push({
        source: `node ${best.name} status.allocatable − requests of its pods`,
        text: `${resource}: allocatable ${formatResource(resource, alloc)}${
          requestsKnown
            ? `, requested ${formatResource(resource, best.requested?.[resource] ?? 0)} by ${best.podCount ?? 0} pods` +
              `, free ${formatResource(resource, Math.max(0, free))}`
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
    return {
      // When a bound volume pins the pod to the nodes that lack room, pending.pvc names the real
      // constraint (room there, not anywhere); this finding is then a detail of it.
      severity: pinnedByVolume ? 'warning' : rankSeverity(snapshot, fit, 'resources'),
      title: msg('title', { resources: resources.join(', ') }),
      cause: [
        msg('notEnough', { duration: formatDuration(failure.seconds), count: nodeCount, resources: resources.join(' and ') }),
        ...comparisons,
        neverFits && msg('neverFits'),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
        usage.length === 0 && msg('notCollected'),
      ],
      evidence,
      advice: [
        neverFits
          ? msg('lowerBelowLargest', { resources: resources.join('/') })
          : msg('lowerOrFree', { resources: resources.join('/'), node: bestNode ?? 'the nodes' }),
        msg('addNodes'),
        msg('describeNode'),
      ],
      prevent: [msg('sizeRequests'), msg('alertRatio')],
      causeKey: `resource:${resources.join(',')}`,
      params: { resources, ...(bestNode ? { bestNode } : {}) },
    };
  },
});
