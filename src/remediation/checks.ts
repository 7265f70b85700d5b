// Typed checks against the live cluster: preconditions right before the first step, guard
// conditions when a plan is proposed, `expect` after the steps. Each answer carries the reason
// a human reads when a run is refused ("pod shop/web-1 was recreated: its UID is now …").
import type { FactSource } from '../collect/source.js';
import { formatDuration, ms, nodeCondition, nodeNotReady } from '../diagnosis/facts.js';
import type { Diagnosis, Namespace, Node, Pod, Target } from '../diagnosis/types.js';
import { type WorkloadRef, workloadOf } from './kube.js';
import { atRevision, readHistory } from './revisions.js';
import type { CheckKind, ParamValue } from './schema.js';

/** A check with its placeholders resolved (what a plan stores). */
export type ResolvedCheck = { check: CheckKind } & Record<string, unknown>;

export interface CheckResult {
  check: string;
  ok: boolean;
  /** Why it holds or not, in words. */
  reason: string;
}

/** Live reads for one evaluation, each fetched at most once. */
export class LiveState {
  private podP?: Promise<Pod | null>;
  private workloadP?: Promise<WorkloadRef | undefined>;
  private diagnosisP?: Promise<Diagnosis | null>;
  private readonly nodes = new Map<string, Promise<Node | null>>();
  private readonly namespaces = new Map<string, Promise<Namespace | null>>();

  constructor(
    readonly source: FactSource,
    readonly target: Target,
    private readonly diagnoseFn: () => Promise<Diagnosis>,
    readonly now: () => Date = () => new Date(),
  ) {}

  pod(): Promise<Pod | null> {
    const t = this.target;
    if (t.kind !== 'pod') return Promise.resolve(null);
    this.podP ??= this.source.getPod(t.namespace, t.name);
    return this.podP;
  }

  node(name: string): Promise<Node | null> {
    let p = this.nodes.get(name);
    if (!p) this.nodes.set(name, (p = this.source.getNode(name)));
    return p;
  }

  namespace(name: string): Promise<Namespace | null> {
    let p = this.namespaces.get(name);
    if (!p) this.namespaces.set(name, (p = this.source.getNamespace(name)));
    return p;
  }

  async workload(): Promise<WorkloadRef | undefined> {
    this.workloadP ??= this.pod().then((pod) => (pod ? workloadOf(this.source, pod) : undefined));
    return this.workloadP;
  }

  /** A fresh diagnosis of the target; null when the target is gone. */
  diagnosis(): Promise<Diagnosis | null> {
    this.diagnosisP ??= this.diagnoseFn().then(
      // A pod diagnosed through its owner is a pod that no longer exists.
      (d) => (d.missing ? null : d),
      (err: unknown) => {
        if ((err as { code?: string }).code === 'TARGET_NOT_FOUND') return null;
        throw err;
      },
    );
    return this.diagnosisP;
  }
}

function list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [];
}

function str(v: unknown): string {
  return Array.isArray(v) ? v.join(',') : String(v ?? '');
}

function podName(t: Target): string {
  return t.kind === 'pod' ? `${t.namespace}/${t.name}` : t.name;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
}

function readyText(node: Node): string {
  const ready = nodeCondition(node, 'Ready');
  return ready ? `Ready=${ready.status}${ready.lastTransitionTime ? ` since ${ready.lastTransitionTime}` : ''}` : 'no Ready condition';
}

interface CheckInput {
  c: Record<string, unknown> & { check: string };
  live: LiveState;
  params: Record<string, ParamValue>;
  /** The target as text: `ns/name` for a pod. */
  name: string;
}

/** Whether the check holds, and why, in words for the approval prompt and the run report. */
type Verdict = readonly [ok: boolean, reason: string];

/** For checks of the pod itself: a pod that is gone fails them. */
async function ofPod(x: CheckInput, judge: (pod: Pod) => Verdict | Promise<Verdict>): Promise<Verdict> {
  const pod = await x.live.pod();
  return pod ? judge(pod) : [false, `pod ${x.name} no longer exists`];
}

async function nodesVerdict({ c, live }: CheckInput): Promise<Verdict> {
  const names = list(c.node);
  if (names.length === 0) return [false, 'no node named'];
  const failures: string[] = [];
  const fine: string[] = [];
  for (const n of names) {
    const node = await live.node(n);
    if (c.check === 'node-exists') {
      (node ? fine : failures).push(node ? `node ${n} exists` : `node ${n} no longer exists`);
    } else if (c.check === 'node-cordoned') {
      (node?.spec?.unschedulable ? fine : failures).push(
        node ? `node ${n} is ${node.spec?.unschedulable ? '' : 'not '}cordoned` : `node ${n} no longer exists`,
      );
    } else if (!node) {
      // A deleted Node never comes back: its pods are garbage-collected, its kubelet cannot act.
      (c.check === 'node-not-ready' ? fine : failures).push(`node ${n} no longer exists`);
    } else {
      const notReady = nodeNotReady(node) || !nodeCondition(node, 'Ready');
      const ok = c.check === 'node-not-ready' ? notReady : !notReady;
      (ok ? fine : failures).push(`node ${n} is ${notReady ? 'NotReady' : 'Ready again'} (${readyText(node)})`);
    }
  }
  return failures.length > 0 ? [false, failures.join('; ')] : [true, fine.join('; ')];
}

