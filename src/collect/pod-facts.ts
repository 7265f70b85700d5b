// The facts of a pod target, one collector per fact (keyed like the rules' `needs`): a collector
// reads only when an enabled rule needs its fact and the pod's state makes the fact relevant, and
// writes its own part of the snapshot. The first round needs the pod alone; the second what the
// first found (the node, the owners, the claims, the logs).
import { claimNames } from '../diagnosis/claims.js';
import { containerStatuses } from '../diagnosis/facts.js';
import { parseQuantity } from '../diagnosis/quantity.js';
import type { Event, FactName, Gap, KubeObject, LogTail, Node, OwnerFact, Pod, Snapshot } from '../diagnosis/types.js';
import { type LabelSelectorObject, matchLabels, requirementsFromSelector } from '../kube/selectors.js';
import type { Target } from '../kube/target.js';
import type { AgentFacts } from '../probes/types.js';
import { redactLines } from '../redact.js';
import { collectAccess, collectDependencies, collectServiceAccount } from './access.js';
import { collectComponents, componentTriggers } from './components.js';
import { type Guard, sortEvents } from './guard.js';
import { collectHistory } from './history.js';
import { collectOwners } from './owners.js';
import { collectRefusals, ownerTexts } from './refusals.js';
import type { FactSource } from './source.js';
import { collectClaims } from './storage.js';

export interface AgentLookup {
  fetch(input: { node: Node; pod: Pod }): Promise<{ facts?: AgentFacts; gaps: Gap[] }>;
}

/** What every collector of one pod diagnosis works with. */
export interface PodScope {
  source: FactSource;
  snapshot: Snapshot;
  pod: Pod;
  target: Extract<Target, { kind: 'pod' }>;
  needs: Set<FactName>;
  guard: Guard;
  agent?: AgentLookup;
  /** Why there is no agent (said as a gap when node facts would have been asked for). */
  agentSkipReason?: string;
  checkSecrets?: boolean;
  logTailLines: number;
}

interface PodCollector {
  /** The facts it gathers: it runs when a rule needs any of them. */
  facts: readonly FactName[];
  /** Its reads and their part of the snapshot; undefined when the pod's state makes them moot. */
  collect(s: PodScope): Promise<unknown> | undefined;
}

const nodeOf = (s: PodScope) => s.pod.spec?.nodeName;
const pending = (s: PodScope) => !nodeOf(s);

/** From the pod alone. */
const FIRST_ROUND: PodCollector[] = [
  { facts: ['node', 'agent', 'nodeEvents'], collect: collectNodeFacts },
  {
    facts: ['podsOnNode'],
    collect: (s) => {
      const nodeName = nodeOf(s);
      if (!nodeName) return undefined;
      return s.guard<Pod[]>(`pods on node ${nodeName}`, () => s.source.listPods({ nodeName }), []).then((p) => (s.snapshot.podsOnNode = p.filter(isActive)));
    },
  },
  { facts: ['owners'], collect: (s) => collectOwners(s.source, s.pod, s.guard).then((o) => (s.snapshot.owners = o)) },
  {
    facts: ['configMaps'],
    collect: (s) =>
      existence(
        s,
        referencedConfigMaps(s.pod),
        (n) => `configmap ${n}`,
        (n) => s.source.configMapExists(s.target.namespace, n),
      )?.then((found) => (s.snapshot.configMaps = found)),
  },
  {
    facts: ['secrets'],
    collect: (s) =>
      s.checkSecrets
        ? existence(
            s,
            referencedSecrets(s.pod),
            (n) => `secret ${n} (metadata only)`,
            (n) => s.source.secretExists(s.target.namespace, n),
          )?.then((found) => (s.snapshot.secrets = found))
        : undefined,
  },
  { facts: ['pvcs', 'claims'], collect: collectClaimFacts },
  { facts: ['nodes'], collect: (s) => (pending(s) ? collectCapacity(s) : undefined) },
  {
    facts: ['hostPortPods'],
    collect: (s) => {
      if (!requestsHostPorts(s.pod)) return undefined;
      const uid = s.pod.metadata?.uid;
      return s
        .guard<Pod[]>('host port users', () => s.source.listPods({}), [])
        .then((p) => (s.snapshot.hostPortPods = p.filter((x) => isActive(x) && requestsHostPorts(x) && x.metadata?.uid !== uid)));
    },
  },
  {
    facts: ['scheduler'],
    collect: (s) =>
      pending(s)
        ? Promise.all([
            s
              .guard<Pod[]>('kube-scheduler pods', () => s.source.listPods({ namespace: 'kube-system', labelSelector: 'component=kube-scheduler' }), [])
              .then((p) => (s.snapshot.schedulerPods = p)),
            s.guard('kube-scheduler lease', () => s.source.getLease('kube-system', 'kube-scheduler'), null).then((l) => (s.snapshot.schedulerLease = l)),
          ])
        : undefined,
  },
  { facts: ['services'], collect: collectServices },
  {
    facts: ['workloadEndpoints'],
    collect: (s) =>
      s.pod.status?.podIP && s.pod.status.phase === 'Running'
        ? s
            .guard('calico workload endpoints', () => s.source.listWorkloadEndpoints(s.target.namespace), null)
            .then((w) => {
              if (w) s.snapshot.workloadEndpoints = w;
            })
        : undefined,
  },
  { facts: ['volumeUsers'], collect: collectVolumeUsers },
  { facts: ['logs'], collect: (s) => collectLogs(s.source, s.pod, s.logTailLines, s.guard).then((l) => (s.snapshot.logs = l)) },
];

