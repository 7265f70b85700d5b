// `npm run eval`: diagnoses every case of eval/corpus from its saved objects (the path of
// `pod-doctor diagnose --from`) and scores it. Prints one line a case, the totals per split,
// and as its last line one JSON object:
// {"cases","right","useful","silent","wrong","negatives","false_alarms","mechanism_cases","mechanism_named","rollback_offers"}.
// `mechanism_named` counts the cases of classes no rule names (`expect.mechanism`) whose first
// finding of warning or worse names the mechanism in its own words and quotes the decisive line.
//   --split dev|holdout|fresh|fresh2|fresh3|fresh4|fresh5  only that part of the corpus
//   --verbose             the first finding of every case that is not right
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ObjectsSource } from '../src/collect/objects-source.js';
import { parseTarget } from '../src/kube/target.js';
import { diagnoseTarget } from '../src/usecases/diagnose.js';
import { type EvalCase, loadCases } from './cases.js';
import { type Score, scoreCase } from './score.js';

export interface Totals {
  cases: number;
  right: number;
  useful: number;
  silent: number;
  wrong: number;
  negatives: number;
  false_alarms: number;
  mechanism_cases: number;
  mechanism_named: number;
  /** Cases where rollout.regression offered its rollback (not a wrong playbook; see score.ts). */
  rollback_offers: number;
}

export async function evaluate(c: EvalCase): Promise<{ score: Score; detail: string }> {
  let d;
  try {
    d = await diagnoseTarget(new ObjectsSource(c.objects, c.slug), parseTarget(c.meta.target), { cluster: 'eval', now: () => new Date(c.meta.now) });
  } catch (err) {
    // What `pod-doctor diagnose` exits 2 for (a target not found): no answer at all.
    const message = err instanceof Error ? err.message : String(err);
    const score: Score = c.meta.expect.first === null ? { verdict: 'quiet', got: 'error', why: message } : { verdict: 'silent', got: 'error', why: message };
    return { score, detail: message };
  }
  const first = d.findings[0];
  const detail = first
    ? `${first.rule} [${first.severity}] ${first.title}\n      ${first.evidence.map((e) => `${e.source}: ${e.text.split('\n').join(' ⏎ ')}`).join('\n      ')}`
    : '(no findings)';
  return { score: scoreCase(d, c.meta.expect), detail };
}

export function tally(scores: Score[]): Totals {
  const count = (v: Score['verdict']) => scores.filter((s) => s.verdict === v).length;
  const negatives = count('quiet') + count('false-alarm');
  return {
    cases: scores.length - negatives,
    right: count('right'),
    useful: count('useful'),
    silent: count('silent'),
    wrong: count('wrong'),
    negatives,
    false_alarms: count('false-alarm'),
    mechanism_cases: scores.filter((s) => s.mechanism !== undefined).length,
    mechanism_named: scores.filter((s) => s.mechanism === true && s.verdict === 'right').length,
    rollback_offers: scores.filter((s) => s.rollback === true).length,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { split: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
  const cases = (await loadCases(join(import.meta.dirname, 'corpus'))).filter((c) => !values.split || c.meta.split === values.split);
  const scored: { c: EvalCase; score: Score }[] = [];
  for (const c of cases) {
    const { score, detail } = await evaluate(c);
    scored.push({ c, score });
    const mark = score.verdict.padEnd(11);
    process.stdout.write(`${mark} ${c.slug.padEnd(48)} ${score.got}${score.why ? `  (${score.why})` : ''}\n`);
    if (values.verbose && score.verdict !== 'right' && score.verdict !== 'quiet') process.stdout.write(`      ${detail}\n`);
  }
  for (const split of ['dev', 'holdout', 'fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5'] as const) {
    const part = scored.filter((s) => s.c.meta.split === split).map((s) => s.score);
    if (part.length === 0) continue;
    const t = tally(part);
    process.stdout.write(
      `${split}: ${t.right}/${t.cases} right, ${t.useful} useful, ${t.silent} silent, ${t.wrong} wrong; ${t.false_alarms}/${t.negatives} false alarms` +
        `${t.mechanism_cases > 0 ? `; mechanism named ${t.mechanism_named}/${t.mechanism_cases}` : ''}\n`,
    );
  }
  const all = tally(scored.map((s) => s.score));
  const pct = all.cases > 0 ? Math.round((1000 * all.right) / all.cases) / 10 : 0;
  process.stdout.write(
    `all: ${all.right}/${all.cases} right (${pct}%), ${all.useful} useful, ${all.silent} silent, ${all.wrong} wrong; ${all.false_alarms}/${all.negatives} false alarms; ` +
      `mechanism named ${all.mechanism_named}/${all.mechanism_cases}\n`,
  );
  process.stdout.write(`${JSON.stringify(all)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