async function ownerKindVerdict(x: CheckInput): Promise<Verdict> {
  return ofPod(x, async (pod) => {
    const kinds = new Set((pod.metadata?.ownerReferences ?? []).map((o) => o.kind));
    const workload = await x.live.workload();
    if (workload) kinds.add(workload.kind);
    const kind = str(x.c.kind);
    const has = kinds.has(kind);
    const owners = [...kinds].join(', ') || 'no owner';
    return [x.c.check === 'owner-kind-is' ? has : !has, `pod ${x.name} is ${has ? '' : 'not '}owned by a ${kind} (${owners})`];
  });
}

async function namespaceVerdict({ c, live }: CheckInput): Promise<Verdict> {
  const nsName = str(c.namespace);
  const ns = await live.namespace(nsName);
  if (c.check === 'namespace-gone') return ns ? [false, `namespace ${nsName} still exists`] : [true, `namespace ${nsName} is gone`];
  if (!ns) return [false, `namespace ${nsName} no longer exists`];
  const terminating = ns.status?.phase === 'Terminating' || Boolean(ns.metadata?.deletionTimestamp);
  return terminating
    ? [true, `namespace ${nsName} is still Terminating`]
    : [false, `namespace ${nsName} is not being deleted (phase ${ns.status?.phase ?? '?'})`];
}

async function replicasVerdict({ c, live }: CheckInput): Promise<Verdict> {
  const ns = str(c.namespace);
  const kind = str(c.kind);
  const wname = str(c.name);
  const want = Number(c.replicas);
  if (kind !== 'Deployment' && kind !== 'StatefulSet' && kind !== 'ReplicaSet') return [false, `cannot read replicas of a ${kind}`];
  const obj = await live.source.getOwner(ns, kind, wname);
  if (!obj) return [false, `${kind} ${ns}/${wname} no longer exists`];
  const replicas = typeof obj.spec?.replicas === 'number' ? obj.spec.replicas : 1;
  return [replicas === want, `${kind} ${ns}/${wname} has ${replicas} replica(s)${replicas === want ? '' : `, not ${want}`}`];
}

/** revision-exists, revision-is-newest, workload-at-revision: the workload's rollout history, read live. */
async function revisionVerdict({ c, live }: CheckInput): Promise<Verdict> {
  const ns = str(c.namespace);
  const kind = str(c.kind);
  const wname = str(c.name);
  const want = Number(c.revision);
  const history = await readHistory(live.source, ns, kind, wname);
  if (!history) return [false, `${kind} ${ns}/${wname} no longer exists`];
  const found = history.revisions.find((r) => r.revision === want);
  const newest = history.revisions.at(-1);
  const what = `${kind} ${ns}/${wname}`;
  if (c.check === 'revision-exists')
    return found ? [true, `${what} still has revision ${want} (${found.name})`] : [false, `${what} no longer has revision ${want} in its history`];
  if (c.check === 'revision-is-newest')
    return newest?.revision === want
      ? [true, `${what}'s newest revision is still ${want}`]
      : [false, `${what} was rolled out again since: its newest revision is ${newest?.revision ?? 'none'}, not ${want}`];
  const revisionName = str(c.revisionName);
  const named = history.revisions.find((r) => r.name === revisionName);
  if (!named) return [false, `${what} no longer has ${revisionName} in its history to compare with`];
  return atRevision(history.object, named)
    ? [true, `${what} runs the pod template of ${revisionName} (revision ${named.revision})`]
    : [false, `${what}'s pod template is not ${revisionName}'s`];
}

