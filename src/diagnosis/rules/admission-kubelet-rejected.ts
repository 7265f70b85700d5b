// admission.kubelet-rejected: The kubelet rejected the pod after scheduling.

import { clip, eventEvidence, eventsWithReason, newestFirst } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// The kubelet refused the pod after it was bound to the node (phase Failed, status.reason):
//   OutOfcpu / OutOfmemory / OutOfpods / OutOfephemeral-storage  Node didn't have enough resource: cpu, requested: 2000, used: 7500, capacity: 8000
//     (older: `Pod Node didn't have enough resource: cpu, ...`)
//   UnexpectedAdmissionError  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected
//   NodeAffinity  Pod Predicate NodeAffinity failed          (≤1.21: MatchNodeSelector / `Predicate MatchNodeSelector failed`)
//   TopologyAffinityError  Resources cannot be allocated with Topology locality
// It happens when the scheduler's view and the node disagree: pods bound with spec.nodeName (no
// scheduler), a kubelet restart that re-admits pods, node labels or devices changing under bound pods.

const KUBELET_REASONS =
  /^(?:OutOf[\w-]+|UnexpectedAdmissionError|NodeAffinity|MatchNodeSelector|NodeSelectorMismatching|TopologyAffinityError|InvalidNodeInfo|PodOSNotSupported|SysctlForbidden|AppArmor|NodeShutdown)$/;

function explain(reason: string, message: string): { what: string; advice: string } {
  const res = /enough resource: ([\w./-]+), requested: (\d+), used: (\d+), capacity: (\d+)/.exec(message);
  if (reason.startsWith('OutOf') && res) {
    return {
      what: `the node had ${res[4]} ${res[1]} in all, ${res[3]} already in use, and the pod asked for ${res[2]}`,
      advice: `The scheduler thought it fits, so the pod was placed without it (spec.nodeName set directly, a DaemonSet before 1.12, a static pod) or the node filled up meanwhile: let the scheduler place it, or lower the ${res[1]} request.`,
    };
  }
  if (reason === 'UnexpectedAdmissionError' || /Allocate failed|devices unavailable|unhealthy devices/i.test(message)) {
    return {
      what: 'the device plugin could not allocate the requested device (GPU, SR-IOV, hugepages) on this node',
      advice:
        'Check the device plugin pod on the node (e.g. nvidia-device-plugin) and `kubectl describe node` allocatable vs allocated for the device; restart the device plugin if it reports unhealthy devices.',
    };
  }
  if (/NodeAffinity|MatchNodeSelector|NodeSelector/.test(reason)) {
    return {
      what: "the node no longer matches the pod's nodeSelector/affinity (its labels changed after the pod was bound, or the pod was bound by hand)",
      advice: "Fix the node labels or the pod's selector, and do not bind pods with spec.nodeName to nodes that do not match.",
    };
  }
  if (reason === 'TopologyAffinityError') {
    return {
      what: 'the topology manager could not give the pod CPUs/devices from one NUMA node',
      advice: 'Lower the request, or relax the kubelet topologyManagerPolicy (single-numa-node → best-effort) on that node pool.',
    };
  }
  return {
    what: 'the kubelet refused to admit it',
    advice: 'Read the quoted reason; the pod is not retried on the same node, its controller creates a new one.',
  };
}

export const rule = defineRule({
  meta: {
    id: 'admission.kubelet-rejected',
    title: 'The kubelet rejected the pod after scheduling',
    category: 'admission',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 58,
    doc: 'Phase Failed with status.reason OutOfcpu / OutOfmemory / OutOfpods ("Node didn\'t have enough resource: cpu, requested ..., used ..., capacity ..."), UnexpectedAdmissionError (a device plugin\'s Allocate failed), NodeAffinity ("Predicate NodeAffinity failed") or TopologyAffinityError: the node refused a pod the scheduler (or a hand-set nodeName) put there.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const reason = pod?.status?.reason;
    if (pod?.status?.phase !== 'Failed' || !reason || !KUBELET_REASONS.test(reason) || reason === 'NodeShutdown') return null;
    const message = pod.status?.message ?? '';
    const events = newestFirst(eventsWithReason(snapshot, reason, 'UnexpectedAdmissionError', 'FailedAdmission'));
    const evidence: Evidence[] = [{ source: 'pod.status (phase Failed)', text: `${reason}: ${clip(message)}` }];
    if (events[0]) evidence.push(eventEvidence(events[0]));
    const bypassed = !pod.spec?.schedulerName && !pod.metadata?.ownerReferences?.length ? ' The pod has no owner, so nothing re-creates it.' : '';
    const { what, advice } = explain(reason, message);
    const node = pod.spec?.nodeName ?? '';
    return {
      title: `Rejected by the kubelet on ${node || 'its node'}: ${reason}`,
      cause: `The pod was bound to ${node || 'a node'}, but the kubelet refused to run it (${reason}): ${what}. Message: "${clip(message, 300)}". A rejected pod stays Failed; ${pod.metadata?.ownerReferences?.length ? 'its controller creates a replacement, which may be rejected the same way.' : 'nothing retries it.'}${bypassed}`,
      evidence,
      advice: [advice, `Delete the Failed pod once the cause is fixed: kubectl delete pod -n ${pod.metadata?.namespace ?? ''} ${pod.metadata?.name ?? ''}.`],
      prevent: [
        'Never set spec.nodeName by hand in workloads; let the scheduler (with nodeSelector/affinity) place pods, and monitor device plugins on GPU nodes.',
      ],
      causeKey: `node/${node}:kubelet-rejected:${reason}`,
      params: { reason, ...(node ? { node } : {}) },
    } satisfies FindingDraft;
  },
});
