// What an alert points at, from its labels. Label names differ between setups
// (kube-state-metrics with honorLabels keeps `namespace`/`pod`; without it they arrive as
// `exported_namespace`/`exported_pod`; older service discovery used `kubernetes_pod_name`),
// so each role lists the label names to try, first non-empty wins.
//
// Order: namespace+pod → that pod; namespace+deployment/statefulset/daemonset/job_name → the
// workload (its unhealthy pods are found later, by the worker); node → the node. Anything else
// is "not diagnosable" with a reason the thread can show.

import { DEFAULT_LABELS, type LabelMapping, type LabelRole } from '../config/alerts.js';
import type { Target } from '../diagnosis/types.js';
import { isDns1123Label, isDns1123Subdomain, targetKey, type WorkloadKind, type WorkloadRef } from '../kube/target.js';

export type { WorkloadKind, WorkloadRef } from '../kube/target.js';

export type AlertTarget =
  | { kind: 'pod'; target: Extract<Target, { kind: 'pod' }> }
  | { kind: 'node'; target: Extract<Target, { kind: 'node' }> }
  | { kind: 'workload'; workload: WorkloadRef }
  | { kind: 'none'; reason: string };

const WORKLOAD_ROLES: readonly [LabelRole, WorkloadKind][] = [
  ['deployment', 'Deployment'],
  ['statefulset', 'StatefulSet'],
  ['daemonset', 'DaemonSet'],
  ['job', 'Job'],
];

/** First non-empty value among the role's label names, with the name that had it. */
export function pick(labels: Record<string, string>, mapping: LabelMapping, role: LabelRole): { label: string; value: string } | undefined {
  for (const label of mapping[role]) {
    const value = labels[label];
    if (value) return { label, value };
  }
  return undefined;
}

const shown = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);

export function targetFromLabels(labels: Record<string, string>, mapping: LabelMapping = DEFAULT_LABELS): AlertTarget {
  const ns = pick(labels, mapping, 'namespace');
  const pod = pick(labels, mapping, 'pod');
  const badNamespace = ns && !isDns1123Label(ns.value) ? `label ${ns.label}=${shown(ns.value)} is not a namespace name` : undefined;

  if (pod && ns) {
    if (badNamespace) return { kind: 'none', reason: badNamespace };
    if (!isDns1123Subdomain(pod.value)) return { kind: 'none', reason: `label ${pod.label}=${shown(pod.value)} is not a pod name` };
    return { kind: 'pod', target: { kind: 'pod', namespace: ns.value, name: pod.value } };
  }
  if (ns) {
    for (const [role, kind] of WORKLOAD_ROLES) {
      const w = pick(labels, mapping, role);
      if (!w) continue;
      if (badNamespace) return { kind: 'none', reason: badNamespace };
      if (!isDns1123Subdomain(w.value)) return { kind: 'none', reason: `label ${w.label}=${shown(w.value)} is not a ${kind} name` };
      return { kind: 'workload', workload: { kind, namespace: ns.value, name: w.value } };
    }
  }
  const node = pick(labels, mapping, 'node');
  if (node) {
    if (!isDns1123Subdomain(node.value)) return { kind: 'none', reason: `label ${node.label}=${shown(node.value)} is not a node name` };
    return { kind: 'node', target: { kind: 'node', name: node.value } };
  }
  if (pod) return { kind: 'none', reason: `label ${pod.label} without a namespace label (${mapping.namespace.join(', ') || 'none configured'})` };
  const looked = (role: LabelRole) => mapping[role].join('|') || '-';
  return {
    kind: 'none',
    reason: `no target labels: looked for ${looked('namespace')} with ${looked('pod')}, ${looked('deployment')}, ${looked('statefulset')}, ${looked('daemonset')} or ${looked('job')}, or ${looked('node')}`,
  };
}

/** The alert's cluster: the configured cluster label if present, else the default. Null: a cluster not served here. */
export function clusterFromLabels(
  labels: Record<string, string>,
  mapping: LabelMapping,
  defaultCluster: string,
  served: readonly string[],
): { cluster: string; unknown?: string } {
  const c = pick(labels, mapping, 'cluster');
  if (!c || c.value === defaultCluster || served.includes(c.value)) return { cluster: c?.value ?? defaultCluster };
  return { cluster: defaultCluster, unknown: c.value };
}

/** Short structured form for events and logs: `pod/ns/name`, `node/name`, `deployment/ns/name`. */
export function describeAlertTarget(t: AlertTarget): string | null {
  switch (t.kind) {
    case 'pod':
    case 'node':
      return targetKey(t.target);
    case 'workload':
      return `${t.workload.kind.toLowerCase()}/${t.workload.namespace}/${t.workload.name}`;
    case 'none':
      return null;
  }
}
