// Builds one Snapshot per diagnosis: the facts the enabled rules need, fetched concurrently,
// each with a timeout. A failed or forbidden call becomes a Gap; only a missing target or an
// unreachable cluster stops the diagnosis.
import { containerStatuses } from '../diagnosis/facts.js';
import { parseQuantity } from '../diagnosis/quantity.js';
import type { AgentFacts } from '../probes/types.js';
import {
  gapKindOfStatus,
  type Event,
  type FactName,
  type Gap,
  type GapKind,
  type KubeObject,
  type LogTail,
  type Node,
  type OwnerFact,
  type Pod,
  type Snapshot,
  type Target,
} from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { matchLabels, requirementsFromSelector, type LabelSelectorObject } from '../kube/selectors.js';
import { OWNER_KINDS, type FactSource, type OwnerKind } from './source.js';

/** A PDB selects a pod by its label selector; an empty selector selects every pod of the namespace (policy/v1). */
function selects(selector: LabelSelectorObject | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  return matchLabels(requirementsFromSelector(selector), labels);
}

export interface AgentLookup {
  fetch(input: { node: Node; pod: Pod }): Promise<{ facts?: AgentFacts; gaps: Gap[] }>;
}

export interface CollectOptions {
  cluster: string;
  needs: Set<FactName>;
  /** Per-call timeout. */
  timeoutMs?: number;
  /** Opt-in: check that referenced Secrets exist (metadata-only requests). */
  checkSecrets?: boolean;
  now?: () => Date;
  agent?: AgentLookup;
  /** Why there is no agent (said as a gap when node facts would have been asked for). */
  agentSkipReason?: string;
  /** Log lines to keep per container. */
  logTailLines?: number;
}

class CallTimeout extends Error {}

function describeError(err: unknown): string {
  if (err instanceof CallTimeout) return err.message;
  const e = err as { code?: number; body?: unknown; message?: string };
  if (typeof e?.code === 'number') {
    let reason = '';
    try {
      const body = typeof e.body === 'string' ? (JSON.parse(e.body) as { message?: string }) : (e.body as { message?: string } | undefined);
      reason = body?.message ?? '';
    } catch {
      reason = String(e.body ?? '');
    }
    return `HTTP ${e.code}${e.code === 403 ? ' (forbidden)' : ''}${reason ? `: ${reason}` : ''}`;
  }
  return e?.message ?? String(err);
}

/** What kind of failure a collection error is, decided here so that nothing parses gap text later. */
function gapKindOf(err: unknown): GapKind {
  if (err instanceof CallTimeout) return 'timeout';
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'number') return gapKindOfStatus(code);
  if (isUnreachable(err)) return 'unreachable';
  return /timed? ?out|ETIMEDOUT/i.test(`${String(code ?? '')} ${(err as Error)?.message ?? ''}`) ? 'timeout' : 'failed';
}

/** Network-level failures that mean "the cluster is not there", not "this call failed". */
function isUnreachable(err: unknown): boolean {
  const text = `${(err as { code?: unknown })?.code ?? ''} ${(err as Error)?.message ?? ''} ${String((err as { cause?: { code?: string } })?.cause?.code ?? '')}`;
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EAI_AGAIN|socket hang up|request to .* failed/i.test(text);
}

