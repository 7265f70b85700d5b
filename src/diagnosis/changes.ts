// What changed before a failure: the rollouts of the pod's workload (from its ReplicaSets or
// ControllerRevisions), edits of the ConfigMaps and Secrets it uses (their managedFields, read as
// metadata only) and what happened to its node (reboots, kubelet restarts, taints, readiness);
// scale changes of the HPA of its workload, and NetworkPolicies and PodDisruptionBudgets selecting
// it that were created or edited. Pure: it reads the snapshot's history fact and the node, and says
// which change the failure followed closely enough to be blamed on it (never an HPA or a budget; a
// NetworkPolicy only when the pod fails to connect or its probes fail).
import { eventTime, formatDuration, ms } from './facts.js';
import { type Change, type Container, type Event, type Finding, type HistoryFact, type KubeObject, type Pod, SEVERITY_ORDER, type Snapshot } from './types.js';

/** A failure that began within this long after a change is blamed on it ("began 40 s after revision 2"). */
export const BLAME_SECONDS = 15 * 60;

/** Container waiting reasons that mean the pod is failing now. */
const FAILING_WAITING = new Set([
  'CrashLoopBackOff',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'StartError',
]);

type ManagedField = { manager?: string; operation?: string; time?: string; subresource?: string; fieldsV1?: unknown };

/** One revision of the pod's workload, with its pod template. */
export interface Revision {
  revision: number;
  name: string;
  at: string;
  template: { spec?: { containers?: Container[]; initContainers?: Container[] } } | undefined;
  /** The pod template hash its pods carry (`pod-template-hash` or `controller-revision-hash`). */
  hash: string | undefined;
}

/** A rollout the failure followed: the revision, the one before it, what changed and who changed it. */
export interface BlamedRollout {
  kind: string;
  name: string;
  revision: Revision;
  previous: Revision;
  change: Change;
  /** Seconds from the rollout to the failure's start. */
  after: number;
}

/**
 * When the pod's failure began (ms since the epoch): the earliest Warning event of the pod and the
 * earliest failed run its containers report; undefined when the pod is not failing now.
 */
export function failureBegan(snapshot: Snapshot): number | undefined {
  const pod = snapshot.pod;
  if (!pod || !isFailing(pod)) return undefined;
  const times: number[] = [];
  for (const e of snapshot.events) {
    if (e.type !== 'Warning') continue;
    const t = ms(e.firstTimestamp ?? e.eventTime ?? eventTime(e));
    if (t !== undefined) times.push(t);
  }
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    for (const term of [s.state?.terminated, s.lastState?.terminated]) {
      const t = term && term.exitCode !== 0 ? ms(term.finishedAt) : undefined;
      if (t !== undefined) times.push(t);
    }
  }
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** Pod-level endings that are the node's or the scheduler's doing, not the pod's own template. */
const NOT_THE_POD = new Set(['Evicted', 'Preempting', 'NodeLost', 'Shutdown', 'Terminated', 'NodeShutdown', 'OutOfmemory', 'OutOfcpu']);

function isFailing(pod: Pod): boolean {
  if (NOT_THE_POD.has(pod.status?.reason ?? '')) return false;
  if (pod.status?.phase === 'Failed') return true;
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].some(
    (s) =>
      FAILING_WAITING.has(s.state?.waiting?.reason ?? '') ||
      (s.state?.terminated !== undefined && s.state.terminated.exitCode !== 0) ||
      (s.ready === false && (s.restartCount ?? 0) > 0 && s.lastState?.terminated !== undefined && s.lastState.terminated.exitCode !== 0),
  );
}

