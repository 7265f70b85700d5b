// A table-driven tester for one rule, in the spirit of typescript-eslint's RuleTester:
// `valid` snapshots must produce nothing of severity warning or worse from this rule,
// `invalid` ones must produce a finding whose fields match what the case expects.
import { describe, expect, it } from 'vitest';
import { diagnose, toFinding } from '../../src/diagnosis/engine.js';
import type { Rule } from '../../src/diagnosis/rule.js';
import { DEFAULT_RULE_CONTEXT } from '../../src/diagnosis/rule.js';
import { type Finding, SEVERITY_ORDER, type Snapshot } from '../../src/diagnosis/types.js';

export interface ValidCase {
  name: string;
  snapshot: Snapshot;
}

export interface InvalidCase {
  name: string;
  snapshot: Snapshot;
  /** Partial finding to match (severity, playbook, params...). */
  expect?: Partial<Pick<Finding, 'severity' | 'playbook' | 'causeKey' | 'subject'>> & {
    params?: Record<string, unknown>;
    /** Every regex must match the title, cause or one evidence text. */
    mentions?: RegExp[];
    /** Number of findings the rule returns (default: at least 1). */
    count?: number;
    /** The mechanism the finding names (`fs-read-only`), or `null` for none; with `mechanismVariant`, the variant too. */
    mechanism?: string | null;
    mechanismVariant?: string;
  };
}

export function findingsOf(rule: Rule, snapshot: Snapshot): Finding[] {
  const result = rule.check(snapshot, DEFAULT_RULE_CONTEXT);
  if (!result) return [];
  return (Array.isArray(result) ? result : [result]).map((d) => toFinding(rule, d, snapshot));
}

export function testRule(rule: Rule, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(rule.meta.id, () => {
    it('has at least two positive cases and one negative', () => {
      expect(cases.invalid.length).toBeGreaterThanOrEqual(2);
      expect(cases.valid.length).toBeGreaterThanOrEqual(1);
    });
    for (const c of cases.valid) {
      it(`stays quiet: ${c.name}`, () => {
        const loud = findingsOf(rule, c.snapshot).filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
        expect(loud, JSON.stringify(loud, null, 1)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`finds: ${c.name}`, () => {
        const found = findingsOf(rule, c.snapshot);
        if (c.expect?.count !== undefined) expect(found).toHaveLength(c.expect.count);
        else expect(found.length).toBeGreaterThan(0);
        const f = found[0]!;
        expect(f.rule).toBe(rule.meta.id);
        expect(f.evidence.length).toBeGreaterThan(0);
        expect(f.evidence.every((e) => e.text.length > 0 && e.source.length > 0)).toBe(true);
        expect(f.advice.length).toBeGreaterThan(0);
        const { mentions, params, count: _count, mechanism, mechanismVariant, ...fields } = c.expect ?? {};
        if (mechanism !== undefined) expect(f.mechanism?.id ?? null).toBe(mechanism);
        if (mechanismVariant !== undefined) expect(f.mechanism?.variant).toBe(mechanismVariant);
        expect(f).toMatchObject(fields);
        if (params) expect(f.params).toMatchObject(params);
        const words = [f.title, f.cause, ...f.advice, ...f.prevent];
        expect(
          words.filter((w) => /\{\{\s*\w+\s*\}\}/.test(w)),
          'a message placeholder without a value',
        ).toEqual([]);
        const haystack = [f.title, f.cause, ...f.evidence.map((e) => e.text)].join('\n');
        for (const re of mentions ?? []) expect(haystack).toMatch(re);
        // A rule never throws through the engine either.
        expect(diagnose(c.snapshot, { rules: [rule] }).ruleErrors).toEqual([]);
      });
    }
  });
}
