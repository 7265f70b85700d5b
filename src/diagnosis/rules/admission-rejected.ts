import { defineRule } from '../rule.js';
import { clip, eventEvidence, eventTime, formatDuration, isFinished, newestFirst, secondsSince } from '../facts.js';
import { ownerSatisfied } from '../owners.js';
import type { Evidence, FindingDraft, OwnerFact, Snapshot } from '../types.js';

type Policy = 'quota' | 'limitrange' | 'podsecurity' | 'psp' | 'webhook';

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
    /((?:maximum|minimum) ([\w./-]+) usage per (?:Container|Pod|PersistentVolumeClaim) is [^,\]]+, but (?:limit|request) is [^,\]]+|max limit to request ratio per (?:Container|Pod) is [^,\]]+, but provided ratio is [^,\]]+)/.exec(
      message,
    );
  if (m) return { policy: 'limitrange', name: m[2] ?? 'ratio', detail: m[1] ?? '' };
  m = /violates PodSecurity "([^"]+)": (.*)$/s.exec(message);
  if (m) return { policy: 'podsecurity', name: m[1] ?? '', detail: m[2] ?? '' };
  m = /(unable to validate against any pod security policy: .*)$/s.exec(message);
  if (m) return { policy: 'psp', name: 'podsecuritypolicy', detail: m[1] ?? '' };
  m = /admission webhook "([^"]+)" denied the request:? ?(.*)$/s.exec(message);
  if (m) return { policy: 'webhook', name: m[1] ?? '', detail: m[2] ?? '' };
  return undefined;
}

// The ReplicaSet controller retries with back-off and repeats the event; a refusal last seen
// longer ago than this, with no other sign, is history.
const FRESH_SECONDS = 1800;

/** Deployment/ReplicaSet `ReplicaFailure` condition (reason FailedCreate) carries the refusal too. */
interface Condition {
  type?: string;
  status?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/** The owner's true ReplicaFailure condition: its message and when it was last set. */
function replicaFailure(o: OwnerFact): { message: string; at?: string } | undefined {
  const conds = ((o.object?.status ?? {}) as { conditions?: Condition[] }).conditions ?? [];
  const c = conds.find((x) => x.type === 'ReplicaFailure' && x.status === 'True' && x.message);
  // Deployments stamp lastUpdateTime too; a ReplicaSet's condition only has lastTransitionTime.
  return c?.message ? { message: c.message, at: c.lastUpdateTime ?? c.lastTransitionTime } : undefined;
}

interface Hit {
  rejection: Rejection;
  evidence: Evidence;
  owner?: OwnerFact;
  ageSeconds?: number;
}

function collect(snapshot: Snapshot): Hit[] {
  const hits: Hit[] = [];
  for (const owner of snapshot.owners ?? []) {
    const satisfied = ownerSatisfied(owner.object);
    const condition = replicaFailure(owner);
    if (condition) {
      const rejection = parseRejection(condition.message);
      if (rejection)
        hits.push({
          rejection,
          owner,
          // A condition without a time says nothing of when: no "last seen" then.
          ...(condition.at ? { ageSeconds: secondsSince(snapshot, condition.at) } : {}),
          evidence: { source: `${owner.kind} ${owner.name} status.conditions[ReplicaFailure]`, text: clip(condition.message) },
        });
    }
    if (satisfied === true) continue;
    for (const e of newestFirst(owner.events)) {
      const rejection = parseRejection(e.message ?? '');
      const age = secondsSince(snapshot, eventTime(e));
      if (!rejection || age === undefined) continue;
      if (satisfied === undefined && age > FRESH_SECONDS) continue;
      const ev = eventEvidence(e);
      hits.push({ rejection, owner, ageSeconds: age, evidence: { source: `${ev.source} on ${owner.kind} ${owner.name}`, text: clip(e.message ?? '') } });
    }
  }
  // The pod's own events (a bare pod's re-creation, an ephemeral container) count as well.
  for (const e of newestFirst(snapshot.events)) {
    const rejection = parseRejection(e.message ?? '');
    const age = secondsSince(snapshot, eventTime(e));
    if (rejection && age !== undefined && age <= FRESH_SECONDS)
      hits.push({ rejection, ageSeconds: age, evidence: { ...eventEvidence(e), text: clip(e.message ?? '') } });
  }
  return hits;
}

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
    needs: ['pod', 'events', 'owners'],
    priority: 58,
    doc: "The owner's FailedCreate events (or a Deployment's ReplicaFailure condition) show the API server refusing the pod: ResourceQuota `exceeded quota`, LimitRange `maximum ... per Container`, `violates PodSecurity`, a PSP or an admission webhook. The pod never exists.",
  },
  check(snapshot) {
    // A finished pod (a completed Job pod) is not affected by a refusal of its siblings.
    if (isFinished(snapshot.pod)) return null;
    const hits = collect(snapshot);
    if (hits.length === 0) return null;
    const ns = snapshot.pod?.metadata?.namespace ?? (snapshot.target.kind === 'pod' ? snapshot.target.namespace : snapshot.target.name);
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
          (existing ? '; the pod you named exists, its new siblings do not.' : '.'),
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
