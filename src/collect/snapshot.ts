// Builds one Snapshot per diagnosis: the facts the enabled rules need, fetched concurrently,
// each with a timeout. A failed or forbidden call becomes a Gap; only a missing target or an
// unreachable cluster stops the diagnosis.

import { withDeadline } from '../bounded.js';
import type { Event, FactName, Gap, Node, Pod, Snapshot, Target } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { redactText } from '../redact.js';
import { collectComponents, componentTriggers } from './components.js';
import { CallTimeout, describeError, type Guard, isUnreachable, makeGuard, sortEvents } from './guard.js';
import { collectNamespaceOwners, findOwnerOfMissingPod } from './owners.js';
import { type AgentLookup, collectPodFacts, isActive } from './pod-facts.js';
import { collectRefusals, ownerTexts } from './refusals.js';
import type { FactSource } from './source.js';

export type { AgentLookup } from './pod-facts.js';

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

  if (target.kind === 'namespace') return collectNamespace(source, snapshot, target, needs, guard, timeoutMs);
  if (target.kind === 'node') return collectNode(source, snapshot, target, needs, guard, timeoutMs);

  // Pod: the pod, its events and its namespace in one round trip; events are filtered to
  // this incarnation by UID (a StatefulSet pod reuses its name).
  const [found, podEvents, namespace] = await Promise.all([
    fetchOptional(() => source.getPod(target.namespace, target.name), source, timeoutMs),
    guard<Event[]>('pod events', () => source.listPodEvents(target.namespace, target.name), []),
    needs.has('namespace') ? guard('namespace', () => source.getNamespace(target.namespace), null) : Promise.resolve(null),
  ]);
  if (namespace) snapshot.namespace = namespace;
  if (!found) return collectMissingPod(source, snapshot, target, podEvents, needs, guard);
  const pod = redactTerminationMessages(found);
  snapshot.pod = pod;
  const uid = pod.metadata?.uid;
  snapshot.events = sortEvents(podEvents.filter((e) => !uid || !e.involvedObject.uid || e.involvedObject.uid === uid));
  await collectPodFacts({
    source,
    snapshot,
    pod,
    target,
    needs,
    guard,
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.agentSkipReason ? { agentSkipReason: options.agentSkipReason } : {}),
    ...(options.checkSecrets ? { checkSecrets: true } : {}),
    logTailLines: options.logTailLines ?? 100,
  });
  return snapshot;
}

/** A namespace: whether it is stuck terminating and on what, and its workloads in trouble. */
async function collectNamespace(
  source: FactSource,
  snapshot: Snapshot,
  target: Extract<Target, { kind: 'namespace' }>,
  needs: Set<FactName>,
  guard: Guard,
  timeoutMs: number,
): Promise<Snapshot> {
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

/** A node: its events, its pods, and the cluster components its conditions point at. */
async function collectNode(
  source: FactSource,
  snapshot: Snapshot,
  target: Extract<Target, { kind: 'node' }>,
  needs: Set<FactName>,
  guard: Guard,
  timeoutMs: number,
): Promise<Snapshot> {
  const node = await fetchRequired(() => source.getNode(target.name), `node "${target.name}" not found`, source, timeoutMs);
  snapshot.node = node;
  const [nodeEvents, podsOnNode] = await Promise.all([
    guard<Event[]>('node events', () => source.listNodeEvents(target.name), []),
    guard<Pod[]>('pods on node', () => source.listPods({ nodeName: target.name }), []),
  ]);
  snapshot.nodeEvents = sortEvents(nodeEvents);
  snapshot.podsOnNode = podsOnNode.filter(isActive);
  const nodeTexts = [...(node.status?.conditions ?? []).map((c) => c.message ?? ''), ...nodeEvents.map((e) => e.message ?? '')];
  const triggers = componentTriggers({ all: nodeTexts });
  const silent = node.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'Unknown');
  if (silent) triggers.apiserver = silent.message ?? 'Kubelet stopped posting node status.';
  const [nodes, components] = await Promise.all([
    needs.has('nodes') ? guard<Node[]>('nodes', () => source.listNodes(), []) : undefined,
    needs.has('components') ? collectComponents(source, triggers, target.name, snapshot.podsOnNode, guard) : undefined,
  ]);
  if (nodes) snapshot.nodes = nodes;
  if (components && components.length > 0) snapshot.components = components;
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

const STATUS_LISTS = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const;

/**
 * The pod with its containers' termination messages redacted (a copy when one changes): with
 * `terminationMessagePolicy: FallbackToLogsOnError` a message is the log's last lines, and findings quote it.
 */
function redactTerminationMessages(pod: Pod): Pod {
  const terminated = (p: Pod) => STATUS_LISTS.flatMap((k) => (p.status?.[k] ?? []).flatMap((s) => [s.state?.terminated, s.lastState?.terminated]));
  if (!terminated(pod).some((t) => t?.message && redactText(t.message) !== t.message)) return pod;
  const copy = structuredClone(pod);
  for (const t of terminated(copy)) if (t?.message) t.message = redactText(t.message);
  return copy;
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
  try {
    const result = await withDeadline(timeoutMs, run, () => new CallTimeout(`no answer within ${timeoutMs} ms`));
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
  }
}
