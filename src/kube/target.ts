// The Target, what a diagnosis is about (a pod, a node or a namespace), in one place: its type, its
// job schema, parsing what a user or an alert names, its display text and its structured key.
// Names are validated as Kubernetes does, with the patterns of ./names.ts.
import { z } from 'zod';
import { PodDoctorError } from '../errors.js';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, LABEL_RE, SUBDOMAIN_RE } from './names.js';

export type Target = { kind: 'pod'; namespace: string; name: string } | { kind: 'node'; name: string } | { kind: 'namespace'; name: string };

/** The workloads whose pods pod-doctor finds through their selector (workload alerts, `diagnose deploy/NAME`). */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job';

export interface WorkloadRef {
  kind: WorkloadKind;
  namespace: string;
  name: string;
}

/** RFC 1123 label: namespaces. */
export function isDns1123Label(s: string): boolean {
  return s.length <= DNS1123_LABEL_MAX && LABEL_RE.test(s);
}

/** RFC 1123 subdomain: pod and node names. */
export function isDns1123Subdomain(s: string): boolean {
  return s.length <= DNS1123_SUBDOMAIN_MAX && SUBDOMAIN_RE.test(s);
}

export const Dns1123Label = z.string().refine(isDns1123Label, 'not a DNS-1123 label');
export const Dns1123Subdomain = z.string().refine(isDns1123Subdomain, 'not a DNS-1123 name');

export const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pod'), namespace: Dns1123Label, name: Dns1123Subdomain }),
  z.object({ kind: z.literal('node'), name: Dns1123Subdomain }),
  z.object({ kind: z.literal('namespace'), name: Dns1123Label }),
]) satisfies z.ZodType<Target>;

function bad(input: string, why: string): PodDoctorError {
  return new PodDoctorError('BAD_TARGET', `"${input}" is not a valid target: ${why}. Use <namespace>/<pod>, node/<name> or ns/<name>.`);
}

/** `ns/pod`, `pod` (with a default namespace), `node/<name>`, `ns/<name>` / `namespace/<name>`. */
export function parseTarget(input: string, defaultNamespace?: string): Target {
  const text = input.trim();
  if (!text) throw bad(input, 'it is empty');
  const parts = text.split('/');
  if (parts.length > 2) throw bad(input, 'too many "/"');
  const [first, second] = parts as [string, string | undefined];
  if (second === undefined) {
    if (!defaultNamespace) throw bad(input, 'no namespace given and no default namespace set');
    if (!isDns1123Subdomain(first)) throw bad(input, `"${first}" is not a DNS-1123 name (lower-case letters, digits, "-" and ".")`);
    return { kind: 'pod', namespace: defaultNamespace, name: first };
  }
  if (first === 'node' || first === 'nodes') {
    if (!isDns1123Subdomain(second)) throw bad(input, `"${second}" is not a valid node name`);
    return { kind: 'node', name: second };
  }
  if (first === 'ns' || first === 'namespace' || first === 'namespaces') {
    if (!isDns1123Label(second)) throw bad(input, `"${second}" is not a valid namespace name`);
    return { kind: 'namespace', name: second };
  }
  if (!isDns1123Label(first)) throw bad(input, `"${first}" is not a valid namespace name`);
  if (!isDns1123Subdomain(second)) throw bad(input, `"${second}" is not a valid pod name`);
  return { kind: 'pod', namespace: first, name: second };
}

/** The resource types `pod-doctor diagnose` takes as kubectl names them (`deploy/web`), by what they name. */
export const RESOURCE_TYPES: Readonly<Record<string, 'pod' | 'node' | 'namespace' | WorkloadKind>> = {
  pod: 'pod',
  pods: 'pod',
  po: 'pod',
  node: 'node',
  nodes: 'node',
  no: 'node',
  ns: 'namespace',
  namespace: 'namespace',
  namespaces: 'namespace',
  deploy: 'Deployment',
  deployment: 'Deployment',
  deployments: 'Deployment',
  'deployment.apps': 'Deployment',
  sts: 'StatefulSet',
  statefulset: 'StatefulSet',
  statefulsets: 'StatefulSet',
  'statefulset.apps': 'StatefulSet',
  ds: 'DaemonSet',
  daemonset: 'DaemonSet',
  daemonsets: 'DaemonSet',
  'daemonset.apps': 'DaemonSet',
  job: 'Job',
  jobs: 'Job',
  'job.batch': 'Job',
};