/** The workload's revisions, oldest first. */
export function revisions(history: HistoryFact | undefined): Revision[] {
  const w = history?.workload;
  if (!w) return [];
  const out: Revision[] = [];
  for (const o of w.revisions) {
    const replicaSet = o.kind === 'ReplicaSet';
    const number = Number(replicaSet ? o.metadata?.annotations?.['deployment.kubernetes.io/revision'] : o.revision);
    const at = o.metadata?.creationTimestamp;
    if (!Number.isFinite(number) || !at) continue;
    const template = replicaSet
      ? (o.spec?.template as Revision['template'])
      : ((o.data as { spec?: { template?: Revision['template'] } } | undefined)?.spec?.template ?? undefined);
    const name = o.metadata?.name ?? '';
    const hash = replicaSet ? o.metadata?.labels?.['pod-template-hash'] : (o.metadata?.labels?.['controller.kubernetes.io/hash'] ?? name);
    out.push({ revision: number, name, at, template, hash });
  }
  return out.sort((a, b) => a.revision - b.revision);
}

/** The revision the pod runs: its ReplicaSet, or its `controller-revision-hash`. */
export function podRevision(pod: Pod | undefined, revs: readonly Revision[]): Revision | undefined {
  const owner = pod?.metadata?.ownerReferences?.find((r) => r.controller)?.name;
  const hash = pod?.metadata?.labels?.['pod-template-hash'];
  const crHash = pod?.metadata?.labels?.['controller-revision-hash'];
  return revs.find(
    (r) =>
      (owner !== undefined && r.name === owner) ||
      (hash !== undefined && r.hash === hash) ||
      (crHash !== undefined && (r.name === crHash || r.name.endsWith(`-${crHash}`))),
  );
}

/**
 * Who made the workload change that created a revision: the manager whose spec update is the last
 * one at or just before the revision appeared (managedFields keep each manager's latest time only,
 * so an older revision's author may be unknown).
 */
export function rolledOutBy(workload: KubeObject | undefined, at: string): string | undefined {
  const t = ms(at);
  if (t === undefined) return undefined;
  const entries = ((workload?.metadata?.managedFields ?? []) as ManagedField[]).filter((e) => {
    const et = ms(e.time);
    const spec = typeof e.fieldsV1 === 'object' && e.fieldsV1 !== null && 'f:spec' in e.fieldsV1;
    return !e.subresource && spec && et !== undefined && et <= t + 5_000 && et >= t - 120_000;
  });
  entries.sort((a, b) => (ms(b.time) ?? 0) - (ms(a.time) ?? 0));
  return entries[0]?.manager;
}

