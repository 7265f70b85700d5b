// The scheduler's FitError in every wording era, and the facts the pending.* rules share:
// is the pod unscheduled long enough to speak, which message explains it, and how much of
// each node is already requested. Pure: no I/O, no clock (snapshot.now).
import { clip, eventEvidence, eventsWithReason, isDeleting, isFinished, newestFirst, secondsSince } from './facts.js';
import { parseQuantity } from './quantity.js';
import type { RuleContext } from './rule.js';
import type { Evidence, Node, Pod, Severity, Snapshot } from './types.js';

/** What a scheduler reason is about; one pending.* rule per kind. */
export type FitReasonKind =
  | 'resources'
  | 'pods'
  | 'selector'
  | 'taint'
  | 'hostport'
  | 'volume'
  | 'volume-limit'
  | 'pod-affinity'
  | 'topology-spread'
  | 'unschedulable'
  | 'other';

export interface FitReason {
  /** Nodes that failed for this reason (all nodes for a PreFilter message). */
  count: number;
  /** The reason as the scheduler wrote it, without the count. */
  text: string;
  kind: FitReasonKind;
  /** `cpu` for `Insufficient cpu`, `pods` for `Too many pods` / `Insufficient pods`. */
  resource?: string;
  /** Taint named by the 1.18–1.34 wording (`{key: value}`); older and newer texts omit it. */
  taint?: { key: string; value: string };
  /** A PreFilter failure: the message has no per-node histogram. */
  preFilter?: boolean;
}

export interface FitError {
  /** `predicates`: ≤1.8 `No nodes are available that match all of the ... predicates`; `framework`: `0/N nodes are available`. */
  era: 'predicates' | 'framework';
  totalNodes?: number;
  reasons: FitReason[];
  /** PostFilter text (`preemption: ...`, `no new claims to deallocate`), kept only to quote. */
  postFilter?: string;
}

