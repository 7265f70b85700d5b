// A table-driven tester for one rule, in the spirit of typescript-eslint's RuleTester:
// `valid` snapshots must produce nothing of severity warning or worse from this rule,
// `invalid` ones must produce a finding whose fields match what the case expects.
// Cases assert message ids and their values (`said`) and what the finding quotes (`quotes`); the
// wording of each message is checked once, by the registry's message contract test.
import { describe, expect, it } from 'vitest';
import { diagnose, toFinding } from '../../src/diagnosis/engine.js';
import type { Rule } from '../../src/diagnosis/rule.js';
import { DEFAULT_RULE_CONTEXT } from '../../src/diagnosis/rule.js';
import { type Finding, type FindingDraft, type Prose, type Said, SEVERITY_ORDER, type Snapshot } from '../../src/diagnosis/types.js';

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
    /**
     * Messages the finding says (title, cause, advice or prevention), by id as in the rule's
     * `meta.messages`, with the values of their placeholders: exact, or a RegExp the value matches.
     * The wording itself is checked once, by the registry's message contract test.
     */
    said?: (string | { id: string; data?: Record<string, string | number | RegExp> })[];
    /** Every regex must match one evidence text (what the finding quotes from the cluster or node). */
    quotes?: RegExp[];
    /** Number of findings the rule returns (default: at least 1). */
    count?: number;
    /** The mechanism the finding names (`fs-read-only`), or `null` for none; with `mechanismVariant`, the variant too. */
    mechanism?: string | null;
    mechanismVariant?: string;
  };
}

export function draftsOf(rule: Rule, snapshot: Snapshot): FindingDraft[] {
  const result = rule.check(snapshot, DEFAULT_RULE_CONTEXT);
  if (!result) return [];
  return Array.isArray(result) ? [...(result as FindingDraft[])] : [result as FindingDraft];
}

export function findingsOf(rule: Rule, snapshot: Snapshot): Finding[] {
  return draftsOf(rule, snapshot).map((d) => toFinding(rule, d, snapshot));
}

/** Every message a draft says, in order: title, cause, advice, prevention. */
export function saidIn(draft: FindingDraft): Said[] {
  const flat = (p: Prose | false | null | undefined): Said[] =>
    !p ? [] : Array.isArray(p) ? (p as readonly (Said | false | null | undefined)[]).filter((x): x is Said => Boolean(x)) : [p as Said];
  return [...flat(draft.title), ...flat(draft.cause), ...(draft.advice ?? []).flatMap(flat), ...(draft.prevent ?? []).flatMap(flat)];
}

export function saysIt(said: Said[], want: string | { id: string; data?: Record<string, string | number | RegExp> }): boolean {
  const w = typeof want === 'string' ? { id: want } : want;
  return said.some(
    (s) =>
      s.messageId === w.id &&
      Object.entries(w.data ?? {}).every(([k, v]) => {
        const got = s.data?.[k];
        if (got === undefined) return false;
        return v instanceof RegExp ? v.test(String(got)) : String(got) === String(v);
      }),
  );
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
        const { said, quotes, params, count: _count, mechanism, mechanismVariant, ...fields } = c.expect ?? {};
        const draft = draftsOf(rule, c.snapshot)[0]!;
        for (const want of said ?? [])
          expect(
            saysIt(saidIn(draft), want),
            `says ${JSON.stringify(want, (_, v) => (v instanceof RegExp ? String(v) : v))}; it says ${JSON.stringify(saidIn(draft))}`,
          ).toBe(true);
        for (const re of quotes ?? []) expect(f.evidence.map((e) => e.text).join('\n')).toMatch(re);
        if (mechanism !== undefined) expect(f.mechanism?.id ?? null).toBe(mechanism);
        if (mechanismVariant !== undefined) expect(f.mechanism?.variant).toBe(mechanismVariant);
        expect(f).toMatchObject(fields);
        if (params) expect(f.params).toMatchObject(params);
        const words = [f.title, f.cause, ...f.advice, ...f.prevent];
        expect(
          words.filter((w) => /\{\{\s*\w+\s*\}\}/.test(w)),
          'a message placeholder without a value',
        ).toEqual([]);
        // A rule never throws through the engine either.
        expect(diagnose(c.snapshot, { rules: [rule] }).ruleErrors).toEqual([]);
      });
    }
  });
}
