// What the pod depends on that its own log names: the permissions of its ServiceAccount when the
// API server refused it (RoleBindings, ClusterRoleBindings and their roles), and the Services it
// cannot resolve or reach (do they exist, do they have ready endpoints). Read after the logs, only
// when a log line asks, and bounded: a few refusals, a few hosts, a few roles.
import { containerStatuses } from '../diagnosis/facts.js';
import { type Found, findLines, type Text } from '../diagnosis/mechanisms/index.js';
import type { AccessFact, DependencyFact, KubeObject, Pod, Snapshot } from '../diagnosis/types.js';
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

/** A dotted IPv4 address: a client that resolved the name first prints the ClusterIP it dialled. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const NOT_A_SERVICE_IP = /^(?:127\.|0\.0\.0\.0$)/;
/** Label-selector queries for the pods behind a Service without ready addresses (one per label left out). */
const MAX_BACKEND_QUERIES = 4;
const MAX_BACKENDS = 10;

function clusterIPs(svc: KubeObject): string[] {
  const spec = (svc.spec ?? {}) as { clusterIP?: string; clusterIPs?: string[] };
  return [...(spec.clusterIPs ?? []), ...(spec.clusterIP ? [spec.clusterIP] : [])].filter((ip) => ip !== 'None');
}

const selectorText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/**
 * The pods behind a Service that has no ready address: those its selector matches, and those that match all of its
 * labels but one (a role, a version, a release that differs), found with one query per label left out.
 */
async function backends(source: FactSource, guard: Guard, namespace: string, name: string, selector: Record<string, string>): Promise<DependencyFact['pods']> {
  const keys = Object.keys(selector);
  const queries =
    keys.length <= 1 ? [selector] : keys.slice(0, MAX_BACKEND_QUERIES).map((left) => Object.fromEntries(Object.entries(selector).filter(([k]) => k !== left)));
  const lists = await Promise.all(
    queries.map((q) => guard<Pod[]>(`pods of service ${namespace}/${name}`, () => source.listPods({ namespace, labelSelector: selectorText(q) }), [])),
  );
  const seen = new Map<string, NonNullable<DependencyFact['pods']>[number]>();
  for (const p of lists.flat()) {
    const podName = p.metadata?.name;
    if (!podName || seen.has(podName)) continue;
    const labels = p.metadata?.labels ?? {};
    const differing = keys.filter((k) => labels[k] !== selector[k]);
    if (differing.length > 1) continue;
    const key = differing[0];
    const have = key === undefined ? undefined : labels[key];
    seen.set(podName, {
      name: podName,
      ready: (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      ...(p.status?.phase ? { phase: p.status.phase } : {}),
      ...(key !== undefined ? { differs: { key, want: selector[key] ?? '', ...(have !== undefined ? { have } : {}) } } : {}),
    });
  }
  // Matching pods first: they say most about why no address is ready.
  return [...seen.values()].sort((a, b) => Number(a.differs !== undefined) - Number(b.differs !== undefined)).slice(0, MAX_BACKENDS);
}

export async function collectDependencies(source: FactSource, snapshot: Snapshot, guard: Guard): Promise<DependencyFact[] | undefined> {
  const podNamespace = snapshot.pod?.metadata?.namespace ?? '';
  const podIP = snapshot.pod?.status?.podIP;
  const found = findLines(podTexts(snapshot), new Set(['dns-resolution', 'dependency-refused', 'dependency-unreachable']), 24);
  const wanted = new Map<string, { host: string; port?: number; name: string; namespace: string }>();
  const ips = new Map<string, number | undefined>();
  for (const f of found) {
    const host = f.groups.host;
    const port = f.groups.port ? Number(f.groups.port) : undefined;
    if (host && IPV4.test(host)) {
      if (!NOT_A_SERVICE_IP.test(host) && host !== podIP && !ips.has(host)) ips.set(host, port);
      continue;
    }
    const service = host ? serviceOfHost(host, podNamespace) : undefined;
    if (!host || !service) continue;
    const key = `${service.namespace}/${service.name}`;
    if (!wanted.has(key) && wanted.size < MAX_DEPENDENCIES) wanted.set(key, { host, ...(port !== undefined ? { port } : {}), ...service });
  }
  // A ClusterIP in the line (the client resolved the name before it dialled): the Service of the pod's namespace that has it.
  if (ips.size > 0 && wanted.size < MAX_DEPENDENCIES && podNamespace) {
    const services = await guard<KubeObject[]>(`services in ${podNamespace}`, () => source.listServices(podNamespace), []);
    for (const [ip, port] of ips) {
      const name = services.find((s) => clusterIPs(s).includes(ip))?.metadata?.name;
      const key = `${podNamespace}/${name}`;
      if (name && !wanted.has(key) && wanted.size < MAX_DEPENDENCIES)
        wanted.set(key, { host: ip, ...(port !== undefined ? { port } : {}), name, namespace: podNamespace });
    }
  }
  if (wanted.size === 0) return undefined;
  return Promise.all(
    [...wanted.values()].map(async (w): Promise<DependencyFact> => {
      const svc = await guard(`service ${w.namespace}/${w.name}`, () => source.getService(w.namespace, w.name), null);
      if (!svc) return { ...w, service: null };
      const spec = (svc.spec ?? {}) as {
        ports?: { port: number; targetPort?: string | number; name?: string }[];
        type?: string;
        clusterIP?: string;
        selector?: Record<string, string>;
      };
      const endpoints = endpointCounts(await guard(`endpoints ${w.namespace}/${w.name}`, () => source.getEndpoints(w.namespace, w.name), null));
      const selector = spec.selector && Object.keys(spec.selector).length > 0 ? spec.selector : undefined;
      // No ready address: which pods the selector matches, and which nearly do (the label that differs).
      const pods = selector && (endpoints?.ready ?? 0) === 0 ? await backends(source, guard, w.namespace, w.name, selector) : undefined;
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
        endpoints,
        ...(selector ? { selector } : {}),
        ...(pods ? { pods } : {}),
      };
    }),
  );
}
