// The one place rules are registered. A contract test checks that this list equals the
// files in this folder, that each id matches its file name, and that each has tests.
import type { Rule } from '../rule.js';
import { rule as admissionKubeletRejected } from './admission-kubelet-rejected.js';
import { rule as admissionRejected } from './admission-rejected.js';
import { rule as admissionWebhookUnavailable } from './admission-webhook-unavailable.js';
import { rule as configMissingReference } from './config-missing-reference.js';
import { rule as containerCreateError } from './container-create-error.js';
import { rule as containerMountTypeMismatch } from './container-mount-type-mismatch.js';
import { rule as containerStartError } from './container-start-error.js';
import { rule as crashAppExit } from './crash-app-exit.js';
import { rule as crashInotifyLimit } from './crash-inotify-limit.js';
import { rule as crashIpv6Disabled } from './crash-ipv6-disabled.js';
import { rule as crashOomkilled } from './crash-oomkilled.js';
import { rule as crashPortInUse } from './crash-port-in-use.js';
import { rule as crashProbeFailing } from './crash-probe-failing.js';
import { rule as crashSubpathMissing } from './crash-subpath-missing.js';
import { rule as dnsCorednsDown } from './dns-coredns-down.js';
import { rule as evictedNodePressure } from './evicted-node-pressure.js';
import { rule as evictedPreempted } from './evicted-preempted.js';
import { rule as imageAuth } from './image-auth.js';
import { rule as imageCorruptBlob } from './image-corrupt-blob.js';
import { rule as imageCorruptLocal } from './image-corrupt-local.js';
import { rule as imageForbidden } from './image-forbidden.js';
import { rule as imageInsecureRegistry } from './image-insecure-registry.js';
import { rule as imageInvalidName } from './image-invalid-name.js';
import { rule as imageNeverPull } from './image-never-pull.js';
import { rule as imageNodeDiskFull } from './image-node-disk-full.js';
import { rule as imageNotFound } from './image-not-found.js';
import { rule as imagePullThrottled } from './image-pull-throttled.js';
import { rule as imagePullTimeout } from './image-pull-timeout.js';
import { rule as imageRegistryUnreachable } from './image-registry-unreachable.js';
import { rule as imageShortName } from './image-short-name.js';
import { rule as imageSignatureRejected } from './image-signature-rejected.js';
import { rule as imageTransferInterrupted } from './image-transfer-interrupted.js';
import { rule as imageUntrustedCa } from './image-untrusted-ca.js';
import { rule as imageWrongArch } from './image-wrong-arch.js';
import { rule as initWaitingDependency } from './init-waiting-dependency.js';
import { rule as jobBackoffLimitExceeded } from './job-backoff-limit-exceeded.js';
import { rule as jobDeadlineExceeded } from './job-deadline-exceeded.js';
import { rule as jobSidecarKeepsRunning } from './job-sidecar-keeps-running.js';
import { rule as lifecyclePoststartFailed } from './lifecycle-poststart-failed.js';
import { rule as namespaceTerminating } from './namespace-terminating.js';
import { rule as networkCalicoEndpointMissing } from './network-calico-endpoint-missing.js';
import { rule as networkPolicyBlocksDns } from './network-policy-blocks-dns.js';
import { rule as networkServiceNoEndpoints } from './network-service-no-endpoints.js';
import { rule as nodeDrainBlockedPdb } from './node-drain-blocked-pdb.js';
import { rule as nodeGracefulShutdown } from './node-graceful-shutdown.js';
import { rule as nodeKubeletCertExpired } from './node-kubelet-cert-expired.js';
import { rule as nodeNotReady } from './node-not-ready.js';
import { rule as nodeNotreadyCascade } from './node-notready-cascade.js';
import { rule as nodePressure } from './node-pressure.js';
import { rule as nodeRuntimeUnresponsive } from './node-runtime-unresponsive.js';
import { rule as pendingHostportConflict } from './pending-hostport-conflict.js';
import { rule as pendingInsufficientResources } from './pending-insufficient-resources.js';
import { rule as pendingNodesCordoned } from './pending-nodes-cordoned.js';
import { rule as pendingPodAffinity } from './pending-pod-affinity.js';
import { rule as pendingPvc } from './pending-pvc.js';
import { rule as pendingSchedulerDown } from './pending-scheduler-down.js';
import { rule as pendingSchedulingGated } from './pending-scheduling-gated.js';
import { rule as pendingTaint } from './pending-taint.js';
import { rule as pendingTooManyPods } from './pending-too-many-pods.js';
import { rule as pendingTopologySpread } from './pending-topology-spread.js';
import { rule as pendingUnschedulableSelector } from './pending-unschedulable-selector.js';
import { rule as pendingVolumeLimit } from './pending-volume-limit.js';
import { rule as podUnexplained } from './pod-unexplained.js';
import { rule as readinessFailing } from './readiness-failing.js';
import { rule as readinessGateNotReady } from './readiness-gate-not-ready.js';
import { rule as resourcesMemoryUnits } from './resources-memory-units.js';
import { rule as rolloutRegression } from './rollout-regression.js';
import { rule as runtimeCgroupWriteFailed } from './runtime-cgroup-write-failed.js';
import { rule as runtimeHandlerMissing } from './runtime-handler-missing.js';
import { rule as sandboxCreateFailed } from './sandbox-create-failed.js';
import { rule as securityProfileMissing } from './security-profile-missing.js';
import { rule as securityReadOnlyRootfs } from './security-read-only-rootfs.js';
import { rule as securityRunAsNonRoot } from './security-run-as-non-root.js';
import { rule as statefulsetOrderedReadyDeadlock } from './statefulset-ordered-ready-deadlock.js';
import { rule as staticPodStale } from './static-pod-stale.js';
import { rule as terminatingCniTeardown } from './terminating-cni-teardown.js';
import { rule as terminatingExecHang } from './terminating-exec-hang.js';
import { rule as terminatingFinalizers } from './terminating-finalizers.js';
import { rule as terminatingMountBusy } from './terminating-mount-busy.js';
import { rule as terminatingNodeLost } from './terminating-node-lost.js';
import { rule as terminatingRuntimeHung } from './terminating-runtime-hung.js';
import { rule as terminatingStatusLag } from './terminating-status-lag.js';
import { rule as terminatingStuck } from './terminating-stuck.js';
import { rule as terminatingSubpathUmountBusy } from './terminating-subpath-umount-busy.js';
import { rule as volumeFsgroupChownSlow } from './volume-fsgroup-chown-slow.js';
import { rule as volumeMountFailed } from './volume-mount-failed.js';
import { rule as volumeMultiAttach } from './volume-multi-attach.js';
import { rule as volumeProvisionerMissing } from './volume-provisioner-missing.js';

