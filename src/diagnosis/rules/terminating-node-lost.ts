// terminating.node-lost: Deletion stuck: the node is unreachable.

import {
  eventEvidence,
  eventsWithReason,
  formatDuration,
  isFinished,
  isStatefulSetPod,
  isStuckTerminating,
  newestFirst,
  nodeCondition,
  nodeNotReady,
  secondsPastDeletion,
  secondsSince,
} from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

const LOST_TAINTS = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'];
/**
 * With Lease heartbeats (1.17+) a kubelet whose status does not change posts it only every
 * nodeStatusReportFrequency (5m), so a NotReady condition's lastHeartbeatTime is up to 5m old
 * while the kubelet lives. Only past that plus the node-monitor grace (40s, 50s on 1.32+) and
 * some slack has it stopped posting (and the node controller failed to mark it Unknown).
 */
const STALE_HEARTBEAT_SECONDS = 5 * 60 + 120;

function kubeletSilent(snapshot: Parameters<typeof secondsSince>[0], node: Parameters<typeof nodeCondition>[0]): boolean {
  if (!nodeNotReady(node)) return false;
  const ready = nodeCondition(node, 'Ready');
  if (ready?.status === 'Unknown') return true;
  const heartbeat = secondsSince(snapshot, ready?.lastHeartbeatTime);
  return heartbeat === undefined || heartbeat > STALE_HEARTBEAT_SECONDS;
}

export const rule = defineRule({
  meta: {
    id: 'terminating.node-lost',
    title: 'Deletion stuck: the node is unreachable',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'owners'],
    playbook: 'force-delete-pod',
    priority: 75,
    // No `supersedes`: terminating.finalizers is a separate blocker, not a symptom. Even when the
    // node returns or the pod is force-deleted (grace 0) the object stays until its finalizers
    // are removed, so both findings must be shown (finalizers lowers its own severity here).
    doc: 'A deleted pod stays Terminating (or Unknown, reason NodeLost) because its node stopped posting status (Ready Unknown, "Kubelet stopped posting node status.", taint node.kubernetes.io/unreachable): only that kubelet can confirm the containers stopped.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    // A finished pod (completed Job) has nothing left to kill; PodGC removes it with the node.
    if (!pod || isFinished(pod) || !isStuckTerminating(snapshot, pod)) return null;
    const node = snapshot.node;
    const nodeLostReason = pod.status?.reason === 'NodeLost';
    // Lost means the kubelet stopped posting (Ready Unknown, or a stale heartbeat). A kubelet that
    // still reports NotReady (PLEG unhealthy, runtime down) can confirm the kill once its runtime
    // recovers: force-deleting then would be wrong, node.runtime-unresponsive/node.not-ready speak.
    if (!kubeletSilent(snapshot, node) && !nodeLostReason) return null;

    const nodeName = pod.spec?.nodeName ?? node?.metadata?.name ?? '?';
    const ready = nodeCondition(node, 'Ready');
    const unknown = ready?.status === 'Unknown' || (!ready && nodeLostReason);
    const since = secondsSince(snapshot, ready?.lastTransitionTime);
    const overdue = secondsPastDeletion(snapshot, pod) ?? 0;
    const sts = isStatefulSetPod(snapshot);
    const podName = pod.metadata?.name ?? '';

    const evidence: Evidence[] = [
      { source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${formatDuration(overdue)} overdue)` },
    ];
    if (ready) {
      evidence.push({
        source: `node ${nodeName} status.conditions[Ready]`,
        text: `${ready.status} ${ready.reason ?? ''}: ${ready.message ?? ''}${ready.lastHeartbeatTime ? ` (last heartbeat ${ready.lastHeartbeatTime})` : ''}`,
      });
    }
    const taints = (node?.spec?.taints ?? []).filter((t) => LOST_TAINTS.includes(t.key));
    if (taints.length) evidence.push({ source: `node ${nodeName} spec.taints`, text: taints.map((t) => `${t.key}:${t.effect}`).join(', ') });
    if (nodeLostReason) evidence.push({ source: 'pod.status.reason', text: `NodeLost: ${pod.status?.message ?? ''}` });
    for (const e of newestFirst(eventsWithReason(snapshot, 'NodeNotReady', 'TaintManagerEviction')).slice(0, 2)) evidence.push(eventEvidence(e));
    const disruption = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
    if (disruption) evidence.push({ source: 'pod.status.conditions[DisruptionTarget]', text: `${disruption.reason ?? ''}: ${disruption.message ?? ''}` });

    const nodeState = unknown
      ? `node ${nodeName} stopped posting status${since !== undefined ? ` ${formatDuration(since)} ago` : ''} (Ready=Unknown, "Kubelet stopped posting node status.")`
      : `the kubelet on ${nodeName} reports NotReady (${ready?.message ?? ready?.reason ?? 'no message'}): it is alive but cannot act on its pods`;
    const splitBrain = sts
      ? ` This is a StatefulSet pod: force-deleting it lets the controller start ${podName} again elsewhere while the old one may still run on ${nodeName} with the same identity and volume (split-brain, data loss). Confirm the machine is powered off first.`
      : '';

    return {
      severity: sts ? 'critical' : 'error',
      title: `Pod stuck Terminating: node ${nodeName} is ${unknown ? 'unreachable' : 'NotReady'}${sts ? ' (StatefulSet: split-brain risk)' : ''}`,
      cause:
        `The pod was deleted ${formatDuration(overdue)} past its grace period, but ${nodeState}. Only that kubelet can confirm the containers stopped, so the API server keeps the pod until the node comes back or the Node object is deleted.` +
        splitBrain,
      evidence,
      advice: [
        `Recover ${nodeName} (power, network, \`systemctl status kubelet\`): the kubelet then finishes the deletion by itself.`,
        `If the machine is gone for good: \`kubectl delete node ${nodeName}\` (its pods are then garbage-collected), or on 1.28+ taint it \`node.kubernetes.io/out-of-service=nodeshutdown:NoExecute\` so volumes detach.`,
        sts
          ? `Force delete only after confirming ${nodeName} is off (playbook force-delete-pod, two approvers).`
          : `Or force delete the pod (playbook force-delete-pod) once you accept it may still run on ${nodeName} until that node returns.`,
      ],
      prevent: [
        'Use node auto-repair / machine health checks so lost nodes are replaced and deleted.',
        sts
          ? 'For StatefulSets, follow the non-graceful node shutdown procedure (out-of-service taint) instead of force deletes.'
          : 'Keep the default tolerationSeconds (300s) so pods are replaced promptly elsewhere.',
      ],
      causeKey: `node/${nodeName}`,
      params: {
        node: nodeName,
        namespace: pod.metadata?.namespace ?? '',
        pod: podName,
        statefulSet: sts,
        requiresTwoApprovals: sts,
      },
    };
  },
});
