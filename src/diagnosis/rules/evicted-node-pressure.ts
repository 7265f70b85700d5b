// evicted.node-pressure: Pod evicted by the kubelet.

import { workloadKey } from '../crashes.js';
import { eventEvidence, eventsWithReason, formatDuration, newestFirst, nodeCondition, nodeTaints, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { formatResource, parseQuantity } from '../quantity.js';
import { defineRule } from '../rule.js';
import type { Evidence, Snapshot } from '../types.js';

// Kubelet eviction messages (pkg/kubelet/eviction/helpers.go), newest first:
//   `The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container
//    web was using 1Gi, request is 128Mi, has larger consumption of memory. `
//   older `... Container web was using 1Gi, which exceeds its request of 128Mi. `
//   oldest `The node was low on resource: [DiskPressure].`; `The node had condition: [DiskPressure]. `
// and evictions for the pod's own limits (not node pressure):
//   `Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. `,
//   `Usage of EmptyDir volume "cache" exceeds the limit "1Gi". `,
//   `Container web exceeded its local ephemeral storage limit "500Mi". `.
const LOW_ON = /The node (?:was low on resource|had condition): \[?([\w./-]+)\]?\./;
const THRESHOLD = /Threshold quantity: ([^,]+), available: ([^.]+?)\. /;
const USAGE = /Container (\S+) was using (\S+?), (?:request is (\S+?), has larger consumption of [\w./-]+|which exceeds its request of (\S+?))\.(?:\s|$)/g;
const OWN_LIMIT = new RegExp(
  [
    /Pod ephemeral local storage usage exceeds the total limit of containers (\S+?)\.(?:\s|$)/.source,
    /Usage of EmptyDir volume "([^"]+)" exceeds the limit "([^"]+)"/.source,
    /Container (\S+) exceeded its local ephemeral storage limit "([^"]+)"/.source,
  ].join('|'),
);

/** Node condition that goes with a reclaimed resource. */
export function pressureCondition(resource: string): string {
  if (/^(memory|MemoryPressure)$/.test(resource)) return 'MemoryPressure';
  if (/^(pids?|PIDPressure)$/.test(resource)) return 'PIDPressure';
  return 'DiskPressure';
}

/** `memory`, `ephemeral-storage`, `pids`; `[DiskPressure]` (old kubelets) → `ephemeral-storage`. */
function resourceName(raw: string): string {
  if (raw === 'MemoryPressure') return 'memory';
  if (raw === 'PIDPressure') return 'pids';
  if (raw === 'DiskPressure' || /^(nodefs|imagefs)/.test(raw)) return 'ephemeral-storage';
  return raw;
}

function usageWords(resource: string, used: string, request: string | undefined): string {
  const u = parseQuantity(used);
  const r = request !== undefined ? parseQuantity(request) : Number.NaN;
  const ratio = Number.isFinite(u) && Number.isFinite(r) && r > 0 ? ` (${(u / r).toFixed(1)}× its request)` : '';
  const req = request === undefined || r === 0 ? 'no request' : `a request of ${request}`;
  return `was using ${Number.isFinite(u) ? formatResource(resource, u) : used} with ${req}${ratio}`;
}

function nodeEvidence(snapshot: Snapshot, condition: string): { evidence: Evidence[]; pressureNow: boolean | undefined } {
  const evidence: Evidence[] = [];
  const c = nodeCondition(snapshot.node, condition);
  if (c)
    evidence.push({
      source: `node ${snapshot.node?.metadata?.name ?? ''} condition ${condition}`,
      text: `${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}${c.lastTransitionTime ? ` (since ${c.lastTransitionTime})` : ''}`,
    });
  const taint = nodeTaints(snapshot.node).find((t) => t.includes('pressure'));
  if (taint) evidence.push({ source: `node ${snapshot.node?.metadata?.name ?? ''} taints`, text: taint });
  const reclaim = newestFirst(
    (snapshot.nodeEvents ?? []).filter((e) => e.reason === 'EvictionThresholdMet' || /NodeHas(Insufficient|Disk)/.test(e.reason ?? '')),
  )[0];
  if (reclaim) evidence.push(eventEvidence(reclaim));
  return { evidence, pressureNow: c ? c.status === 'True' : undefined };
}

