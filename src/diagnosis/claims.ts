// What a claim's own facts say about why it is not bound (snapshot.claims: the claim, its events,
// its StorageClass, its volume and attachment). The pod only says "unbound immediate
// PersistentVolumeClaims" or "binding volumes: context deadline exceeded"; the claim's events carry
// the provisioner's own error, and the absence of any event from a provisioner says none is running.
import { eventEvidence, eventTime, newestFirst, secondsSince } from './facts.js';
import { nodesMatchingTerms, termsText } from './scheduling.js';
import type { ClaimFact, Event, Evidence, PersistentVolumeClaim, Pod, Snapshot } from './types.js';

export type ClaimState =
  /** The StorageClass the claim names does not exist. */
  | 'class-missing'
  /** The provisioner tried and failed: its ProvisioningFailed quotes the cloud's or driver's error. */
  | 'provisioning-failed'
  /** Only the controller's "waiting for a volume to be created by external provisioner X": nothing answers. */
  | 'no-provisioner'
  /** No volume matches and nothing provisions one (FailedBinding). */
  | 'binding-failed'
  | 'bound'
  | 'pending';

export interface ClaimStory {
  claim: ClaimFact;
  state: ClaimState;
  /** The line that says why (the provisioner's error, the controller's waiting message). */
  line?: string;
  provisioner?: string;
  evidence: Evidence[];
}

/** Events that come from a provisioner acting on the claim (in-tree or CSI external-provisioner). */
const PROVISIONER_REASONS = new Set(['Provisioning', 'ProvisioningFailed', 'ProvisioningSucceeded', 'ProvisioningCleanupFailed']);
/** A claim waiting this long for a provisioner that never answers is not slow, it is unserved. */
const NO_PROVISIONER_SECONDS = 300;

function provisionerNamed(e: Event): string | undefined {
  return /external provisioner ['"]([^'"]+)['"]/.exec(e.message ?? '')?.[1];
}

/** The class a claim asks for: the field, or the beta annotation older claims carry. */
export function claimClass(pvc: PersistentVolumeClaim | null | undefined): string | undefined {
  return pvc?.spec?.storageClassName ?? pvc?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
}

/** The provisioner the PV controller handed the claim to (its storage-provisioner annotation). */
export function claimProvisioner(pvc: PersistentVolumeClaim | null | undefined): string | undefined {
  const a = pvc?.metadata?.annotations ?? {};
  return a['volume.kubernetes.io/storage-provisioner'] ?? a['volume.beta.kubernetes.io/storage-provisioner'];
}

function claimStory(snapshot: Snapshot, claim: ClaimFact): ClaimStory {
  const pvc = claim.claim;
  const events = newestFirst(claim.events);
  const className = claimClass(pvc);
  const base = { claim, evidence: [] as Evidence[] };
  if (!pvc || pvc.status?.phase === 'Bound') return { ...base, state: pvc ? 'bound' : 'pending' };
  const failed = events.find((e) => e.reason === 'ProvisioningFailed');
  const classEvent = events.find((e) => /storageclass\.storage\.k8s\.io "[^"]+" not found/.test(e.message ?? ''));
  if (claim.storageClass === null || classEvent) {
    const evidence = classEvent ? [eventEvidence(classEvent)] : [{ source: `storageclass ${className ?? ''}`, text: 'does not exist' }];
    return { ...base, state: 'class-missing', ...(classEvent?.message ? { line: classEvent.message } : {}), evidence };
  }
  if (failed) return { ...base, state: 'provisioning-failed', line: failed.message ?? '', evidence: [eventEvidence(failed)] };
  const waiting = events.find((e) => e.reason === 'ExternalProvisioning');
  const acted = events.some((e) => PROVISIONER_REASONS.has(e.reason ?? ''));
  const waited = waiting ? secondsSince(snapshot, waiting.firstTimestamp ?? eventTime(waiting)) : undefined;
  const provisioner = (waiting ? provisionerNamed(waiting) : undefined) ?? claimProvisioner(pvc);
  if (waiting && !acted && (waited ?? 0) >= NO_PROVISIONER_SECONDS) {
    return { ...base, state: 'no-provisioner', line: waiting.message ?? '', ...(provisioner ? { provisioner } : {}), evidence: [eventEvidence(waiting)] };
  }
  const binding = events.find((e) => e.reason === 'FailedBinding');
  if (binding) return { ...base, state: 'binding-failed', line: binding.message ?? '', evidence: [eventEvidence(binding)] };
  return { ...base, state: 'pending', ...(provisioner ? { provisioner } : {}) };
}

/** The stories of the pod's claims that are not bound, worst first. */
export function unboundClaims(snapshot: Snapshot): ClaimStory[] {
  const order: ClaimState[] = ['class-missing', 'provisioning-failed', 'no-provisioner', 'binding-failed', 'pending'];
  return (snapshot.claims ?? [])
    .map((c) => claimStory(snapshot, c))
    .filter((s) => s.state !== 'bound')
    .sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
}

/** Claims a pod uses: persistentVolumeClaim volumes and generic ephemeral volumes (`<pod>-<volume>`). */
export function claimNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName) names.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) names.push(`${pod.metadata?.name ?? ''}-${v.name}`);
  }
  return names;
}

/** A bound claim whose PersistentVolume has required node affinity: where the pod can run at all. */
export function volumePin(
  snapshot: Snapshot,
  claims: { name: string; pvc: PersistentVolumeClaim | null | undefined }[],
): { claim: string; pv: string; terms: string; nodes: string[] } | undefined {
  for (const c of claims) {
    const pvName = c.pvc?.spec?.volumeName;
    const pv = pvName ? snapshot.volumes?.[pvName] : undefined;
    const terms = (
      pv?.spec as
        | { nodeAffinity?: { required?: { nodeSelectorTerms?: { matchExpressions?: { key: string; operator: string; values?: string[] }[] }[] } } }
        | undefined
    )?.nodeAffinity?.required?.nodeSelectorTerms;
    if (!pvName || !terms?.length || !snapshot.nodes) continue;
    return { claim: c.name, pv: pvName, terms: termsText(terms), nodes: nodesMatchingTerms(terms, snapshot.nodes).map((n) => n.metadata?.name ?? '?') };
  }
  return undefined;
}
