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
import { msg } from '../messages.js';
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
    doc:
      'A deleted pod stays Terminating (or Unknown, reason NodeLost) because its node stopped posting status ' +
      '(Ready Unknown, "Kubelet stopped posting node status.", taint node.kubernetes.io/unreachable): ' +
      'only that kubelet can confirm the containers stopped.',
    messages: {
      titleUnreachable: 'Pod stuck Terminating: node {{node}} is unreachable',
      titleNotReady: 'Pod stuck Terminating: node {{node}} is NotReady',
      splitBrainRisk: '(StatefulSet: split-brain risk)',
      stoppedPosting:
        'The pod was deleted {{overdue}} past its grace period, but node {{node}} stopped posting status {{since}} ago ' +
        '(Ready=Unknown, "Kubelet stopped posting node status.").',
      stoppedPostingUnknownSince:
        'The pod was deleted {{overdue}} past its grace period, but node {{node}} stopped posting status ' +
        '(Ready=Unknown, "Kubelet stopped posting node status.").',
      reportsNotReady:
        'The pod was deleted {{overdue}} past its grace period, but the kubelet on {{node}} reports NotReady ({{message}}): ' +
        'it is alive but cannot act on its pods.',
      onlyKubelet:
        'Only that kubelet can confirm the containers stopped, ' + 'so the API server keeps the pod until the node comes back or the Node object is deleted.',
      splitBrain:
        'This is a StatefulSet pod: force-deleting it lets the controller start {{pod}} again elsewhere ' +
        'while the old one may still run on {{node}} with the same identity and volume (split-brain, data loss). ' +
        'Confirm the machine is powered off first.',
      recoverNode: 'Recover {{node}} (power, network, `systemctl status kubelet`): the kubelet then finishes the deletion by itself.',
      deleteNode:
        'If the machine is gone for good: `kubectl delete node {{node}}` (its pods are then garbage-collected), ' +
        'or on 1.28+ taint it `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` so volumes detach.',
      forceDeleteWhenOff: 'Force delete only after confirming {{node}} is off (playbook force-delete-pod, two approvers).',
      forceDelete: 'Or force delete the pod (playbook force-delete-pod) once you accept it may still run on {{node}} until that node returns.',
      autoRepair: 'Use node auto-repair / machine health checks so lost nodes are replaced and deleted.',
      outOfService: 'For StatefulSets, follow the non-graceful node shutdown procedure (out-of-service taint) instead of force deletes.',
      tolerationSeconds: 'Keep the default tolerationSeconds (300s) so pods are replaced promptly elsewhere.',
    },
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

    const deleted = { overdue: formatDuration(overdue), node: nodeName };
    const nodeState = !unknown
      ? msg('reportsNotReady', { ...deleted, message: ready?.message ?? ready?.reason ?? 'no message' })
      : since !== undefined
        ? msg('stoppedPosting', { ...deleted, since: formatDuration(since) })
        : msg('stoppedPostingUnknownSince', deleted);

    return {
      severity: sts ? 'critical' : 'error',
      title: [msg(unknown ? 'titleUnreachable' : 'titleNotReady', { node: nodeName }), sts && msg('splitBrainRisk')],
      cause: [nodeState, msg('onlyKubelet'), sts && msg('splitBrain', { pod: podName, node: nodeName })],
      evidence,
      advice: [
        msg('recoverNode', { node: nodeName }),
        msg('deleteNode', { node: nodeName }),
        msg(sts ? 'forceDeleteWhenOff' : 'forceDelete', { node: nodeName }),
      ],
      prevent: [msg('autoRepair'), msg(sts ? 'outOfService' : 'tolerationSeconds')],
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
