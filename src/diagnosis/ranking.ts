// Most likely root cause first; symptoms of the same cause folded into it.
import type { Rule } from './rule.js';
import { type Finding, SEVERITY_ORDER } from './types.js';

/** Per registry: the rules' meta by id (built once, not per diagnosis). */
const metaOf = new WeakMap<readonly Rule[], Map<string, Rule['meta']>>();

export function rankAndMerge(findings: Finding[], rules: readonly Rule[]): Finding[] {
  if (findings.length === 0) return findings;
  let meta = metaOf.get(rules);
  if (!meta) metaOf.set(rules, (meta = new Map(rules.map((r) => [r.meta.id, r.meta]))));
  const priority = (f: Finding): number => meta.get(f.rule)?.priority ?? 0;
  const supersedesOf = (f: Finding): readonly string[] => meta.get(f.rule)?.supersedes ?? [];

  // 1. Same fingerprint twice (a rule returning duplicates): keep one, join evidence.
  const byFingerprint = new Map<string, Finding>();
  for (const f of findings) {
    const seen = byFingerprint.get(f.fingerprint);
    if (!seen) byFingerprint.set(f.fingerprint, { ...f, evidence: [...f.evidence] });
    else seen.evidence.push(...f.evidence.filter((e) => !seen.evidence.some((x) => x.text === e.text)));
  }
  const unique = [...byFingerprint.values()];

  // 2. A finding whose rule supersedes another's on the same subject absorbs it.
  const absorbed = new Set<Finding>();
  for (const f of unique) {
    const supersedes = supersedesOf(f);
    if (supersedes.length === 0) continue;
    for (const g of unique) {
      if (g === f || absorbed.has(g) || absorbed.has(f)) continue;
      if (g.subject !== f.subject || !supersedes.includes(g.rule)) continue;
      absorbed.add(g);
      f.merged.push(g.rule, ...g.merged);
      for (const e of g.evidence) {
        if (!f.evidence.some((x) => x.text === e.text)) f.evidence.push(e);
      }
    }
  }

  // Severity first (a finding never ranks above one of higher severity, an info never above a
  // warning), then how strongly the rule explains the problem.
  const ranked = unique
    .filter((f) => !absorbed.has(f))
    .sort(
      (a, b) =>
        SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] ||
        priority(b) - priority(a) ||
        a.rule.localeCompare(b.rule) ||
        a.subject.localeCompare(b.subject),
    );
  specificBeforeGeneric(ranked, (f) => meta.get(f.rule)?.generic === true || meta.get(f.rule)?.fallback === true);
  withholdContestedPlaybooks(ranked);
  return ranked;
}

/**
 * A generic rule never outranks a specific one that quotes the same line on the same subject: the
 * specific finding moves up to just before it, and takes at least its severity so the order by
 * severity still holds (the line is the same failure, read more precisely).
 */
function specificBeforeGeneric(findings: Finding[], isGeneric: (f: Finding) => boolean): void {
  for (let i = 0; i < findings.length; i++) {
    const g = findings[i]!;
    if (!isGeneric(g)) continue;
    const quoted = new Set(g.evidence.map((e) => e.text).filter((t) => t.length > 0));
    const j = findings.findIndex((f, k) => k > i && !isGeneric(f) && f.subject === g.subject && f.evidence.some((e) => quoted.has(e.text)));
    if (j < 0) continue;
    const [specific] = findings.splice(j, 1);
    if (SEVERITY_ORDER[specific!.severity] < SEVERITY_ORDER[g.severity]) specific!.severity = g.severity;
    findings.splice(i, 0, specific!);
  }
}

/**
 * Wrong advice is worse than generic advice: when another rule reads the very same quoted line
 * as a different cause (and neither folded the other in), the evidence fits more than one class.
 * The finding says so and does not offer its playbook; the ranking still puts the likelier first.
 */
function withholdContestedPlaybooks(findings: Finding[]): void {
  if (findings.length < 2 || !findings.some((f) => f.playbook)) return;
  const loud = findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
  for (const f of loud) {
    if (!f.playbook) continue;
    const quoted = new Set(f.evidence.map((e) => e.text).filter((t) => t.length > 0));
    const rivals = loud.filter((g) => g !== f && g.subject === f.subject && g.rule !== f.rule && g.evidence.some((e) => quoted.has(e.text)));
    if (rivals.length === 0) continue;
    const names = [...new Set(rivals.map((g) => g.rule))];
    f.alternatives = names;
    f.cause = `${f.cause} The same evidence also fits ${names.join(', ')}; pod-doctor cannot tell them apart, so it offers no fix (playbook ${f.playbook} withheld).`;
    f.playbook = null;
  }
}
