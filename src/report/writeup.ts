// The post-incident write-up: a story read back from Redis (./story.ts) as Markdown — summary,
// impact, timeline, root cause with its quoted evidence, what changed, what was done, prevention
// and follow-ups. Pure: the same story gives the same text (`now` aside), redacted as a whole
// like every post, so the chat file and `pod-doctor report` print the same thing.
import { z } from 'zod';
import type { AuditEntry } from '../audit/entry.js';
import type { Finding } from '../diagnosis/types.js';
import type { DiagnoseResult } from '../jobs/schemas.js';
import { formatTarget } from '../kube/target.js';
import { redactText } from '../redact.js';
import type { RunEvent } from '../remediation/results.js';
import type { StoredResult, Story } from './story.js';

export const TIMELINE_KINDS = [
  'alert-fired',
  'alert-resolved',
  'command',
  'finding',
  'approval',
  'denial',
  'expiry',
  'mark',
  'run',
  'step',
  'verification',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  text: string;
}

export interface WriteUpOptions {
  /** When it was written (the header says so). */
  now?: number;
  /** Chat user id → display name, when the chat could tell (else the id is shown). */
  names?: Readonly<Record<string, string>>;
  /** `C0INCIDENT / 1700000000.000100` or a link: where the thread is. */
  where?: string;
}

const time = (at: string | number): string => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
};

function person(id: string, names: WriteUpOptions['names']): string {
  const name = names?.[id];
  return name ? `${name} (@${id})` : `@${id}`;
}

function people(ids: readonly string[], names: WriteUpOptions['names']): string {
  return ids.length ? ids.map((i) => person(i, names)).join(' and ') : 'nobody on record';
}

function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

/** One line: no newlines, no table breakers. */
const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();

function targetOf(r: DiagnoseResult): string {
  return formatTarget(r.job.target);
}

/** What a run event says in the timeline; null for the ones that add nothing. */
function runEntry(e: RunEvent, reason: string | undefined): Omit<TimelineEntry, 'at'> | null {
  switch (e.type) {
    case 'run-started':
      return { kind: 'run', text: `Playbook ${e.playbook} started on ${formatTarget(e.target)}${e.resumed ? ' (resumed after a restart)' : ''}` };
    case 'refused':
      return { kind: 'run', text: `Playbook refused before its first step: ${e.reason}` };
    case 'step-started':
      return null;
    case 'step-finished':
      return {
        kind: 'step',
        text: `Step ${e.index + 1} (${e.action}) ${e.state}${e.detail ? `: ${e.detail}` : ''}${e.error ? `: ${e.error}` : ''} (${duration(e.durationMs)})`,
      };
    case 'stopped':
      return { kind: 'run', text: `Run stopped: ${e.reason}` };
    case 'verified': {
      const now = e.targetGone
        ? 'the target is gone'
        : e.findings.length === 0
          ? 'no findings'
          : `findings now: ${e.findings.map((f) => `${f.rule} (${f.severity})`).join(', ')}`;
      return {
        kind: 'verification',
        text:
          e.outcome === 'fixed'
            ? `Verified fixed by a new diagnosis (${now})`
            : `Verified NOT fixed: still reported ${e.remaining.join(', ') || '(an expected state does not hold)'} (${now})`,
      };
    }
    case 'run-finished':
      return { kind: 'run', text: `Run finished: ${e.status}${reason ? ` (${reason})` : ''}` };
  }
}

function auditEntry(e: AuditEntry, names: WriteUpOptions['names']): Omit<TimelineEntry, 'at'> | null {
  const plan = `${e.playbook} (plan ${e.planId})`;
  const why = e.reason ? `: ${e.reason}` : '';
  switch (e.outcome) {
    case 'partial':
      return { kind: 'approval', text: `${people(e.actors, names)} approved ${plan}${why}; another approver needed` };
    case 'approved':
      return { kind: 'approval', text: `${plan} approved by ${people(e.actors, names)}; handed to the runner` };
    case 'not-allowed':
      return { kind: 'approval', text: `${people(e.actors, names)} tried to approve ${plan} but is not an approver; nothing was run` };
    case 'denied':
      return { kind: 'denial', text: `${plan} denied by ${people(e.actors, names)}${why}` };
    case 'explained':
      return { kind: 'denial', text: `Reason for the denial of ${plan} by ${people(e.actors, names)}${why}` };
    case 'expired':
      return { kind: 'expiry', text: `${plan} expired without a decision` };
    case 'not-a-problem':
      // For a mark, `playbook` is the finding's rule and `reason` the object and until when.
      return { kind: 'mark', text: `${e.playbook} marked not a problem by ${people(e.actors, names)}${e.reason ? ` ${e.reason}` : ''}` };
    default:
      // Runs are told step by step from their events; the audit's run entry is their record.
      return null;
  }
}

