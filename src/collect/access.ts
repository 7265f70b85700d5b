// What the pod depends on that its own log names: the permissions of its ServiceAccount when the
// API server refused it (RoleBindings, ClusterRoleBindings and their roles), and the Services it
// cannot resolve or reach (do they exist, do they have ready endpoints). Read after the logs, only
// when a log line asks, and bounded: a few refusals, a few hosts, a few roles.
import { containerStatuses } from '../diagnosis/facts.js';
import { type Found, findLines, type Text } from '../diagnosis/mechanisms/index.js';
import type { AccessFact, DependencyFact, KubeObject, Snapshot } from '../diagnosis/types.js';
import { LABEL_RE } from '../kube/names.js';
import type { Guard } from './guard.js';
import type { FactSource } from './source.js';

const MAX_REFUSALS = 3;
const MAX_ROLES = 10;
const MAX_DEPENDENCIES = 3;

/** The pod's own words: its log tails and termination messages. */
function podTexts(snapshot: Snapshot): Text[] {
  const texts: Text[] = (snapshot.logs ?? []).map((l) => ({ lines: l.lines, source: `logs ${l.container}` }));
  for (const s of containerStatuses(snapshot.pod)) {
    for (const t of [s.status.state?.terminated?.message, s.status.lastState?.terminated?.message]) if (t) texts.push({ text: t, source: s.status.name });
  }
  return texts;
}

// ---- the ServiceAccount's permissions ----

interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}
interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

/** The subjects that stand for `system:serviceaccount:<ns>:<name>`: itself, and the groups every account is in. */
function names(subject: Subject, user: string, saNamespace: string | undefined, sa: string | undefined): boolean {
  if (subject.kind === 'ServiceAccount') return subject.name === sa && subject.namespace === saNamespace;
  if (subject.kind === 'User') return subject.name === user;
  if (subject.kind === 'Group') {
    return ['system:authenticated', 'system:serviceaccounts', ...(saNamespace ? [`system:serviceaccounts:${saNamespace}`] : [])].includes(subject.name ?? '');
  }
  return false;
}

const matches = (list: string[] | undefined, value: string) => (list ?? []).some((x) => x === '*' || x === value);

/** Whether a rule set grants the call (a rule limited to resourceNames never grants list, watch or create). */
function grants(rules: Rule[], refusal: AccessFact): boolean {
  const [resource, sub] = refusal.resource.split('/');
  return rules.some(
    (r) =>
      matches(r.apiGroups, refusal.group) &&
      (matches(r.resources, refusal.resource) || (sub === undefined && matches(r.resources, resource ?? ''))) &&
      matches(r.verbs, refusal.verb) &&
      !((r.resourceNames?.length ?? 0) > 0 && ['list', 'watch', 'create', 'deletecollection'].includes(refusal.verb)),
  );
}

function refusalsIn(found: Found[]): (AccessFact & { sa?: string; saNamespace?: string })[] {
  const seen = new Map<string, AccessFact & { sa?: string; saNamespace?: string }>();
  for (const f of found) {
    const g = f.groups;
    if (!g.user || !g.verb || !g.resource) continue;
    const key = [g.user, g.verb, g.resource, g.group ?? '', g.ns ?? ''].join('|');
    if (seen.has(key)) continue;
    seen.set(key, {
      user: g.user,
      verb: g.verb,
      resource: g.resource,
      group: g.group ?? '',
      ...(g.ns ? { namespace: g.ns } : {}),
      ...(g.sa ? { sa: g.sa } : {}),
      ...(g.saNs ? { saNamespace: g.saNs } : {}),
      bindings: [],
    });
  }
  return [...seen.values()].slice(0, MAX_REFUSALS);
}

export async function collectAccess(source: FactSource, snapshot: Snapshot, guard: Guard): Promise<AccessFact[] | undefined> {
  const refusals = refusalsIn(findLines(podTexts(snapshot), new Set(['rbac-forbidden'])));
  if (refusals.length === 0) return undefined;
  const namespaces = [...new Set(refusals.flatMap((r) => (r.namespace ? [r.namespace] : [])))];
  const [cluster, ...perNamespace] = await Promise.all([
    guard<KubeObject[]>('clusterrolebindings', () => source.listClusterRoleBindings(), []),
    ...namespaces.map((ns) => guard<KubeObject[]>(`rolebindings in ${ns}`, () => source.listRoleBindings(ns), [])),
  ]);
  const byNamespace = new Map(namespaces.map((ns, i) => [ns, perNamespace[i] ?? []]));
  const roles = new Map<string, Promise<KubeObject | null>>();
  const role = (namespace: string | undefined, name: string) => {
    const key = `${namespace ?? ''}/${name}`;
    if (!roles.has(key) && roles.size < MAX_ROLES)
      roles.set(
        key,
        guard(`role ${key}`, () => source.getRole(namespace, name), null),
      );
    return roles.get(key);
  };
  return Promise.all(
    refusals.map(async ({ sa, saNamespace, ...refusal }) => {
      const candidates = [
        ...(cluster ?? []).map((b) => ({ b, kind: 'ClusterRoleBinding' as const, namespace: undefined })),
        ...(refusal.namespace ? (byNamespace.get(refusal.namespace) ?? []) : []).map((b) => ({
          b,
          kind: 'RoleBinding' as const,
          namespace: refusal.namespace,
        })),
      ];
      const bound = candidates.filter(({ b }) => ((b as { subjects?: Subject[] }).subjects ?? []).some((s) => names(s, refusal.user, saNamespace, sa)));
      const bindings = await Promise.all(
        bound.map(async ({ b, kind, namespace }) => {
          const ref = (b as { roleRef?: { kind?: string; name?: string } }).roleRef ?? {};
          const roleNamespace = ref.kind === 'Role' ? namespace : undefined;
          const object = ref.name ? await role(roleNamespace, ref.name) : null;
          return {
            kind,
            name: b.metadata?.name ?? '',
            ...(namespace ? { namespace } : {}),
            role: `${ref.kind ?? 'Role'} ${ref.name ?? '?'}`,
            grants: object ? grants(((object as { rules?: Rule[] }).rules ?? []) as Rule[], refusal as AccessFact) : null,
          };
        }),
      );
      return { ...refusal, bindings };
    }),
  );
}