/** kubectl's names of the controllers `diagnose` does not take, so that `rs/web` is not read as namespace rs. */
const UNSUPPORTED_TYPES = new Set(['rs', 'replicaset', 'replicasets', 'cj', 'cronjob', 'cronjobs']);

/** What a kubectl-style argument names; `namespace` only when the argument itself gives one (`shop/web`). */
export type KubectlRef =
  | { kind: 'node'; name: string }
  | { kind: 'namespace'; name: string }
  | { kind: 'pod'; name: string; namespace?: string }
  | { kind: 'workload'; workload: WorkloadKind; name: string };

/**
 * `TYPE/NAME` as kubectl reads it (pod/, deploy/, sts/, ds/, job/, node/, ns/ and their long
 * names), a bare NAME (a pod), or pod-doctor's own `<namespace>/<pod>`: a namespace named like a
 * resource type (`job`, `po`) is then given with -n. The namespace is settled by refTarget.
 */
export function parseKubectlRef(input: string): KubectlRef {
  const text = input.trim();
  const parts = text.split('/');
  if (!text || parts.length > 2 || parts.some((p) => !p))
    throw new PodDoctorError(
      'BAD_TARGET',
      `"${input}" is not a valid target: use NAME or TYPE/NAME (pod, deploy, sts, ds, job, node, ns) or <namespace>/<pod>.`,
    );
  const [first, second] = parts as [string, string | undefined];
  const name = second ?? first;
  if (second !== undefined && UNSUPPORTED_TYPES.has(first.toLowerCase()))
    throw bad(
      input,
      `pod-doctor diagnoses pods, deployments, statefulsets, daemonsets, jobs, nodes and namespaces, not ${first}; name its pods' owner or a pod`,
    );
  const type = second === undefined ? 'pod' : RESOURCE_TYPES[first.toLowerCase()];
  if (type === undefined && !isDns1123Label(first))
    throw bad(input, `"${first}" is neither a resource type (pod, deploy, sts, ds, job, node, ns) nor a namespace name`);
  const valid = type === 'namespace' ? isDns1123Label(name) : isDns1123Subdomain(name);
  if (!valid) throw bad(input, `"${name}" is not a valid ${type === undefined ? 'pod' : type.toLowerCase()} name (lower-case letters, digits, "-" and ".")`);
  if (type === undefined) return { kind: 'pod', namespace: first, name };
  if (type === 'pod' || type === 'node' || type === 'namespace') return { kind: type, name };
  return { kind: 'workload', workload: type, name };
}

/**
 * The Target or workload a KubectlRef names in `namespace` (-n, else the kubeconfig context's, else
 * "default"); `explicit` when -n gave it, which a `<namespace>/<pod>` argument may not contradict.
 */
export function refTarget(ref: KubectlRef, namespace: string, explicit: boolean): { target: Target } | { workload: WorkloadRef } {
  if (ref.kind === 'node' || ref.kind === 'namespace') return { target: parseTarget(`${ref.kind === 'node' ? 'node' : 'ns'}/${ref.name}`) };
  if (ref.kind === 'pod' && ref.namespace !== undefined && explicit && ref.namespace !== namespace)
    throw new PodDoctorError('BAD_TARGET', `"${ref.namespace}/${ref.name}" names namespace ${ref.namespace}, but -n says ${namespace}: give one of them`);
  const ns = ref.kind === 'pod' ? (ref.namespace ?? namespace) : namespace;
  if (!isDns1123Label(ns)) throw bad(ns, `"${ns}" is not a valid namespace name`);
  if (ref.kind === 'pod') return { target: parseTarget(`${ns}/${ref.name}`) };
  return { workload: { kind: ref.workload, namespace: ns, name: ref.name } };
}

/** What users type and read: `<namespace>/<pod>`, `node/<name>`, `ns/<name>` (parseTarget reads it back). */
export function formatTarget(t: Target): string {
  switch (t.kind) {
    case 'pod':
      return `${t.namespace}/${t.name}`;
    case 'node':
      return `node/${t.name}`;
    case 'namespace':
      return `ns/${t.name}`;
  }
}

/**
 * Structured key of a target (never rendered text): `pod/ns/name`, `node/name`, `namespace/name`.
 * Stored and compared across releases (Redis dedup keys, finding subjects and fingerprints): keep its format.
 */
export function targetKey(t: Target): string {
  return t.kind === 'pod' ? `pod/${t.namespace}/${t.name}` : `${t.kind}/${t.name}`;
}
