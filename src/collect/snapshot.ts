// Builds one Snapshot per diagnosis: the facts the enabled rules need, fetched concurrently,
// each with a timeout. A failed or forbidden call becomes a Gap; only a missing target or an
// unreachable cluster stops the diagnosis.
import { claimNames } from '../diagnosis/claims.js';
import { containerStatuses } from '../diagnosis/facts.js';
import { parseQuantity } from '../diagnosis/quantity.js';
import type { AgentFacts } from '../probes/types.js';
import type { Event, FactName, Gap, KubeObject, LogTail, Node, OwnerFact, Pod, Snapshot, Target } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { matchLabels, requirementsFromSelector, type LabelSelectorObject } from '../kube/selectors.js';
import { CallTimeout, describeError, isUnreachable, makeGuard, sortEvents, type Guard } from './guard.js';
import { collectWebhooks, serviceAccountNamed, webhooksNamed } from './admission.js';
import { collectComponents, componentTriggers } from './components.js';
import { collectNamespaceOwners, collectOwners, findOwnerOfMissingPod } from './owners.js';
import type { FactSource } from './source.js';
import { collectClaims } from './storage.js';

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

export async function collectSnapshot(source: FactSource, target: Target, options: CollectOptions): Promise<Snapshot> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const now = (options.now ?? (() => new Date()))();
  const gaps: Gap[] = [];
  const needs = options.needs;

  const guard = makeGuard(gaps, timeoutMs);

  const snapshot: Snapshot = { now: now.toISOString(), cluster: options.cluster, target, events: [], gaps };

  if (target.kind === 'namespace') {
    const ns = await fetchRequired(() => source.getNamespace(target.name), `namespace "${target.name}" not found`, source, timeoutMs);
    snapshot.namespace = ns;
    const [contents, troubled] = await Promise.all([
      ns.status?.phase === 'Terminating' ? guard('namespace contents', () => source.listNamespaceContents(target.name), []) : undefined,
      needs.has('owners') ? collectNamespaceOwners(source, target.name, guard) : undefined,
    ]);
    if (contents) snapshot.namespaceContents = contents;
    if (troubled) snapshot.owners = troubled.owners;
    await collectRefusals(
      source,
      snapshot,
      target.name,
      [...ownerTexts(snapshot.owners), ...(troubled?.warnings ?? []).map((e) => e.message ?? '')],
      needs,
      guard,
    );
    return snapshot;
  }

  if (target.kind === 'node') {
    const node = await fetchRequired(() => source.getNode(target.name), `node "${target.name}" not found`, source, timeoutMs);
    snapshot.node = node;
    const [nodeEvents, podsOnNode] = await Promise.all([
      guard('node events', () => source.listNodeEvents(target.name), [] as Event[]),
      guard('pods on node', () => source.listPods({ nodeName: target.name }), [] as Pod[]),
    ]);
    snapshot.nodeEvents = sortEvents(nodeEvents);
    snapshot.podsOnNode = podsOnNode.filter(isActive);
    const nodeTexts = [...(node.status?.conditions ?? []).map((c) => c.message ?? ''), ...nodeEvents.map((e) => e.message ?? '')];
    const triggers = componentTriggers({ all: nodeTexts });
    const silent = node.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'Unknown');
    if (silent) triggers.apiserver = silent.message ?? 'Kubelet stopped posting node status.';
    const [nodes, components] = await Promise.all([
      needs.has('nodes') ? guard('nodes', () => source.listNodes(), [] as Node[]) : undefined,
      needs.has('components') ? collectComponents(source, triggers, target.name, snapshot.podsOnNode, guard) : undefined,
    ]);
    if (nodes) snapshot.nodes = nodes;
    if (components && components.length > 0) snapshot.components = components;
    return snapshot;
  }

  // Pod: the pod, its events and its namespace in one round trip; events are filtered to
  // this incarnation by UID (a StatefulSet pod reuses its name).
  const [found, podEvents, namespace] = await Promise.all([
    fetchOptional(() => source.getPod(target.namespace, target.name), source, timeoutMs),
    guard('pod events', () => source.listPodEvents(target.namespace, target.name), [] as Event[]),
    needs.has('namespace') ? guard('namespace', () => source.getNamespace(target.namespace), null) : Promise.resolve(null),
  ]);
  if (namespace) snapshot.namespace = namespace;
  if (!found) return collectMissingPod(source, snapshot, target, podEvents, needs, guard);
  const pod = found;
  snapshot.pod = pod;
  const uid = pod.metadata?.uid;
  snapshot.events = sortEvents(podEvents.filter((e) => !uid || !e.involvedObject.uid || e.involvedObject.uid === uid));

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
        // The node's own events (SystemOOM, NodeNotReady, EvictionThresholdMet, Rebooted...) matter for a
        // node in trouble and for a pod that is not well; a healthy pod on a healthy node skips the read.
        if (needs.has('nodeEvents') && (!node || nodeInTrouble(node) || podInTrouble(pod))) {
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
  if ((needs.has('pvcs') || needs.has('claims')) && claimNames(pod).length > 0) {
    // The claims' events, classes, volumes and attachments only for a pod that is not Ready (or an
    // unscheduled one, whose bound volumes may pin it to a zone): a running pod's volumes are fine.
    const deep = (needs.has('claims') && podInTrouble(pod)) || (needs.has('volumes') && pending);
    tasks.push(
      collectClaims(source, pod, guard, deep).then((claims) => {
        snapshot.pvcs = Object.fromEntries(claims.map((c) => [c.name, c.claim]));
        if (needs.has('claims') && deep) snapshot.claims = claims;
        if (needs.has('volumes') && pending) {
          const bound = claims.flatMap((c) => (c.claim?.spec?.volumeName && c.volume !== undefined ? [[c.claim.spec.volumeName, c.volume] as const] : []));
          if (bound.length > 0) snapshot.volumes = Object.fromEntries(bound);
        }
      }),
    );
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
    tasks.push(collectLogs(source, pod, options.logTailLines ?? 100, guard).then((l) => (snapshot.logs = l)));
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
  // What the failure lines name: the webhook or service account a refusal cites, and the DNS, CNI
  // or CSI component a crash, a sandbox or a mount points at.
  followUps.push(
    collectRefusals(source, snapshot, target.namespace, [...ownerTexts(snapshot.owners), ...snapshot.events.map((e) => e.message ?? '')], needs, guard),
  );
  if (needs.has('components') && podInTrouble(pod)) {
    const drivers = (snapshot.claims ?? []).flatMap((c) => {
      const driver = (c.volume?.spec as { csi?: { driver?: string } } | undefined)?.csi?.driver;
      return driver ? [driver] : [];
    });
    const triggers = componentTriggers({ app: appTexts(snapshot), all: failureTexts(snapshot) }, drivers);
    if (triggers.dns || triggers.cni || triggers.csi) {
      followUps.push(
        collectComponents(source, triggers, nodeName, snapshot.podsOnNode, guard).then((c) => {
          if (c.length > 0) snapshot.components = c;
        }),
      );
    }
  }
  await Promise.all(followUps);
  return snapshot;
}

/**
 * A target pod that does not exist: diagnosed through the owner its name points at (a StatefulSet
 * that cannot create web-2, a Job whose pods were refused). The pod's events are kept (those of a
 * deleted pod outlive it for an hour). Without any owner it is a plain "not found".
 */
async function collectMissingPod(
  source: FactSource,
  snapshot: Snapshot,
  target: Extract<Target, { kind: 'pod' }>,
  podEvents: Event[],
  needs: Set<FactName>,
  guard: Guard,
): Promise<Snapshot> {
  const owners = await findOwnerOfMissingPod(source, target.namespace, target.name, guard);
  if (!owners || owners.length === 0) {
    throw new PodDoctorError(
      'TARGET_NOT_FOUND',
      `pod "${target.namespace}/${target.name}" not found, and no StatefulSet, ReplicaSet, Deployment, DaemonSet, Job or CronJob its name points at exists`,
    );
  }
  snapshot.owners = owners;
  snapshot.events = sortEvents(podEvents);
  snapshot.missingPod = { name: target.name, via: `${owners[0]!.kind} ${owners[0]!.name}` };
  await collectRefusals(source, snapshot, target.namespace, [...ownerTexts(owners), ...podEvents.map((e) => e.message ?? '')], needs, guard);
  return snapshot;
}

/** The owners' event messages and condition messages (ReplicaFailure, Failed, Progressing...). */
function ownerTexts(owners: OwnerFact[] | undefined): string[] {
  return (owners ?? []).flatMap((o) => [
    ...o.events.map((e) => e.message ?? ''),
    ...((o.object?.status as { conditions?: { message?: string }[] } | undefined)?.conditions ?? []).map((c) => c.message ?? ''),
  ]);
}

/** The webhooks and the service account that refusals in `texts` name. */
async function collectRefusals(source: FactSource, snapshot: Snapshot, namespace: string, texts: string[], needs: Set<FactName>, guard: Guard): Promise<void> {
  const hooks = needs.has('webhooks') ? webhooksNamed(texts) : [];
  const account = needs.has('serviceAccount') ? serviceAccountNamed(texts) : undefined;
  await Promise.all([
    hooks.length > 0 ? collectWebhooks(source, hooks, guard).then((w) => (snapshot.webhooks = w)) : undefined,
    account
      ? guard(`serviceaccount ${account}`, () => source.serviceAccountExists(namespace, account), undefined as boolean | undefined).then((exists) => {
          if (exists !== undefined) snapshot.serviceAccount = { name: account, exists };
        })
      : undefined,
  ]);
}

/** Every line that may name a failing component: events, container messages, logs, the node and the claims. */
function failureTexts(snapshot: Snapshot): string[] {
  const statuses = containerStatuses(snapshot.pod).flatMap((s) => [
    s.status.state?.waiting?.message ?? '',
    s.status.state?.terminated?.message ?? '',
    s.status.lastState?.terminated?.message ?? '',
  ]);
  const ready = snapshot.node?.status?.conditions?.find((c) => c.type === 'Ready');
  return [
    ...snapshot.events.filter((e) => e.type === 'Warning').map((e) => e.message ?? ''),
    ...statuses,
    ...(snapshot.logs ?? []).flatMap((l) => l.lines.slice(-20)),
    ready?.status !== 'True' ? (ready?.message ?? '') : '',
    ...(snapshot.claims ?? []).flatMap((c) => [
      ...c.events.map((e) => e.message ?? ''),
      (c.attachment?.status as { attachError?: { message?: string } } | undefined)?.attachError?.message ?? '',
    ]),
  ].filter((t) => t.length > 0);
}

/** What the pod's own processes said: logs, termination messages, probe failures (not the kubelet's pulls). */
function appTexts(snapshot: Snapshot): string[] {
  const terminated = containerStatuses(snapshot.pod).flatMap((s) => [s.status.state?.terminated?.message ?? '', s.status.lastState?.terminated?.message ?? '']);
  return [
    ...(snapshot.logs ?? []).flatMap((l) => l.lines.slice(-20)),
    ...terminated,
    ...snapshot.events.filter((e) => e.reason === 'Unhealthy').map((e) => e.message ?? ''),
  ].filter((t) => t.length > 0);
}

/** Not Ready, or restarted (a recent OOM kill leaves the pod Ready again). */
function podInTrouble(pod: Pod): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return true;
  return containerStatuses(pod).some((s) => (s.status.restartCount ?? 0) > 0);
}

/** NotReady, or a pressure / network condition set. */
function nodeInTrouble(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => (c.type === 'Ready' ? c.status !== 'True' : c.status === 'True' && c.type !== 'Ready'));
}

/** Like fetchRequired, with null for "not found" (the caller looks further). */
async function fetchOptional<T>(run: () => Promise<T | null>, source: FactSource, timeoutMs: number): Promise<T | null> {
  try {
    return await fetchRequired(run, '', source, timeoutMs);
  } catch (err) {
    if (err instanceof PodDoctorError && err.code === 'TARGET_NOT_FOUND') return null;
    throw err;
  }
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