// ---- the cloud identity its ServiceAccount is federated to ----

/** What a cloud SDK's failure depends on: whether the account names a role, a Google service account, a client ID. */
const IDENTITY_MECHANISMS = new Set(['cloud-identity-missing', 'cloud-identity-trust', 'cloud-metadata-unreachable']);
const IDENTITY_ANNOTATION = /^(?:eks\.amazonaws\.com|iam\.gke\.io|azure\.workload\.identity)\//;

export async function collectServiceAccount(source: FactSource, snapshot: Snapshot, guard: Guard): Promise<Snapshot['podServiceAccount']> {
  if (findLines(podTexts(snapshot), IDENTITY_MECHANISMS, 1).length === 0) return undefined;
  const namespace = snapshot.pod?.metadata?.namespace ?? '';
  const name = snapshot.pod?.spec?.serviceAccountName || 'default';
  const sa = await guard(
    `serviceaccount ${namespace}/${name}`,
    () => source.serviceAccountMetadata(namespace, name),
    undefined as KubeObject | null | undefined,
  );
  if (sa === undefined) return undefined;
  const annotations = Object.fromEntries(Object.entries(sa?.metadata?.annotations ?? {}).filter(([k]) => IDENTITY_ANNOTATION.test(k)));
  return { name, exists: sa !== null, annotations };
}

// ---- the Services it depends on ----

/** `postgres`, `postgres.db`, `postgres.db.svc`, `postgres.db.svc.cluster.local` → the Service; other names are not the cluster's. */
export function serviceOfHost(host: string, podNamespace: string): { name: string; namespace: string } | undefined {
  const parts = host.toLowerCase().replace(/\.$/, '').split('.');
  const svc = parts.indexOf('svc');
  if (svc >= 0 && svc !== 2) return undefined;
  if (svc < 0 && parts.length > 2) return undefined;
  const [name, namespace] = parts;
  if (!name || !LABEL_RE.test(name) || (namespace !== undefined && !LABEL_RE.test(namespace))) return undefined;
  // A bare number (an IP's first octet) is not a Service name.
  if (/^\d+$/.test(name)) return undefined;
  return { name, namespace: namespace ?? podNamespace };
}

function endpointCounts(e: KubeObject | null): DependencyFact['endpoints'] {
  if (!e) return null;
  const subsets = (e as { subsets?: { addresses?: unknown[]; notReadyAddresses?: unknown[] }[] }).subsets ?? [];
  return {
    ready: subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0),
    notReady: subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0),
  };
}

export async function collectDependencies(source: FactSource, snapshot: Snapshot, guard: Guard): Promise<DependencyFact[] | undefined> {
  const podNamespace = snapshot.pod?.metadata?.namespace ?? '';
  const found = findLines(podTexts(snapshot), new Set(['dns-resolution', 'dependency-refused', 'dependency-unreachable']), 24);
  const wanted = new Map<string, { host: string; port?: number; name: string; namespace: string }>();
  for (const f of found) {
    const host = f.groups.host;
    const service = host ? serviceOfHost(host, podNamespace) : undefined;
    if (!host || !service) continue;
    const key = `${service.namespace}/${service.name}`;
    if (!wanted.has(key) && wanted.size < MAX_DEPENDENCIES) wanted.set(key, { host, ...(f.groups.port ? { port: Number(f.groups.port) } : {}), ...service });
  }
  if (wanted.size === 0) return undefined;
  return Promise.all(
    [...wanted.values()].map(async (w): Promise<DependencyFact> => {
      const svc = await guard(`service ${w.namespace}/${w.name}`, () => source.getService(w.namespace, w.name), null);
      if (!svc) return { ...w, service: null };
      const spec = (svc.spec ?? {}) as { ports?: { port: number; targetPort?: string | number; name?: string }[]; type?: string; clusterIP?: string };
      const endpoints = await guard(`endpoints ${w.namespace}/${w.name}`, () => source.getEndpoints(w.namespace, w.name), null);
      return {
        ...w,
        service: {
          ports: (spec.ports ?? []).map((p) => ({
            port: p.port,
            ...(p.targetPort !== undefined ? { targetPort: p.targetPort } : {}),
            ...(p.name ? { name: p.name } : {}),
          })),
          ...(spec.type ? { type: spec.type } : {}),
          headless: spec.clusterIP === 'None',
        },
        endpoints: endpointCounts(endpoints),
      };
    }),
  );
}
