// Reasons the 1.20 extraction (upstream.json) cannot give: what Kubernetes 1.21–1.35 added or
// reworded, and the error strings of containerd, CRI-O and runc that reach a pod's events and
// statuses. Kept by hand: each entry says where it was read and for which versions. Message
// fragments keep the source's Go verbs (%s, %q, %v); only strings that surface on a pod or the
// objects around it (owner, claim, node) are listed.
import type { UpstreamReason } from './reason.js';

const K8S = 'kubernetes/kubernetes';
const FACTS = 'shared/reference/kubernetes-facts.md';
// The runtimes' paths are those of their main branches (Aug 2026); containerd's CRI code lived
// under pkg/cri before 2.0, and CRI-O vendored containers/image as github.com/containers/image.
const CONTAINERD = 'containerd/containerd@301026e5 (v2.4.0-beta.0+, 2026-08)';
const CRIO = 'cri-o/cri-o@f954a17e (v1.36.0+, 2026-08)';
const RUNC = 'opencontainers/runc@76d9cf5d (v1.5.0-rc.1+, 2026-08)';
const SEEN_CONTAINERD = 'containerd 2.0–2.4 (read at v2.0.0, v2.1.0 and main)';
const SEEN_CRIO = 'CRI-O 1.27–1.36 (read at v1.27.0, v1.29.0, v1.32.0 and main)';
// The releases issue 32 names, read at their tags: containerd 2.0/2.1 (CRI code under internal/cri, 2.1 pulls
// through the transfer service), CRI-O 1.27–1.32 (containers/image vendored as github.com/containers/image/v5,
// v5.25 … v5.33) and crun 1.8.4–1.19 (CRI-O's static bundles of those releases; its default runtime from 1.31).
const CONTAINERD_2 = 'containerd/containerd v2.0.0, v2.1.0';
const CRIO_TAGS = 'cri-o/cri-o v1.27.0–v1.32.0';
const CRIO_IMAGE = `${CRIO_TAGS} vendor/github.com/containers/image/v5`;
const CRUN = 'containers/crun 1.8.4–1.19';
const CRIO_27_32 = 'CRI-O 1.27–1.32 (read at each tag)';
const CRUN_VERSIONS = "crun 1.8+ (CRI-O's default runtime from 1.31, of its static bundle before)";