export async function collectSnapshot(source: FactSource, target: Target, options: CollectOptions): Promise<Snapshot> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const now = (options.now ?? (() => new Date()))();
  const gaps: Gap[] = [];
  const needs = options.needs;

  /** Run one call; on failure record a gap and return the fallback. */
  const guard = async <T>(check: string, run: () => Promise<T>, fallback: T, origin: Gap['origin'] = 'api'): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new CallTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      gaps.push({ check, reason: describeError(err), kind: gapKindOf(err), origin });
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  };

  const snapshot: Snapshot = { now: now.toISOString(), cluster: options.cluster, target, events: [], gaps };

  if (target.kind === 'namespace') {
    const ns = await fetchRequired(() => source.getNamespace(target.name), `namespace "${target.name}" not found`, source, timeoutMs);
    snapshot.namespace = ns;
    const [contents, owners] = await Promise.all([
      ns.status?.phase === 'Terminating' ? guard('namespace contents', () => source.listNamespaceContents(target.name), []) : undefined,
      needs.has('owners') ? collectNamespaceOwners(source, target.name, guard) : undefined,
    ]);
    if (contents) snapshot.namespaceContents = contents;
    if (owners) snapshot.owners = owners;
    return snapshot;
  }

  if (target.kind === 'node') {
    const node = await fetchRequired(() => source.getNode(target.name), `node "${target.name}" not found`, source, timeoutMs);
    snapshot.node = node;
    const [nodeEvents, podsOnNode] = await Promise.all([
      guard('node events', () => source.listNodeEvents(target.name), [] as Event[]),
      guard('pods on node', () => source.listPods({ nodeName: target.name }), [] as Pod[]),
    ]);
    snapshot.nodeEvents = nodeEvents;
    snapshot.podsOnNode = podsOnNode.filter(isActive);
    if (needs.has('nodes')) snapshot.nodes = await guard('nodes', () => source.listNodes(), []);
    return snapshot;
  }

  // Pod: the pod, its events and its namespace in one round trip; events are filtered to
  // this incarnation by UID (a StatefulSet pod reuses its name).
  const [pod, podEvents, namespace] = await Promise.all([
    fetchRequired(() => source.getPod(target.namespace, target.name), `pod "${target.namespace}/${target.name}" not found`, source, timeoutMs),
    guard('pod events', () => source.listPodEvents(target.namespace, target.name), [] as Event[]),
    needs.has('namespace') ? guard('namespace', () => source.getNamespace(target.namespace), null) : Promise.resolve(null),
  ]);
  snapshot.pod = pod;
  const uid = pod.metadata?.uid;
  snapshot.events = sortEvents(podEvents.filter((e) => !uid || !e.involvedObject.uid || e.involvedObject.uid === uid));
  if (namespace) snapshot.namespace = namespace;

  const nodeName = pod.spec?.nodeName;
  const pending = !nodeName;
  const tasks: Promise<unknown>[] = [];

  if (nodeName && (needs.has('node') || needs.has('agent') || needs.has('nodeEvents'))) {
    tasks.push(
      guard(`node ${nodeName}`, () => source.getNode(nodeName), null).then(async (node) => {
        if (node) snapshot.node = node;
        // A cordoned node is being drained: the budgets that may refuse this pod's eviction.
        if (node?.spec?.unschedulable && needs.has('disruptionBudgets')) {
          const all = await guard('pod disruption budgets', () => source.listDisruptionBudgets(target.namespace), [] as KubeObject[]);
          snapshot.disruptionBudgets = all.filter((b) => selects((b.spec as { selector?: LabelSelectorObject } | undefined)?.selector, pod.metadata?.labels));
        }
        // The node's own events tell only about a node in trouble or a pod it evicted.
        if (needs.has('nodeEvents') && (!node || nodeIsNotReady(node) || pod.status?.reason === 'Evicted')) {
          snapshot.nodeEvents = sortEvents(await guard(`events of node ${nodeName}`, () => source.listNodeEvents(nodeName), [] as Event[]));
        }
        // Node-level facts come after the node: its address locates the agent.
        if (node && needs.has('agent')) {
          if (options.agent) {
            const agent = options.agent;
            const result = await guard(`node agent on ${nodeName}`, () => agent.fetch({ node, pod }), { gaps: [] as Gap[] }, 'agent');
            if (result.facts) snapshot.agent = result.facts;
            gaps.push(...result.gaps);
          } else if (options.agentSkipReason) {
            gaps.push({ check: `node agent on ${nodeName}`, reason: options.agentSkipReason, kind: 'unavailable', origin: 'agent' });
          }
        }
      }),
    );
  }
  if (nodeName && needs.has('podsOnNode')) {
    tasks.push(guard(`pods on node ${nodeName}`, () => source.listPods({ nodeName }), [] as Pod[]).then((p) => (snapshot.podsOnNode = p.filter(isActive))));
  }
  if (needs.has('owners')) {
    tasks.push(collectOwners(source, pod, guard).then((o) => (snapshot.owners = o)));
  }
  if (needs.has('configMaps')) {
    const names = referencedConfigMaps(pod);
    if (names.length > 0) {
      tasks.push(
        Promise.all(names.map(async (n) => [n, await guard(`configmap ${n}`, () => source.configMapExists(target.namespace, n), true)] as const)).then(
          (pairs) => (snapshot.configMaps = Object.fromEntries(pairs)),
        ),
      );
    }
  }
  if (needs.has('secrets') && options.checkSecrets) {
    const names = referencedSecrets(pod);
    if (names.length > 0) {
      tasks.push(
        Promise.all(
          names.map(async (n) => [n, await guard(`secret ${n} (metadata only)`, () => source.secretExists(target.namespace, n), true)] as const),
        ).then((pairs) => (snapshot.secrets = Object.fromEntries(pairs))),
      );
    }
  }
  if (needs.has('pvcs')) {
    const claims = (pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
    if (claims.length > 0) {
      tasks.push(
        Promise.all(claims.map(async (c) => [c, await guard(`pvc ${c}`, () => source.getPvc(target.namespace, c), null)] as const)).then(async (pairs) => {
          snapshot.pvcs = Object.fromEntries(pairs);
          // An unscheduled pod's bound volumes may pin it to a zone or host: read their node affinity.
          const bound = pairs.flatMap(([, pvc]) => (pvc?.spec?.volumeName ? [pvc.spec.volumeName] : []));
          if (needs.has('volumes') && !pod.spec?.nodeName && bound.length > 0) {
            const pvs = await Promise.all(
              bound.map(async (v) => [v, await guard(`persistentvolume ${v}`, () => source.getPersistentVolume(v), null)] as const),
            );
            snapshot.volumes = Object.fromEntries(pvs);
          }
        }),
      );
    }
  }
  // Pending pods need the cluster's view of capacity and of the scheduler.
  if (pending && needs.has('nodes')) {
    tasks.push(
      guard('nodes', () => source.listNodes(), [] as Node[]).then(async (nodes) => {
        snapshot.nodes = nodes;
        if (!needs.has('podsOnNode') || !wantsCapacity(pod, snapshot.events)) return;
        // Free capacity of the best candidates, each through a spec.nodeName field selector:
        // bounded work however large the cluster is.
        const candidates = capacityCandidates(nodes);
        const perNode = await Promise.all(candidates.map((n) => guard(`pods on node ${n}`, () => source.listPods({ nodeName: n }), [] as Pod[])));
        snapshot.podsOnNode = perNode.flat().filter(isActive);
        snapshot.capacityNodes = candidates;
      }),
    );
  }
  if (needs.has('hostPortPods') && requestsHostPorts(pod)) {
    tasks.push(
      guard('host port users', () => source.listPods({}), [] as Pod[]).then(
        (p) => (snapshot.hostPortPods = p.filter((x) => isActive(x) && requestsHostPorts(x) && x.metadata?.uid !== uid)),
      ),
    );
  }
  if (pending && needs.has('scheduler')) {
    tasks.push(
      guard('kube-scheduler pods', () => source.listPods({ namespace: 'kube-system', labelSelector: 'component=kube-scheduler' }), [] as Pod[]).then(
        (p) => (snapshot.schedulerPods = p),
      ),
      guard('kube-scheduler lease', () => source.getLease('kube-system', 'kube-scheduler'), null).then((l) => (snapshot.schedulerLease = l)),
    );
  }
  const unready = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True';
  if (needs.has('services') && pod.status?.phase === 'Running' && unready) {
    tasks.push(
      guard('services of the namespace', () => source.listServices(target.namespace), [] as KubeObject[]).then((all) => {
        const labels = pod.metadata?.labels ?? {};
        // A Service selects the pod when every pair of its selector is among the pod's labels.
        snapshot.services = all.filter((s) => {
          const selector = (s.spec as { selector?: Record<string, string> } | undefined)?.selector;
          return selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
        });
      }),
    );
  }
  if (needs.has('workloadEndpoints') && pod.status?.podIP && pod.status.phase === 'Running') {
    tasks.push(
      guard('calico workload endpoints', () => source.listWorkloadEndpoints(target.namespace), null as KubeObject[] | null).then((w) => {
        if (w) snapshot.workloadEndpoints = w;
      }),
    );
  }
  if (needs.has('volumeUsers')) {
    // `Multi-Attach error for volume "pvc-x" Volume is already used by pod(s) web-0, web-1`: read those pods.
    const named = new Set<string>();
    for (const e of snapshot.events) {
      const list = /Volume is already used by pods? ?\(?s?\)? ?([^:]+?)(?:$|\s*:)/.exec(e.message ?? '')?.[1];
      for (const n of (list ?? '').split(/,\s*/)) if (/^[a-z0-9][a-z0-9.-]*$/.test(n.trim()) && n.trim() !== target.name) named.add(n.trim());
    }
    if (named.size > 0) {
      tasks.push(
        Promise.all([...named].slice(0, 5).map((n) => guard(`pod ${n} (volume user)`, () => source.getPod(target.namespace, n), null))).then((ps) => {
          snapshot.volumeUsers = ps.filter((p): p is Pod => p !== null);
        }),
      );
    }
  }
  if (needs.has('logs')) {
    tasks.push(collectLogs(source, pod, options.logTailLines ?? 20, guard).then((l) => (snapshot.logs = l)));
  }
  await Promise.all(tasks);

  // Facts that depend on the node or owners: a NotReady node makes the cascade rule look at
  // where the pod's workload has been scheduled lately.
  const followUps: Promise<unknown>[] = [];
  if (snapshot.node && nodeIsNotReady(snapshot.node) && needs.has('workloadPods')) {
    const selector = ownerSelector(snapshot.owners);
    if (selector) {
      followUps.push(
        guard('pods of the workload', () => source.listPods({ namespace: target.namespace, labelSelector: selector }), [] as Pod[]).then(
          (p) => (snapshot.workloadPods = p),
        ),
      );
      if (!snapshot.nodes && needs.has('nodes')) followUps.push(guard('nodes', () => source.listNodes(), [] as Node[]).then((n) => (snapshot.nodes = n)));
    }
  }
  if (snapshot.namespace?.status?.phase === 'Terminating' && needs.has('namespaceContents')) {
    followUps.push(guard('namespace contents', () => source.listNamespaceContents(target.namespace), []).then((c) => (snapshot.namespaceContents = c)));
  }
  await Promise.all(followUps);
  return snapshot;
}

