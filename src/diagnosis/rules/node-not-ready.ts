// node.not-ready: The pod's node is NotReady.

import { componentState } from '../components.js';
import { clip, eventEvidence, eventsMatching, formatDuration, isDeleting, isFinished, nodeCondition, secondsSince } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// The pod's node is NotReady for a reason of its own (not a cascade of one workload, not PLEG:
// those have their rules). Ready condition messages, current kubelets first:
//   container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized
//   (dockershim era) runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized
//   container runtime is down / container runtime status check may not have completed yet
//   Kubelet stopped posting node status.   (Ready Unknown: kubelet dead, node down, network partition)
//   [PLEG is not healthy: ...]  → node.runtime-unresponsive

type Cause = 'cni' | 'runtime-down' | 'kubelet-silent' | 'network-unavailable' | 'other';

function classify(status: string, message: string, networkUnavailable: boolean): Cause {
  if (/NetworkPluginNotReady|cni plugin not initialized|cni config uninitialized|network plugin is not ready/i.test(message)) return 'cni';
  if (/container runtime is down|container runtime status check|runtime is not ready|RuntimeReady=false/i.test(message)) return 'runtime-down';
  if (status === 'Unknown' || /stopped posting node status/.test(message)) return 'kubelet-silent';
  if (networkUnavailable) return 'network-unavailable';
  return 'other';
}

const ADVICE: Record<Cause, (node: string) => string[]> = {
  cni: (n) => [
    `The CNI plugin on ${n} is not running or not configured: check its DaemonSet pod there (calico-node, cilium, kube-flannel, aws-node...: kubectl get pods -A -o wide --field-selector spec.nodeName=${n}) and that /etc/cni/net.d holds a config and /opt/cni/bin the binaries.`,
    'A CNI pod that cannot start is often itself blocked (image pull, RBAC, a crash): diagnose that pod next.',
  ],
  'runtime-down': (n) => [
    `The container runtime on ${n} is down or not answering: \`systemctl status containerd\` (or docker/crio) and \`journalctl -u containerd --since -30min\` on the node; restart it if it is stopped.`,
  ],
  'kubelet-silent': (n) => [
    `The kubelet on ${n} stopped posting status: the machine is down, the kubelet crashed, or the node lost its network to the API server. Check the machine (console, cloud status), then \`systemctl status kubelet\`.`,
    'Pods on it are evicted after their unreachable toleration (300 s by default) and re-created elsewhere by their controllers; stateful pods wait for the node.',
  ],
  'network-unavailable': (n) => [
    `The NetworkUnavailable condition is set on ${n} (routes not created by the cloud route controller or the CNI): check the CNI / cloud-controller-manager logs for this node.`,
  ],
  other: (n) => [`Read the Ready condition quoted above; \`kubectl describe node ${n}\` and \`journalctl -u kubelet --since -30min\` on the node say more.`],
};

export const rule = defineRule({
  meta: {
    id: 'node.not-ready',
    title: "The pod's node is NotReady",
    category: 'node',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'nodeEvents', 'components'],
    // Above the pod-level symptoms a NotReady node causes (a sandbox without network, a pull that
    // never starts), below the node-level causes that explain the NotReady itself.
    priority: 60,
    supersedes: ['sandbox.create-failed'],
    doc: "The pod's node reports Ready=False/Unknown for a cause of its own (not a cascade, not PLEG): the CNI plugin not initialized (`container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady ... cni plugin not initialized`), the runtime down, or the kubelet silent. Quotes the node condition and says what to fix on the node; DaemonSet pods included.",
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = snapshot.node;
    // A pod on the node, or the node itself as the target.
    if (!node || (pod ? isFinished(pod) || isDeleting(pod) : snapshot.target.kind !== 'node')) return null;
    const ready = nodeCondition(node, 'Ready');
    if (!ready || ready.status === 'True') return null;
    const message = ready.message ?? '';
    // PLEG is the runtime-unresponsive rule's; it knows how to look at the runtime.
    if (/PLEG is not healthy/.test(message) && !/NetworkPluginNotReady|runtime is down/.test(message)) return null;
    const since = secondsSince(snapshot, ready.lastTransitionTime);
    // A flap of a few seconds is not worth a finding.
    if (since !== undefined && since < 60) return null;
    const name = node.metadata?.name ?? pod?.spec?.nodeName ?? '?';
    const netUnavailable = nodeCondition(node, 'NetworkUnavailable')?.status === 'True';
    const cause = classify(ready.status, message, netUnavailable);
    const evidence: Evidence[] = [
      {
        source: `node ${name} status.conditions[Ready]`,
        text: `${ready.status} ${ready.reason ?? ''}: ${clip(message)}${ready.lastHeartbeatTime ? ` (last heartbeat ${ready.lastHeartbeatTime})` : ''}`,
      },
    ];
    if (netUnavailable) {
      const c = nodeCondition(node, 'NetworkUnavailable');
      evidence.push({ source: `node ${name} status.conditions[NetworkUnavailable]`, text: `${c?.reason ?? ''}: ${c?.message ?? ''}` });
    }
    for (const e of eventsMatching(snapshot.nodeEvents ?? [], /NotReady|not ready/i, ['NodeNotReady', 'NodeNotSchedulable']).slice(0, 1))
      evidence.push(eventEvidence(e));
    const ds = (pod?.metadata?.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
    const waiting = (pod?.status?.containerStatuses ?? []).find((s) => s.state?.waiting)?.state?.waiting?.reason;
    // A CNI that is not initialized is usually its agent pod on the node failing: say which, and why.
    const agent = cause === 'cni' ? componentState(snapshot, 'cni') : undefined;
    if (agent) evidence.push(...agent.evidence);
    const onNode = pod ? undefined : (snapshot.podsOnNode ?? []).length;
    const what = {
      cni: 'its CNI network plugin is not initialized',
      'runtime-down': 'its container runtime is down',
      'kubelet-silent': 'its kubelet stopped posting status',
      'network-unavailable': 'its network is marked unavailable',
      other: `it reports ${ready.reason ?? 'NotReady'}`,
    }[cause];
    return {
      title: `Node ${name} is NotReady${since !== undefined ? ` for ${formatDuration(since)}` : ''}: ${what}`,
      cause:
        `${pod ? `The pod runs on ${name}, which` : `Node ${name}`} has been ${ready.status === 'Unknown' ? 'Unknown' : 'NotReady'}${since !== undefined ? ` for ${formatDuration(since)}` : ''} because ${what}: "${clip(message, 300)}". ` +
        (agent ? `${agent.summary} ` : '') +
        (!pod
          ? `${onNode !== undefined ? `${onNode} pod${onNode === 1 ? '' : 's'} are bound to it; ` : ''}it takes no new pods until it is Ready.`
          : waiting
            ? `That is why the pod stays ${waiting}. `
            : pod.status?.phase === 'Running'
              ? 'Its containers may still run, but the node takes no new work and the pod is not Ready. '
              : '') +
        (!pod
          ? ''
          : ds
            ? 'It is a DaemonSet pod: it belongs to this node and is not moved elsewhere; the node itself must be fixed.'
            : 'The node must be fixed (or drained and replaced); the pod recovers once it is Ready.'),
      evidence,
      advice: ADVICE[cause](name),
      prevent: [
        'Alert on NotReady nodes directly (kube_node_status_condition), and run node problem detection so a failing CNI or runtime is caught before pods pile up.',
      ],
      causeKey: `node/${name}:not-ready:${cause}`,
      params: { node: name, cause, ...(ready.reason ? { reason: ready.reason } : {}) },
    } satisfies FindingDraft;
  },
});