const CLASSIFY: [RegExp, FitReasonKind][] = [
  [/^(?:Too many pods|Insufficient pods)$/, 'pods'],
  [/^Insufficient \S+$/, 'resources'],
  // ≈1.20 `node selector`, 1.21 `Pod's node affinity`, ≥1.22 `.../selector`; ≤1.8 predicate name.
  [/didn't match (?:node selector|Pod's node affinity)|^MatchNodeSelector$/, 'selector'],
  // ≤1.17 `had taints that...`, 1.18 `had taint {k: v}, that...`, ≈1.24 `had untolerated taint {k: v}`, 1.35 `taint(s)`.
  [/had taints? .*that the pod didn't tolerate|had untolerated taint|^PodToleratesNodeTaints$/, 'taint'],
  [/didn't have free ports|^PodFitsHostPorts$/, 'hostport'],
  // ≥1.20 `didn't match pod affinity rules` / `pod anti-affinity rules` / `didn't satisfy existing pods anti-affinity rules`;
  // older `pod affinity/anti-affinity`.
  [/didn't match pod (?:anti-)?affinity|didn't satisfy existing pods anti-affinity|^MatchInterPodAffinity$/, 'pod-affinity'],
  [/exceed max volume count|^Max\w*VolumeCount\w*$/, 'volume-limit'],
  // ≥1.18 `didn't match pod topology spread constraints` (and `(missing required label)`); older `EvenPodsSpread`.
  [/pod topology spread constraints|^EvenPodsSpread$/, 'topology-spread'],
  [
    new RegExp(
      [
        'PersistentVolumeClaim',
        'persistentvolumeclaim',
        'persistent volumes to bind',
        'volume node affinity conflict',
        "PersistentVolume's node affinity",
        'enough free storage',
        'non-existent pv',
        '^NoVolumeZoneConflict$',
        '^VolumeBinding',
      ].join('|'),
    ),
    'volume',
  ],
  [/were unschedulable|^NodeUnschedulable$/, 'unschedulable'],
];

function classify(text: string, count: number, preFilter: boolean): FitReason {
  const kind = CLASSIFY.find(([re]) => re.test(text))?.[1] ?? 'other';
  const reason: FitReason = { count, text, kind };
  if (preFilter) reason.preFilter = true;
  if (kind === 'pods') reason.resource = 'pods';
  if (kind === 'resources') reason.resource = text.slice('Insufficient '.length);
  if (kind === 'taint') {
    // Taint keys are qualified names (no `:` or braces); values may be empty: `{node-role.kubernetes.io/control-plane: }`.
    const m = /\{([^:{}]+):\s?([^{}]*)\}/.exec(text);
    if (m) reason.taint = { key: (m[1] ?? '').trim(), value: (m[2] ?? '').trim() };
  }
  return reason;
}

// Messages over 1024 bytes are cut by the events API with ` ...`; some builds print `..`.
function tidy(s: string): string {
  return s
    .replace(/\s*\.\.\.$/, '')
    .replace(/[.\s]+$/, '')
    .trim();
}

/** Parse a FailedScheduling / PodScheduled=False message; undefined when it is not a FitError. */
export function parseFitError(message: string): FitError | undefined {
  const text = message.trim();

  const old = /^No nodes are available that match all of the (?:following )?predicates:+\s*(.*)$/s.exec(text);
  if (old) {
    const reasons = tidy(old[1] ?? '')
      .split(/,\s*/)
      .map((part) => /^(.*?)\s*\((\d+)\)$/.exec(part.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => classify((m[1] ?? '').trim(), Number(m[2]), false));
    return { era: 'predicates', reasons };
  }

  const fw = /^0\/(\d+) nodes are available:\s*(.*)$/s.exec(text);
  if (!fw) return undefined;
  const totalNodes = Number(fw[1]);
  let body = fw[2] ?? '';
  let postFilter: string | undefined;
  // PostFilter follows the histogram after `. `: `preemption: 0/N ...`, DRA's `no new claims to deallocate, `.
  const post = /\.+\s+(?=no new claims to deallocate|preemption:)/.exec(body);
  if (post) {
    postFilter = tidy(body.slice(post.index + post[0].length));
    body = body.slice(0, post.index);
  }
  body = tidy(body);
  const reasons: FitReason[] = [];
  // Entries are `<count> <reason>` joined by `, `; split only before a count so commas inside a reason survive.
  for (const part of body.split(/,\s+(?=\d+\s)/)) {
    const m = /^(\d+)\s+(.+)$/s.exec(part.trim());
    if (m) reasons.push(classify((m[2] ?? '').trim(), Number(m[1]), false));
    else if (part.trim()) reasons.push(classify(part.trim(), totalNodes, true));
  }
  const fit: FitError = { era: 'framework', totalNodes, reasons };
  if (postFilter) fit.postFilter = postFilter;
  return fit;
}

/** Nodes ruled out for reasons of this kind (a node can fail several reasons). */
export function kindCount(fit: FitError, kind: FitReasonKind): number {
  return fit.reasons.filter((r) => r.kind === kind).reduce((n, r) => n + r.count, 0);
}

/** Largest node count of any one cause in the message; unclassified reasons count one by one. */
export function dominantCount(fit: FitError): number {
  const groups = new Map<string, number>();
  for (const r of fit.reasons) {
    const key = r.kind === 'other' ? `other:${r.text}` : r.kind;
    groups.set(key, (groups.get(key) ?? 0) + r.count);
  }
  return Math.max(0, ...groups.values());
}

/** Dominance alone: `error` when this kind rules out at least as many nodes as any other cause. */
export function severityFor(fit: FitError, kind: FitReasonKind): Severity {
  return kindCount(fit, kind) >= dominantCount(fit) ? 'error' : 'warning';
}

/** `2 Insufficient cpu, 1 node(s) had untolerated taint {...}` without the reasons of `kind`. */
export function otherReasons(fit: FitError, kind: FitReasonKind): string[] {
  return fit.reasons.filter((r) => r.kind !== kind).map((r) => (r.preFilter ? r.text : `${r.count} ${r.text}`));
}

export function reasonsOf(fit: FitError, kind: FitReasonKind): FitReason[] {
  return fit.reasons.filter((r) => r.kind === kind);
}

export function pendingSeconds(snapshot: Snapshot, pod: Pod): number | undefined {
  return secondsSince(snapshot, pod.metadata?.creationTimestamp);
}

/**
 * A pod that has waited for a node longer than the grace: no nodeName, not finished, not
 * being deleted. Pending for a few seconds is normal (the scheduler is working on it).
 */
export function unscheduledPod(snapshot: Snapshot, ctx: RuleContext): { pod: Pod; seconds: number } | undefined {
  const pod = snapshot.pod;
  if (!pod || pod.spec?.nodeName || isFinished(pod) || isDeleting(pod)) return undefined;
  if (pod.status?.phase && pod.status.phase !== 'Pending') return undefined;
  const seconds = pendingSeconds(snapshot, pod);
  if (seconds === undefined || seconds <= ctx.pendingGraceSeconds) return undefined;
  return { pod, seconds };
}

export interface SchedulingFailure {
  pod: Pod;
  /** Seconds since the pod was created. */
  seconds: number;
  message: string;
  /** Undefined when the message is not a FitError (SchedulerError, PreBind failures). */
  fit?: FitError;
  evidence: Evidence[];
}

/**
 * The scheduler's latest word on an unscheduled pod: the PodScheduled=False/Unschedulable
 * condition (always the latest attempt), else the newest FailedScheduling event.
 */
export function schedulingFailure(snapshot: Snapshot, ctx: RuleContext): SchedulingFailure | undefined {
  const waiting = unscheduledPod(snapshot, ctx);
  if (!waiting) return undefined;
  const { pod, seconds } = waiting;
  const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason !== 'SchedulingGated');
  const newest = newestFirst(eventsWithReason(snapshot, 'FailedScheduling'))[0];
  const message = cond?.message || newest?.message;
  if (!message) return undefined;
  const evidence: Evidence[] = [];
  const condSource = `pod.status.conditions[PodScheduled] (${cond?.reason ?? 'False'})`;
  if (cond?.message && newest?.message === cond.message) {
    // One quote for both places the scheduler wrote the same text; the event adds the count.
    evidence.push({ source: `${condSource}; ${eventEvidence(newest).source}`, text: clip(cond.message) });
  } else {
    if (cond?.message) evidence.push({ source: condSource, text: clip(cond.message) });
    if (newest?.message) evidence.push({ ...eventEvidence(newest), text: clip(newest.message) });
  }
  const fit = parseFitError(message);
  return fit ? { pod, seconds, message, fit, evidence } : { pod, seconds, message, evidence };
}

// ---- requests and node capacity ------------------------------------------------------

type Resources = Record<string, number>;

function add(into: Resources, from: Resources | Record<string, string> | undefined): void {
  for (const [k, v] of Object.entries(from ?? {})) {
    const n = typeof v === 'number' ? v : parseQuantity(v);
    if (Number.isFinite(n)) into[k] = (into[k] ?? 0) + n;
  }
}

function maxInto(into: Resources, from: Resources): void {
  for (const [k, v] of Object.entries(from)) into[k] = Math.max(into[k] ?? 0, v);
}

function containerRequests(c: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }): Resources {
  // Admission copies limits into missing requests; saved specs may predate that.
  const r: Resources = {};
  add(r, { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) });
  return r;
}

