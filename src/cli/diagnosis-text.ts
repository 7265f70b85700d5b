// Terminal text of a diagnosis and the JSON shape, for `pod-doctor diagnose` (the console chat
// renders the same findings through the chat message model instead).
import { paint } from '../chat/adapters/console/style.js';
import type { Tone } from '../chat/types.js';
import { describeChange } from '../diagnosis/changes.js';
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import type { Recurrence } from '../jobs/schemas.js';
import { formatTarget } from '../kube/target.js';

type Style = Tone | 'bold' | 'dim';

export interface TextOptions {
  color?: boolean;
  /** Prefix each finding with its number (the console adapter's `approve <n>`). */
  numbered?: boolean;
  /** The incidents of the same cause the workers recorded (`diagnose` with Redis configured). */
  recurrence?: Recurrence;
  recurrenceError?: string;
}

export function renderFindingText(f: Finding, options: TextOptions = {}, index?: number): string {
  const c = (style: Style, s: string) => paint(style, s, Boolean(options.color));
  const lines: string[] = [];
  const num = options.numbered && index !== undefined ? `${index + 1}. ` : '';
  lines.push(`${num}${c(f.severity, f.severity.toUpperCase())} ${c('bold', f.title)} ${c('dim', `[${f.rule}]`)}`);
  lines.push(`   ${f.cause}`);
  if (f.evidence.length > 0) {
    lines.push(`   ${c('bold', 'Evidence')}`);
    for (const e of f.evidence) lines.push(`     ${c('dim', `${e.source}:`)}\n       > ${e.text.split('\n').join('\n       > ')}`);
  }
  if (f.advice.length > 0) {
    lines.push(`   ${c('bold', 'Do now')}`);
    for (const a of f.advice) lines.push(`     - ${a}`);
  }
  if (f.prevent.length > 0) {
    lines.push(`   ${c('bold', 'Prevent')}`);
    for (const p of f.prevent) lines.push(`     - ${p}`);
  }
  if (f.playbook) lines.push(`   ${c('pending', `Playbook: ${f.playbook}`)} (needs approval)`);
  if (f.merged.length > 0) lines.push(`   ${c('dim', `Also explains: ${f.merged.join(', ')}`)}`);
  if (f.alternatives?.length) lines.push(`   ${c('dim', `Also fits: ${f.alternatives.join(', ')} (no fix offered)`)}`);
  return lines.join('\n');
}

export function renderDiagnosisText(d: Diagnosis, options: TextOptions = {}): string {
  const c = (style: Style, s: string) => paint(style, s, Boolean(options.color));
  const out: string[] = [c('bold', `pod-doctor: ${formatTarget(d.target)} on cluster ${d.cluster}`)];
  if (d.missing) out.push(c('dim', `The pod does not exist; diagnosed through ${d.missing.via ?? 'its owner'}.`));
  if (options.recurrence) {
    const when = options.recurrence.previous.map((p) => `${p.at.slice(0, 10)} ${p.at.slice(11, 16)} UTC`).join(', ');
    const n = options.recurrence.count;
    out.push(c('warning', `It happened before: ${n} incident${n === 1 ? '' : 's'} of this cause in the last ${options.recurrence.days} days (began ${when}).`));
  }
  if (options.recurrenceError) out.push(c('dim', `Incident history not read: ${options.recurrenceError}`));
  if (d.findings.length === 0) out.push('No problem found: nothing the rules know of is wrong with it.');
  for (const [i, f] of d.findings.entries()) out.push('', renderFindingText(f, options, i));
  if (d.changes?.length) {
    out.push('', c('bold', 'What changed'));
    for (const change of d.changes) out.push(`  - ${describeChange(change)}`);
  }
  if (d.ignored?.length) {
    const why = (i: NonNullable<Diagnosis['ignored']>[number]) =>
      i.mark ? `marked not a problem by @${i.mark.user} until ${i.mark.until.slice(0, 10)}` : 'pod-doctor.io/ignore';
    out.push('', c('dim', `Not shown: ${d.ignored.map((i) => `${i.rule} on ${i.by} (${why(i)})`).join(', ')}`));
  }
  if (d.skipped.length > 0) {
    out.push('', c('dim', 'Checks that could not run:'));
    for (const g of d.skipped) out.push(c('dim', `  - ${g.check}: ${g.reason}`));
  }
  for (const e of d.ruleErrors) out.push(c('error', `rule ${e.rule} failed: ${e.error}`));
  return out.join('\n');
}

/** The JSON shape of `pod-doctor diagnose --json`. */
export function diagnosisJson(d: Diagnosis): object {
  return {
    target: d.target,
    cluster: d.cluster,
    at: d.at,
    ...(d.missing ? { missing: d.missing } : {}),
    findings: d.findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      title: f.title,
      cause: f.cause,
      evidence: f.evidence.map((e) => ({ source: e.source, text: e.text })),
      advice: f.advice,
      prevent: f.prevent,
      playbook: f.playbook,
      subject: f.subject,
      causeKey: f.causeKey,
      fingerprint: f.fingerprint,
      merged: f.merged,
      ...(f.alternatives?.length ? { alternatives: f.alternatives } : {}),
      ...(f.mechanism ? { mechanism: f.mechanism } : {}),
    })),
    ...(d.changes?.length ? { changes: d.changes } : {}),
    ...(d.ignored?.length ? { ignored: d.ignored } : {}),
    skipped: d.skipped,
    ruleErrors: d.ruleErrors,
  };
}
