// Scoring one diagnosis against what its case expects. Pure: the runner and its tests share it.
//
// - right:  the first finding of severity warning or worse is the expected rule (or an equally
//           right one), it quotes the decisive line, and it offers no other playbook than allowed.
// - useful: not right, but some finding quotes the decisive line (or is the expected rule further
//           down), and nothing offers a wrong playbook: the human starts from the right fact.
// - silent: nothing of severity warning or worse.
// - wrong:  anything else (another cause first without the decisive line, or a wrong playbook).
// - negatives: `first: null` cases; any finding of warning or worse is a false alarm.
// - mechanism: a case with `expect.mechanism` (a class no rule names) is right only when its first
//           loud finding also names the mechanism in its own words: quoting a log that names it
//           does not count, so quoted text is removed before the terms are looked for.
// - a rollback to the previous revision offered by rollout.regression (the failure began right after
//           that rollout) is never a wrong playbook; the runner counts the cases it is offered in.
import { type Diagnosis, type Finding, SEVERITY_ORDER } from '../src/diagnosis/types.js';
import type { CaseMeta } from './cases.js';

/** The rollback a rollout regression offers (see playbookOk). */
export const ROLLBACK = { rule: 'rollout.regression', playbook: 'rollback-to-revision' } as const;

export type Verdict = 'right' | 'useful' | 'silent' | 'wrong' | 'quiet' | 'false-alarm';

export interface Score {
  verdict: Verdict;
  /** For a case with `expect.mechanism`: whether the first loud finding named it in its own words. */
  mechanism?: boolean;
  /** What the first loud finding was, for the table. */
  got: string;
  why: string;
  /** A loud finding offered the rollout regression's rollback (never counted as a wrong playbook). */
  rollback?: true;
}

type Expect = CaseMeta['expect'];

function loud(d: Diagnosis): Finding[] {
  return d.findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
}

/** Whitespace and case do not decide whether a line was quoted. */
function norm(s: string): string {
  return s.replace(/\s+/g, ' ').toLowerCase();
}

export function quotes(f: Finding, decisive: string): boolean {
  const needle = norm(decisive);
  return [f.cause, ...f.evidence.map((e) => e.text)].some((t) => norm(t).includes(needle));
}

/** A finding's own words: title, cause and advice with every quoted span ("…", “…”) removed. */
export function ownWords(f: Finding): string {
  return norm([f.title, f.cause, ...f.advice].join('\n').replace(/"[^"]*"|“[^”]*”/g, ' '));
}

/** Names the mechanism: each term group has a term in its own words, and the catalogue id matches when the case gives one. */
export function namesMechanism(f: Finding, m: NonNullable<Expect['mechanism']>): boolean {
  if (m.id !== undefined && f.mechanism?.id !== m.id) return false;
  const words = ownWords(f);
  return m.terms.every((group) => group.some((t) => words.includes(norm(t))));
}

function playbookOk(f: Finding, expect: Expect, rightRule: boolean): boolean {
  if (f.playbook === null) return true;
  // Undoing the workload's own last rollout, when the failure began right after it (issue 36), is the
  // mitigation whatever the class: it is not a neighbour's remedy for a misread cause. Counted apart.
  if (f.rule === ROLLBACK.rule && f.playbook === ROLLBACK.playbook) return true;
  if (expect.playbook === null) return false;
  if (expect.playbook !== undefined) return f.playbook === expect.playbook;
  // Whatever the right rule offers is right; a neighbour's playbook is not.
  return rightRule;
}

export function scoreCase(d: Diagnosis, expect: Expect): Score {
  const findings = loud(d);
  const first = findings[0];
  const got = first ? `${first.rule}${first.playbook ? ` (${first.playbook})` : ''}` : '-';
  if (expect.first === null) {
    return first ? { verdict: 'false-alarm', got, why: `${first.severity}: ${first.title}` } : { verdict: 'quiet', got, why: '' };
  }
  if (!first) return { verdict: 'silent', got, why: 'nothing of severity warning or worse' };
  const accepted = [expect.first, ...expect.acceptable];
  const anyRule = expect.first === 'any';
  const isRight = (f: Finding) => anyRule || accepted.includes(f.rule);
  const m = expect.mechanism;
  const named = m ? namesMechanism(first, m) : undefined;
  const tag: { mechanism?: boolean; rollback?: true } = named === undefined ? {} : { mechanism: named };
  if (findings.some((f) => f.rule === ROLLBACK.rule && f.playbook === ROLLBACK.playbook)) Object.assign(tag, { rollback: true });
  const wrongPlaybook = findings.find((f) => !playbookOk(f, expect, isRight(f) && !anyRule));
  if (wrongPlaybook) return { verdict: 'wrong', got, why: `${wrongPlaybook.rule} offers ${wrongPlaybook.playbook}`, ...tag };
  const quoted = expect.decisive === undefined || quotes(first, expect.decisive);
  if (isRight(first) && quoted && named !== false) return { verdict: 'right', got, why: '', ...tag };
  const mentioned = findings.some((f) => isRight(f) || f.merged.some((x) => accepted.includes(x)));
  const quotedSomewhere = expect.decisive !== undefined && findings.some((f) => quotes(f, expect.decisive!));
  if (mentioned || quotedSomewhere) {
    const why = !isRight(first) ? `${expect.first} is not first` : !quoted ? 'the decisive line is not quoted' : 'the mechanism is not named in its own words';
    return { verdict: 'useful', got, why, ...tag };
  }
  return { verdict: 'wrong', got, why: `expected ${expect.first}`, ...tag };
}
