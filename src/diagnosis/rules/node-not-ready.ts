// node.not-ready: The pod's node is NotReady.

import { componentState } from '../components.js';
import { clip, eventEvidence, eventsMatching, formatDuration, isDeleting, isFinished, nodeCondition, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, Said } from '../types.js';

// The pod's node is NotReady for a reason of its own (not a cascade of one workload, not PLEG:
// those have their rules). Ready condition messages, current kubelets first:
//   container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized
//   (dockershim era) runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady
//     message:docker: network plugin is not ready: cni config uninitialized
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

const messages = {
  title: 'Node {{node}} is NotReady:',
  titleFor: 'Node {{node}} is NotReady for {{duration}}:',
  cni: 'its CNI network plugin is not initialized',
  runtimeDown: 'its container runtime is down',
  kubeletSilent: 'its kubelet stopped posting status',
  networkUnavailable: 'its network is marked unavailable',
  other: 'it reports {{reason}}',
  podOnNode: 'The pod runs on {{node}}, which has been {{state}}',
  podOnNodeFor: 'The pod runs on {{node}}, which has been {{state}} for {{duration}}',
  node: 'Node {{node}} has been {{state}}',
  nodeFor: 'Node {{node}} has been {{state}} for {{duration}}',
  becauseCni: 'because its CNI network plugin is not initialized: "{{message}}".',
  becauseRuntimeDown: 'because its container runtime is down: "{{message}}".',
  becauseKubeletSilent: 'because its kubelet stopped posting status: "{{message}}".',
  becauseNetworkUnavailable: 'because its network is marked unavailable: "{{message}}".',
  becauseOther: 'because it reports {{reason}}: "{{message}}".',
  cniAgent: '{{summary}}',
  boundOne: '{{count}} pod are bound to it; it takes no new pods until it is Ready.',
  boundMany: '{{count}} pods are bound to it; it takes no new pods until it is Ready.',
  noNewPods: 'it takes no new pods until it is Ready.',
  podWaits: 'That is why the pod stays {{reason}}.',
  containersMayRun: 'Its containers may still run, but the node takes no new work and the pod is not Ready.',
  daemonSetPod: 'It is a DaemonSet pod: it belongs to this node and is not moved elsewhere; the node itself must be fixed.',
  fixNode: 'The node must be fixed (or drained and replaced); the pod recovers once it is Ready.',
  fixCni:
    'The CNI plugin on {{node}} is not running or not configured: check its DaemonSet pod there ' +
    '(calico-node, cilium, kube-flannel, aws-node...: kubectl get pods -A -o wide --field-selector spec.nodeName={{node}}) ' +
    'and that /etc/cni/net.d holds a config and /opt/cni/bin the binaries.',
  cniPodBlocked: 'A CNI pod that cannot start is often itself blocked (image pull, RBAC, a crash): diagnose that pod next.',
  fixRuntime:
    'The container runtime on {{node}} is down or not answering: `systemctl status containerd` (or docker/crio) ' +
    'and `journalctl -u containerd --since -30min` on the node; restart it if it is stopped.',
  checkMachine:
    'The kubelet on {{node}} stopped posting status: the machine is down, the kubelet crashed, or the node lost its network to the API server. ' +
    'Check the machine (console, cloud status), then `systemctl status kubelet`.',
  evictedLater:
    'Pods on it are evicted after their unreachable toleration (300 s by default) and re-created elsewhere by their controllers; ' +
    'stateful pods wait for the node.',
  checkRoutes:
    'The NetworkUnavailable condition is set on {{node}} (routes not created by the cloud route controller or the CNI): ' +
    'check the CNI / cloud-controller-manager logs for this node.',
  readCondition: 'Read the Ready condition quoted above; `kubectl describe node {{node}}` and `journalctl -u kubelet --since -30min` on the node say more.',
  prevent:
    'Alert on NotReady nodes directly (kube_node_status_condition), ' +
    'and run node problem detection so a failing CNI or runtime is caught before pods pile up.',
} as const;

type Id = keyof typeof messages;

/** Per cause: what the title says the node has, and the cause's "because ..." with the condition quoted. */
const WHAT: Record<Cause, { what: Id; because: Id }> = {
  cni: { what: 'cni', because: 'becauseCni' },
  'runtime-down': { what: 'runtimeDown', because: 'becauseRuntimeDown' },
  'kubelet-silent': { what: 'kubeletSilent', because: 'becauseKubeletSilent' },
  'network-unavailable': { what: 'networkUnavailable', because: 'becauseNetworkUnavailable' },
  other: { what: 'other', because: 'becauseOther' },
};

const ADVICE: Record<Cause, (node: string) => Said<Id>[]> = {
  cni: (n) => [msg('fixCni', { node: n }), msg('cniPodBlocked')],
  'runtime-down': (n) => [msg('fixRuntime', { node: n })],
  'kubelet-silent': (n) => [msg('checkMachine', { node: n }), msg('evictedLater')],
  'network-unavailable': (n) => [msg('checkRoutes', { node: n })],
  other: (n) => [msg('readCondition', { node: n })],
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
    doc:
      "The pod's node reports Ready=False/Unknown for a cause of its own (not a cascade, not PLEG): the CNI plugin not initialized " +
      '(`container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady ... cni plugin not initialized`), ' +
      'the runtime down, or the kubelet silent. Quotes the node condition and says what to fix on the node; DaemonSet pods included.',
    messages,
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
    const { what, because } = WHAT[cause];
    const reason = ready.reason ?? 'NotReady';
    const duration = since !== undefined ? formatDuration(since) : undefined;
    const state = ready.status === 'Unknown' ? 'Unknown' : 'NotReady';
    const head = pod
      ? duration !== undefined
        ? msg('podOnNodeFor', { node: name, state, duration })
        : msg('podOnNode', { node: name, state })
      : duration !== undefined
        ? msg('nodeFor', { node: name, state, duration })
        : msg('node', { node: name, state });
    return {
      title: [duration !== undefined ? msg('titleFor', { node: name, duration }) : msg('title', { node: name }), msg(what, { reason })],
      cause: [
        head,
        msg(because, { reason, message: clip(message, 300) }),
        agent && msg('cniAgent', { summary: agent.summary }),
        !pod
          ? onNode !== undefined
            ? msg(onNode === 1 ? 'boundOne' : 'boundMany', { count: onNode })
            : msg('noNewPods')
          : waiting
            ? msg('podWaits', { reason: waiting })
            : pod.status?.phase === 'Running'
              ? msg('containersMayRun')
              : null,
        pod && msg(ds ? 'daemonSetPod' : 'fixNode'),
      ],
      evidence,
      advice: ADVICE[cause](name),
      prevent: [msg('prevent')],
      causeKey: `node/${name}:not-ready:${cause}`,
      params: { node: name, cause, ...(ready.reason ? { reason: ready.reason } : {}) },
    };
  },
});
