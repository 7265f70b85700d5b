// What "what changed" reads for a pod in trouble: its workload's rollout history (the ReplicaSets
// of a Deployment, the ControllerRevisions of a StatefulSet or DaemonSet, owned by that workload)
// and the metadata of the ConfigMaps and Secrets it uses. Metadata only: the managedFields say who
// edited a ConfigMap or Secret and when; a Secret's data is never asked for. Also the namespace's
// HorizontalPodAutoscalers that target the pod's workload, and the NetworkPolicies and
// PodDisruptionBudgets that select the pod (created or edited when, by whom).
import type { HistoryFact, KubeObject, OwnerFact } from '../diagnosis/types.js';
import { formatSelector, type LabelSelectorObject, matchLabels, requirementsFromSelector } from '../kube/selectors.js';
import type { Guard } from './guard.js';
import { type FactSource, UnanswerableError } from './source.js';

/** Revisions kept at most (Deployments keep 10 old ReplicaSets by default). */
const MAX_REVISIONS = 12;
/** ConfigMaps and Secrets read at most for one pod. */
const MAX_CONFIGS = 16;

const HISTORY_KINDS = { Deployment: 'ReplicaSet', StatefulSet: 'ControllerRevision', DaemonSet: 'ControllerRevision' } as const;
export type WorkloadKind = keyof typeof HISTORY_KINDS;

export interface HistoryScope {
  source: FactSource;
  namespace: string;
  owners: readonly OwnerFact[] | undefined;
  configMaps: readonly string[];
  /** Only with the opt-in Secret permission (POD_DOCTOR_CHECK_SECRETS). */
  secrets: readonly string[];
  /** The pod's ServiceAccount: the RoleBindings of the namespace that name it. */
  serviceAccount: string;
  /** The pod's labels: which NetworkPolicies and PodDisruptionBudgets select it. */
  podLabels: Record<string, string>;
  guard: Guard;
}

export async function collectHistory(s: HistoryScope): Promise<HistoryFact> {
  const configs = [...s.configMaps.map((n) => ['ConfigMap', n] as const), ...s.secrets.map((n) => ['Secret', n] as const)].slice(0, MAX_CONFIGS);
  const [workload, metadata, bindings, autoscalers, policies, budgets] = await Promise.all([
    collectWorkload(s),
    Promise.all(configs.map(([kind, name]) => s.guard(`${kind} ${name} (metadata only)`, () => s.source.configMetadata(s.namespace, kind, name), null))),
    // The same read as the access collector's (src/collect/access.ts): shared within a diagnosis.
    s.guard<KubeObject[]>(`rolebindings in ${s.namespace}`, () => quietWhenUnsaved(s.source.listRoleBindings(s.namespace)), []),
    s.guard<KubeObject[]>(`horizontalpodautoscalers in ${s.namespace}`, () => s.source.listAutoscalers(s.namespace), []),
    s.guard<KubeObject[]>(`networkpolicies in ${s.namespace}`, () => s.source.listNetworkPolicies(s.namespace), []),
    s.guard<KubeObject[]>(`poddisruptionbudgets in ${s.namespace}`, () => s.source.listDisruptionBudgets(s.namespace), []),
  ]);
  // An HPA scales the pod's workload when its target is one of the pod's owners (Deployment, StatefulSet, ReplicaSet).
  const targets = new Set((s.owners ?? []).map((o) => `${o.kind}/${o.name}`));
  const scalers = autoscalers.filter((h) => {
    const ref = (h.spec as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)?.scaleTargetRef;
    return ref !== undefined && targets.has(`${ref.kind}/${ref.name}`);
  });
  // A NetworkPolicy's empty podSelector selects every pod of the namespace; a budget without a selector selects none.
  const selecting = policies.filter((p) => selects((p.spec as { podSelector?: LabelSelectorObject } | undefined)?.podSelector ?? {}, s.podLabels));
  const guarding = budgets.filter((b) => {
    const selector = (b.spec as { selector?: LabelSelectorObject } | undefined)?.selector;
    return selector !== undefined && selects(selector, s.podLabels);
  });
  const mine = bindings.filter((b) =>
    ((b.subjects ?? []) as { kind?: string; name?: string; namespace?: string }[]).some(
      (x) => x.kind === 'ServiceAccount' && x.name === s.serviceAccount && (x.namespace ?? s.namespace) === s.namespace,
    ),
  );
  return {
    ...(workload ? { workload } : {}),
    configs: metadata.filter((o): o is KubeObject => o !== null),
    ...(mine.length > 0 ? { bindings: mine.map((b) => ({ ...b, kind: 'RoleBinding' })) } : {}),
    ...(scalers.length > 0 ? { autoscalers: scalers.map((h) => ({ ...h, kind: 'HorizontalPodAutoscaler' })) } : {}),
    ...(selecting.length > 0 ? { networkPolicies: selecting.map((p) => ({ ...p, kind: 'NetworkPolicy' })) } : {}),
    ...(guarding.length > 0 ? { disruptionBudgets: guarding.map((b) => ({ ...b, kind: 'PodDisruptionBudget' })) } : {}),
  };
}

function selects(selector: LabelSelectorObject, labels: Record<string, string>): boolean {
  return matchLabels(requirementsFromSelector(selector), labels);
}

/**
 * Saved objects without any RBAC binding say nothing about them; for "what changed" (supplementary,
 * unlike the access check) that is no check that failed, so no gap.
 */
async function quietWhenUnsaved(read: Promise<KubeObject[]>): Promise<KubeObject[]> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof UnanswerableError) return [];
    throw err;
  }
}

async function collectWorkload(s: HistoryScope): Promise<HistoryFact['workload']> {
  const owner = s.owners?.find((o) => o.kind in HISTORY_KINDS && o.object);
  if (!owner?.object) return undefined;
  const kind = owner.kind as WorkloadKind;
  const object = owner.object;
  const revisions = await s.guard(`rollout history of ${kind} ${owner.name}`, () => workloadRevisions(s.source, s.namespace, kind, object), [] as KubeObject[]);
  return { kind, name: owner.name, object, revisions };
}

export function isHistoryKind(kind: string): kind is WorkloadKind {
  return Object.hasOwn(HISTORY_KINDS, kind);
}

/**
 * The revisions a workload controls (its ReplicaSets or ControllerRevisions, by its selector and
 * owner reference), oldest first, at most {@link MAX_REVISIONS}. Read by the collector and by the
 * rollback playbook's checks and step.
 */
export async function workloadRevisions(
  source: Pick<FactSource, 'listRevisions'>,
  namespace: string,
  kind: WorkloadKind,
  object: KubeObject,
): Promise<KubeObject[]> {
  const selector = formatSelector((object.spec as { selector?: LabelSelectorObject } | undefined)?.selector);
  if (!selector) return [];
  const all = await source.listRevisions(namespace, HISTORY_KINDS[kind], selector);
  const uid = object.metadata?.uid;
  const name = object.metadata?.name;
  // The selector may match another workload's history: keep what this one controls.
  const mine = all.filter((o) =>
    (o.metadata?.ownerReferences ?? []).some((r) => r.controller && r.kind === kind && (uid && r.uid ? r.uid === uid : r.name === name)),
  );
  const number = (o: KubeObject) => Number(o.kind === 'ReplicaSet' ? o.metadata?.annotations?.['deployment.kubernetes.io/revision'] : o.revision) || 0;
  return mine.sort((a, b) => number(a) - number(b)).slice(-MAX_REVISIONS);
}