/** From what the first round found. */
const SECOND_ROUND: PodCollector[] = [
  // A NotReady node: where the pod's workload has been scheduled lately (the cascade rule).
  {
    facts: ['workloadPods'],
    collect: (s) => {
      const selector = s.snapshot.node && nodeIsNotReady(s.snapshot.node) ? ownerSelector(s.snapshot.owners) : undefined;
      if (!selector) return undefined;
      return Promise.all([
        s
          .guard<Pod[]>('pods of the workload', () => s.source.listPods({ namespace: s.target.namespace, labelSelector: selector }), [])
          .then((p) => (s.snapshot.workloadPods = p)),
        !s.snapshot.nodes && s.needs.has('nodes') ? s.guard<Node[]>('nodes', () => s.source.listNodes(), []).then((n) => (s.snapshot.nodes = n)) : undefined,
      ]);
    },
  },
  {
    facts: ['namespaceContents'],
    collect: (s) =>
      s.snapshot.namespace?.status?.phase === 'Terminating'
        ? s.guard('namespace contents', () => s.source.listNamespaceContents(s.target.namespace), []).then((c) => (s.snapshot.namespaceContents = c))
        : undefined,
  },
  // What the failure lines name: the webhook or service account a refusal cites…
  {
    facts: ['webhooks', 'serviceAccount'],
    collect: (s) =>
      collectRefusals(
        s.source,
        s.snapshot,
        s.target.namespace,
        [...ownerTexts(s.snapshot.owners), ...s.snapshot.events.map((e) => e.message ?? '')],
        s.needs,
        s.guard,
      ),
  },
  // …and the DNS, CNI or CSI component a crash, a sandbox or a mount points at.
  { facts: ['components'], collect: collectFailingComponents },
  // What the pod's own log names: the ServiceAccount the API server refused, the cloud identity its own lacks, the Services it cannot reach.
  {
    facts: ['access'],
    collect: (s) =>
      podInTrouble(s.pod)
        ? Promise.all([
            collectAccess(s.source, s.snapshot, s.guard).then((a) => {
              if (a) s.snapshot.access = a;
            }),
            collectServiceAccount(s.source, s.snapshot, s.guard).then((sa) => {
              if (sa) s.snapshot.podServiceAccount = sa;
            }),
          ])
        : undefined,
  },
  // What changed before the failure: the workload's revisions, the config it uses (metadata only).
  {
    facts: ['changes'],
    collect: (s) =>
      podInTrouble(s.pod)
        ? collectHistory({
            source: s.source,
            namespace: s.target.namespace,
            owners: s.snapshot.owners,
            configMaps: referencedConfigMaps(s.pod),
            secrets: s.checkSecrets ? referencedSecrets(s.pod) : [],
            serviceAccount: s.pod.spec?.serviceAccountName || 'default',
            podLabels: s.pod.metadata?.labels ?? {},
            guard: s.guard,
          }).then((h) => (s.snapshot.history = h))
        : undefined,
  },
  {
    facts: ['dependencies'],
    collect: (s) =>
      podInTrouble(s.pod)
        ? collectDependencies(s.source, s.snapshot, s.guard).then((d) => {
            if (d) s.snapshot.dependencies = d;
          })
        : undefined,
  },
];

export async function collectPodFacts(scope: PodScope): Promise<void> {
  const run = (round: PodCollector[]) => Promise.all(round.filter((c) => c.facts.some((f) => scope.needs.has(f))).map((c) => c.collect(scope)));
  await run(FIRST_ROUND);
  await run(SECOND_ROUND);
}

// ---- collectors ----

