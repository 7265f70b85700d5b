// An in-cluster client asks for an API the API server does not serve: a beta version removed in a
// later Kubernetes release (the client predates the cluster's upgrade), a GA version newer than the
// cluster (the client is ahead of it), or a custom resource whose CRD is not installed. The tables
// are Kubernetes' deprecated API migration guide (kubernetes.io/docs/reference/using-api/deprecation-guide).
import type { MessageData } from '../../types.js';
import { data, mechanisms, re, signatures } from '../define.js';
import type { ReadingContext } from '../types.js';

interface Served {
  groupVersion: string;
  kinds: readonly string[];
  /** The minor release that stopped (removed) or started (introduced) serving it. */
  release: string;
  /** For a removed version: what to use instead. */
  use?: string;
}

/** Beta versions removed by release (the migration guide's "Removed APIs by release"). */
const REMOVED: readonly Served[] = [
  { groupVersion: 'extensions/v1beta1', kinds: ['Deployment', 'DaemonSet', 'ReplicaSet'], release: '1.16', use: 'apps/v1' },
  { groupVersion: 'apps/v1beta1', kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'], release: '1.16', use: 'apps/v1' },
  { groupVersion: 'apps/v1beta2', kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'], release: '1.16', use: 'apps/v1' },
  { groupVersion: 'extensions/v1beta1', kinds: ['NetworkPolicy'], release: '1.16', use: 'networking.k8s.io/v1' },
  { groupVersion: 'extensions/v1beta1', kinds: ['Ingress'], release: '1.22', use: 'networking.k8s.io/v1' },
  { groupVersion: 'networking.k8s.io/v1beta1', kinds: ['Ingress', 'IngressClass'], release: '1.22', use: 'networking.k8s.io/v1' },
  { groupVersion: 'apiextensions.k8s.io/v1beta1', kinds: ['CustomResourceDefinition'], release: '1.22', use: 'apiextensions.k8s.io/v1' },
  {
    groupVersion: 'admissionregistration.k8s.io/v1beta1',
    kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
    release: '1.22',
    use: 'admissionregistration.k8s.io/v1',
  },
  { groupVersion: 'apiregistration.k8s.io/v1beta1', kinds: ['APIService'], release: '1.22', use: 'apiregistration.k8s.io/v1' },
  { groupVersion: 'authentication.k8s.io/v1beta1', kinds: ['TokenReview'], release: '1.22', use: 'authentication.k8s.io/v1' },
  {
    groupVersion: 'authorization.k8s.io/v1beta1',
    kinds: ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview'],
    release: '1.22',
    use: 'authorization.k8s.io/v1',
  },
  { groupVersion: 'certificates.k8s.io/v1beta1', kinds: ['CertificateSigningRequest'], release: '1.22', use: 'certificates.k8s.io/v1' },
  { groupVersion: 'coordination.k8s.io/v1beta1', kinds: ['Lease'], release: '1.22', use: 'coordination.k8s.io/v1' },
  {
    groupVersion: 'rbac.authorization.k8s.io/v1beta1',
    kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    release: '1.22',
    use: 'rbac.authorization.k8s.io/v1',
  },
  { groupVersion: 'scheduling.k8s.io/v1beta1', kinds: ['PriorityClass'], release: '1.22', use: 'scheduling.k8s.io/v1' },
  { groupVersion: 'storage.k8s.io/v1beta1', kinds: ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'], release: '1.22', use: 'storage.k8s.io/v1' },
  { groupVersion: 'batch/v1beta1', kinds: ['CronJob'], release: '1.25', use: 'batch/v1' },
  { groupVersion: 'discovery.k8s.io/v1beta1', kinds: ['EndpointSlice'], release: '1.25', use: 'discovery.k8s.io/v1' },
  { groupVersion: 'events.k8s.io/v1beta1', kinds: ['Event'], release: '1.25', use: 'events.k8s.io/v1' },
  { groupVersion: 'autoscaling/v2beta1', kinds: ['HorizontalPodAutoscaler'], release: '1.25', use: 'autoscaling/v2' },
  { groupVersion: 'policy/v1beta1', kinds: ['PodDisruptionBudget'], release: '1.25', use: 'policy/v1' },
  { groupVersion: 'policy/v1beta1', kinds: ['PodSecurityPolicy'], release: '1.25', use: 'Pod Security Admission (no replacement API)' },
  { groupVersion: 'node.k8s.io/v1beta1', kinds: ['RuntimeClass'], release: '1.25', use: 'node.k8s.io/v1' },
  { groupVersion: 'autoscaling/v2beta2', kinds: ['HorizontalPodAutoscaler'], release: '1.26', use: 'autoscaling/v2' },
  {
    groupVersion: 'flowcontrol.apiserver.k8s.io/v1beta1',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    release: '1.26',
    use: 'flowcontrol.apiserver.k8s.io/v1',
  },
  { groupVersion: 'storage.k8s.io/v1beta1', kinds: ['CSIStorageCapacity'], release: '1.27', use: 'storage.k8s.io/v1' },
  {
    groupVersion: 'flowcontrol.apiserver.k8s.io/v1beta2',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    release: '1.29',
    use: 'flowcontrol.apiserver.k8s.io/v1',
  },
  {
    groupVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    release: '1.32',
    use: 'flowcontrol.apiserver.k8s.io/v1',
  },
];

/** GA versions clients moved to, by the release that first served them: a client built for them fails on an older cluster. */
const INTRODUCED: readonly Served[] = [
  { groupVersion: 'networking.k8s.io/v1', kinds: ['Ingress', 'IngressClass'], release: '1.19' },
  { groupVersion: 'events.k8s.io/v1', kinds: ['Event'], release: '1.19' },
  { groupVersion: 'node.k8s.io/v1', kinds: ['RuntimeClass'], release: '1.20' },
  { groupVersion: 'policy/v1', kinds: ['PodDisruptionBudget'], release: '1.21' },
  { groupVersion: 'batch/v1', kinds: ['CronJob'], release: '1.21' },
  { groupVersion: 'discovery.k8s.io/v1', kinds: ['EndpointSlice'], release: '1.21' },
  { groupVersion: 'autoscaling/v2', kinds: ['HorizontalPodAutoscaler'], release: '1.23' },
  { groupVersion: 'storage.k8s.io/v1', kinds: ['CSIStorageCapacity'], release: '1.24' },
  { groupVersion: 'flowcontrol.apiserver.k8s.io/v1', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], release: '1.29' },
  { groupVersion: 'admissionregistration.k8s.io/v1', kinds: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], release: '1.30' },
];

/** Kinds the API server serves itself: any other kind a client cannot find is a custom resource. */
const BUILT_IN = new Set([
  ...[...REMOVED, ...INTRODUCED].flatMap((s) => s.kinds),
  'Pod',
  'Service',
  'ConfigMap',
  'Secret',
  'Node',
  'Namespace',
  'Endpoints',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'ServiceAccount',
  'ReplicationController',
  'LimitRange',
  'ResourceQuota',
  'Job',
  'ControllerRevision',
]);

/** `1.30` from a kubelet version `v1.30.6`, as a number pair for comparison. */
function minor(version: string | undefined): number | undefined {
  const m = /^v?1\.(\d+)/.exec(version ?? '');
  return m ? Number(m[1]) : undefined;
}

const releaseMinor = (release: string) => Number(release.split('.')[1]);

/** What the line asked for: kind, version, and group when the line names it. */
function asked(ctx: ReadingContext): { kind: string; version: string; group?: string } | undefined {
  const g = ctx.groups;
  if (!g.kind || !g.version) return undefined;
  return { kind: g.kind, version: g.version, group: g.group };
}

function find(table: readonly Served[], a: { kind: string; version: string; group?: string }): Served | undefined {
  return table.find((s) => {
    const [group, version] = s.groupVersion.includes('/') ? s.groupVersion.split('/') : ['', s.groupVersion];
    return s.kinds.includes(a.kind) && version === a.version && (a.group === undefined || a.group === group);
  });
}

function nodeVersion(ctx: ReadingContext): string | undefined {
  return ctx.node?.status?.nodeInfo?.kubeletVersion ?? ctx.snapshot?.node?.status?.nodeInfo?.kubeletVersion;
}

function removed(ctx: ReadingContext): MessageData | false {
  const a = asked(ctx);
  const s = a && find(REMOVED, a);
  if (!a || !s) return false;
  const kubelet = nodeVersion(ctx);
  const m = minor(kubelet);
  if (m !== undefined && m < releaseMinor(s.release)) return false;
  return data({
    kind: a.kind,
    groupVersion: s.groupVersion,
    release: s.release,
    use: s.use,
    cluster: kubelet ? `its nodes run ${kubelet}` : `it runs ${s.release} or later`,
  });
}

function tooNew(ctx: ReadingContext): MessageData | false {
  const a = asked(ctx);
  const s = a && find(INTRODUCED, a);
  const kubelet = nodeVersion(ctx);
  const m = minor(kubelet);
  if (!a || !s || m === undefined || m >= releaseMinor(s.release)) return false;
  return data({ kind: a.kind, groupVersion: s.groupVersion, release: s.release, kubelet });
}

function custom(ctx: ReadingContext): MessageData | false {
  const a = asked(ctx);
  if (!a || BUILT_IN.has(a.kind)) return false;
  return data({ kind: a.kind, groupVersion: a.group ? `${a.group}/${a.version}` : a.version, group: a.group ?? 'its API group' });
}

export const MECHANISMS = mechanisms([
  {
    id: 'api-not-served',
    kind: 'dependency',
    resource: 'an API version the cluster serves',
    doc:
      "The app's Kubernetes client asks for a kind in an API version the API server does not serve (404: the server could not find the requested " +
      'resource, or no matches for kind): a beta version a later release removed, a version newer than the cluster, or a custom resource whose CRD is ' +
      'not installed. Its informers never sync and controllers built on them stop or crash.',
    variants: [
      {
        id: 'removed',
        when: removed,
        summary: '{{groupVersion}} {{kind}} is no longer served (removed in Kubernetes {{release}})',
        explain:
          "The app's client lists or watches {{kind}} in {{groupVersion}}, which Kubernetes stopped serving in {{release}}, and the cluster is past that " +
          '({{cluster}}): the app was built against an older client library than the cluster it runs on. The objects are still there under {{use}}.',
        knobs: [
          {
            place: 'image',
            path: '{{containerPath}}.image',
            change: 'upgrade the app (controller, exporter, operator) to a release that uses {{use}}: usually its release for this Kubernetes minor',
          },
          { place: 'app', path: "the app's own setting for {{kind}}", change: 'or turn off the feature that watches {{kind}} until it is upgraded' },
        ],
      },
      {
        id: 'too-new',
        when: tooNew,
        summary: '{{groupVersion}} {{kind}} is newer than the cluster ({{kubelet}})',
        explain:
          "The app's client asks for {{kind}} in {{groupVersion}}, which Kubernetes first served in {{release}}; this cluster's nodes run {{kubelet}}, " +
          'so the API server answers 404: the app is built for a newer Kubernetes than the cluster.',
        knobs: [
          { place: 'image', path: '{{containerPath}}.image', change: "use the app's release that supports this Kubernetes minor (its compatibility matrix)" },
          { place: 'cluster', path: 'the control plane version', change: 'or upgrade the cluster to {{release}} or later' },
        ],
      },
      {
        id: 'crd-missing',
        when: custom,
        summary: 'the {{kind}} CRD ({{groupVersion}}) is not installed',
        explain:
          'The app watches or creates {{kind}} objects ({{groupVersion}}), a custom resource, and the API server does not know that kind: its ' +
          'CustomResourceDefinition is not installed (or not at that version), so the app cannot start its informers.',
        knobs: [
          {
            place: 'cluster',
            path: 'CustomResourceDefinition for {{kind}} ({{group}})',
            change: "install the CRDs of the project that owns {{group}} (its chart's crds/ or its CRD manifests), at a version serving {{groupVersion}}",
          },
          {
            place: 'app',
            path: "the app's setting for {{kind}}",
            change: "or turn that integration off (for ServiceMonitor: the chart's serviceMonitor.enabled)",
          },
        ],
      },
      {
        id: 'general',
        summary: 'the API server does not serve what the app asks for',
        explain:
          "The app's Kubernetes client asks for a resource the API server does not serve (404): an API version removed by an upgrade, one newer than " +
          'the cluster, or a custom resource whose CRD is not installed.',
        knobs: [
          {
            place: 'image',
            path: '{{containerPath}}.image',
            change: "match the app's release to the cluster's Kubernetes minor (kubectl api-resources lists what is served)",
          },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'kube-api.not-served',
    family: 'kube-api',
    mechanism: 'api-not-served',
    needles: ['could not find the requested resource', 'no matches for kind'],
    patterns: [
      // client-go reflector: `Failed to list *v1beta1.CronJob: the server could not find the requested resource`.
      re('(?:failed to (?:list|watch)) \\*(?<version>v\\d+(?:(?:alpha|beta)\\d+)?)\\.(?<kind>[A-Z]\\w+): the server could not find the requested resource'),
      // apimachinery NoKindMatchError: `no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1"`.
      re('no matches for kind \\\\?"(?<kind>[A-Z]\\w+)\\\\?" in version \\\\?"(?:(?<group>[\\w.-]+)/)?(?<version>v\\d+(?:(?:alpha|beta)\\d+)?)\\\\?"'),
    ],
    source:
      'client-go tools/cache/reflector.go ("failed to list %v: %v" with the 404 Status "the server could not find the requested resource"), apimachinery ' +
      'pkg/api/meta/errors.go NoKindMatchError ("no matches for kind %q in version %q"). Lines (GitHub): keel-hq/keel (Failed to list *v1beta1.CronJob), ' +
      'kubernetes/autoscaler cluster-autoscaler on 1.25 (*v1beta1.PodDisruptionBudget), sustainable-computing-io/kepler-operator (ServiceMonitor ' +
      'restmapping); kubernetes.io deprecated API migration guide (the tables)',
    examples: [
      'E0219 08:25:23.237544       1 reflector.go:123] pkg/mod/k8s.io/client-go@v0.16.10/tools/cache/reflector.go:96: ' +
        'Failed to list *v1beta1.CronJob: the server could not find the requested resource',
      'k8s.io/autoscaler/cluster-autoscaler/utils/kubernetes/listers.go:309: Failed to watch *v1beta1.PodDisruptionBudget: ' +
        'failed to list *v1beta1.PodDisruptionBudget: the server could not find the requested resource',
      '{"kind": "ServiceMonitor.monitoring.coreos.com", "error": "failed to get restmapping: ' +
        'no matches for kind \\"ServiceMonitor\\" in version \\"monitoring.coreos.com/v1\\""}',
    ],
  },
]);
