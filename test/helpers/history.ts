// Rollout history for the "what changed" tests: a Deployment with its ReplicaSets, a StatefulSet
// with its ControllerRevisions, ConfigMap metadata with managedFields, as the API serves them.
import type { HistoryFact, KubeObject } from '../../src/diagnosis/types.js';
import { ago } from './factories.js';

export interface RevisionInit {
  revision: number;
  /** Seconds before NOW the revision was created. */
  createdAgo: number;
  image: string;
  hash: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  memoryLimit?: string;
}

const template = (r: RevisionInit, labels: Record<string, string>) => ({
  metadata: { labels },
  spec: {
    containers: [
      {
        name: 'web',
        image: r.image,
        ...(r.env ? { env: r.env } : {}),
        resources: { requests: { cpu: '100m', memory: '128Mi' }, ...(r.memoryLimit ? { limits: { memory: r.memoryLimit } } : {}) },
      },
    ],
  },
});

/** Deployment `web` (uid dep-web) whose spec `manager` last changed `byAgo` seconds before NOW. */
export function deployment(manager: string, byAgo: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'dep-web',
      creationTimestamp: ago(30 * 86_400),
      managedFields: [
        { manager, operation: 'Apply', apiVersion: 'apps/v1', time: ago(byAgo), fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:template': {} } } },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: ago(10),
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': {} },
          subresource: 'status',
        },
      ],
    },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } } },
  };
}

export function replicaSet(r: RevisionInit): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `web-${r.hash}`,
      namespace: 'shop',
      uid: `rs-${r.hash}`,
      creationTimestamp: ago(r.createdAgo),
      labels: { app: 'web', 'pod-template-hash': r.hash },
      annotations: { 'deployment.kubernetes.io/revision': String(r.revision) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-web', controller: true }],
    },
    spec: { selector: { matchLabels: { app: 'web', 'pod-template-hash': r.hash } }, template: template(r, { app: 'web', 'pod-template-hash': r.hash }) },
  };
}

export function statefulSet(manager: string, byAgo: number): KubeObject {
  const d = deployment(manager, byAgo);
  return { ...d, kind: 'StatefulSet', metadata: { ...d.metadata, name: 'db', uid: 'sts-db' }, spec: { selector: { matchLabels: { app: 'db' } } } };
}

export function controllerRevision(r: RevisionInit): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `db-${r.hash}`,
      namespace: 'shop',
      creationTimestamp: ago(r.createdAgo),
      labels: { app: 'db', 'controller.kubernetes.io/hash': r.hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-db', controller: true }],
    },
    revision: r.revision,
    data: { spec: { template: { ...template(r, { app: 'db' }), $patch: 'replace' } } },
  };
}

/** A ConfigMap's (or Secret's) metadata as a metadata-only read returns it, last changed `editedAgo` seconds before NOW. */
export function configMeta(kind: 'ConfigMap' | 'Secret', name: string, manager: string, editedAgo: number, createdAgo = 30 * 86_400): KubeObject {
  return {
    apiVersion: 'v1',
    kind,
    metadata: {
      name,
      namespace: 'shop',
      creationTimestamp: ago(createdAgo),
      managedFields: [{ manager, operation: 'Update', apiVersion: 'v1', time: ago(editedAgo), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
    },
  };
}

export function deploymentHistory(manager: string, revisions: RevisionInit[], configs: KubeObject[] = []): HistoryFact {
  const newest = revisions.at(-1);
  const object = deployment(manager, newest?.createdAgo ?? 0);
  return { workload: { kind: 'Deployment', name: 'web', object, revisions: revisions.map(replicaSet) }, configs };
}

/** A managedFields entry of `manager` (spec, or status through the status subresource) `agoSeconds` before NOW. */
const field = (manager: string, agoSeconds: number, status = false) => ({
  manager,
  operation: 'Update',
  time: ago(agoSeconds),
  fieldsType: 'FieldsV1',
  fieldsV1: status ? { 'f:status': {} } : { 'f:spec': {} },
  ...(status ? { subresource: 'status' } : {}),
});

/** autoscaling/v2 HPA `web` targeting Deployment web (min 2, max 6), last scaled to `desired` replicas `scaledAgo` seconds before NOW. */
export function autoscaler(scaledAgo: number, desired: number, current: number): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: {
      name: 'web',
      namespace: 'shop',
      creationTimestamp: ago(30 * 86_400),
      managedFields: [field('kubectl-client-side-apply', 30 * 86_400), field('kube-controller-manager', scaledAgo, true)],
    },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 6 },
    status: { lastScaleTime: ago(scaledAgo), currentReplicas: current, desiredReplicas: desired },
  };
}

/** NetworkPolicy `name` selecting app=web with `types`, created `createdAgo` and (when given) edited `editedAgo` seconds before NOW by `manager`. */
export function networkPolicy(name: string, manager: string, createdAgo: number, editedAgo?: number, types: string[] = ['Egress']): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'shop', creationTimestamp: ago(createdAgo), managedFields: [field(manager, editedAgo ?? createdAgo)] },
    spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: types },
  };
}

/**
 * PodDisruptionBudget `web` (maxUnavailable 0) selecting app=web, created `createdAgo` seconds before NOW; its status
 * updated 5 s ago, as a server before 1.22 records it (no `subresource`).
 */
export function disruptionBudget(manager: string, createdAgo: number): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: 'web',
      namespace: 'shop',
      creationTimestamp: ago(createdAgo),
      managedFields: [field(manager, createdAgo), { ...field('kube-controller-manager', 5, true), subresource: undefined }],
    },
    spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 0 },
  };
}