function resultEntries(s: StoredResult, names: WriteUpOptions['names']): TimelineEntry[] {
  const r = s.result;
  const out: TimelineEntry[] = [];
  const asked = (r.requesters ?? []).filter((q) => q.kind === 'slack').map((q) => q.user);
  if (r.job.reason === 'slash' || r.job.reason === 'rerun' || r.job.reason === 'cli') {
    const who = asked.length ? people([...new Set(asked)], names) : 'someone';
    const what = r.job.reason === 'rerun' ? 'asked to re-run the diagnosis of' : 'asked to diagnose';
    out.push({ at: r.job.requestedAt, kind: 'command', text: `${who} ${what} ${targetOf(r)}` });
  }
  const at = r.diagnosis?.at ?? new Date(s.at).toISOString();
  if (r.status === 'not-found') out.push({ at, kind: 'finding', text: `${targetOf(r)} not found${r.message ? `: ${r.message}` : ''}` });
  else if (r.status === 'failed' || !r.diagnosis)
    out.push({ at, kind: 'finding', text: `Diagnosis of ${targetOf(r)} failed${r.message ? `: ${r.message}` : ''}` });
  else {
    const [first, ...rest] = r.diagnosis.findings;
    out.push({
      at,
      kind: 'finding',
      text: first
        ? `${targetOf(r)}: ${first.severity.toUpperCase()} ${first.title} [${first.rule}]${rest.length ? ` (+${rest.length} more)` : ''}`
        : `${targetOf(r)}: no problem found`,
    });
  }
  return out;
}

function alertEntries(story: Story): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  const seen = new Set<string>();
  for (const { event: e } of story.alerts) {
    if (e.type === 'alerts-added') {
      for (const a of e.alerts) {
        const key = `f|${a.fingerprint}|${a.startsAt}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ at: a.startsAt, kind: 'alert-fired', text: `Alert ${a.alertname} fired${a.summary ? `: ${a.summary}` : ''}` });
      }
    } else if (e.type === 'alerts-resolved') {
      for (const a of e.alerts) {
        const key = `r|${a.fingerprint}|${a.startsAt}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ at: a.endsAt ?? e.at, kind: 'alert-resolved', text: `Alert ${a.alertname} resolved` });
      }
    } else if (e.type === 'group-resolved') {
      out.push({ at: e.at, kind: 'alert-resolved', text: 'Every alert of the group resolved' });
    }
  }
  return out;
}