async function fetchRequired<T>(run: () => Promise<T | null>, notFound: string, source: FactSource, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CallTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (result === null) throw new PodDoctorError('TARGET_NOT_FOUND', notFound);
    return result;
  } catch (err) {
    if (err instanceof PodDoctorError) throw err;
    if (err instanceof CallTimeout || isUnreachable(err)) {
      throw new PodDoctorError('CLUSTER_UNREACHABLE', `cannot reach the cluster at ${source.description}: ${describeError(err)}`, { cause: err });
    }
    const status = (err as { code?: number }).code;
    if (status === 401 || status === 403) {
      throw new PodDoctorError('NOT_AUTHORIZED', `the cluster refused the request (${describeError(err)})`, { cause: err });
    }
    throw new PodDoctorError('CLUSTER_UNREACHABLE', `the cluster at ${source.description} failed: ${describeError(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

type Guard = <T>(check: string, run: () => Promise<T>, fallback: T, origin?: Gap['origin']) => Promise<T>;

async function collectOwners(source: FactSource, pod: Pod, guard: Guard): Promise<OwnerFact[]> {
  return ownerChain(source, pod.metadata?.namespace ?? 'default', pod.metadata?.ownerReferences ?? [], guard);
}

/** Workloads a namespace target looks at: those named by its Warning events, bounded. */
const MAX_NAMESPACE_OWNERS = 10;

/**
 * A namespace's workloads in trouble, from its Warning events: a ReplicaSet's FailedCreate
 * (quota, PodSecurity, webhooks) leaves no pod to diagnose, only the owner's events and
 * conditions. Each named owner is read with its chain (ReplicaSet → Deployment).
 */
async function collectNamespaceOwners(source: FactSource, namespace: string, guard: Guard): Promise<OwnerFact[]> {
  const warnings = await guard('warning events of the namespace', () => source.listNamespaceWarnings(namespace), [] as Event[]);
  const named = new Map<string, { kind: string; name: string }>();
  for (const e of sortEvents(warnings).reverse()) {
    const { kind, name } = e.involvedObject;
    if (kind && name && OWNER_KINDS.includes(kind as OwnerKind)) named.set(`${kind}/${name}`, { kind, name });
  }
  const chains = await Promise.all(
    [...named.values()]
      .slice(0, MAX_NAMESPACE_OWNERS)
      .map((o) => ownerChain(source, namespace, [{ apiVersion: '', kind: o.kind, name: o.name, uid: '', controller: true }], guard)),
  );
  // A Deployment reached from two of its ReplicaSets is listed once.
  const seen = new Set<string>();
  return chains.flat().filter((o) => !seen.has(`${o.kind}/${o.name}`) && seen.add(`${o.kind}/${o.name}`));
}

type OwnerRef = NonNullable<NonNullable<Pod['metadata']>['ownerReferences']>[number];

async function ownerChain(source: FactSource, namespace: string, start: OwnerRef[], guard: Guard): Promise<OwnerFact[]> {
  const owners: OwnerFact[] = [];
  let refs = start;
  // ReplicaSet → Deployment, Job → CronJob: at most two hops.
  for (let depth = 0; depth < 2; depth++) {
    const ref = refs.find((r) => r.controller) ?? refs[0];
    if (!ref || !OWNER_KINDS.includes(ref.kind as OwnerKind)) break;
    const kind = ref.kind as OwnerKind;
    const [object, events] = await Promise.all([
      guard(`${kind} ${ref.name}`, () => source.getOwner(namespace, kind, ref.name), null),
      guard(`events of ${kind} ${ref.name}`, () => source.listOwnerEvents(namespace, kind, ref.name), [] as Event[]),
    ]);
    owners.push({ kind, name: ref.name, ...(object ? { object } : {}), events: sortEvents(events) });
    refs = object?.metadata?.ownerReferences ?? [];
  }
  return owners;
}

async function collectLogs(source: FactSource, pod: Pod, tail: number, guard: Guard): Promise<LogTail[]> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  // Containers that have terminated (now or before a restart) have a story to tell, and so has
  // an init container still running: it is what the pod waits for.
  const wanted = containerStatuses(pod).filter((s) => s.status.lastState?.terminated || s.status.state?.terminated || (s.init && s.status.state?.running));
  const tails = await Promise.all(
    wanted.map(async (s) => {
      const previous = Boolean(s.status.lastState?.terminated) && !s.status.state?.terminated;
      const lines = await guard(`logs of ${s.status.name}`, () => source.podLog(namespace, name, s.status.name, previous, tail), null);
      return lines ? { container: s.status.name, previous, lines } : null;
    }),
  );
  return tails.filter((t): t is LogTail => t !== null);
}

function sortEvents(events: Event[]): Event[] {
  const t = (e: Event) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp ?? '') || 0;
  return [...events].sort((a, b) => t(a) - t(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

function isActive(p: Pod): boolean {
  return p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
}

const SMALL_CLUSTER = 16;
const CANDIDATES_PER_RESOURCE = 8;

/**
 * Nodes whose free capacity is worth computing: every node of a small cluster, else the
 * Ready, schedulable nodes with the most allocatable CPU and the most memory.
 */
function capacityCandidates(nodes: Node[]): string[] {
  const usable = nodes.filter((n) => !n.spec?.unschedulable && !nodeIsNotReady(n));
  const name = (n: Node) => n.metadata?.name ?? '';
  if (nodes.length <= SMALL_CLUSTER) return nodes.map(name).filter(Boolean);
  const top = (resource: 'cpu' | 'memory') =>
    [...usable]
      .sort(
        (a, b) =>
          (parseQuantity(b.status?.allocatable?.[resource] ?? '0') || 0) - (parseQuantity(a.status?.allocatable?.[resource] ?? '0') || 0) ||
          name(a).localeCompare(name(b)),
      )
      .slice(0, CANDIDATES_PER_RESOURCE)
      .map(name);
  return [...new Set([...top('cpu'), ...top('memory')])].filter(Boolean);
}

function nodeIsNotReady(node: Node): boolean {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return ready !== undefined && ready.status !== 'True';
}

function requestsHostPorts(pod: Pod): boolean {
  return (pod.spec?.containers ?? []).some((c) => (c.ports ?? []).some((p) => p.hostPort));
}

/** Capacity facts matter only when the scheduler says resources ran out (or says nothing). */
function wantsCapacity(pod: Pod, events: Event[]): boolean {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  const messages = [scheduled?.message ?? '', ...events.filter((e) => e.reason === 'FailedScheduling').map((e) => e.message ?? '')].join('\n');
  return messages.trim() === '' || /Insufficient|Too many pods/i.test(messages);
}

function ownerSelector(owners: OwnerFact[] | undefined): string | undefined {
  const top = owners?.[owners.length - 1]?.object;
  const matchLabels = (top?.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
  if (!matchLabels || Object.keys(matchLabels).length === 0) return undefined;
  return Object.entries(matchLabels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export function referencedConfigMaps(pod: Pod): string[] {
  const names = new Set<string>();
  for (const v of pod.spec?.volumes ?? []) {
    if (v.configMap?.name && !v.configMap.optional) names.add(v.configMap.name);
    for (const s of v.projected?.sources ?? []) if (s.configMap?.name && !s.configMap.optional) names.add(s.configMap.name);
  }
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const e of c.envFrom ?? []) if (e.configMapRef?.name && !e.configMapRef.optional) names.add(e.configMapRef.name);
    for (const e of c.env ?? []) if (e.valueFrom?.configMapKeyRef?.name && !e.valueFrom.configMapKeyRef.optional) names.add(e.valueFrom.configMapKeyRef.name);
  }
  names.delete('kube-root-ca.crt');
  return [...names].sort();
}

export function referencedSecrets(pod: Pod): string[] {
  const names = new Set<string>();
  for (const s of pod.spec?.imagePullSecrets ?? []) if (s.name) names.add(s.name);
  for (const v of pod.spec?.volumes ?? []) {
    if (v.secret?.secretName && !v.secret.optional) names.add(v.secret.secretName);
    for (const s of v.projected?.sources ?? []) if (s.secret?.name && !s.secret.optional) names.add(s.secret.name);
  }
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const e of c.envFrom ?? []) if (e.secretRef?.name && !e.secretRef.optional) names.add(e.secretRef.name);
    for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef?.name && !e.valueFrom.secretKeyRef.optional) names.add(e.valueFrom.secretKeyRef.name);
  }
  return [...names].sort();
}
