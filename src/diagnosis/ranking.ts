// Most likely root cause first; symptoms of the same cause folded into it.
import type { Rule } from './rule.js';
import { SEVERITY_ORDER, type Finding } from './types.js';

export function rankAndMerge(findings: Finding[], rules: readonly Rule[]): Finding[] {
  const meta = new Map(rules.map((r) => [r.meta.id, r.meta]));
  const priority = (f: Finding): number => meta.get(f.rule)?.priority ?? 0;

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
    const supersedes = meta.get(f.rule)?.supersedes ?? [];
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

  return unique
    .filter((f) => !absorbed.has(f))
    .sort(
      (a, b) =>
        priority(b) - priority(a) ||
        SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] ||
        a.rule.localeCompare(b.rule) ||
        a.subject.localeCompare(b.subject),
    );
}
