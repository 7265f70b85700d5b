// admission.rejected: Pods cannot be created: rejected at admission.

import { clip, formatDuration, isFinished, namespaceOf } from '../facts.js';
import { msg } from '../messages.js';
import { ownerRefusals, type Refusal } from '../owners.js';
import { defineRule } from '../rule.js';
import type { FindingDraft, Said, Snapshot } from '../types.js';

type Policy = 'quota' | 'limitrange' | 'podsecurity' | 'psp' | 'webhook' | 'serviceaccount' | 'priorityclass';

interface Rejection {
  policy: Policy;
  /** Quota name, PodSecurity level, webhook name, LimitRange resource. */
  name: string;
  detail: string;
}

/** LimitRange admission: `maximum cpu usage per Container is 2, but limit is 4`, `max limit to request ratio per ...`. */
const LIMIT_RANGE = new RegExp(
  String.raw`((?:maximum|minimum) ([\w./-]+) usage per (?:Container|Pod|PersistentVolumeClaim) is [^,\]]+?` +
    String.raw`(?:, but (?:limit|request) is [^,\]]+|\.\s+No (?:limit|request) is specified)` +
    String.raw`|max limit to request ratio per (?:Container|Pod) is [^,\]]+, but provided ratio is [^,\]]+)`,
);

/** Recognise an admission refusal in a FailedCreate message (apiserver `pods "x" is forbidden: ...`). */
export function parseRejection(message: string): Rejection | undefined {
  let m = /exceeded quota: ([\w.-]+), (requested: .*)$/s.exec(message);
  if (m) return { policy: 'quota', name: m[1] ?? '', detail: m[2] ?? '' };
  m = /failed quota: ([\w.-]+): (must specify .*)$/s.exec(message);
  if (m) return { policy: 'quota', name: m[1] ?? '', detail: m[2] ?? '' };
  m = LIMIT_RANGE.exec(message);
  if (m) return { policy: 'limitrange', name: m[2] ?? 'ratio', detail: m[1] ?? '' };
  m = /violates PodSecurity "([^"]+)": (.*)$/s.exec(message);
  if (m) return { policy: 'podsecurity', name: m[1] ?? '', detail: m[2] ?? '' };
  m = /(unable to validate against any pod security policy: .*|PodSecurityPolicy: unable to (?:admit|validate) pod: .*)$/s.exec(message);
  if (m) return { policy: 'psp', name: 'podsecuritypolicy', detail: m[1] ?? '' };
  m = /admission webhook "([^"]+)" denied the request:? ?(.*)$/s.exec(message);
  if (m) return { policy: 'webhook', name: m[1] ?? '', detail: m[2] ?? '' };
  // The ServiceAccount admission plugin: the pod names an account that does not exist.
  m = /(error looking up service account [\w.-]+\/([\w.-]+)(?:: serviceaccount "[^"]+" not found)?)/.exec(message);
  if (m) return { policy: 'serviceaccount', name: m[2] ?? '', detail: m[1] ?? '' };
  // The Priority admission plugin: spec.priorityClassName names a class that does not exist.
  m = /(no PriorityClass with name ([\w.-]+) was found)/.exec(message);
  if (m) return { policy: 'priorityclass', name: m[2] ?? '', detail: m[1] ?? '' };
  return undefined;
}

type Hit = Refusal<Rejection>;

const collect = (snapshot: Snapshot): Hit[] => ownerRefusals(snapshot, parseRejection);

const messages = {
  titleQuota: '{{who}} cannot create pods: rejected by ResourceQuota {{name}}',
  titleLimitRange: '{{who}} cannot create pods: rejected by the LimitRange for {{name}}',
  titlePodSecurity: '{{who}} cannot create pods: rejected by Pod Security admission ({{name}})',
  titlePsp: '{{who}} cannot create pods: rejected by PodSecurityPolicy',
  titleWebhook: '{{who}} cannot create pods: rejected by admission webhook {{name}}',
  titleServiceAccount: '{{who}} cannot create pods: rejected by the ServiceAccount admission (account {{name}} does not exist)',
  titlePriorityClass: '{{who}} cannot create pods: rejected by the Priority admission (PriorityClass {{name}} does not exist)',
  refuses: 'The API server refuses to create the pod',
  refusesFor: 'The API server refuses to create the pod for {{owner}}',
  detail: '({{detail}}).',
  detailSeen: '({{detail}}), last seen {{age}} ago.',
  neverCreated: 'The pod is never created, so there is nothing to schedule or start.',
  neverCreatedSiblings: 'The pod is never created, so there is nothing to schedule or start; the pod you named exists, its new siblings do not.',
  serviceAccountExists: 'ServiceAccount {{name}} exists now: the controller creates the pod on its next retry.',
  serviceAccountStillMissing: 'ServiceAccount {{name}} still does not exist in {{namespace}}.',
  quotaMustSpecify:
    'ResourceQuota {{name}} requires {{resources}} on every container: set them in the workload, or add a LimitRange with defaults in {{namespace}}.',
  quotaExceeded:
    "`kubectl describe resourcequota {{name}} -n {{namespace}}`: lower the workload's requests/limits, delete what uses the quota, or raise the quota.",
  limitRange: "`kubectl describe limitrange -n {{namespace}}`: bring the container's requests/limits within the LimitRange (or change the LimitRange).",
  fixSecurityContext:
    "Fix the pod's securityContext for each listed violation " +
    '(runAsNonRoot, allowPrivilegeEscalation=false, capabilities drop ALL, seccompProfile RuntimeDefault...).',
  relaxPodSecurity: 'Only if the workload really needs it: relax the namespace label pod-security.kubernetes.io/enforce (now "{{level}}") for {{namespace}}.',
  psp: "Grant the workload's service account `use` on a PodSecurityPolicy that allows it, or fix the spec to fit an allowed policy.",
  createServiceAccount:
    'Create the ServiceAccount: `kubectl create serviceaccount -n {{namespace}} {{name}}` (with the RBAC the workload needs), ' +
    'or fix serviceAccountName in the workload; the controller retries by itself.',
  createPriorityClass: 'Create the PriorityClass {{name}} (`kubectl get priorityclass` lists those that exist), or fix priorityClassName in the workload.',
  webhookRefused:
    'The admission webhook {{name}} refused the pod: read its message and its policy (OPA/Gatekeeper/Kyverno...), then fix the spec or the policy.',
  preventQuota: 'Check new workloads against the namespace quota/LimitRange in CI (server-side dry-run) and alert on quota usage above 90%.',
  preventPolicy: 'Validate manifests against the admission policies in CI (`kubectl apply --dry-run=server`).',
} as const;

