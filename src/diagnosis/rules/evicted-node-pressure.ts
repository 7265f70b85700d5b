// evicted.node-pressure: Pod evicted by the kubelet.

import { workloadKey } from '../crashes.js';
import { eventEvidence, eventsWithReason, formatDuration, newestFirst, nodeCondition, nodeTaints, secondsSince } from '../facts.js';
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
const OWN_LIMIT =
  /Pod ephemeral local storage usage exceeds the total limit of containers (\S+?)\.(?:\s|$)|Usage of EmptyDir volume "([^"]+)" exceeds the limit "([^"]+)"|Container (\S+) exceeded its local ephemeral storage limit "([^"]+)"/;

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
    doc: 'The pod is Failed with reason Evicted: the kubelet stopped it to save its node ("The node was low on resource: memory"), or because it exceeded its own ephemeral-storage limits. Names the resource, the container\'s usage against its request, and the node\'s MemoryPressure/DiskPressure now.',
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
    const ago = since !== undefined ? ` ${formatDuration(since)} ago` : '';

    const own = OWN_LIMIT.exec(message);
    if (own) {
      const [, podLimit, volume, volumeLimit, container, containerLimit] = own;
      const what = podLimit
        ? `the pod's ephemeral storage exceeded the sum of its containers' limits (${podLimit})`
        : volume
          ? `emptyDir volume "${volume}" grew past its sizeLimit ${volumeLimit ?? ''}`
          : `container "${container ?? ''}" exceeded its ephemeral-storage limit ${containerLimit ?? ''}`;
      return {
        title: `Pod evicted for exceeding its own ephemeral-storage limit on ${nodeName}`,
        cause: `The kubelet on ${nodeName} evicted the pod${ago} because ${what}. The node was not short of disk; the pod broke its own limit (logs, temp files or caches written to the container filesystem or an emptyDir).`,
        evidence,
        advice: [
          'Find what writes to local disk (container logs to files, /tmp, caches) and bound it, or raise the ephemeral-storage limit / emptyDir sizeLimit to the real need.',
          'Write large data to a PersistentVolume instead of the container filesystem.',
        ],
        prevent: ['Set ephemeral-storage requests and limits from measured usage and alert on kubelet_volume_stats / container_fs_usage_bytes.'],
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
        ? ` ${usages.map((u) => `Container "${u.container}" ${usageWords(resource, u.used, u.request)}`).join('; ')}, so the kubelet ranked this pod first among the pods to evict (usage above request goes first).`
        : ' The message names no container usage (old kubelet or a condition-based eviction).';
    const nodeNow =
      node.pressureNow === true
        ? ` ${condition} is still True on ${nodeName}: more pods will be evicted.`
        : node.pressureNow === false
          ? ` ${condition} is False on ${nodeName} now: the kubelet reclaimed enough.`
          : snapshot.node
            ? ''
            : ` The node ${nodeName} could not be read.`;
    const memory = resource === 'memory';
    return {
      severity: node.pressureNow ? 'error' : 'warning',
      title: `Pod evicted: node ${nodeName} was low on ${resource}`,
      cause: `The kubelet on ${nodeName} evicted the pod${ago} to protect the node: it was low on ${resource}${threshold ? ` (eviction threshold ${threshold[1]?.trim() ?? ''}, available ${threshold[2]?.trim() ?? ''})` : ''}.${usageText}${nodeNow}`,
      evidence,
      advice: [
        memory
          ? 'Set the memory request close to real usage (and a limit), so the scheduler does not overcommit the node and the pod is not first in line.'
          : resource === 'pids'
            ? 'Find the process that forks without bound and set a pod PID limit.'
            : 'Set ephemeral-storage requests/limits for the pods that write to local disk, and clean the node (unused images, old logs) if it is still under pressure.',
        `Check what else uses ${resource} on ${nodeName} (kubectl describe node ${nodeName}, top pods by usage).`,
        'The controller already replaced the pod; delete the Evicted pod objects once understood (kubectl delete pod --field-selector=status.phase=Failed).',
      ],
      prevent: [
        'Requests that match real usage for every pod (Guaranteed QoS for critical ones), and ephemeral-storage limits where pods write to disk.',
        'Alert on node MemoryPressure/DiskPressure and keep headroom above the kubelet eviction thresholds.',
      ],
      causeKey: `node/${nodeName}:${resource}`,
      params: {
        node: nodeName,
        resource,
        ...(usages[0] ? { container: usages[0].container, usage: usages[0].used, ...(usages[0].request ? { request: usages[0].request } : {}) } : {}),
      },
    };
  },
});