export const ADDITIONS = [
  // kubelet events
  {
    reason: 'FailedPrepareDynamicResources',
    kind: 'event',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/events/event.go`,
    versions: '1.26+ (DRA)',
  },
  {
    reason: 'FailedToRetrieveImagePullSecret',
    kind: 'event',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/kubelet_pods.go (getPullSecretsForPod)`,
    versions: '≈1.24+',
  },
  {
    reason: 'PossibleMemoryBackedVolumesOnDisk',
    kind: 'event',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/events/event.go`,
    versions: '> 1.20 (node event)',
  },
  { reason: 'CgroupV1', kind: 'event', component: 'kubelet', from: `${K8S} pkg/kubelet/events/event.go`, versions: '1.31+ (node event)' },
  { reason: 'Shutdown', kind: 'event', component: 'kubelet', from: `${K8S} pkg/kubelet/events/event.go (NodeShutdown)`, versions: '1.21+ (node event)' },

  // kubelet pod and container statuses
  {
    reason: 'Terminated',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go`,
    versions: '1.22+ (1.21: Shutdown)',
    note: 'graceful node shutdown: "Pod was terminated in response to imminent node shutdown."',
  },
  {
    reason: 'NodeShutdown',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go`,
    versions: '1.21+',
    note: 'admission refusal: "Pod was rejected as the node is shutting down."',
  },
  { reason: 'PreCreateHookError', kind: 'status', component: 'kubelet', from: `${K8S} pkg/kubelet/kuberuntime/kuberuntime_container.go`, versions: '> 1.20' },
  {
    reason: 'SignatureValidationFailed',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} staging/src/k8s.io/cri-api/pkg/errors (evalCRIPullErr)`,
    versions: '≈1.28+',
  },
  {
    reason: 'PodOSSelectorNodeLabelDoesNotMatch',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/lifecycle/predicate.go`,
    versions: '1.23+',
  },
  { reason: 'PodOSNotSupported', kind: 'status', component: 'kubelet', from: `${K8S} pkg/kubelet/lifecycle/predicate.go`, versions: '1.23+' },
  {
    reason: 'InitContainerRestartPolicyForbidden',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/lifecycle/predicate.go`,
    versions: '1.28+ (sidecar containers)',
  },
  {
    reason: 'SupplementalGroupsPolicyNotSupported',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/lifecycle/predicate.go`,
    versions: '1.31+',
  },
  {
    reason: 'TaintToleration',
    kind: 'status',
    component: 'kubelet',
    from: `${K8S} pkg/kubelet/lifecycle/predicate.go (generalFilter: NoExecute taints)`,
    versions: '> 1.20 (seen in main)',
  },

  // Pod conditions
  {
    reason: 'SchedulingGated',
    kind: 'condition',
    component: 'scheduler',
    from: `${K8S} staging/src/k8s.io/api/core/v1/types.go (PodReasonSchedulingGated)`,
    versions: '1.26+ (GA 1.30)',
  },
  {
    reason: 'PreemptionByScheduler',
    kind: 'condition',
    component: 'scheduler',
    from: `${K8S} staging/src/k8s.io/api/core/v1/types.go (DisruptionTarget)`,
    versions: '1.27+ (1.26: PreemptionByKubeScheduler)',
  },
  {
    reason: 'TerminationByKubelet',
    kind: 'condition',
    component: 'kubelet',
    from: `${K8S} staging/src/k8s.io/api/core/v1/types.go (DisruptionTarget: eviction, node shutdown)`,
    versions: '1.26+ (GA 1.31)',
  },
  {
    reason: 'DeletionByTaintManager',
    kind: 'condition',
    component: 'taint-eviction-controller',
    from: `${K8S} pkg/controller/tainteviction/taint_eviction.go (DisruptionTarget); ${FACTS} §3.2`,
    versions: '1.26+ (GA 1.31)',
  },
  {
    reason: 'DeletionByPodGC',
    kind: 'condition',
    component: 'podgc-controller',
    from: `${K8S} pkg/controller/podgc/gc_controller.go (DisruptionTarget); ${FACTS} §3.2`,
    versions: '1.26+ (GA 1.31)',
  },
  {
    reason: 'EvictionByEvictionAPI',
    kind: 'condition',
    component: 'apiserver',
    from: `${K8S} pkg/registry/core/pod/storage/eviction.go (DisruptionTarget); ${FACTS} §3.2`,
    versions: '1.26+ (GA 1.31)',
  },
  {
    reason: 'Deferred',
    kind: 'condition',
    component: 'kubelet',
    from: `${K8S} staging/src/k8s.io/api/core/v1/types.go (PodResizePending)`,
    versions: '1.33+',
  },
  {
    reason: 'Infeasible',
    kind: 'condition',
    component: 'kubelet',
    from: `${K8S} staging/src/k8s.io/api/core/v1/types.go (PodResizePending)`,
    versions: '1.33+',
  },

  // Job controller: failure and success reasons, as Job conditions and (failures) Job events
  ...(['PodFailurePolicy', 'MaxFailedIndexesExceeded', 'FailedIndexes'] as const).flatMap((reason) =>
    (['event', 'condition'] as const).map((kind) => ({
      reason,
      kind,
      component: 'job-controller',
      from: `${K8S} staging/src/k8s.io/api/batch/v1/types.go, pkg/controller/job/job_controller.go`,
      versions: reason === 'PodFailurePolicy' ? '1.26+' : '1.28+ (backoffLimitPerIndex)',
    })),
  ),
  {
    reason: 'SuccessPolicy',
    kind: 'condition',
    component: 'job-controller',
    from: `${K8S} staging/src/k8s.io/api/batch/v1/types.go`,
    versions: '1.30+',
  },
  {
    reason: 'CompletionsReached',
    kind: 'condition',
    component: 'job-controller',
    from: `${K8S} staging/src/k8s.io/api/batch/v1/types.go`,
    versions: '1.31+',
  },

  // Cluster autoscaler: why a Pending pod gets (or does not get) a new node
  {
    reason: 'NotTriggerScaleUp',
    kind: 'event',
    component: 'cluster-autoscaler',
    from: 'kubernetes/autoscaler cluster-autoscaler/processors/status/eventing_scale_up_processor.go',
    versions: 'cluster-autoscaler 1.x',
  },
  {
    reason: 'TriggeredScaleUp',
    kind: 'event',
    component: 'cluster-autoscaler',
    from: 'kubernetes/autoscaler cluster-autoscaler/processors/status/eventing_scale_up_processor.go',
    versions: 'cluster-autoscaler 1.x',
  },

  // Scheduler filter reasons reworded or added after 1.20
  {
    reason: "node(s) didn't match Pod's node affinity/selector",
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`,
    versions: '1.22+ (1.20–1.21 without /selector)',
  },
  {
    reason: "node(s) didn't match scheduler-enforced node affinity",
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`,
    versions: '1.21+',
  },
  {
    reason: 'pod affinity terms conflict',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`,
    versions: '> 1.20 (seen in main)',
  },
  {
    reason: 'node(s) had untolerated taint {%s: %s}',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go; ${FACTS} §1.1`,
    versions: '≈1.24–1.34',
  },
  {
    reason: 'node(s) had untolerated taint(s)',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (PR #134740); ${FACTS} §1.1`,
    versions: '1.35 (and 1.34 patches)',
  },
  {
    reason: "node(s) didn't match the requested node name",
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/nodename/node_name.go; ${FACTS} §1.1`,
    versions: '1.21+ (1.20: requested hostname)',
  },
  {
    reason: "node(s) didn't match pod topology spread constraints (missing required label)",
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/podtopologyspread/filtering.go; ${FACTS} §1.1`,
    versions: '> 1.20',
  },
  {
    reason: 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/volumebinding/binder.go; ${FACTS} §1.1`,
    versions: '> 1.20 (1.20: pvc(s) bound to non-existent pv(s))',
  },
  {
    reason: 'persistentvolumeclaim "%s" not found',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter, lister NotFound)`,
    versions: '1.20+',
  },
  {
    reason: 'Preemption is not helpful for scheduling',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/preemption/preemption.go; ${FACTS} §1.1`,
    versions: '≈1.24+ (the `preemption: ` postscript)',
  },
  {
    reason: 'No preemption victims found for incoming pod',
    kind: 'scheduler-filter',
    component: 'scheduler',
    from: `${K8S} pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go; ${FACTS} §1.1`,
    versions: '≈1.24+',
  },

  // API server admission refusals added after 1.20
  {
    reason: 'violates PodSecurity %q: %s',
    kind: 'admission-error',
    component: 'apiserver',
    from: `${K8S} staging/src/k8s.io/pod-security-admission/admission/admission.go`,
    versions: '1.22+ (beta 1.23, GA 1.25)',
  },
  {
    reason: 'unable to validate against any pod security policy: %v',
    kind: 'admission-error',
    component: 'apiserver',
    from: `${K8S} plugin/pkg/admission/security/podsecuritypolicy/admission.go`,
    versions: '≤ 1.19 (1.20–1.24: PodSecurityPolicy: unable to admit pod)',
  },

  // containerd: CRI errors quoted in Failed / FailedCreatePodSandBox / FailedKillPod events and statuses
  {
    reason: 'failed to create containerd task: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/container_start.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to start containerd task %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/container_start.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to create shim task: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/runtime/v2/task_manager.go`,
    versions: 'containerd 1.5+',
  },
  {
    reason: 'OCI runtime create failed',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} cmd/containerd-shim-runc-v2/process/init.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'OCI runtime exec failed',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} cmd/containerd-shim-runc-v2/process/exec.go`,
    versions: SEEN_CONTAINERD,
    note: 'exec probes and postStart hooks',
    example: {
      surface: 'probe',
      text:
        'Liveness probe failed: OCI runtime exec failed: exec failed: unable to start container process: exec: ' +
        '"/usr/local/bin/redis-cli": stat /usr/local/bin/redis-cli: no such file or directory: unknown',
    },
  },
  {
    reason: 'failed to create containerd container: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/container_create.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to reserve container name %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/container_create.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'create',
      text:
        'failed to reserve container name ' +
        '"kube-apiserver_kube-apiserver-kiv-cp-v48fw_kube-system_37b2b42d18b011bd117353a3847450aa_1": name ' +
        '"kube-apiserver_kube-apiserver-kiv-cp-v48fw_kube-system_37b2b42d18b011bd117353a3847450aa_1" is reserved for ' +
        '"7c54f31e3fc8b87a115f11a214efe060c94e93ae822c9819a472bfb382c2839c"',
      from: 'https://github.com/containerd/containerd/issues/9545',
    },
  },
  {
    reason: 'name %q is reserved for %q',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/registrar/registrar.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'create',
      text:
        'failed to reserve container name ' +
        '"kube-apiserver_kube-apiserver-kiv-cp-v48fw_kube-system_37b2b42d18b011bd117353a3847450aa_1": name ' +
        '"kube-apiserver_kube-apiserver-kiv-cp-v48fw_kube-system_37b2b42d18b011bd117353a3847450aa_1" is reserved for ' +
        '"7c54f31e3fc8b87a115f11a214efe060c94e93ae822c9819a472bfb382c2839c"',
      from: 'https://github.com/containerd/containerd/issues/9545',
    },
  },
  {
    reason: 'failed to pull and unpack image %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/images/image_pull.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to resolve reference %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} client/pull.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to do request: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/remotes/docker/resolver.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'httpReadSeeker: failed open: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/remotes/docker/httpreadseeker.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'unexpected status from %s request to %s: %s',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/remotes/errors/errors.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'no match for platform in manifest',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/images/handlers.go, core/images/image.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'pull',
      text: 'failed to pull and unpack image "docker.io/bitnami/kubectl:1.24": no match for platform in manifest: not found',
    },
  },
  {
    reason: 'failed to extract layer %s: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/unpack/unpacker.go, pkg/rootfs/apply.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to prepare extraction snapshot %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} core/unpack/unpacker.go, pkg/rootfs/apply.go`,
    versions: SEEN_CONTAINERD,
  },
  {
    reason: 'failed to setup network for sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/sandbox_run.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox ' +
        '"f1f5708a3613e62a4d38161c36417538dbc3b1e46020bea2a4a7c4cca87603a0": plugin type="calico" failed (add): ' +
        'netplugin failed with no error message: signal: killed',
      from: 'https://github.com/coredns/coredns/issues/6091',
    },
  },
  {
    reason: 'failed to destroy network for sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/sandbox_stop.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'teardown',
      text:
        'error killing pod: failed to "KillPodSandbox" for "0bdc387d-dfac-11e7-9a8f-52549da43ad9" with ' +
        'KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox ' +
        '\\"4b84ed8e89e46cb78735cddc21208cb7bbe6d4959a0086a6aa0fa226bf9376e2\\": ' +
        'WorkloadEndpoint.crd.projectcalico.org \\"WorkloadEndpoint(default/node01-k8s-prometheus--1-eth0)\\" not ' +
        'found"',
    },
  },
  {
    reason: 'failed to create network namespace for sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/sandbox_run.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create network namespace for ' +
        'sandbox "9c4e1f2a7b3d5e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f": failed to setup netns: ' +
        'failed to create namespace: no space left on device',
    },
  },
  {
    reason: 'failed to get sandbox image %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/podsandbox/sandbox_run.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox ' +
        '"116108124acdfc5b9012abcc32dce046139ee2d92583aa509f51abe6c1b084a2": failed to get sandbox image ' +
        '"registry.k8s.io/pause:3.10": failed to pull image "registry.k8s.io/pause:3.10": failed to pull and unpack ' +
        'image "registry.k8s.io/pause:3.10": unable to initialize unpacker: no unpack platforms defined: invalid ' +
        'argument',
    },
  },
  {
    reason: 'no runtime for %q is configured',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/config/config.go`,
    versions: SEEN_CONTAINERD,
    note: 'a RuntimeClass handler the node lacks',
    example: {
      surface: 'sandbox',
      text: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "' + 'nvidia" is configured',
      from: 'https://github.com/NVIDIA/gpu-operator/issues/549',
    },
  },
  {
    reason: 'cni plugin not initialized',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} vendor/github.com/containerd/go-cni/errors.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'node',
      text:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin ' +
        'returns error: cni plugin not initialized',
    },
  },
  {
    reason: 'failed to load cni config',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} vendor/github.com/containerd/go-cni/errors.go`,
    versions: SEEN_CONTAINERD,
    note: "in containerd's own log (cni config load failed: ...: failed to load cni config); the node's Ready message says cni plugin not initialized",
  },
  {
    reason: 'failed to generate apparmor spec opts: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/container_create_linux.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'create',
      text: 'failed to generate container "c7b1e3d9" spec: failed to generate spec opts: failed to generate apparmor spec o' + 'pts: apparmor is not supported',
    },
  },
  {
    reason: 'load apparmor profile %s: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} contrib/apparmor/apparmor.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'create',
      text:
        'failed to create containerd container: load apparmor profile /tmp/cri-containerd.apparmor.d3636700873: ' +
        'parser error(""): exec: "apparmor_parser": executable file not found in $PATH',
      from: 'https://github.com/siderolabs/talos/pull/8641',
    },
  },
  {
    reason: 'parser error(%q): %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} contrib/apparmor/template.go`,
    versions: SEEN_CONTAINERD,
    example: {
      surface: 'create',
      text:
        'failed to create containerd container: load apparmor profile /tmp/cri-containerd.apparmor.d3636700873: ' +
        'parser error(""): exec: "apparmor_parser": executable file not found in $PATH',
      from: 'https://github.com/siderolabs/talos/pull/8641',
    },
  },
  {
    reason: 'failed to mount rootfs component: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD} cmd/containerd-shim-runc-v2/runc/container.go`,
    versions: SEEN_CONTAINERD,
  },
  { reason: 'StartError', kind: 'status', component: 'containerd', from: `${CONTAINERD} internal/cri/server/helpers.go`, versions: SEEN_CONTAINERD },
  { reason: 'OOMKilled', kind: 'status', component: 'containerd', from: `${CONTAINERD} internal/cri/server/helpers.go`, versions: SEEN_CONTAINERD },
  { reason: 'Completed', kind: 'status', component: 'containerd', from: `${CONTAINERD} internal/cri/server/helpers.go`, versions: SEEN_CONTAINERD },
  { reason: 'Error', kind: 'status', component: 'containerd', from: `${CONTAINERD} internal/cri/server/helpers.go`, versions: SEEN_CONTAINERD },
  {
    reason: 'NetworkPluginNotReady',
    kind: 'condition',
    component: 'containerd',
    from: `${CONTAINERD} internal/cri/server/status.go`,
    versions: SEEN_CONTAINERD,
    note: "runtime status, quoted in the node's Ready message",
  },

  // containerd 2.0/2.1: what the 2.x CRI server and its transfer service say that 1.7 did not (the rest above reads the same at v2.0.0 and v2.1.0)
  {
    reason: 'failed to resolve image: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} core/transfer/local/pull.go`,
    versions: 'containerd 2.1+ (CRI pulls through the transfer service unless use_local_image_pull)',
    note: 'replaces failed to resolve reference %q in the CRI pull chain',
  },
  {
    reason: 'unable to initialize unpacker: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} core/transfer/local/pull.go`,
    versions: 'containerd 2.1+ (transfer service)',
  },
  {
    reason: 'failed to start sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/sandbox_run.go`,
    versions: 'containerd 2.0+ (the sandbox controller wraps the pause image, task and runtime errors)',
  },
  {
    reason: 'failed to create sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/sandbox_run.go`,
    versions: 'containerd 2.0+',
  },
  {
    reason: 'unable to get OCI runtime for sandbox %q: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/sandbox_run.go`,
    versions: 'containerd 2.0+ (1.7: failed to get sandbox runtime: %w)',
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = unable to get OCI runtime for sandbox ' +
        '"18073b779521b77e3cbc7752dd5c2f63064efe24cec18807e917cd29f31fdf50": no runtime for "nvidia" is configured',
      from: 'https://github.com/NVIDIA/gpu-operator/pull/2168',
    },
  },
  {
    reason: 'failed to get sandbox runtime: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/podsandbox/sandbox_run.go`,
    versions: 'containerd 1.7–2.1',
  },
  {
    reason: 'failed to generate seccomp spec opts: %w',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/container_create_linux.go`,
    versions: 'containerd 1.7–2.1',
  },
  {
    reason: 'cannot load seccomp profile %q: %v',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} contrib/seccomp/seccomp.go`,
    versions: 'containerd 1.7–2.1',
    example: {
      surface: 'create',
      text:
        'failed to generate seccomp spec opts: cannot load seccomp profile ' +
        '"/var/lib/kubelet/seccomp/profiles/audit.json": open /var/lib/kubelet/seccomp/profiles/audit.json: no such ' +
        'file or directory',
    },
  },
  {
    reason: 'apparmor profile not found %s',
    kind: 'runtime-error',
    component: 'containerd',
    from: `${CONTAINERD_2} internal/cri/server/container_create_linux.go`,
    versions: 'containerd 1.7–2.1 (Localhost profile, kubelet 1.30+ passes it through the CRI field)',
    example: { surface: 'create', text: 'failed to generate apparmor spec opts: apparmor profile not found k8s-apparmor-example-deny-write' },
  },

  // CRI-O
  {
    reason: 'unable to pull image or OCI artifact: pull image err: %w; artifact err: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} internal/storage/image.go`,
    versions: 'CRI-O 1.34+ (absent at v1.33.0)',
  },
  {
    reason: 'initializing source %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/copy/copy.go`,
    versions: SEEN_CRIO,
  },
  {
    reason: 'reading manifest %s in %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/docker/docker_client.go`,
    versions: SEEN_CRIO,
  },
  {
    reason: 'pinging container registry %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/docker/docker_client.go`,
    versions: SEEN_CRIO,
  },
  {
    reason: 'choosing an image from manifest list %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/copy/copy.go`,
    versions: SEEN_CRIO,
  },
  {
    reason: 'no image found in manifest list for architecture %q, variant %q, OS %q',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/internal/manifest/docker_schema2_list.go`,
    versions: 'CRI-O 1.31–1.36 (1.27–1.30: %s for architecture and OS)',
    example: {
      surface: 'pull',
      text:
        'initializing source docker://quay.io/acme/tool:2.1: choosing an image from manifest list ' +
        'docker://quay.io/acme/tool:2.1: no image found in manifest list for architecture "arm64", variant "v8", OS ' +
        '"linux"',
    },
  },
  {
    reason: 'short-name %q did not resolve to an alias and no unqualified-search registries are defined in %q',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/pkg/shortnames/shortnames.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'pull',
      text: 'short-name "nginx:1.27" did not resolve to an alias and no unqualified-search registries are defined in "/etc/' + 'containers/registries.conf"',
    },
  },
  {
    reason: 'short-name resolution enforced but cannot prompt without a TTY',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/image/v5/pkg/shortnames/shortnames.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'pull',
      text: 'short-name resolution enforced but cannot prompt without a TTY',
    },
  },
  {
    reason: 'container create failed: %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} internal/oci/runtime_oci.go`,
    versions: SEEN_CRIO,
  },
  {
    reason: 'error reserving ctr name %s for id %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} internal/lib/container_server.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'create',
      text:
        'Kubelet may be retrying requests that are timing out in CRI-O due to system load: context deadline ' +
        'exceeded: error reserving ctr name ' +
        'k8s_minio_data-analytics-prod-pool-0-3_oci-prod-data-analytics_8dec4302-e6b4-4874-9a60-ea305b96347f_0 for ' +
        'id 8424e8fdc1a42daec5810b43a8baf7a9a80f7835a843fc104fe9f621a14983cb: name is reserved',
      from: 'https://github.com/kubernetes/kubernetes/issues/112105',
    },
  },
  {
    reason: 'error reserving pod name %s for id %s: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} internal/lib/container_server.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = Kubelet may be retrying requests that are ' +
        'timing out in CRI-O due to system load: error reserving pod name ' +
        'k8s_podbb-ctr-1-0_bucketbench.test.cri_bucketbench-test-cri_1 for id ' +
        'b421a43db43086a3c98e5ecdc556aa1638359ec2c817a7d742832cf7954242fd: name is reserved',
    },
  },
  {
    reason: 'the container name %q is already in use by %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/storage/containers.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'create',
      text:
        'the container name "k8s_web_web-7d9f8c6b5-x2k4q_shop_6f1c2d3e-aaaa-4bbb-8ccc-000000000001_0" is already in use by ' +
        '4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d. You have to remove that container to be ' +
        'able to reuse that name: that name is already in use',
    },
  },
  {
    reason: 'no CNI configuration file in %s. Has your network provider started?',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/github.com/cri-o/ocicni/pkg/ocicni/ocicni.go`,
    versions: 'CRI-O 1.30–1.36 (1.27–1.29: No CNI ...)',
    example: {
      surface: 'node',
      text:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin ' +
        'returns error: no CNI configuration file in /etc/cni/net.d/. Has your network provider started?',
    },
  },
  {
    reason: 'error adding pod %s to CNI network %q: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/github.com/cri-o/ocicni/pkg/ocicni/ocicni.go`,
    versions: 'CRI-O 1.27–1.36 (%v before 1.32)',
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox ' +
        'k8s_nginx_default_hdishd83djaidwnduwk28bcsb_1(4338cd100cc17c254a6f89daa92c357555d7cabb5cedced52b7df9ce29c0b4b5): ' +
        'error adding pod default_nginx to CNI network "k8s-pod-network": pods "nginx" not found',
      from: 'https://github.com/containerd/containerd/issues/7689',
    },
  },
  {
    reason: 'find `apparmor_parser` binary: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} vendor/go.podman.io/common/pkg/apparmor/apparmor_linux.go`,
    versions: SEEN_CRIO,
    example: {
      surface: 'create',
      text: 'find `apparmor_parser` binary: exec: "apparmor_parser": executable file not found in $PATH',
    },
  },
  {
    reason: 'failed to mount container %s(%s): %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO} server/container_create.go`,
    versions: SEEN_CRIO,
  },
  { reason: 'OOMKilled', kind: 'status', component: 'cri-o', from: `${CRIO} server/container_status.go`, versions: SEEN_CRIO },
  { reason: 'Completed', kind: 'status', component: 'cri-o', from: `${CRIO} server/container_status.go`, versions: SEEN_CRIO },
  { reason: 'Error', kind: 'status', component: 'cri-o', from: `${CRIO} server/container_status.go`, versions: SEEN_CRIO },
  {
    reason: 'NetworkPluginNotReady',
    kind: 'condition',
    component: 'cri-o',
    from: `${CRIO} server/runtime_status.go`,
    versions: SEEN_CRIO,
    note: "runtime status, quoted in the node's Ready message",
  },

  // CRI-O 1.27–1.32: its own words (server/, internal/) and those of containers/image and ocicni it vendors
  {
    reason: 'no image found in manifest list for architecture %s, variant %q, OS %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/internal/manifest/docker_schema2_list.go`,
    versions: 'CRI-O 1.27–1.30 (containers/image < 5.32; %q from 1.31)',
    example: {
      surface: 'pull',
      text:
        'initializing source docker://quay.io/acme/tool:2.1: choosing an image from manifest list ' +
        'docker://quay.io/acme/tool:2.1: no image found in manifest list for architecture arm64, variant "v8", OS ' +
        'linux',
    },
  },
  {
    reason: 'no image found in image index for architecture %q, variant %q, OS %q',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/internal/manifest/oci_index.go`,
    versions: 'CRI-O 1.31+ (1.27–1.30: %s for architecture and OS)',
    example: {
      surface: 'pull',
      text:
        'initializing source docker://quay.io/acme/tool:2.1: choosing an image from manifest list ' +
        'docker://quay.io/acme/tool:2.1: no image found in image index for architecture "arm64", variant "v8", OS ' +
        '"linux"',
    },
  },
  {
    reason: 'requested access to the resource is denied',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/docker/errors.go (registryHTTPResponseToError: a registry DENIED error whose message is the default, without its code)`,
    versions: CRIO_27_32,
    note: 'Docker Hub says it for a missing repository and a private one alike',
    example: {
      surface: 'pull',
      text: 'initializing source docker://acme/billing:2.3: reading manifest 2.3 in docker.io/acme/billing: requested access to the resource is denied',
    },
  },
  {
    reason: 'unable to retrieve auth token: invalid username/password: %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/docker/errors.go (ErrUnauthorizedForCredentials)`,
    versions: CRIO_27_32,
    example: {
      surface: 'pull',
      text:
        'rpc error: code = Unknown desc = unable to retrieve auth token: invalid username/password: unauthorized: ' +
        'authentication required, visit https://aka.ms/acr/authorization for more information.',
    },
  },
  {
    reason: 'Requesting bearer token: invalid status code from registry %d (%s)',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/docker/docker_client.go (getBearerToken), docker/errors.go (httpResponseToError)`,
    versions: CRIO_27_32,
    note: '403 (Forbidden): the token endpoint refuses the credentials or their scope; a 401 is ErrUnauthorizedForCredentials, a 429 too many requests to registry',
    example: {
      surface: 'pull',
      text: 'initializing source docker://quay.io/acme/private:1.0: Requesting bearer token: invalid status code from registry 403 (Forbidden)',
    },
  },
  {
    reason: 'too many requests to registry',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/docker/errors.go (ErrTooManyRequests: a 429 on the ping or the token endpoint)`,
    versions: CRIO_27_32,
    example: {
      surface: 'pull',
      text: 'initializing source docker://busybox:latest: pinging container registry registry-1.docker.io: too many requests to registry',
    },
  },
  {
    reason: 'StatusCode: %d, %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/docker/errors.go (unexpectedHTTPResponseError: a body that is not a registry error)`,
    versions: 'CRI-O 1.27–1.31 (the body %q-quoted from 1.32)',
    note: 'after reading manifest %s in %s, a 404 is a manifest that is not there',
    example: {
      surface: 'pull',
      text:
        'initializing source docker://registry.example.com/shop/web:1.4.2: reading manifest 1.4.2 in ' +
        'registry.example.com/shop/web: StatusCode: 404, <html>rn<head><title>404 Not Found</title></head>...',
    },
  },
  {
    reason: 'Digest did not match, expected %s, got %s',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/copy/digesting_reader.go`,
    versions: CRIO_27_32,
    example: {
      surface: 'pull',
      text:
        'writing blob: storing blob to file "/var/tmp/container_images_storage1794393263/1": happened during read: ' +
        'Digest did not match, expected sha256:2d5a0c7e, got sha256:7f1c3b9a',
    },
  },
  { reason: 'writing blob: %w', kind: 'runtime-error', component: 'cri-o', from: `${CRIO_IMAGE}/copy/blob.go`, versions: CRIO_27_32 },
  { reason: 'happened during read: %w', kind: 'runtime-error', component: 'cri-o', from: `${CRIO_IMAGE}/copy/blob.go`, versions: CRIO_27_32 },
  {
    reason: 'storing blob to file %q: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_IMAGE}/storage/storage_dest.go`,
    versions: CRIO_27_32,
  },
  {
    reason: 'kubelet may be retrying requests that are timing out in CRI-O due to system load. Currently at stage %v: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} server/utils.go (getResourceOrWait)`,
    versions: 'CRI-O 1.27–1.32 (≤ 1.26: Kubelet may be retrying ... due to system load: %w)',
    note: 'wraps error reserving ctr name / pod name: a timed-out create still holds the name',
    example: {
      surface: 'create',
      text:
        'kubelet may be retrying requests that are timing out in CRI-O due to system load. Currently at stage ' +
        'container volume configuration: context deadline exceeded: error reserving ctr name ' +
        'k8s_minio_data-pool-0-3_storage_8dec4302-e6b4-4874-9a60-ea305b96347f_0 for id ' +
        '8424e8fdc1a42daec5810b43a8baf7a9a80f7835a843fc104fe9f621a14983cb: name is reserved',
    },
  },
  {
    reason: 'error reading container (probably exited) json message: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} internal/oci/runtime_oci.go (CreateContainer: conmon's sync pipe closed)`,
    versions: CRIO_27_32,
    example: {
      surface: 'sandbox',
      text: 'Failed to create pod sandbox: rpc error: code = Unknown desc = error reading container (probably exited) json message: EOF',
      from: 'https://github.com/kubernetes/kubernetes/issues/98142',
    },
  },
  {
    reason: 'failed to find runtime handler %s from runtime list %v',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} internal/oci/oci.go (ValidateRuntimeHandler)`,
    versions: CRIO_27_32,
    example: {
      surface: 'sandbox',
      text: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler kata from runtime list map[runc:0xc00001da70]',
      from: 'https://github.com/kata-containers/tests/issues/1900',
    },
  },
  {
    reason: 'creating pod sandbox with name %q: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} server/sandbox_run_linux.go`,
    versions: CRIO_27_32,
    note: 'wraps the pause image pull (initializing source docker://.../pause:...)',
  },
  {
    reason: 'failed to create pod network sandbox %s(%s): %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} server/sandbox_network.go`,
    versions: CRIO_27_32,
    example: {
      surface: 'sandbox',
      text:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox ' +
        'k8s_nginx_default_hdishd83djaidwnduwk28bcsb_1(4338cd100cc17c254a6f89daa92c357555d7cabb5cedced52b7df9ce29c0b4b5): ' +
        'error adding pod default_nginx to CNI network "k8s-pod-network": pods "nginx" not found',
      from: 'https://github.com/containerd/containerd/issues/7689',
    },
  },
  {
    reason: 'failed to destroy network for pod sandbox %s(%s): %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} server/sandbox_network.go`,
    versions: CRIO_27_32,
    example: {
      surface: 'teardown',
      text:
        'error killing pod: failed to "KillPodSandbox" for "0bdc387d-dfac-11e7-9a8f-52549da43ad9" with ' +
        'KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for pod sandbox ' +
        'k8s_web-0_shop_0bdc387d-dfac-11e7-9a8f-52549da43ad9_0(41857f70ed13a5e0b6e1fb9f4c2b1e0a): error removing pod ' +
        'shop_web-0 from CNI network \\"k8s-pod-network\\": plugin type=\\"calico\\" failed (delete): resource does not ' +
        'exist: WorkloadEndpoint(node=node-1, orchestrator=k8s, workload=shop.web-0, name=eth0)"',
    },
  },
  {
    reason: 'error removing pod %s from CNI network %q: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} vendor/github.com/cri-o/ocicni/pkg/ocicni/ocicni.go`,
    versions: 'CRI-O 1.27–1.32 (%v before ocicni 0.4.3)',
    example: {
      surface: 'teardown',
      text:
        'error killing pod: failed to "KillPodSandbox" for "0bdc387d-dfac-11e7-9a8f-52549da43ad9" with ' +
        'KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for pod sandbox ' +
        'k8s_web-0_shop_0bdc387d-dfac-11e7-9a8f-52549da43ad9_0(41857f70ed13a5e0b6e1fb9f4c2b1e0a): error removing pod ' +
        'shop_web-0 from CNI network \\"k8s-pod-network\\": plugin type=\\"calico\\" failed (delete): resource does not ' +
        'exist: WorkloadEndpoint(node=node-1, orchestrator=k8s, workload=shop.web-0, name=eth0)"',
    },
  },
  {
    reason: 'No CNI configuration file in %s. Has your network provider started?',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} vendor/github.com/cri-o/ocicni/pkg/ocicni/ocicni.go (errMissingDefaultNetwork)`,
    versions: 'CRI-O 1.27–1.29 (lower-case no from 1.30)',
    example: {
      surface: 'node',
      text:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin ' +
        'returns error: No CNI configuration file in /etc/cni/net.d/. Has your network provider started?',
      from: 'https://github.com/cri-o/cri-o/issues/4276',
    },
  },
  {
    reason: 'unable to load local profile %q: %w',
    kind: 'runtime-error',
    component: 'cri-o',
    from: `${CRIO_TAGS} internal/config/seccomp/seccomp.go (after setup seccomp: , server/container_create_linux.go)`,
    versions: CRIO_27_32,
    example: {
      surface: 'create',
      text:
        'setup seccomp: unable to load local profile "/var/lib/kubelet/seccomp/profiles/audit.json": open ' +
        '/var/lib/kubelet/seccomp/profiles/audit.json: no such file or directory',
    },
  },
  { reason: 'seccomp killed', kind: 'status', component: 'cri-o', from: `${CRIO_TAGS} server/container_status.go`, versions: CRIO_27_32 },

  // runc: the container's start error, inside containerd's or CRI-O's wrappers
  { reason: 'runc create failed: %w', kind: 'runtime-error', component: 'runc', from: `${RUNC} create.go`, versions: 'runc 1.1+' },
  {
    reason: 'unable to start container process: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/container_linux.go`,
    versions: 'runc 1.1+',
  },
  {
    reason: 'starting container process caused',
    kind: 'runtime-error',
    component: 'runc',
    from: 'opencontainers/runc v1.0.0-rc93 libcontainer/container_linux.go, generic_error.go',
    versions: 'runc ≤ 1.0',
  },
  {
    reason: 'error during container init: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/process_linux.go`,
    versions: 'runc 1.1+ (≤1.0: container init caused)',
  },
  {
    reason: 'executable file not found in $PATH',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/standard_init_linux.go (exec.LookPath)`,
    versions: 'all',
    example: {
      surface: 'start',
      text:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create ' +
        'failed: unable to start container process: exec: "/cluster/kube-apiserver-operator": executable file not ' +
        'found in $PATH: unknown',
    },
  },
  {
    reason: 'exec format error',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/standard_init_linux.go (execve ENOEXEC)`,
    versions: 'all',
    example: {
      surface: 'log',
      text: 'exec /bin/sh: exec format error',
      from: 'https://github.com/containerd/containerd/issues/12243',
    },
  },
  {
    reason: 'no such file or directory',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/standard_init_linux.go, rootfs_linux.go (ENOENT)`,
    versions: 'all',
    example: {
      surface: 'start',
      text:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create ' +
        'failed: unable to start container process: exec: "/usr/bin/pod": stat /usr/bin/pod: no such file or ' +
        'directory: unknown',
    },
  },
  {
    reason: 'permission denied',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/standard_init_linux.go (execve EACCES)`,
    versions: 'all',
    example: {
      surface: 'start',
      text:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create ' +
        'failed: unable to start container process: exec: "/bin/prometheus-config-reloader": permission denied: ' +
        'unknown',
    },
  },
  {
    reason: 'not a directory',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/rootfs_linux.go (mount ENOTDIR)`,
    versions: 'all',
    example: {
      surface: 'start',
      text:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create ' +
        'failed: unable to start container process: error during container init: error mounting ' +
        '"/srv/customer/profile.json" to rootfs at "/customer/profile.json": mount ' +
        '/srv/customer/profile.json:/customer/profile.json (via /proc/self/fd/6), flags: 0x5000: not a directory: ' +
        'unknown',
    },
  },
  {
    reason: 'error mounting %q to rootfs at %q: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/rootfs_linux.go`,
    versions: 'runc 1.1+',
    example: {
      surface: 'start',
      text:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create ' +
        'failed: unable to start container process: error during container init: error mounting ' +
        '"/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0" to rootfs at ' +
        '"/etc/web/app.yml": mount ' +
        '/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0:/etc/web/app.yml ' +
        '(via /proc/self/fd/6), flags: 0x5001: no such file or directory: unknown',
    },
  },
  {
    reason: 'chdir to cwd (%q) set in config.json failed: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/init_linux.go`,
    versions: 'runc 1.1+',
  },
  {
    reason: 'unable to apply cgroup configuration: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/process_linux.go`,
    versions: 'runc 1.1+',
  },
  {
    reason: 'unable to apply apparmor profile: %w',
    kind: 'runtime-error',
    component: 'runc',
    from: `${RUNC} libcontainer/standard_init_linux.go`,
    versions: 'runc 1.1+',
  },

  // crun: the container's start error inside CRI-O's `container create failed: ` (create time) or as the run's only log line (after start)
  {
    reason: 'executable file `%s` not found in $PATH',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/container.c (container_init_setup)`,
    versions: CRUN_VERSIONS,
    note: 'followed by the errno text: No such file or directory',
    example: {
      surface: 'create',
      text: 'container create failed: executable file `gunicorn` not found in $PATH: No such file or directory',
    },
  },
  {
    reason: 'open executable',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/container.c (container_init_setup: found but not executable)`,
    versions: CRUN_VERSIONS,
    example: { surface: 'create', text: 'container create failed: open executable: Permission denied' },
  },
  {
    reason: 'exec container process `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/container.c (container_init, after start)`,
    versions: CRUN_VERSIONS,
    note: 'Exec format error: a binary for another CPU (or a script without #!); Permission denied: not executable',
    example: { surface: 'log', text: 'exec container process `/usr/local/bin/web`: Exec format error' },
  },
  {
    reason: 'exec container process (missing dynamic library?) `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/container.c (container_init, after start: ENOENT)`,
    versions: CRUN_VERSIONS,
    example: { surface: 'log', text: 'exec container process (missing dynamic library?) `/app/server`: No such file or directory' },
  },
  {
    reason: 'cannot stat `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/linux.c (do_mounts: a bind mount's source)`,
    versions: 'crun 1.12+',
    example: {
      surface: 'create',
      text:
        'container create failed: cannot stat ' +
        '`/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0`: No such file ' +
        'or directory',
    },
  },
  {
    reason: "error stat'ing file `%s`",
    kind: 'runtime-error',
    component: 'crun',
    from: "containers/crun 1.8.4–1.11 src/libcrun/utils.c (crun_dir_p_at, a bind mount's source)",
    versions: 'crun 1.8–1.11',
    example: {
      surface: 'create',
      text:
        "container create failed: error stat'ing file `/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0`: " +
        'No such file or directory',
    },
  },
  {
    reason: 'mount `%s` to `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/linux.c (do_mount: the target relative to the rootfs)`,
    versions: CRUN_VERSIONS,
    note: 'Not a directory: a file mounted onto a directory or the reverse',
    example: { surface: 'create', text: 'container create failed: mount `/srv/customer/profile.json` to `customer/profile.json`: Not a directory' },
  },
  {
    reason: 'writing file `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/utils.c (write_file_at_with_flags: a cgroup file relative to the container's cgroup)`,
    versions: CRUN_VERSIONS,
    example: { surface: 'create', text: 'container create failed: writing file `cpu.max`: Invalid argument' },
  },
  {
    reason: 'chdir `%s`',
    kind: 'runtime-error',
    component: 'crun',
    from: `${CRUN} src/libcrun/container.c (workingDir)`,
    versions: CRUN_VERSIONS,
  },
] as const satisfies readonly UpstreamReason[];