/** `web 2.3.1 → 2.4.0`, or the whole references when the repository changed. */
function imageChange(container: string, from: string, to: string): string {
  const split = (ref: string) => {
    const at = ref.indexOf('@');
    const base = at >= 0 ? ref.slice(0, at) : ref;
    const colon = base.lastIndexOf(':');
    const repo = colon > base.lastIndexOf('/') ? base.slice(0, colon) : base;
    const tag = at >= 0 ? ref.slice(at + 1, at + 20) : colon > base.lastIndexOf('/') ? base.slice(colon + 1) : 'latest';
    return { repo, tag };
  };
  const a = split(from);
  const b = split(to);
  return a.repo === b.repo ? `image ${container} ${a.tag} → ${b.tag}` : `image ${container} ${from} → ${to}`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Env names only: a plain value may hold a credential, a secret-backed one is named as such. */
function envChanges(name: string, from: Container['env'], to: Container['env']): string[] {
  const before = new Map((from ?? []).map((e) => [e.name, e]));
  const after = new Map((to ?? []).map((e) => [e.name, e]));
  const secret = (e: NonNullable<Container['env']>[number] | undefined) => (e?.valueFrom?.secretKeyRef ? ' (from a Secret)' : '');
  const out: string[] = [];
  for (const [k, e] of after) {
    const old = before.get(k);
    if (!old) out.push(`env ${k}${secret(e)} added to ${name}`);
    else if (!same(old, e)) out.push(`env ${k}${secret(e) || secret(old)} of ${name} changed`);
  }
  for (const [k, e] of before) if (!after.has(k)) out.push(`env ${k}${secret(e)} removed from ${name}`);
  return out;
}

function resourceChanges(name: string, from: Container['resources'], to: Container['resources']): string[] {
  const out: string[] = [];
  for (const kind of ['requests', 'limits'] as const) {
    const a = from?.[kind] ?? {};
    const b = to?.[kind] ?? {};
    for (const r of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (a[r] === b[r]) continue;
      out.push(`${r} ${kind === 'requests' ? 'request' : 'limit'} of ${name} ${a[r] ?? 'none'} → ${b[r] ?? 'none'}`);
    }
  }
  return out;
}

/** What a rollout changed in the pod template: images, commands, env names, resources, probes. */
export function templateDiff(from: Revision['template'], to: Revision['template']): string[] {
  const out: string[] = [];
  const lists = [['initContainers', 'init container '] as const, ['containers', ''] as const];
  for (const [list, prefix] of lists) {
    const before = new Map((from?.spec?.[list] ?? []).map((c) => [c.name, c]));
    for (const c of to?.spec?.[list] ?? []) {
      const old = before.get(c.name);
      const name = `${prefix}${c.name}`;
      if (!old) {
        out.push(`${name} added`);
        continue;
      }
      if (old.image && c.image && old.image !== c.image) out.push(imageChange(name, old.image, c.image));
      if (!same(old.command, c.command) || !same(old.args, c.args)) out.push(`command of ${name}`);
      out.push(...envChanges(name, old.env, c.env));
      if (!same(old.envFrom, c.envFrom)) out.push(`envFrom of ${name}`);
      out.push(...resourceChanges(name, old.resources, c.resources));
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) if (!same(old[probe], c[probe])) out.push(`${probe} of ${name}`);
    }
    for (const name of before.keys()) if (!(to?.spec?.[list] ?? []).some((c) => c.name === name)) out.push(`${prefix}${name} removed`);
  }
  return out;
}

/** The rollouts in the history, each with what it changed against the revision before it. */
function rolloutChanges(snapshot: Snapshot): Change[] {
  const w = snapshot.history?.workload;
  const revs = revisions(snapshot.history);
  if (!w) return [];
  return revs.map((r, i) => {
    const prev = revs[i - 1];
    const diff = prev ? templateDiff(prev.template, r.template) : [];
    const by = rolledOutBy(w.object, r.at);
    const what = prev ? (diff.length > 0 ? diff.join(', ') : 'pod template changed') : 'first revision';
    return { at: r.at, kind: 'rollout', object: `${w.kind} ${w.name}`, text: `revision ${r.revision}: ${what}`, revision: r.revision, ...(by ? { by } : {}) };
  });
}

/**
 * When an object was last created or edited, by whom: the latest managedFields time (status
 * updates left out: a budget's status changes with every pod) when later than its creation, or
 * its creation (a replaced object).
 */
function lastEdit(o: KubeObject): { at: string; text: 'created' | 'edited'; by?: string } | undefined {
  const created = ms(o.metadata?.creationTimestamp);
  // Before 1.22 a status update carries no `subresource`: its fields (status only) tell it.
  const statusOnly = (e: ManagedField) =>
    typeof e.fieldsV1 === 'object' && e.fieldsV1 !== null && Object.keys(e.fieldsV1).length > 0 && Object.keys(e.fieldsV1).every((k) => k === 'f:status');
  const entries = ((o.metadata?.managedFields ?? []) as ManagedField[]).filter((e) => !e.subresource && !statusOnly(e));
  const latest = entries.filter((e) => ms(e.time) !== undefined).sort((a, b) => (ms(b.time) ?? 0) - (ms(a.time) ?? 0))[0];
  const by = latest?.manager ? { by: latest.manager } : {};
  const t = ms(latest?.time);
  if (latest?.time && t !== undefined && (created === undefined || t > created + 1_000)) return { at: latest.time, text: 'edited', ...by };
  if (o.metadata?.creationTimestamp) return { at: o.metadata.creationTimestamp, text: 'created', ...by };
  return undefined;
}

