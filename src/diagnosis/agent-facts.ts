// Pure helpers for rules that read the node agent's facts: a probe's result when it succeeded,
// and when it did not, a sentence saying which node check could not run and why (from the
// probe's error or the snapshot's gaps), so a rule can still report what the API shows.
import type { JournalMatch, MountHolder, ProbeName, ProbeResults } from '../probes/types.js';
import type { Evidence, Snapshot } from './types.js';

/** The result of a probe that ran and succeeded, else undefined. */
export function probeResult<K extends ProbeName>(snapshot: Snapshot, name: K): ProbeResults[K] | undefined {
  const outcome = snapshot.agent?.probes[name];
  return outcome?.ok ? (outcome as ProbeResults[K]) : undefined;
}

/** Why `name` has no result: the probe's error, the agent gap, or "not collected". */
export function probeMissingReason(snapshot: Snapshot, name: ProbeName): string | undefined {
  const outcome = snapshot.agent?.probes[name];
  if (outcome?.ok) return undefined;
  if (outcome && !outcome.ok) return outcome.error;
  const gap = snapshot.gaps.find((g) => g.origin === 'agent');
  if (gap) return gap.reason;
  return snapshot.agent ? `the ${name} probe was not run` : 'no node agent facts were collected';
}

/**
 * One sentence naming the node checks that could not run, e.g.
 * `The node checks mount-holders, journal could not run on node-1 (agent unreachable: ECONNREFUSED).`
 * Undefined when every named probe produced a result.
 */
export function nodeChecksMissing(snapshot: Snapshot, node: string, ...names: ProbeName[]): string | undefined {
  const missing = names.map((n) => [n, probeMissingReason(snapshot, n)] as const).filter(([, reason]) => reason !== undefined);
  if (missing.length === 0) return undefined;
  const reasons = [...new Set(missing.map(([, r]) => r))];
  const label = missing.length === 1 ? 'The node check' : 'The node checks';
  return `${label} ${missing.map(([n]) => n).join(', ')} could not run on ${node} (${reasons.join('; ')}).`;
}

/** Journal lines carrying any of the signatures; by default only lines that name the pod. */
export function journalMatches(snapshot: Snapshot, signatures: readonly string[], options: { aboutPodOnly?: boolean } = {}): JournalMatch[] {
  const journal = probeResult(snapshot, 'journal');
  if (!journal) return [];
  const aboutPodOnly = options.aboutPodOnly ?? true;
  return journal.matches.filter((m) => (!aboutPodOnly || m.aboutPod) && m.signatures.some((s) => signatures.includes(s)));
}

/** Quote a journal line as evidence. */
export function journalEvidence(node: string, m: JournalMatch, max = 700): Evidence {
  const text = m.line.length <= max ? m.line : `${m.line.slice(0, max - 1)}…`;
  return { source: `node agent: log ${m.source.split('/').pop() ?? m.source} on ${node}`, text };
}

/** `1.13.1` / `17.03.2-ce` / `docker://18.9.7` → [major, minor, patch]. */
export function parseVersion(v: string | undefined): [number, number, number] | undefined {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(v ?? '');
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

export function versionLess(a: [number, number, number], b: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  return false;
}

/** Shorten a 64-hex id the way docker prints it. */
export function shortId(id: string): string {
  return /^[0-9a-f]{64}$/.test(id) ? id.slice(0, 12) : id;
}

/** A mount holder as the fix sees it: a systemd service is restarted (release-mount-holder), a
 * process in no service is stopped (stop-mount-holder), a container is its pod owner's to restart. */
export type HolderKind = 'service' | 'container' | 'process';

/** A systemd service unit (not the scopes systemd makes for containers and sessions). */
export function isServiceUnit(unit: string | undefined): unit is string {
  return unit?.endsWith('.service') === true;
}

export function holderKindOf(holder: Pick<MountHolder, 'unit' | 'containerId' | 'podUid'>): HolderKind {
  if (isServiceUnit(holder.unit)) return 'service';
  return holder.containerId || holder.podUid ? 'container' : 'process';
}

/** The playbook that releases such a holder (null: none is safe to offer). */
export function holderPlaybook(kind: HolderKind): 'release-mount-holder' | 'stop-mount-holder' | null {
  return kind === 'service' ? 'release-mount-holder' : kind === 'process' ? 'stop-mount-holder' : null;
}