/** Every entry of the story, oldest first (stable for equal times: the order they were read). */
export function timelineOf(story: Story, options: Pick<WriteUpOptions, 'names'> = {}): TimelineEntry[] {
  const { names } = options;
  const entries: TimelineEntry[] = [
    ...alertEntries(story),
    ...story.results.flatMap((s) => resultEntries(s, names)),
    ...story.audit.flatMap(({ entry }) => {
      const e = auditEntry(entry, names);
      return e ? [{ at: entry.at, ...e }] : [];
    }),
    ...story.runs.flatMap(({ event, reason }) => {
      const e = runEntry(event, reason);
      return e ? [{ at: event.at, ...e }] : [];
    }),
  ];
  return entries
    .map((e, i) => ({ e, i, t: Date.parse(e.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(({ e }) => e);
}

// ---- "what changed" (diagnosis.changes, added by the what-changed collector; read defensively) ----

const ChangeShape = z.object({
  at: z.string(),
  kind: z.string(),
  object: z.string(),
  text: z.string(),
  by: z.string().optional(),
  revision: z.number().optional(),
  explains: z.number().optional(),
});
export type ChangeLine = z.infer<typeof ChangeShape>;

/** The changes a diagnosis carries, when it carries any this release can read. */
export function changesOf(diagnosis: unknown): ChangeLine[] {
  const raw = (diagnosis as { changes?: unknown } | undefined)?.changes;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((c) => {
    const p = ChangeShape.safeParse(c);
    return p.success ? [p.data] : [];
  });
}

// ---- "it happened before" (result.recurrence, added by the recurrence store; read defensively) ----

const RecurrenceShape = z.object({
  count: z.number().int(),
  days: z.number(),
  previous: z.array(z.object({ jobId: z.string(), at: z.string() })).default([]),
});
export type RecurrenceLine = z.infer<typeof RecurrenceShape>;

/** The recurrence a result carries (the same cause on the same workload before), when one this release can read. */
export function recurrenceOf(result: unknown): RecurrenceLine | undefined {
  const p = RecurrenceShape.safeParse((result as { recurrence?: unknown } | undefined)?.recurrence);
  return p.success && p.data.count > 1 ? p.data : undefined;
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

// ---- the report ----

interface Facts {
  primary?: { finding: Finding; result: DiagnoseResult };
  pods: string[];
  alertNames: Map<string, number>;
  alertCount: number;
  start?: number;
  end?: number;
  firstFinding?: number;
  fixed?: { at: number; playbook: string };
  open: boolean;
}

function factsOf(story: Story, timeline: TimelineEntry[]): Facts {
  const diagnosed = story.results.filter((s) => s.result.diagnosis?.findings.some((f) => f.severity !== 'info'));
  const first = diagnosed[0];
  const finding = first?.result.diagnosis?.findings[0];
  const pods = new Set<string>();
  for (const { result } of story.results) {
    if (result.job.target.kind === 'pod' && result.status !== 'not-found') pods.add(formatTarget(result.job.target));
    for (const s of result.incident?.subjects ?? []) pods.add(s.replace(/^pod\//, ''));
  }
  const fired = new Map<string, string>();
  const resolved = new Set<string>();
  for (const { event: e } of story.alerts) {
    if (e.type === 'alerts-added') for (const a of e.alerts) fired.set(`${a.fingerprint}|${a.startsAt}`, a.alertname);
    if (e.type === 'alerts-resolved') for (const a of e.alerts) resolved.add(`${a.fingerprint}|${a.startsAt}`);
  }
  // Alerts that asked for a diagnosis without their group's events in the window still count.
  for (const { result } of story.results)
    for (const q of result.requesters ?? [])
      if (q.kind === 'alert' && q.status === 'firing') fired.set(`${q.fingerprint}|${q.startsAt}`, q.alertname ?? 'alert');
  const alertNames = new Map<string, number>();
  for (const name of fired.values()) alertNames.set(name, (alertNames.get(name) ?? 0) + 1);
  const times = timeline.map((e) => Date.parse(e.at)).filter((t) => Number.isFinite(t));
  const verified = story.runs.find((r) => r.event.type === 'verified' && r.event.outcome === 'fixed');
  const started = story.runs.find((r) => r.event.type === 'run-started' && r.event.runId === verified?.event.runId)?.event;
  const groupResolved = story.alerts.some((a) => a.event.type === 'group-resolved');
  const alertsOpen = fired.size > 0 && [...fired.keys()].some((k) => !resolved.has(k)) && !groupResolved;
  return {
    ...(first && finding ? { primary: { finding, result: first.result } } : {}),
    pods: [...pods].sort(),
    alertNames,
    alertCount: fired.size,
    ...(times.length ? { start: Math.min(...times), end: Math.max(...times) } : {}),
    ...(first ? { firstFinding: Date.parse(first.result.diagnosis?.at ?? '') || first.at } : {}),
    ...(verified ? { fixed: { at: Date.parse(verified.event.at), playbook: started?.type === 'run-started' ? started.playbook : 'the playbook' } } : {}),
    open: !verified && (alertsOpen || diagnosed.length > 0),
  };
}

function quote(text: string): string {
  return text
    .split('\n')
    .slice(0, 20)
    .map((l) => `> ${l}`)
    .join('\n');
}

/** What each offered plan came to: its decisions and its run, one bullet each. */
function doneLines(story: Story, names: WriteUpOptions['names']): string[] {
  const out: string[] = [];
  // The playbook each plan was offered as (the results' offers name it).
  const offered = new Map(story.results.flatMap((s) => (s.result.offers ?? []).flatMap((o) => (o.planId ? [[o.planId, o.playbook] as const] : []))));
  for (const planId of story.planIds) {
    const decisions = story.audit.filter((a) => a.entry.planId === planId).map((a) => a.entry);
    const name = offered.get(planId) ?? decisions[0]?.playbook ?? 'a playbook';
    const approved = decisions.find((d) => d.outcome === 'approved');
    const denied = decisions.find((d) => d.outcome === 'denied');
    const expired = decisions.find((d) => d.outcome === 'expired');
    const events = story.runs.filter((r) => r.event.runId === planId).map((r) => r.event);
    const steps = events.flatMap((e) => (e.type === 'step-finished' ? [`step ${e.index + 1} ${e.action} ${e.state}${e.detail ? ` (${e.detail})` : ''}`] : []));
    const verified = events.find((e) => e.type === 'verified');
    const ran = decisions.find((d) => d.kind === 'run');
    if (approved) {
      const result =
        verified?.type === 'verified' ? (verified.outcome === 'fixed' ? 'verified fixed' : 'verified NOT fixed') : (ran?.outcome ?? 'no run recorded');
      out.push(
        `Ran **${name}** (plan ${planId}), approved by ${people(approved.actors, names)} at ${time(approved.at)}` +
          `${steps.length ? `: ${steps.join('; ')}` : ''} — ${result}.`,
      );
    } else if (denied) {
      const reason = decisions.find((d) => d.outcome === 'explained')?.reason ?? denied.reason;
      out.push(
        `Proposed **${name}** (plan ${planId}): denied by ${people(denied.actors, names)} at ${time(denied.at)}${reason ? ` (${reason})` : ''}; ` +
          `nothing was changed.`,
      );
    } else if (expired) out.push(`Proposed **${name}** (plan ${planId}): expired without a decision; nothing was changed.`);
    else out.push(`Proposed **${name}** (plan ${planId}): no decision on record.`);
  }
  return out;
}

function followUps(story: Story, facts: Facts): string[] {
  const out: string[] = [];
  const notFixed = story.runs.filter((r) => r.event.type === 'verified' && r.event.outcome === 'not-fixed');
  if (notFixed.length) out.push('A fix ran but did not clear the finding: find the cause the re-diagnosis still reports.');
  const failed = story.audit.filter(
    (a) => a.entry.kind === 'run' && (a.entry.outcome === 'failed' || a.entry.outcome === 'stopped' || a.entry.outcome === 'refused'),
  );
  if (failed.length) out.push(`A run ${failed.map((f) => f.entry.outcome).join(', ')}: check why before the next incident needs it.`);
  if (facts.open) out.push('Not verified fixed yet: confirm the workload is healthy and close the incident.');
  const primary = facts.primary;
  const again = story.results.map((s) => recurrenceOf(s.result)).find(Boolean);
  if (again)
    out.push(`This cause came back (${again.count} times in ${again.days} days): make the prevention below stick, or the next one is already scheduled.`);
  if (primary && !primary.finding.playbook) out.push(`No playbook covers ${primary.finding.rule}: write one, or document the manual fix.`);
  const gaps = new Set(story.results.flatMap((s) => s.result.diagnosis?.skipped.map((g) => `${g.check}: ${g.reason}`) ?? []));
  for (const g of [...gaps].slice(0, 5)) out.push(`A check could not run (${g}): give pod-doctor the access, so the next diagnosis is complete.`);
  // A recurrence record (issue 36.2) links earlier occurrences here when the diagnosis carries one.
  return out;
}

/** The write-up of a story as Markdown (redacted). */
export function writeUp(story: Story, options: WriteUpOptions = {}): string {
  const { names } = options;
  const timeline = timelineOf(story, { names });
  const facts = factsOf(story, timeline);
  const primary = facts.primary;
  const cluster = story.scope.cluster;
  const title = primary ? primary.finding.title : story.results[0] ? `${targetOf(story.results[0].result)}` : 'incident';
  const lines: string[] = [];
  lines.push(`# Post-incident report: ${cell(title)}`);
  lines.push('');
  lines.push(
    `_Cluster ${cluster}${options.where ? ` · thread ${options.where}` : ''}${story.scope.incidentId ? ` · incident ${story.scope.incidentId}` : ''}` +
      ` · written by pod-doctor at ${time(options.now ?? Date.now())} from what it recorded_`,
  );
  lines.push('');

  lines.push('## Summary', '');
  if (!primary && story.results.length === 0) lines.push('Nothing pod-doctor recorded belongs to this thread any more (its records may have expired).');
  else {
    const where = primary ? targetOf(primary.result) : targetOf(story.results[0]!.result);
    const what = primary ? `${primary.finding.severity.toUpperCase()} ${primary.finding.title} on ${where}` : `${where}: no problem found`;
    const more = facts.pods.length > 1 ? ` (${facts.pods.length} pods with the same root cause)` : '';
    const fix = facts.fixed ? ` Fixed by ${facts.fixed.playbook}, verified at ${time(facts.fixed.at)}.` : facts.open ? ' Not verified fixed.' : '';
    lines.push(`${what}${more}.${primary ? ` ${primary.finding.cause}` : ''}${fix}`);
    const again = story.results.map((s) => recurrenceOf(s.result)).find(Boolean);
    if (again)
      lines.push(
        '',
        `It happened before: the ${ordinal(again.count)} time in ${again.days} days` +
          `${again.previous.length ? ` (earlier: ${again.previous.map((p) => time(p.at)).join(', ')})` : ''}.`,
      );
  }
  lines.push('');

  lines.push('## Impact', '');
  const morePods = facts.pods.length > 20 ? `, and ${facts.pods.length - 20} more` : '';
  lines.push(`- Pods: ${facts.pods.length}${facts.pods.length ? ` — ${facts.pods.slice(0, 20).join(', ')}${morePods}` : ''}`);
  lines.push(
    `- Alerts: ${facts.alertCount}${facts.alertNames.size ? ` — ${[...facts.alertNames].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(', ')}` : ''}`,
  );
  const span = facts.start !== undefined ? (facts.fixed?.at ?? facts.end ?? facts.start) - facts.start : Number.NaN;
  if (facts.start === undefined) lines.push('- Duration: unknown');
  else {
    const until = facts.fixed ? `verified fix ${time(facts.fixed.at)}` : facts.open ? 'still open' : time(facts.end ?? facts.start);
    lines.push(`- Duration: ${duration(span)} (${time(facts.start)} → ${until})`);
  }
  if (facts.start !== undefined && facts.firstFinding !== undefined) lines.push(`- Time to first finding: ${duration(facts.firstFinding - facts.start)}`);
  lines.push('');

  lines.push('## Timeline', '');
  if (timeline.length === 0) lines.push('_No recorded events._');
  else {
    lines.push('| Time (UTC) | What | Event |', '|---|---|---|');
    for (const e of timeline) lines.push(`| ${time(e.at).replace(' UTC', '')} | ${e.kind} | ${cell(e.text)} |`);
  }
  lines.push('');

  lines.push('## Root cause', '');
  if (!primary) lines.push('_No finding: pod-doctor named no cause._', '');
  else {
    const f = primary.finding;
    lines.push(`**${f.title}** (\`${f.rule}\`, ${f.severity})`, '', f.cause, '');
    for (const e of f.evidence) lines.push(`Evidence — ${cell(e.source)}:`, '', quote(e.text), '');
    if (f.merged.length) lines.push(`Also explains: ${f.merged.join(', ')}`, '');
  }

  lines.push('## What changed', '');
  const changes = story.results.flatMap((s) => changesOf(s.result.diagnosis));
  const seen = new Set<string>();
  const unique = changes.filter((c) => {
    const k = `${c.at}|${c.object}|${c.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (unique.length === 0) lines.push('_No change recorded in the window before the failure._');
  for (const c of unique)
    lines.push(
      `- ${time(c.at)} — ${cell(c.object)}: ${cell(c.text)}${c.by ? ` (by ${cell(c.by)})` : ''}` +
        `${c.explains !== undefined ? ` — the failure began ${duration(c.explains * 1000)} later` : ''}`,
    );
  lines.push('');

  lines.push('## What was done', '');
  const done = doneLines(story, names);
  if (done.length === 0) lines.push(primary?.finding.advice.length ? '_No fix was run through pod-doctor. Advised:_' : '_No fix was run through pod-doctor._');
  for (const d of done) lines.push(`- ${d}`);
  if (done.length === 0) for (const a of primary?.finding.advice ?? []) lines.push(`- ${a}`);
  lines.push('');

  lines.push('## Prevention', '');
  const prevent = primary?.finding.prevent ?? [];
  if (prevent.length === 0) lines.push('_The finding names no prevention._');
  for (const p of prevent) lines.push(`- ${p}`);
  lines.push('');

  lines.push('## Follow-ups', '');
  const follow = followUps(story, facts);
  if (follow.length === 0) lines.push('_None._');
  for (const f of follow) lines.push(`- [ ] ${f}`);
  lines.push('');
  return redactText(lines.join('\n'));
}