export const RULES: readonly Rule[] = [
  terminatingFinalizers,
  terminatingStuck,
  pendingSchedulerDown,
  pendingUnschedulableSelector,
  pendingInsufficientResources,
  pendingTooManyPods,
  pendingHostportConflict,
  pendingTaint,
  pendingPvc,
  sandboxCreateFailed,
  runtimeHandlerMissing,
  admissionRejected,
  admissionWebhookUnavailable,
  namespaceTerminating,
  nodeNotreadyCascade,
  terminatingNodeLost,
  terminatingExecHang,
  terminatingMountBusy,
  terminatingRuntimeHung,
  terminatingSubpathUmountBusy,
  terminatingCniTeardown,
  networkCalicoEndpointMissing,
  networkServiceNoEndpoints,
  networkPolicyBlocksDns,
  nodeRuntimeUnresponsive,
  terminatingStatusLag,
  imageNotFound,
  imageAuth,
  imageInsecureRegistry,
  imageUntrustedCa,
  imageRegistryUnreachable,
  imageCorruptBlob,
  imagePullThrottled,
  imagePullTimeout,
  imageCorruptLocal,
  imageShortName,
  imageForbidden,
  imageNodeDiskFull,
  imageTransferInterrupted,
  imageSignatureRejected,
  resourcesMemoryUnits,
  crashOomkilled,
  crashSubpathMissing,
  crashProbeFailing,
  crashAppExit,
  crashPortInUse,
  crashInotifyLimit,
  crashIpv6Disabled,
  configMissingReference,
  evictedNodePressure,
  evictedPreempted,
  staticPodStale,
  containerStartError,
  imageWrongArch,
  readinessFailing,
  readinessGateNotReady,
  statefulsetOrderedReadyDeadlock,
  rolloutRegression,
  initWaitingDependency,
  lifecyclePoststartFailed,
  securityRunAsNonRoot,
  securityProfileMissing,
  securityReadOnlyRootfs,
  imageInvalidName,
  imageNeverPull,
  containerCreateError,
  containerMountTypeMismatch,
  runtimeCgroupWriteFailed,
  volumeMultiAttach,
  volumeMountFailed,
  volumeProvisionerMissing,
  volumeFsgroupChownSlow,
  pendingPodAffinity,
  pendingTopologySpread,
  pendingNodesCordoned,
  pendingSchedulingGated,
  pendingVolumeLimit,
  admissionKubeletRejected,
  nodeNotReady,
  nodePressure,
  nodeKubeletCertExpired,
  nodeGracefulShutdown,
  nodeDrainBlockedPdb,
  jobBackoffLimitExceeded,
  jobDeadlineExceeded,
  jobSidecarKeepsRunning,
  dnsCorednsDown,
  // The catch-all runs last and only when nothing above found a problem.
  podUnexplained,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