/**
 * What the scheduler charges a pod: the larger of the containers' sum and the biggest init
 * step (restartable sidecars add to both), plus the runtime-class overhead.
 */
export function podRequests(pod: Pod): Resources {
  const sidecars: Resources = {};
  const initPeak: Resources = {};
  for (const c of pod.spec?.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      add(sidecars, r);
      maxInto(initPeak, sidecars);
    } else {
      const step: Resources = { ...sidecars };
      add(step, r);
      maxInto(initPeak, step);
    }
  }
  const total: Resources = { ...sidecars };
  for (const c of pod.spec?.containers ?? []) add(total, containerRequests(c));
  maxInto(total, initPeak);
  add(total, pod.spec?.overhead);
  return total;
}

export interface NodeUsage {
  name: string;
  node: Node;
  allocatable: Resources;
  /** Sum of requests of non-terminal pods bound to the node; undefined when pods were not collected. */
  requested?: Resources;
  podCount?: number;
  /** Cordoned (`spec.unschedulable`). */
  cordoned: boolean;
}

/**
 * Allocatable and requested per node. For an unscheduled pod the collector lists the
 * cluster's bound, non-terminal pods in `podsOnNode`; they are grouped by `spec.nodeName`.
 */
export function nodeUsage(snapshot: Snapshot): NodeUsage[] {
  const pods = snapshot.podsOnNode;
  const byNode = new Map<string, Pod[]>();
  for (const p of pods ?? []) {
    const n = p.spec?.nodeName;
    if (!n || isFinished(p)) continue;
    byNode.set(n, [...(byNode.get(n) ?? []), p]);
  }
  // Requests are known only for the nodes whose pods were collected.
  const known = snapshot.capacityNodes ? new Set(snapshot.capacityNodes) : undefined;
  return (snapshot.nodes ?? [])
    .filter((n) => !pods || !known || known.has(n.metadata?.name ?? ''))
    .map((node) => {
      const name = node.metadata?.name ?? '?';
      const allocatable: Resources = {};
      add(allocatable, node.status?.allocatable);
      const usage: NodeUsage = { name, node, allocatable, cordoned: node.spec?.unschedulable === true };
      if (pods) {
        const onNode = byNode.get(name) ?? [];
        const requested: Resources = {};
        for (const p of onNode) add(requested, podRequests(p));
        usage.requested = requested;
        usage.podCount = onNode.length;
      }
      return usage;
    });
}