/** The node, then what depends on it: the budgets of a drain, its events, its agent. */
function collectNodeFacts(s: PodScope): Promise<unknown> | undefined {
  const nodeName = nodeOf(s);
  if (!nodeName) return undefined;
  const { snapshot, pod, guard, source, needs } = s;
  return guard(`node ${nodeName}`, () => source.getNode(nodeName), null).then(async (node) => {
    if (node) snapshot.node = node;
    // A cordoned node is being drained: the budgets that may refuse this pod's eviction.
    if (node?.spec?.unschedulable && needs.has('disruptionBudgets')) {
      const all = await guard<KubeObject[]>('pod disruption budgets', () => source.listDisruptionBudgets(s.target.namespace), []);
      snapshot.disruptionBudgets = all.filter((b) => selects((b.spec as { selector?: LabelSelectorObject } | undefined)?.selector, pod.metadata?.labels));
    }
    // The node's own events (SystemOOM, NodeNotReady, EvictionThresholdMet, Rebooted...) matter for a
    // node in trouble and for a pod that is not well; a healthy pod on a healthy node skips the read.
    if (needs.has('nodeEvents') && (!node || nodeInTrouble(node) || podInTrouble(pod))) {
      snapshot.nodeEvents = sortEvents(await guard<Event[]>(`events of node ${nodeName}`, () => source.listNodeEvents(nodeName), []));
    }
    // Node-level facts come after the node: its address locates the agent.
    if (node && needs.has('agent')) {
      if (s.agent) {
        const agent = s.agent;
        const result = await guard(`node agent on ${nodeName}`, () => agent.fetch({ node, pod }), { gaps: [] }, 'agent');
        if (result.facts) snapshot.agent = result.facts;
        snapshot.gaps.push(...result.gaps);
      } else if (s.agentSkipReason) {
        snapshot.gaps.push({ check: `node agent on ${nodeName}`, reason: s.agentSkipReason, kind: 'unavailable', origin: 'agent' });
      }
    }
  });
}

/** Whether each named object exists (a failed check counts as existing: no false alarm). */
function existence(
  s: PodScope,
  names: string[],
  check: (name: string) => string,
  exists: (name: string) => Promise<boolean>,
): Promise<Record<string, boolean>> | undefined {
  if (names.length === 0) return undefined;
  return Promise.all(names.map(async (n) => [n, await s.guard(check(n), () => exists(n), true)] as const)).then((pairs) => Object.fromEntries(pairs));
}

function collectClaimFacts(s: PodScope): Promise<unknown> | undefined {
  const { pod, needs, snapshot } = s;
  if (claimNames(pod).length === 0) return undefined;
  // The claims' events, classes, volumes and attachments only for a pod that is not Ready (or an
  // unscheduled one, whose bound volumes may pin it to a zone): a running pod's volumes are fine.
  const deep = (needs.has('claims') && podInTrouble(pod)) || (needs.has('volumes') && pending(s));
  return collectClaims(s.source, pod, s.guard, deep).then((claims) => {
    snapshot.pvcs = Object.fromEntries(claims.map((c) => [c.name, c.claim]));
    if (needs.has('claims') && deep) snapshot.claims = claims;
    if (needs.has('volumes') && pending(s)) {
      const bound = claims.flatMap((c) => (c.claim?.spec?.volumeName && c.volume !== undefined ? [[c.claim.spec.volumeName, c.volume] as const] : []));
      if (bound.length > 0) snapshot.volumes = Object.fromEntries(bound);
    }
  });
}

/** A pending pod: the cluster's nodes and, when resources ran out, the free capacity of the best candidates. */
function collectCapacity(s: PodScope): Promise<unknown> {
  return s
    .guard<Node[]>('nodes', () => s.source.listNodes(), [])
    .then(async (nodes) => {
      s.snapshot.nodes = nodes;
      if (!s.needs.has('podsOnNode') || !wantsCapacity(s.pod, s.snapshot.events)) return;
      // Each candidate through a spec.nodeName field selector: bounded work however large the cluster is.
      const candidates = capacityCandidates(nodes);
      const perNode = await Promise.all(candidates.map((n) => s.guard<Pod[]>(`pods on node ${n}`, () => s.source.listPods({ nodeName: n }), [])));
      s.snapshot.podsOnNode = perNode.flat().filter(isActive);
      s.snapshot.capacityNodes = candidates;
    });
}

/** A running pod that is not Ready: the Services that select it (their endpoints drop it). */
function collectServices(s: PodScope): Promise<unknown> | undefined {
  const unready = s.pod.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True';
  if (s.pod.status?.phase !== 'Running' || !unready) return undefined;
  return s
    .guard<KubeObject[]>('services of the namespace', () => s.source.listServices(s.target.namespace), [])
    .then((all) => {
      const labels = s.pod.metadata?.labels ?? {};
      // A Service selects the pod when every pair of its selector is among the pod's labels.
      s.snapshot.services = all.filter((svc) => {
        const selector = (svc.spec as { selector?: Record<string, string> } | undefined)?.selector;
        return selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
      });
    });
}

