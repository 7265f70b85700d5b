// admission.kubelet-rejected: The kubelet rejected the pod after scheduling.

import { clip, eventEvidence, eventsWithReason, newestFirst } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Said } from '../types.js';

// The kubelet refused the pod after it was bound to the node (phase Failed, status.reason):
//   OutOfcpu / OutOfmemory / OutOfpods / OutOfephemeral-storage
//     Node didn't have enough resource: cpu, requested: 2000, used: 7500, capacity: 8000
//     (older: `Pod Node didn't have enough resource: cpu, ...`)
//   UnexpectedAdmissionError
//     Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected
//   NodeAffinity  Pod Predicate NodeAffinity failed          (≤1.21: MatchNodeSelector / `Predicate MatchNodeSelector failed`)
//   TopologyAffinityError  Resources cannot be allocated with Topology locality
// It happens when the scheduler's view and the node disagree: pods bound with spec.nodeName (no
// scheduler), a kubelet restart that re-admits pods, node labels or devices changing under bound pods.

const KUBELET_REASONS = new RegExp(
  String.raw`^(?:OutOf[\w-]+|UnexpectedAdmissionError|NodeAffinity|MatchNodeSelector|NodeSelectorMismatching|TopologyAffinityError` +
    '|InvalidNodeInfo|PodOSNotSupported|SysctlForbidden|AppArmor|NodeShutdown)$',
);

const messages = {
  rejectedTitle: 'Rejected by the kubelet on {{node}}: {{reason}}',
  rejected: 'The pod was bound to {{node}}, but the kubelet refused to run it ({{reason}}):',
  outOfResource: 'the node had {{capacity}} {{resource}} in all, {{used}} already in use, and the pod asked for {{requested}}.',
  deviceUnavailable: 'the device plugin could not allocate the requested device (GPU, SR-IOV, hugepages) on this node.',
  selectorMismatch: "the node no longer matches the pod's nodeSelector/affinity (its labels changed after the pod was bound, or the pod was bound by hand).",
  topology: 'the topology manager could not give the pod CPUs/devices from one NUMA node.',
  refused: 'the kubelet refused to admit it.',
  message: 'Message: "{{message}}".',
  replaced: 'A rejected pod stays Failed; its controller creates a replacement, which may be rejected the same way.',
  notRetried: 'A rejected pod stays Failed; nothing retries it.',
  noOwner: 'The pod has no owner, so nothing re-creates it.',
  placedWithoutScheduler:
    'The scheduler thought it fits, so the pod was placed without it (spec.nodeName set directly, a DaemonSet before 1.12, a static pod) ' +
    'or the node filled up meanwhile: let the scheduler place it, or lower the {{resource}} request.',
  checkDevicePlugin:
    'Check the device plugin pod on the node (e.g. nvidia-device-plugin) and `kubectl describe node` allocatable vs allocated for the device; ' +
    'restart the device plugin if it reports unhealthy devices.',
  fixSelector: "Fix the node labels or the pod's selector, and do not bind pods with spec.nodeName to nodes that do not match.",
  relaxTopology: 'Lower the request, or relax the kubelet topologyManagerPolicy (single-numa-node → best-effort) on that node pool.',
  readReason: 'Read the quoted reason; the pod is not retried on the same node, its controller creates a new one.',
  deletePod: 'Delete the Failed pod once the cause is fixed: kubectl delete pod -n {{namespace}} {{name}}.',
  preventNodeName:
    'Never set spec.nodeName by hand in workloads; let the scheduler (with nodeSelector/affinity) place pods, and monitor device plugins on GPU nodes.',
} as const;

type Id = keyof typeof messages;

function explain(reason: string, message: string): { what: Said<Id>; advice: Said<Id> } {
  const res = /enough resource: ([\w./-]+), requested: (\d+), used: (\d+), capacity: (\d+)/.exec(message);
  if (reason.startsWith('OutOf') && res) {
    const resource = res[1] ?? '';
    return {
      what: msg('outOfResource', { capacity: res[4] ?? '', resource, used: res[3] ?? '', requested: res[2] ?? '' }),
      advice: msg('placedWithoutScheduler', { resource }),
    };
  }
  if (reason === 'UnexpectedAdmissionError' || /Allocate failed|devices unavailable|unhealthy devices/i.test(message)) {
    return { what: msg('deviceUnavailable'), advice: msg('checkDevicePlugin') };
  }
  if (/NodeAffinity|MatchNodeSelector|NodeSelector/.test(reason)) {
    return { what: msg('selectorMismatch'), advice: msg('fixSelector') };
  }
  if (reason === 'TopologyAffinityError') {
    return { what: msg('topology'), advice: msg('relaxTopology') };
  }
  return { what: msg('refused'), advice: msg('readReason') };
}

export const rule = defineRule({
  meta: {
    id: 'admission.kubelet-rejected',
    title: 'The kubelet rejected the pod after scheduling',
    category: 'admission',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 58,
    doc:
      'Phase Failed with status.reason OutOfcpu / OutOfmemory / OutOfpods ("Node didn\'t have enough resource: cpu, requested ..., used ..., capacity ..."), ' +
      'UnexpectedAdmissionError (a device plugin\'s Allocate failed), NodeAffinity ("Predicate NodeAffinity failed") or TopologyAffinityError: ' +
      'the node refused a pod the scheduler (or a hand-set nodeName) put there.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const reason = pod?.status?.reason;
    if (pod?.status?.phase !== 'Failed' || !reason || !KUBELET_REASONS.test(reason) || reason === 'NodeShutdown') return null;
    const message = pod.status?.message ?? '';
    const events = newestFirst(eventsWithReason(snapshot, reason, 'UnexpectedAdmissionError', 'FailedAdmission'));
    const evidence: Evidence[] = [{ source: 'pod.status (phase Failed)', text: `${reason}: ${clip(message)}` }];
    if (events[0]) evidence.push(eventEvidence(events[0]));
    const bypassed = !pod.spec?.schedulerName && !pod.metadata?.ownerReferences?.length;
    const { what, advice } = explain(reason, message);
    const node = pod.spec?.nodeName ?? '';
    return {
      title: msg('rejectedTitle', { node: node || 'its node', reason }),
      cause: [
        msg('rejected', { node: node || 'a node', reason }),
        what,
        msg('message', { message: clip(message, 300) }),
        msg(pod.metadata?.ownerReferences?.length ? 'replaced' : 'notRetried'),
        bypassed && msg('noOwner'),
      ],
      evidence,
      advice: [advice, msg('deletePod', { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' })],
      prevent: [msg('preventNodeName')],
      causeKey: `node/${node}:kubelet-rejected:${reason}`,
      params: { reason, ...(node ? { node } : {}) },
    } satisfies FindingDraft<Id>;
  },
});