/** Free = allocatable − requested, or allocatable when requests are unknown. */
export function freeOf(u: NodeUsage, resource: string): number {
  const alloc = u.allocatable[resource] ?? 0;
  if (resource === 'pods') return alloc - (u.podCount ?? 0);
  return alloc - (u.requested?.[resource] ?? 0);
}

// ---- taints and tolerations -----------------------------------------------------------

export interface TaintLike {
  key: string;
  value?: string;
  effect: string;
}

interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/** core/v1 Toleration.ToleratesTaint: empty key + Exists matches all, empty effect matches all effects. */
export function tolerates(t: TolerationLike, taint: TaintLike): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** Taints of the node the pod does not tolerate and that block scheduling (not PreferNoSchedule). */
export function untoleratedTaints(pod: Pod, node: Node): TaintLike[] {
  const tolerations = pod.spec?.tolerations ?? [];
  return (node.spec?.taints ?? [])
    .filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
    .map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect }))
    .filter((t) => !tolerations.some((tol) => tolerates(tol, t)));
}

export function formatTaint(t: TaintLike): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** Control-plane nodes keep ordinary pods off on purpose; not tolerating them is not a fault. */
export const CONTROL_PLANE_TAINTS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

// ---- node selector and required node affinity ----------------------------------------

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

function requirementText(r: Requirement): string {
  const vs = r.values ?? [];
  if (r.operator === 'In' && vs.length === 1) return `${r.key}=${vs[0]}`;
  if (r.operator === 'NotIn' && vs.length === 1) return `${r.key}!=${vs[0]}`;
  if (r.operator === 'Exists') return `${r.key} (exists)`;
  if (r.operator === 'DoesNotExist') return `no ${r.key}`;
  return `${r.key} ${r.operator} (${vs.join(', ')})`;
}

function meets(labels: Record<string, string>, r: Requirement): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  const vs = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && vs.includes(v ?? '');
    case 'NotIn':
      return !has || !vs.includes(v ?? '');
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const n = Number(v);
      const bound = Number(vs[0]);
      if (!has || !Number.isInteger(n) || !Number.isInteger(bound)) return false;
      return r.operator === 'Gt' ? n > bound : n < bound;
    }
    default:
      return false;
  }
}

/** Nodes matching a NodeSelector (terms ORed, expressions ANDed), as a PV's nodeAffinity.required. */
export function nodesMatchingTerms(terms: readonly { matchExpressions?: Requirement[] }[], nodes: readonly Node[]): Node[] {
  return nodes.filter((n) => terms.some((t) => (t.matchExpressions ?? []).every((r) => meets(n.metadata?.labels ?? {}, r))));
}

/** `topology.kubernetes.io/zone=eu-west-1a` for each requirement of the terms, for quoting. */
export function termsText(terms: readonly { matchExpressions?: Requirement[] }[]): string {
  return terms.map((t) => (t.matchExpressions ?? []).map(requirementText).join(', ')).join(' or ');
}