/** Every check a playbook may name (typed by the playbook schema, so none is missing). */
const CHECKS: Record<CheckKind, (x: CheckInput) => Promise<Verdict>> = {
  'pod-exists': async ({ live, name }) => {
    const pod = await live.pod();
    return [pod !== null, pod ? `pod ${name} exists` : `pod ${name} no longer exists`];
  },
  'pod-gone': async ({ live, name, params }) => {
    const pod = await live.pod();
    const planUid = typeof params.uid === 'string' ? params.uid : undefined;
    if (!pod) return [true, `pod ${name} is gone`];
    if (planUid && pod.metadata?.uid !== planUid)
      return [true, `pod ${name} (uid ${planUid}) is gone; a new pod of that name has uid ${pod.metadata?.uid ?? '?'}`];
    return [false, `pod ${name} still exists${pod.metadata?.deletionTimestamp ? ' (Terminating)' : ''}`];
  },
  'pod-uid-is': (x) =>
    ofPod(x, (pod) => {
      const want = str(x.c.uid);
      const uid = pod.metadata?.uid ?? '';
      return uid === want
        ? [true, `pod ${x.name} is still uid ${want}`]
        : [false, `pod ${x.name} was recreated: its UID is now ${uid}, the plan was made for ${want}`];
    }),
  'pod-still-terminating': (x) =>
    ofPod(x, (pod) => {
      const deletion = ms(pod.metadata?.deletionTimestamp);
      if (deletion === undefined) return [false, `pod ${x.name} is not being deleted (no deletionTimestamp)`];
      const overdue = (x.live.now().getTime() - deletion) / 1000;
      const min = typeof x.c.minOverdueSeconds === 'number' ? x.c.minOverdueSeconds : 30;
      return overdue >= min
        ? [true, `pod ${x.name} is still Terminating, ${formatDuration(overdue)} past its grace period`]
        : [false, `pod ${x.name} is within its grace period (${formatDuration(Math.max(0, -overdue))} left): not stuck`];
    }),
  'pod-not-terminating': (x) =>
    ofPod(x, (pod) => (pod.metadata?.deletionTimestamp ? [false, `pod ${x.name} is already being deleted`] : [true, `pod ${x.name} is not being deleted`])),
  'pod-has-controller': (x) =>
    ofPod(x, (pod) => {
      const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller);
      return owner
        ? [true, `pod ${x.name} is managed by ${owner.kind} ${owner.name}`]
        : [false, `pod ${x.name} has no controller: deleting it would not bring it back`];
    }),
  'pod-on-node': (x) =>
    ofPod(x, (pod) => {
      const want = str(x.c.node);
      return pod.spec?.nodeName === want
        ? [true, `pod ${x.name} is on ${want}`]
        : [false, `pod ${x.name} is now on ${pod.spec?.nodeName ?? 'no node'}, not ${want}`];
    }),
  'node-not-ready': nodesVerdict,
  'node-ready': nodesVerdict,
  'node-exists': nodesVerdict,
  'node-cordoned': nodesVerdict,
  'finding-present': async ({ c, live }) => {
    const rule = str(c.rule);
    const d = await live.diagnosis();
    if (!d) return [false, `the target no longer exists, so ${rule} no longer applies`];
    const hit = d.findings.some((f) => f.rule === rule || f.merged.includes(rule));
    return hit
      ? [true, `a new diagnosis still reports ${rule}`]
      : [false, `a new diagnosis no longer reports ${rule}: ${d.findings.map((f) => f.rule).join(', ') || 'no findings'}`];
  },
  'owner-kind-is': ownerKindVerdict,
  'owner-kind-is-not': ownerKindVerdict,
  'has-finalizers': (x) =>
    ofPod(x, (pod) => {
      const now = pod.metadata?.finalizers ?? [];
      if (now.length === 0) return [false, `pod ${x.name} has no finalizers any more`];
      const want = x.c.finalizers === undefined ? undefined : list(x.c.finalizers);
      if (want && !sameSet(now, want)) return [false, `pod ${x.name}'s finalizers are now [${now.join(', ')}], not the approved [${want.join(', ')}]`];
      return [true, `pod ${x.name} still has finalizers [${now.join(', ')}]`];
    }),
  'namespace-terminating': namespaceVerdict,
  'namespace-gone': namespaceVerdict,
  'workload-replicas': replicasVerdict,
  'revision-exists': revisionVerdict,
  'revision-is-newest': revisionVerdict,
  'workload-at-revision': revisionVerdict,
  'param-is': async ({ c, params }) => {
    const p = str(c.param);
    const value = params[p];
    return [value === c.equals, `${p} is ${JSON.stringify(value)}`];
  },
};

/** Evaluate one resolved check. `params` are the plan's resolved parameters. */
export async function evaluateCheck(check: ResolvedCheck, live: LiveState, params: Record<string, ParamValue>): Promise<CheckResult> {
  const c = check as Record<string, unknown> & { check: string };
  const judge = Object.hasOwn(CHECKS, c.check) ? CHECKS[c.check as CheckKind] : undefined;
  const [ok, reason] = judge ? await judge({ c, live, params, name: podName(live.target) }) : [false, `unknown check ${c.check}`];
  return { check: c.check, ok, reason };
}

/** Evaluate in order; stops at the first check that does not hold (later ones may depend on it). */
export async function evaluateAll(
  checks: readonly ResolvedCheck[],
  live: LiveState,
  params: Record<string, ParamValue>,
): Promise<{ ok: boolean; results: CheckResult[]; failed?: CheckResult }> {
  const results: CheckResult[] = [];
  for (const c of checks) {
    const r = await evaluateCheck(c, live, params);
    results.push(r);
    if (!r.ok) return { ok: false, results, failed: r };
  }
  return { ok: true, results };
}
