// admission.rejected: Pods cannot be created: rejected at admission.

import { clip, formatDuration, isFinished, namespaceOf } from '../facts.js';
import { ownerRefusals, type Refusal } from '../owners.js';
import { defineRule } from '../rule.js';
import type { FindingDraft, Snapshot } from '../types.js';

type Policy = 'quota' | 'limitrange' | 'podsecurity' | 'psp' | 'webhook' | 'serviceaccount' | 'priorityclass';

interface Rejection {
  policy: Policy;
  /** Quota name, PodSecurity level, webhook name, LimitRange resource. */
  name: string;
  detail: string;
}

/** Recognise an admission refusal in a FailedCreate message (apiserver `pods "x" is forbidden: ...`). */
export function parseRejection(message: string): Rejection | undefined {
  let m = /exceeded quota: ([\w.-]+), (requested: .*)$/s.exec(message);
  if (m) return { policy: 'quota', name: m[1] ?? '', detail: m[2] ?? '' };
  m = /failed quota: ([\w.-]+): (must specify .*)$/s.exec(message);
  if (m) return { policy: 'quota', name: m[1] ?? '', detail: m[2] ?? '' };
  m =
    /((?:maximum|minimum) ([\w./-]+) usage per (?:Container|Pod|PersistentVolumeClaim) is [^,\]]+?(?:, but (?:limit|request) is [^,\]]+|\.\s+No (?:limit|request) is specified)|max limit to request ratio per (?:Container|Pod) is [^,\]]+, but provided ratio is [^,\]]+)/.exec(
      message,
    );
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

const ADVICE: Record<Policy, (r: Rejection, ns: string) => string[]> = {
  quota: (r, ns) =>
    r.detail.startsWith('must specify')
      ? [
          `ResourceQuota ${r.name} requires ${r.detail.replace('must specify ', '')} on every container: set them in the workload, or add a LimitRange with defaults in ${ns}.`,
        ]
      : [`\`kubectl describe resourcequota ${r.name} -n ${ns}\`: lower the workload's requests/limits, delete what uses the quota, or raise the quota.`],
  limitrange: (_r, ns) => [`\`kubectl describe limitrange -n ${ns}\`: bring the container's requests/limits within the LimitRange (or change the LimitRange).`],
  podsecurity: (r, ns) => [
    `Fix the pod's securityContext for each listed violation (runAsNonRoot, allowPrivilegeEscalation=false, capabilities drop ALL, seccompProfile RuntimeDefault...).`,
    `Only if the workload really needs it: relax the namespace label pod-security.kubernetes.io/enforce (now "${r.name}") for ${ns}.`,
  ],
  psp: () => ["Grant the workload's service account `use` on a PodSecurityPolicy that allows it, or fix the spec to fit an allowed policy."],
  serviceaccount: (r, ns) => [
    `Create the ServiceAccount: \`kubectl create serviceaccount -n ${ns} ${r.name}\` (with the RBAC the workload needs), or fix serviceAccountName in the workload; the controller retries by itself.`,
  ],
  priorityclass: (r) => [
    `Create the PriorityClass ${r.name} (\`kubectl get priorityclass\` lists those that exist), or fix priorityClassName in the workload.`,
  ],
  webhook: (r) => [
    `The admission webhook ${r.name} refused the pod: read its message and its policy (OPA/Gatekeeper/Kyverno...), then fix the spec or the policy.`,
  ],
};

export const rule = defineRule({
  meta: {
    id: 'admission.rejected',
    title: 'Pods cannot be created: rejected at admission',
    category: 'admission',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'serviceAccount'],
    priority: 58,
    doc: "The owner's FailedCreate events (or a Deployment's ReplicaFailure condition) show the API server refusing the pod: ResourceQuota `exceeded quota`, LimitRange `maximum ... per Container`, `violates PodSecurity`, a PSP, an admission webhook that denies it, a ServiceAccount or PriorityClass that does not exist. The pod never exists.",
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
    const findings: FindingDraft[] = [];
    for (const [key, group] of byKey) {
      const first = group[0];
      if (!first) continue;
      const { rejection } = first;
      const owner = group.find((h) => h.owner && h.owner.kind !== 'Deployment')?.owner ?? first.owner;
      const what = {
        quota: `ResourceQuota ${rejection.name}`,
        limitrange: `the LimitRange for ${rejection.name}`,
        podsecurity: `Pod Security admission (${rejection.name})`,
        psp: 'PodSecurityPolicy',
        webhook: `admission webhook ${rejection.name}`,
        serviceaccount: `the ServiceAccount admission (account ${rejection.name} does not exist)`,
        priorityclass: `the Priority admission (PriorityClass ${rejection.name} does not exist)`,
      }[rejection.policy];
      const existing = snapshot.pod !== undefined;
      const age = Math.min(...group.map((h) => h.ageSeconds ?? Infinity));
      findings.push({
        // The target pod exists and runs: the refusal hits its siblings (a scale-up or rollout).
        severity: existing ? 'warning' : 'error',
        title: `${owner ? `${owner.kind} ${owner.name}` : 'Pod'} cannot create pods: rejected by ${what}`,
        cause:
          `The API server refuses to create the pod${owner ? ` for ${owner.kind} ${owner.name}` : ''} (${rejection.detail ? clip(rejection.detail, 300) : rejection.policy})` +
          `${Number.isFinite(age) ? `, last seen ${formatDuration(age)} ago` : ''}. The pod is never created, so there is nothing to schedule or start` +
          (existing ? '; the pod you named exists, its new siblings do not.' : '.') +
          (rejection.policy === 'serviceaccount' && snapshot.serviceAccount?.name === rejection.name
            ? snapshot.serviceAccount.exists
              ? ` ServiceAccount ${rejection.name} exists now: the controller creates the pod on its next retry.`
              : ` ServiceAccount ${rejection.name} still does not exist in ${ns}.`
            : ''),
        evidence: group.slice(0, 3).map((h) => h.evidence),
        advice: ADVICE[rejection.policy](rejection, ns),
        prevent: [
          rejection.policy === 'quota' || rejection.policy === 'limitrange'
            ? 'Check new workloads against the namespace quota/LimitRange in CI (server-side dry-run) and alert on quota usage above 90%.'
            : 'Validate manifests against the admission policies in CI (`kubectl apply --dry-run=server`).',
        ],
        causeKey: key,
        params: { namespace: ns, policy: rejection.policy, policyName: rejection.name, ...(owner ? { ownerKind: owner.kind, ownerName: owner.name } : {}) },
      });
    }
    return findings;
  },
});