export interface SelectorCheck {
  /** The pod's label requirements as written (`disktype=ssd`, `zone In (a, b)`). */
  requirements: string[];
  /** Requirements that no node satisfies on its own. */
  unmet: string[];
  /** Nodes that satisfy the nodeSelector and at least one required affinity term. */
  matching: string[];
}

/**
 * Compare the pod's nodeSelector and required node affinity with the nodes' labels.
 * `matchFields` are ignored for DaemonSet pods: the controller pins each pod to one node
 * with `metadata.name`, which is intended and not a labelling problem.
 */
export function selectorCheck(pod: Pod, nodes: readonly Node[], isDaemonSetPod: boolean): SelectorCheck | undefined {
  const selector: Requirement[] = Object.entries(pod.spec?.nodeSelector ?? {}).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  const terms = (pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []).map((t) => ({
    labels: (t.matchExpressions ?? []) as Requirement[],
    fields: isDaemonSetPod ? [] : ((t.matchFields ?? []) as Requirement[]),
  }));
  const userTerms = terms.filter((t) => t.labels.length + t.fields.length > 0);
  if (selector.length === 0 && userTerms.length === 0) return undefined;

  const labelsOf = (n: Node) => n.metadata?.labels ?? {};
  const fieldsOf = (n: Node) => ({ 'metadata.name': n.metadata?.name ?? '' });
  const termOk = (n: Node, t: (typeof userTerms)[number]) => t.labels.every((r) => meets(labelsOf(n), r)) && t.fields.every((r) => meets(fieldsOf(n), r));
  const nodeOk = (n: Node) => selector.every((r) => meets(labelsOf(n), r)) && (userTerms.length === 0 || userTerms.some((t) => termOk(n, t)));

  const all = [...selector, ...userTerms.flatMap((t) => [...t.labels, ...t.fields])];
  const unmet = all.filter((r) => !nodes.some((n) => meets(r.key === 'metadata.name' ? fieldsOf(n) : labelsOf(n), r))).map(requirementText);
  return {
    requirements: [...new Set(all.map(requirementText))],
    unmet: [...new Set(unmet)],
    matching: nodes.filter(nodeOk).map((n) => n.metadata?.name ?? '?'),
  };
}

export function isDaemonSetPod(pod: Pod | undefined): boolean {
  return (pod?.metadata?.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
}

/**
 * Reasons that only narrow the candidate nodes by design: a selector that some node does
 * match, a DaemonSet pod's pin to its node, control-plane taints. When other reasons are
 * present they explain the failure, so these do not compete for "dominant cause".
 */
export function narrowingKinds(snapshot: Snapshot, fit: FitError): Set<FitReasonKind> {
  const out = new Set<FitReasonKind>();
  const pod = snapshot.pod;
  if (!pod) return out;
  const nodes = snapshot.nodes;
  const ds = isDaemonSetPod(pod);
  if (kindCount(fit, 'selector') > 0) {
    const check = nodes ? selectorCheck(pod, nodes, ds) : undefined;
    if (check ? check.matching.length > 0 : ds) out.add('selector');
  }
  const taints = reasonsOf(fit, 'taint');
  if (taints.length > 0) {
    const named = taints.every((r) => r.taint !== undefined);
    const keys = named ? taints.map((r) => r.taint?.key ?? '') : (nodes ?? []).flatMap((n) => untoleratedTaints(pod, n).map((t) => t.key));
    if (keys.length > 0 && keys.every((k) => CONTROL_PLANE_TAINTS.includes(k))) out.add('taint');
  }
  return out;
}

/**
 * One FailedScheduling message can name several causes (1 taint + 2 Insufficient cpu): each
 * pending.* rule fires and all share one priority, so severity decides the order: the cause
 * that rules out the most nodes is `error`, the others `warning`, and reasons that merely
 * narrow the candidates (see narrowingKinds) `info`.
 */
export function rankSeverity(snapshot: Snapshot, fit: FitError, kind: FitReasonKind): Severity {
  const narrowing = narrowingKinds(snapshot, fit);
  const counted = fit.reasons.filter((r) => !narrowing.has(r.kind));
  if (counted.length === 0) return severityFor(fit, kind);
  if (narrowing.has(kind)) return 'info';
  return severityFor({ ...fit, reasons: counted }, kind);
}