export const rule = defineRule({
  meta: {
    id: 'evicted.node-pressure',
    title: 'Pod evicted by the kubelet',
    category: 'evicted',
    severity: 'warning',
    needs: ['pod', 'events', 'node', 'nodeEvents'],
    priority: 45,
    doc:
      'The pod is Failed with reason Evicted: the kubelet stopped it to save its node ("The node was low on resource: memory"), ' +
      "or because it exceeded its own ephemeral-storage limits. Names the resource, the container's usage against its request, " +
      "and the node's MemoryPressure/DiskPressure now.",
    messages: {
      titleOwnLimit: 'Pod evicted for exceeding its own ephemeral-storage limit on {{node}}',
      // The own-limit cause: who evicted, then why (one clause of the three below), joined by a space.
      ownLimitEvicted: 'The kubelet on {{node}} evicted the pod because',
      ownLimitEvictedAgo: 'The kubelet on {{node}} evicted the pod {{ago}} ago because',
      podStorageExceeded: "the pod's ephemeral storage exceeded the sum of its containers' limits ({{limit}}).",
      emptyDirExceeded: 'emptyDir volume "{{volume}}" grew past its sizeLimit {{limit}}.',
      containerExceeded: 'container "{{container}}" exceeded its ephemeral-storage limit {{limit}}.',
      notShortOfDisk:
        'The node was not short of disk; the pod broke its own limit (logs, temp files or caches written to the container filesystem or an emptyDir).',
      boundWrites:
        'Find what writes to local disk (container logs to files, /tmp, caches) and bound it, ' +
        'or raise the ephemeral-storage limit / emptyDir sizeLimit to the real need.',
      usePersistentVolume: 'Write large data to a PersistentVolume instead of the container filesystem.',
      preventOwnLimit: 'Set ephemeral-storage requests and limits from measured usage and alert on kubelet_volume_stats / container_fs_usage_bytes.',
      title: 'Pod evicted: node {{node}} was low on {{resource}}',
      lowOn: 'The kubelet on {{node}} evicted the pod to protect the node: it was low on {{resource}}.',
      lowOnAgo: 'The kubelet on {{node}} evicted the pod {{ago}} ago to protect the node: it was low on {{resource}}.',
      lowOnThreshold:
        'The kubelet on {{node}} evicted the pod to protect the node: it was low on {{resource}} (eviction threshold {{threshold}}, available {{available}}).',
      lowOnThresholdAgo:
        'The kubelet on {{node}} evicted the pod {{ago}} ago to protect the node: ' +
        'it was low on {{resource}} (eviction threshold {{threshold}}, available {{available}}).',
      rankedFirst: '{{usages}}, so the kubelet ranked this pod first among the pods to evict (usage above request goes first).',
      noUsage: 'The message names no container usage (old kubelet or a condition-based eviction).',
      stillPressure: '{{condition}} is still True on {{node}}: more pods will be evicted.',
      pressureGone: '{{condition}} is False on {{node}} now: the kubelet reclaimed enough.',
      nodeUnread: 'The node {{node}} could not be read.',
      memoryRequest:
        'Set the memory request close to real usage (and a limit), so the scheduler does not overcommit the node and the pod is not first in line.',
      pidLimit: 'Find the process that forks without bound and set a pod PID limit.',
      diskLimits:
        'Set ephemeral-storage requests/limits for the pods that write to local disk, ' +
        'and clean the node (unused images, old logs) if it is still under pressure.',
      checkNode: 'Check what else uses {{resource}} on {{node}} (kubectl describe node {{node}}, top pods by usage).',
      deleteEvicted:
        'The controller already replaced the pod; delete the Evicted pod objects once understood (kubectl delete pod --field-selector=status.phase=Failed).',
      preventRequests:
        'Requests that match real usage for every pod (Guaranteed QoS for critical ones), and ephemeral-storage limits where pods write to disk.',
      preventAlert: 'Alert on node MemoryPressure/DiskPressure and keep headroom above the kubelet eviction thresholds.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.reason !== 'Evicted') return null;
    const message = pod.status.message ?? '';
    const nodeName = pod.spec?.nodeName ?? snapshot.node?.metadata?.name ?? '?';
    const when = (pod.status.conditions ?? []).find((c) => c.type === 'DisruptionTarget')?.lastTransitionTime;
    const since = secondsSince(snapshot, when);
    const evicted = newestFirst(eventsWithReason(snapshot, 'Evicted'))[0];
    const evidence: Evidence[] = [{ source: 'pod.status (reason Evicted)', text: message || 'Evicted' }];
    if (evicted && evicted.message !== message) evidence.push(eventEvidence(evicted));
    const ago = since !== undefined ? formatDuration(since) : undefined;

    const own = OWN_LIMIT.exec(message);
    if (own) {
      const [, podLimit, volume, volumeLimit, container, containerLimit] = own;
      return {
        title: msg('titleOwnLimit', { node: nodeName }),
        cause: [
          ago !== undefined ? msg('ownLimitEvictedAgo', { node: nodeName, ago }) : msg('ownLimitEvicted', { node: nodeName }),
          podLimit
            ? msg('podStorageExceeded', { limit: podLimit })
            : volume
              ? msg('emptyDirExceeded', { volume, limit: volumeLimit ?? '' })
              : msg('containerExceeded', { container: container ?? '', limit: containerLimit ?? '' }),
          msg('notShortOfDisk'),
        ],
        evidence,
        advice: [msg('boundWrites'), msg('usePersistentVolume')],
        prevent: [msg('preventOwnLimit')],
        causeKey: `workload/${workloadKey(pod)}:ephemeral-storage-limit`,
        params: { node: nodeName, resource: 'ephemeral-storage', ...(container ? { container } : {}) },
      };
    }

    const low = LOW_ON.exec(message);
    const raw = low?.[1];
    const resource = raw ? resourceName(raw) : 'unknown';
    const condition = raw ? pressureCondition(raw) : 'MemoryPressure';
    const threshold = THRESHOLD.exec(message);
    const usages = [...message.matchAll(USAGE)].map((m) => ({ container: m[1] ?? '?', used: m[2] ?? '?', request: m[3] ?? m[4] }));
    const node = nodeEvidence(snapshot, condition);
    evidence.push(...node.evidence);

    const usageText =
      usages.length > 0
        ? msg('rankedFirst', { usages: usages.map((u) => `Container "${u.container}" ${usageWords(resource, u.used, u.request)}`).join('; ') })
        : msg('noUsage');
    const nodeNow =
      node.pressureNow === true
        ? msg('stillPressure', { condition, node: nodeName })
        : node.pressureNow === false
          ? msg('pressureGone', { condition, node: nodeName })
          : snapshot.node
            ? null
            : msg('nodeUnread', { node: nodeName });
    const memory = resource === 'memory';
    const lowOn = { node: nodeName, resource };
    const limits = threshold ? { ...lowOn, threshold: threshold[1]?.trim() ?? '', available: threshold[2]?.trim() ?? '' } : undefined;
    return {
      severity: node.pressureNow ? 'error' : 'warning',
      title: msg('title', lowOn),
      cause: [
        limits
          ? ago !== undefined
            ? msg('lowOnThresholdAgo', { ...limits, ago })
            : msg('lowOnThreshold', limits)
          : ago !== undefined
            ? msg('lowOnAgo', { ...lowOn, ago })
            : msg('lowOn', lowOn),
        usageText,
        nodeNow,
      ],
      evidence,
      advice: [memory ? msg('memoryRequest') : resource === 'pids' ? msg('pidLimit') : msg('diskLimits'), msg('checkNode', lowOn), msg('deleteEvicted')],
      prevent: [msg('preventRequests'), msg('preventAlert')],
      causeKey: `node/${nodeName}:${resource}`,
      params: {
        node: nodeName,
        resource,
        ...(usages[0] ? { container: usages[0].container, usage: usages[0].used, ...(usages[0].request ? { request: usages[0].request } : {}) } : {}),
      },
    };
  },
});