/** `Multi-Attach error for volume "pvc-x" Volume is already used by pod(s) web-0, web-1`: read those pods. */
function collectVolumeUsers(s: PodScope): Promise<unknown> | undefined {
  const named = new Set<string>();
  for (const e of s.snapshot.events) {
    const list = /Volume is already used by pods? ?\(?s?\)? ?([^:]+?)(?:$|\s*:)/.exec(e.message ?? '')?.[1];
    for (const n of (list ?? '').split(/,\s*/)) if (/^[a-z0-9][a-z0-9.-]*$/.test(n.trim()) && n.trim() !== s.target.name) named.add(n.trim());
  }
  if (named.size === 0) return undefined;
  return Promise.all([...named].slice(0, 5).map((n) => s.guard(`pod ${n} (volume user)`, () => s.source.getPod(s.target.namespace, n), null))).then(
    (ps) => (s.snapshot.volumeUsers = ps.filter((p): p is Pod => p !== null)),
  );
}

/** A pod in trouble whose failure lines point at the cluster's DNS, CNI or a CSI driver: that component's state. */
function collectFailingComponents(s: PodScope): Promise<unknown> | undefined {
  const { snapshot } = s;
  if (!podInTrouble(s.pod)) return undefined;
  const drivers = (snapshot.claims ?? []).flatMap((c) => {
    const driver = (c.volume?.spec as { csi?: { driver?: string } } | undefined)?.csi?.driver;
    return driver ? [driver] : [];
  });
  const triggers = componentTriggers({ app: appTexts(snapshot), all: failureTexts(snapshot) }, drivers);
  if (!triggers.dns && !triggers.cni && !triggers.csi) return undefined;
  return collectComponents(s.source, triggers, nodeOf(s), snapshot.podsOnNode, s.guard).then((c) => {
    if (c.length > 0) snapshot.components = c;
  });
}

/** Containers whose logs one diagnosis reads at most: a pod of thousands stays bounded. */
export const MAX_LOG_CONTAINERS = 24;
/** A longer line keeps its start and its end: a 1 MB line costs the rules nothing. */
export const LOG_LINE_CHARS = 8192;

/**
 * Which runs of a container have a story to tell: the terminated one (now, or before a restart),
 * and the current one of a container that runs without being Ready (an app that is up but failing,
 * a native sidecar) or of an init container still running (what the pod waits for).
 */
function logRuns(s: ReturnType<typeof containerStatuses>[number]): boolean[] {
  const st = s.status;
  if (st.state?.terminated) return [false];
  const runningUnready = Boolean(st.state?.running) && (s.init || st.ready === false);
  if (st.lastState?.terminated) return runningUnready ? [true, false] : [true];
  return runningUnready ? [false] : [];
}

function boundLine(line: string): string {
  return line.length <= LOG_LINE_CHARS ? line : `${line.slice(0, LOG_LINE_CHARS / 2)} … ${line.slice(-LOG_LINE_CHARS / 2)}`;
}

async function collectLogs(source: FactSource, pod: Pod, tail: number, guard: Guard): Promise<LogTail[]> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const wanted = containerStatuses(pod)
    .flatMap((s) => logRuns(s).map((previous) => ({ s, previous })))
    .slice(0, MAX_LOG_CONTAINERS);
  const tails = await Promise.all(
    wanted.map(async ({ s, previous }) => {
      const label = `logs of ${s.status.name}${previous ? ' (previous)' : ''}`;
      const lines = await guard(label, () => source.podLog(namespace, name, s.status.name, previous, tail), null);
      // Bounded, then redacted as stored: findings quote these lines, and results go to Redis and chat.
      return lines ? { container: s.status.name, previous, lines: redactLines(lines.map(boundLine)) } : null;
    }),
  );
  return tails.filter((t): t is LogTail => t !== null);
}

// ---- what the pod's state says ----

/** A PDB selects a pod by its label selector; an empty selector selects every pod of the namespace (policy/v1). */
function selects(selector: LabelSelectorObject | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  return matchLabels(requirementsFromSelector(selector), labels);
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

export function isActive(p: Pod): boolean {
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
  const labels = (top?.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
  if (!labels || Object.keys(labels).length === 0) return undefined;
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

function referencedConfigMaps(pod: Pod): string[] {
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

function referencedSecrets(pod: Pod): string[] {
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