/** Edits of the config the pod uses and of the RoleBindings of its ServiceAccount. */
function configChanges(history: HistoryFact | undefined): Change[] {
  const out: Change[] = [];
  for (const o of [...(history?.configs ?? []), ...(history?.bindings ?? [])]) {
    const edit = lastEdit(o);
    if (!edit) continue;
    const kind = o.kind === 'RoleBinding' ? ('access' as const) : ('config' as const);
    const role = (o.roleRef as { kind?: string; name?: string } | undefined)?.name;
    const object = `${o.kind} ${o.metadata?.name ?? ''}${o.kind === 'RoleBinding' && role ? ` (of the pod's ServiceAccount, role ${role})` : ''}`;
    out.push({ kind, object, ...edit });
  }
  return out;
}

/**
 * The NetworkPolicies and PodDisruptionBudgets selecting the pod that were created or edited; the
 * NetworkPolicies that restrict the pod's egress (what its own connections go through) go to `egress`.
 */
function policyChanges(history: HistoryFact | undefined, egress: Set<Change>): Change[] {
  const out: Change[] = [];
  for (const o of history?.networkPolicies ?? []) {
    const edit = lastEdit(o);
    if (!edit) continue;
    const spec = (o.spec ?? {}) as { policyTypes?: string[]; egress?: unknown };
    // Without policyTypes a policy is Ingress, and Egress too when it has egress rules.
    const types = spec.policyTypes ?? ['Ingress', ...(spec.egress !== undefined ? ['Egress'] : [])];
    const change: Change = { kind: 'policy', object: `NetworkPolicy ${o.metadata?.name ?? ''} (selects the pod; ${types.join(', ')})`, ...edit };
    if (types.includes('Egress')) egress.add(change);
    out.push(change);
  }
  for (const o of history?.disruptionBudgets ?? []) {
    const edit = lastEdit(o);
    const spec = (o.spec ?? {}) as { minAvailable?: number | string; maxUnavailable?: number | string };
    const limit =
      spec.maxUnavailable !== undefined
        ? `; maxUnavailable ${spec.maxUnavailable}`
        : spec.minAvailable !== undefined
          ? `; minAvailable ${spec.minAvailable}`
          : '';
    if (edit) out.push({ kind: 'policy', object: `PodDisruptionBudget ${o.metadata?.name ?? ''} (selects the pod${limit})`, ...edit });
  }
  return out;
}

/** The HPA of the pod's workload: its last scale (status.lastScaleTime) and edits of its spec. */
function scalingChanges(history: HistoryFact | undefined): Change[] {
  const out: Change[] = [];
  for (const h of history?.autoscalers ?? []) {
    const spec = (h.spec ?? {}) as { scaleTargetRef?: { kind?: string; name?: string }; minReplicas?: number; maxReplicas?: number };
    const status = (h.status ?? {}) as { lastScaleTime?: string; currentReplicas?: number; desiredReplicas?: number };
    const object = `HorizontalPodAutoscaler ${h.metadata?.name ?? ''}`;
    const bounds = `min ${spec.minReplicas ?? 1}, max ${spec.maxReplicas ?? '?'}`;
    if (status.lastScaleTime) {
      const target = spec.scaleTargetRef ? `${spec.scaleTargetRef.kind} ${spec.scaleTargetRef.name}` : 'its target';
      const atMax = status.desiredReplicas !== undefined && status.desiredReplicas === spec.maxReplicas ? ', at its maximum' : '';
      const current = status.currentReplicas !== undefined ? `, ${status.currentReplicas} running now` : '';
      out.push({
        at: status.lastScaleTime,
        kind: 'scaling',
        object,
        text: `scaled ${target} to ${status.desiredReplicas ?? '?'} replicas (${bounds}${atMax}${current})`,
      });
    }
    const edit = lastEdit(h);
    if (edit) out.push({ kind: 'scaling', object, ...edit, text: `${edit.text} (${bounds})` });
  }
  return out;
}

/** Lines that say a connection failed: what a NetworkPolicy dropping the pod's traffic looks like. */
const CONNECTION_FAILURE = new RegExp(
  [
    'connection refused',
    'connection reset',
    'connection timed out',
    'i/o timeout',
    'no route to host',
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'dial tcp',
    'could not connect',
    'unable to connect',
    "can't connect",
    'context deadline exceeded',
  ].join('|'),
  'i',
);

/**
 * When the pod began to fail to connect (ms since the epoch): its first probe failure or warning
 * naming a failed connection, or the failure's start when its log names one; undefined otherwise.
 */
export function connectionTroubleBegan(snapshot: Snapshot): number | undefined {
  const times: number[] = [];
  for (const e of snapshot.events) {
    if (e.type !== 'Warning') continue;
    if (e.reason !== 'Unhealthy' && !CONNECTION_FAILURE.test(e.message ?? '')) continue;
    const t = ms(e.firstTimestamp ?? e.eventTime ?? eventTime(e));
    if (t !== undefined) times.push(t);
  }
  const began = failureBegan(snapshot);
  if (began !== undefined && (snapshot.logs ?? []).some((l) => l.lines.some((line) => CONNECTION_FAILURE.test(line)))) times.push(began);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** The node: reboots and kubelet starts (its events), NoExecute taints and readiness transitions. */
function nodeChanges(snapshot: Snapshot): Change[] {
  const node = snapshot.node;
  if (!node) return [];
  const object = `node ${node.metadata?.name ?? ''}`;
  const info = node.status?.nodeInfo;
  const out: Change[] = [];
  const at = (e: Event) => e.firstTimestamp ?? e.eventTime ?? eventTime(e);
  for (const e of snapshot.nodeEvents ?? []) {
    const when = at(e);
    if (!when) continue;
    if (e.reason === 'Rebooted') {
      const boot = /boot id: (\S+)/.exec(e.message ?? '')?.[1];
      out.push({ at: when, kind: 'node', object, text: boot ? `rebooted (boot ID ${boot})` : 'rebooted' });
    } else if (e.reason === 'Starting' && /kubelet/i.test(e.message ?? '')) {
      const versions = info ? ` (now kubelet ${info.kubeletVersion}, ${info.containerRuntimeVersion})` : '';
      out.push({ at: when, kind: 'node', object, text: `kubelet started${versions}` });
    }
  }
  for (const t of node.spec?.taints ?? []) {
    if (t.timeAdded) out.push({ at: t.timeAdded, kind: 'node', object, text: `taint ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} added` });
  }
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.lastTransitionTime) {
    out.push({ at: ready.lastTransitionTime, kind: 'node', object, text: `Ready became ${ready.status}${ready.reason ? ` (${ready.reason})` : ''}` });
  }
  return out;
}

/**
 * The changes in the window before the failure began (before now for a pod that is not failing),
 * and those since, oldest first; a change the failure began at most {@link BLAME_SECONDS} after
 * carries `explains` (a rollout only when the pod runs that revision; a NetworkPolicy restricting the
 * pod's egress only when its connections or probes began to fail after it; an HPA's scale or a
 * budget never).
 */
export function whatChanged(snapshot: Snapshot, windowSeconds: number): Change[] {
  if (!snapshot.history && !snapshot.node) return [];
  const now = ms(snapshot.now) ?? 0;
  const began = failureBegan(snapshot);
  const from = (began ?? now) - windowSeconds * 1000;
  const revs = revisions(snapshot.history);
  const mine = podRevision(snapshot.pod, revs);
  const egress = new Set<Change>();
  const all = [
    ...rolloutChanges(snapshot),
    ...configChanges(snapshot.history),
    ...scalingChanges(snapshot.history),
    ...policyChanges(snapshot.history, egress),
    ...(snapshot.history ? nodeChanges(snapshot) : []),
  ];
  const connecting = egress.size > 0 ? connectionTroubleBegan(snapshot) : undefined;
  const inWindow = all.filter((c) => {
    const t = ms(c.at);
    return t !== undefined && t >= from && t <= now;
  });
  for (const c of inWindow) {
    const t = ms(c.at)!;
    // A scale change or a budget is listed, never blamed; a NetworkPolicy restricting the pod's
    // egress explains failed connections or probes only (kubelet probes pass an ingress policy).
    if (c.kind === 'scaling') continue;
    if (c.kind === 'policy') {
      if (egress.has(c) && connecting !== undefined && connecting >= t && connecting - t <= BLAME_SECONDS * 1000) {
        c.explains = Math.round((connecting - t) / 1000);
      }
      continue;
    }
    if (began === undefined || began < t || began - t > BLAME_SECONDS * 1000) continue;
    // A rollout explains the failure of a pod of that revision only.
    if (c.kind === 'rollout' && (mine === undefined || c.revision !== mine.revision)) continue;
    c.explains = Math.round((began - t) / 1000);
  }
  return inWindow.sort((a, b) => (ms(a.at) ?? 0) - (ms(b.at) ?? 0));
}

/** The rollout the pod's failure followed, with the revision before it to roll back to. */
export function blamedRollout(snapshot: Snapshot, windowSeconds: number): BlamedRollout | undefined {
  const w = snapshot.history?.workload;
  if (!w) return undefined;
  const change = whatChanged(snapshot, windowSeconds).find((c) => c.kind === 'rollout' && c.explains !== undefined);
  if (!change || change.explains === undefined) return undefined;
  const revs = revisions(snapshot.history);
  const index = revs.findIndex((r) => r.revision === change.revision);
  const revision = revs[index];
  const previous = revs[index - 1];
  // Only the newest revision is rolled back: an older one was already replaced.
  if (!revision || !previous || index !== revs.length - 1) return undefined;
  return { kind: w.kind, name: w.name, revision, previous, change, after: change.explains };
}

/** `began 40s after revision 2 of Deployment web (image web 2.3.1 → 2.4.0), by argocd-controller`. */
export function describeBlame(c: Change): string {
  const after = formatDuration(c.explains ?? 0);
  const by = c.by ? `, by ${c.by}` : '';
  if (c.kind === 'rollout') {
    const what = c.text.replace(/^revision \d+: /, '');
    return `began ${after} after revision ${c.revision} of ${c.object} (${what})${by}`;
  }
  if (c.kind === 'config' || c.kind === 'access' || c.kind === 'policy') return `began ${after} after ${c.object} was ${c.text}${by}`;
  return `began ${after} after ${c.object}: ${c.text}${by}`;
}

/**
 * A change as one line of the answer's "What changed":
 * `10:54:00 UTC Deployment web revision 2: image web 2.3.1 → 2.4.0 (by argocd-controller); the failure began 40s later`.
 */
export function describeChange(c: Change): string {
  const later = c.explains !== undefined ? `; the failure began ${formatDuration(c.explains)} later` : '';
  return `${c.at.slice(11, 19)} UTC ${c.object} ${c.text}${c.by ? ` (by ${c.by})` : ''}${later}`;
}

/**
 * The changes that explain the failure, as evidence on the finding they explain: the first finding
 * about the pod itself of severity warning or worse (the rollout's own finding already says so).
 */
export function attachChangeEvidence(findings: Finding[], changes: readonly Change[], podSubject: string): void {
  const blamed = changes.filter((c) => c.explains !== undefined);
  if (blamed.length === 0) return;
  const f = findings.find((x) => x.subject === podSubject && SEVERITY_ORDER[x.severity] >= SEVERITY_ORDER.warning && x.rule !== ROLLOUT_RULE);
  if (!f) return;
  f.evidence = [...f.evidence, ...blamed.map((c) => ({ source: `what changed: ${c.object}`, text: describeBlame(c) }))];
}

/** The rule that names a blamed rollout and offers the rollback (src/diagnosis/rules/rollout-regression.ts). */
export const ROLLOUT_RULE = 'rollout.regression';