type Id = keyof typeof messages;

const TITLE: Record<Policy, Id> = {
  quota: 'titleQuota',
  limitrange: 'titleLimitRange',
  podsecurity: 'titlePodSecurity',
  psp: 'titlePsp',
  webhook: 'titleWebhook',
  serviceaccount: 'titleServiceAccount',
  priorityclass: 'titlePriorityClass',
};

const ADVICE: Record<Policy, (r: Rejection, ns: string) => Said<Id>[]> = {
  quota: (r, ns) =>
    r.detail.startsWith('must specify')
      ? [msg('quotaMustSpecify', { name: r.name, resources: r.detail.replace('must specify ', ''), namespace: ns })]
      : [msg('quotaExceeded', { name: r.name, namespace: ns })],
  limitrange: (_r, ns) => [msg('limitRange', { namespace: ns })],
  podsecurity: (r, ns) => [msg('fixSecurityContext'), msg('relaxPodSecurity', { level: r.name, namespace: ns })],
  psp: () => [msg('psp')],
  serviceaccount: (r, ns) => [msg('createServiceAccount', { namespace: ns, name: r.name })],
  priorityclass: (r) => [msg('createPriorityClass', { name: r.name })],
  webhook: (r) => [msg('webhookRefused', { name: r.name })],
};

export const rule = defineRule({
  meta: {
    id: 'admission.rejected',
    title: 'Pods cannot be created: rejected at admission',
    category: 'admission',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'serviceAccount'],
    priority: 58,
    doc:
      "The owner's FailedCreate events (or a Deployment's ReplicaFailure condition) show the API server refusing the pod: " +
      'ResourceQuota `exceeded quota`, LimitRange `maximum ... per Container`, `violates PodSecurity`, a PSP, an admission webhook that denies it, ' +
      'a ServiceAccount or PriorityClass that does not exist. The pod never exists.',
    messages,
  },
  check(snapshot) {
    // A finished pod (a completed Job pod) is not affected by a refusal of its siblings.
    if (isFinished(snapshot.pod)) return null;
    const hits = collect(snapshot);
    if (hits.length === 0) return null;
    const ns = namespaceOf(snapshot);
    const byKey = new Map<string, Hit[]>();
    for (const h of hits) {
      const key = `${h.rejection.policy}:${ns}:${h.rejection.name}`;
      byKey.set(key, [...(byKey.get(key) ?? []), h]);
    }
    const findings: FindingDraft<Id>[] = [];
    for (const [key, group] of byKey) {
      const first = group[0];
      if (!first) continue;
      const { rejection } = first;
      const owner = group.find((h) => h.owner && h.owner.kind !== 'Deployment')?.owner ?? first.owner;
      const existing = snapshot.pod !== undefined;
      const age = Math.min(...group.map((h) => h.ageSeconds ?? Infinity));
      const ownerLabel = owner ? `${owner.kind} ${owner.name}` : undefined;
      const detail = rejection.detail ? clip(rejection.detail, 300) : rejection.policy;
      const account = rejection.policy === 'serviceaccount' && snapshot.serviceAccount?.name === rejection.name ? snapshot.serviceAccount : undefined;
      findings.push({
        // The target pod exists and runs: the refusal hits its siblings (a scale-up or rollout).
        severity: existing ? 'warning' : 'error',
        title: msg(TITLE[rejection.policy], { who: ownerLabel ?? 'Pod', name: rejection.name }),
        cause: [
          ownerLabel ? msg('refusesFor', { owner: ownerLabel }) : msg('refuses'),
          Number.isFinite(age) ? msg('detailSeen', { detail, age: formatDuration(age) }) : msg('detail', { detail }),
          msg(existing ? 'neverCreatedSiblings' : 'neverCreated'),
          account &&
            (account.exists
              ? msg('serviceAccountExists', { name: rejection.name })
              : msg('serviceAccountStillMissing', { name: rejection.name, namespace: ns })),
        ],
        evidence: group.slice(0, 3).map((h) => h.evidence),
        advice: ADVICE[rejection.policy](rejection, ns),
        prevent: [msg(rejection.policy === 'quota' || rejection.policy === 'limitrange' ? 'preventQuota' : 'preventPolicy')],
        causeKey: key,
        params: { namespace: ns, policy: rejection.policy, policyName: rejection.name, ...(owner ? { ownerKind: owner.kind, ownerName: owner.name } : {}) },
      });
    }
    return findings;
  },
});
