// What pod-doctor says in chat, as renderer-independent messages. Every message names the
// cluster, both in its parts and in its plain-text fallback.

import { describeChange } from '../../diagnosis/changes.js';
import type { Diagnosis, Finding, Severity, Target } from '../../diagnosis/types.js';
import type { Incident, PlanOffer, Recurrence } from '../../jobs/schemas.js';
import { formatTarget } from '../../kube/target.js';
import { describeCheck, type Plan } from '../../remediation/plan.js';
import type { RunEvent } from '../../remediation/runner.js';
import type { ApprovalRecord } from '../store/approvals.js';
import { type Button, type ChatMessage, type MessageRef, type Part, type Tone, threadRef, userRef } from '../types.js';

export const SEVERITY_WORD: Record<Severity, string> = { critical: 'CRITICAL', error: 'ERROR', warning: 'WARNING', info: 'INFO' };

/** `10:02:03 UTC` (chat shows times to people in many zones). */
export function clock(at: number | string | Date): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : `${d.toISOString().slice(11, 19)} UTC`;
}

/** `12 pods: shop/web-1, shop/web-2, shop/web-3 and 9 more`. */
export function compactSubjects(subjects: readonly string[], count: number, shown = 3): string {
  const names = subjects.map((s) => s.replace(/^pod\//, ''));
  const head = names.slice(0, shown);
  const more = Math.max(0, count - head.length);
  const noun = subjects.every((s) => s.startsWith('pod/')) ? (count === 1 ? 'pod' : 'pods') : count === 1 ? 'object' : 'objects';
  return `${count} ${noun}: ${head.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** `*`: anyone who can press the button (the console, where the local user decides). */
export const ANYONE = '*';

/** Who may approve, and which of them are user groups (the chat surface tells). */
export interface ApproverNames {
  ids: readonly string[];
  isGroup(id: string): boolean;
}

export function approverList({ ids, isGroup }: ApproverNames): string {
  if (ids.includes(ANYONE)) return 'anyone here';
  if (ids.length === 0) return 'nobody (set POD_DOCTOR_APPROVERS)';
  return ids.map((id) => (isGroup(id) ? `user group ${id}` : userRef(id))).join(', ');
}

// ---- thread roots ----

export type ThreadStatus = 'diagnosing' | 'diagnosed' | 'not-found' | 'failed';

/** What the root message of a diagnosis thread summarises; kept in Redis, re-rendered on change. */
export interface RootState {
  cluster: string;
  target: Target;
  requestedBy: string[];
  /** How the diagnosis was asked for: a person, a re-run, an alert. */
  origin: 'slash' | 'rerun' | 'alert' | 'other';
  status: ThreadStatus;
  severity?: Severity;
  primaryTitle?: string;
  primaryRule?: string;
  findings?: number;
  /** Failure or not-found text. */
  message?: string;
  /** Pods sharing the primary cause (storm grouping), when more than this one. */
  incident?: { count: number; subjects: string[] };
  /** Latest remediation line (approved, running, fixed…). */
  remediation?: { ok: boolean | null; text: string };
  updatedAt: string;
}

function summaryLine(s: RootState): { tone: Tone; text: string; plain: string } {
  const t = formatTarget(s.target);
  switch (s.status) {
    case 'diagnosing':
      return { tone: 'pending', text: `Diagnosing ${t}…`, plain: `diagnosing ${t}` };
    case 'not-found':
      return { tone: 'neutral', text: `${t}: not found. ${s.message ?? ''}`.trim(), plain: `${t} not found` };
    case 'failed':
      return { tone: 'error', text: `${t}: the diagnosis failed. ${s.message ?? ''}`.trim(), plain: `${t}: diagnosis failed` };
    case 'diagnosed':
      if (!s.severity || !s.primaryTitle) return { tone: 'ok', text: `${t}: no problem found`, plain: `${t}: no problem found` };
      return {
        tone: s.severity,
        text: `${SEVERITY_WORD[s.severity]} · ${s.primaryTitle}${s.findings && s.findings > 1 ? ` (+${s.findings - 1} more)` : ''}`,
        plain: `${t}: ${SEVERITY_WORD[s.severity]} ${s.primaryTitle}`,
      };
  }
}

export function rootMessage(s: RootState): ChatMessage {
  const line = summaryLine(s);
  const parts: Part[] = [{ kind: 'section', text: line.text, tone: line.tone }];
  if (s.remediation) parts.push({ kind: 'section', text: s.remediation.text, tone: s.remediation.ok === null ? 'pending' : s.remediation.ok ? 'ok' : 'error' });
  if (s.incident && s.incident.count > 1) parts.push({ kind: 'context', text: `Same root cause: ${compactSubjects(s.incident.subjects, s.incident.count)}` });
  const who = s.requestedBy.length > 0 ? ` · asked by ${s.requestedBy.map(userRef).join(', ')}` : s.origin === 'alert' ? ' · from an alert' : '';
  parts.push({
    kind: 'context',
    text:
      `pod-doctor · cluster ${s.cluster} · ${formatTarget(s.target)}${who}` +
      `${s.status === 'diagnosing' ? '' : ' · details in the thread'} · ${clock(s.updatedAt)}`,
  });
  return { text: `[${s.cluster}] ${line.plain}${s.remediation ? ` — ${s.remediation.text}` : ''}`, parts };
}

// ---- findings ----

/** A fix the worker proposed for a finding (its plan id), or why none is offered. */
export type { PlanOffer } from '../../jobs/schemas.js';

export interface FindingsOptions {
  /** Opaque id of the thread (the re-run button carries it). */
  threadId: string;
  offers?: PlanOffer[];
  incident?: Incident;
  /** The same cause hit the same workload before: the count, when, and prevention first. */
  recurrence?: Recurrence;
  /** Threads of the earlier incidents, by their first job id (those this chat still knows). */
  earlierThreads?: Readonly<Record<string, MessageRef>>;
  /** `Re-run by <@U1>` and the like. */
  note?: string;
  /** Fingerprint → the id of its Not a problem button (flows/not-a-problem.ts); a finding without one gets no button. */
  marks?: Readonly<Record<string, string>>;
}

/** `3rd`. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `3rd time in 7 days (before: 2026-11-24 14:03 UTC, 2026-11-20 09:12 UTC)`. */
export function recurrenceText(r: Recurrence, threads: Readonly<Record<string, MessageRef>> = {}): string {
  const before = r.previous
    .map((p) => {
      const thread = Object.hasOwn(threads, p.jobId) ? threads[p.jobId] : undefined;
      return `${p.at.slice(0, 10)} ${p.at.slice(11, 16)} UTC${thread ? ` ${threadRef(thread)}` : ''}`;
    })
    .join(', ');
  const fix = r.lastFix ? `; last fix: ${r.lastFix.playbook} (${r.lastFix.outcome === 'fixed' ? 'verified fixed' : 'not fixed by it'})` : '';
  return `${ordinal(r.count)} time in ${r.days} days${before ? ` (before: ${before})` : ''}${fix}: the prevention advice comes first.`;
}

function findingParts(f: Finding, i: number, offer: PlanOffer | undefined, preventFirst = false, markId?: string): Part[] {
  const parts: Part[] = [{ kind: 'section', text: `${i + 1}. ${SEVERITY_WORD[f.severity]} · ${f.title}  [${f.rule}]`, tone: f.severity }];
  parts.push({ kind: 'section', label: 'Cause', text: f.cause });
  for (const e of f.evidence) parts.push({ kind: 'quote', source: e.source, text: e.text });
  // A cause that keeps coming back: preventing the next one matters more than this one's fix.
  if (preventFirst && f.prevent.length > 0) parts.push({ kind: 'list', label: 'Prevent a repeat', items: f.prevent });
  if (f.advice.length > 0) parts.push({ kind: 'list', label: 'Do now', items: f.advice });
  if (!preventFirst && f.prevent.length > 0) parts.push({ kind: 'list', label: 'Prevent a repeat', items: f.prevent });
  const notes: string[] = [];
  if (f.playbook) {
    if (offer?.planId) notes.push(`Fix: playbook ${f.playbook}, approval requested below`);
    else if (offer?.notOffered) notes.push(`Playbook ${f.playbook} not offered: ${offer.notOffered}`);
    else notes.push(`Playbook ${f.playbook} (needs approval)`);
  }
  if (f.merged.length > 0) notes.push(`Also explains: ${f.merged.join(', ')}`);
  if (f.alternatives?.length) notes.push(`Also fits: ${f.alternatives.join(', ')} (no fix offered)`);
  if (notes.length > 0) parts.push({ kind: 'context', text: notes.join(' · ') });
  if (markId) parts.push({ kind: 'actions', buttons: [{ action: 'not-a-problem', label: 'Not a problem', value: markId }] });
  return parts;
}

/** `crash.app-exit on Deployment web (pod-doctor.io/ignore)`, `… (marked not a problem by <@U1> until 2026-12-29)`. */
export function ignoredText(ignored: NonNullable<Diagnosis['ignored']>): string {
  return ignored
    .map(
      (i) => `${i.rule} on ${i.by} (${i.mark ? `marked not a problem by ${userRef(i.mark.user)} until ${i.mark.until.slice(0, 10)}` : 'pod-doctor.io/ignore'})`,
    )
    .join(', ');
}

export function findingsMessage(d: Diagnosis, options: FindingsOptions): ChatMessage {
  const t = formatTarget(d.target);
  const parts: Part[] = [{ kind: 'header', text: `Diagnosis of ${t} (cluster ${d.cluster})` }];
  if (options.note) parts.push({ kind: 'context', text: options.note });
  if (options.incident && options.incident.count > 1) {
    parts.push({
      kind: 'section',
      label: 'Incident',
      text: `Same root cause as other pods — ${compactSubjects(options.incident.subjects, options.incident.count)}`,
      tone: 'warning',
    });
  }
  if (options.recurrence && options.recurrence.count > 1) {
    parts.push({ kind: 'section', label: 'It happened before', text: recurrenceText(options.recurrence, options.earlierThreads), tone: 'warning' });
  }
  if (d.findings.length === 0) parts.push({ kind: 'section', text: 'No problem found: nothing the rules know of is wrong with it.', tone: 'ok' });
  d.findings.forEach((f, i) => {
    if (i > 0) parts.push({ kind: 'divider' });
    parts.push(
      ...findingParts(
        f,
        i,
        options.offers?.find((o) => o.fingerprint === f.fingerprint),
        i === 0 && (options.recurrence?.count ?? 0) > 1,
        Object.hasOwn(options.marks ?? {}, f.fingerprint) ? options.marks?.[f.fingerprint] : undefined,
      ),
    );
  });
  if (d.changes?.length) parts.push({ kind: 'list', label: 'What changed', items: d.changes.map(describeChange) });
  if (d.ignored?.length) parts.push({ kind: 'context', text: `Not shown: ${ignoredText(d.ignored)}` });
  if (d.skipped.length > 0) parts.push({ kind: 'list', label: 'Checks that could not run', items: d.skipped.map((g) => `${g.check}: ${g.reason}`) });
  if (d.ruleErrors.length > 0) parts.push({ kind: 'list', label: 'Rules that failed', items: d.ruleErrors.map((e) => `${e.rule}: ${e.error}`) });
  parts.push({ kind: 'context', text: `pod-doctor · cluster ${d.cluster} · diagnosed ${clock(d.at)}` });
  parts.push({
    kind: 'actions',
    buttons: [
      { action: 'rerun', label: 'Re-run diagnosis', value: options.threadId },
      { action: 'writeup', label: 'Write-up', value: options.threadId },
    ],
  });
  const first = d.findings[0];
  const text = first
    ? `[${d.cluster}] ${t}: ${SEVERITY_WORD[first.severity]} ${first.title} — ${first.cause}` +
      `${d.findings.length > 1 ? ` (+${d.findings.length - 1} more findings)` : ''}`
    : `[${d.cluster}] ${t}: no problem found`;
  return { text, parts };
}

// ---- approvals ----

/** High risk or two people: a confirm dialog in front of Approve. */
export function isDangerous(plan: Pick<Plan, 'risk' | 'approvals'>): boolean {
  return plan.risk === 'high' || plan.approvals > 1;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function statusParts(a: ApprovalRecord, now: number): Part[] {
  const who = a.approvals.map((d) => `${userRef(d.user)} at ${clock(d.at)}`).join(' and ');
  switch (a.status) {
    case 'pending':
      if (now >= a.expiresAt)
        return [{ kind: 'section', text: `Expired at ${clock(a.expiresAt)} without approval. Re-run the diagnosis for a new proposal.`, tone: 'neutral' }];
      if (a.approvals.length === 0)
        return [
          { kind: 'section', text: `Waiting for ${a.required === 2 ? 'two approvers' : 'an approver'} (expires ${clock(a.expiresAt)}).`, tone: 'pending' },
        ];
      return [
        {
          kind: 'section',
          text:
            `Approved by ${who} (${a.approvals.length}/${a.required}); ` +
            `waiting for ${a.required - a.approvals.length} more approver (a different person; expires ${clock(a.expiresAt)}).`,
          tone: 'pending',
        },
      ];
    case 'approved':
      return [{ kind: 'section', text: `Approved by ${who}. Queued to run…`, tone: 'pending' }];
    case 'running':
      return [{ kind: 'section', text: `Approved by ${who}. Running…`, tone: 'pending' }];
    case 'done':
      return [
        { kind: 'section', text: `Approved by ${who}.`, tone: 'neutral' },
        { kind: 'section', text: a.outcome?.text ?? 'Finished.', tone: a.outcome?.ok ? 'ok' : 'error' },
      ];
    case 'denied':
      return [
        {
          kind: 'section',
          text:
            `Denied by ${userRef(a.denied?.user ?? '?')} at ${clock(a.denied?.at ?? now)}` +
            `${a.denied?.reason ? `: ${a.denied.reason}` : ''}. Nothing was changed.`,
          tone: 'neutral',
        },
      ];
    case 'expired':
      return [{ kind: 'section', text: `Expired at ${clock(a.expiresAt)} without approval. Re-run the diagnosis for a new proposal.`, tone: 'neutral' }];
  }
}

/** Approve/Deny for a plan; shows the dry run of exactly what will be done and the current state. */
export function approvalMessage(plan: Plan, a: ApprovalRecord, approvers: ApproverNames, now = Date.now()): ChatMessage {
  const t = formatTarget(plan.target);
  const dangerous = isDangerous(plan);
  const parts: Part[] = [
    { kind: 'header', text: `Proposed fix: ${plan.playbook.title}` },
    { kind: 'section', text: plan.summary },
  ];
  for (const w of plan.warnings) parts.push({ kind: 'section', label: 'Warning', text: w, tone: 'warning' });
  parts.push({
    kind: 'fields',
    fields: [
      { label: 'Target', value: `${t} (cluster ${plan.cluster})` },
      { label: 'Risk', value: plan.risk },
      { label: 'Approvals needed', value: plan.approvals === 2 ? '2 different people' : '1' },
      { label: 'Playbook', value: plan.playbook.id },
    ],
  });
  if (plan.preconditions.length > 0)
    parts.push({ kind: 'list', label: 'Re-checked right before the first step', items: plan.preconditions.map(describeCheck) });
  parts.push({ kind: 'code', label: 'Dry run: exactly what will be done', lines: plan.dryRun });
  const then = [
    `diagnose ${t} again`,
    ...(plan.verify.length ? [`fixed when ${plan.verify.join(', ')} no longer report${plan.verify.length > 1 ? '' : 's'}`] : []),
    ...plan.expect.map(describeCheck),
  ];
  parts.push({ kind: 'section', label: 'Then', text: then.join('; ') });
  parts.push(...statusParts(a, now));
  const open = a.status === 'pending' && now < a.expiresAt;
  if (open) {
    const approve: Button = {
      action: 'approve',
      label: `Approve: ${shorten(plan.playbook.title, 60)}`,
      value: plan.id,
      style: 'primary',
      ...(dangerous
        ? {
            confirm: {
              title: 'Run this playbook?',
              text: shorten(`${plan.summary} Risk ${plan.risk}${plan.approvals > 1 ? ', needs two approvers' : ''}. ${plan.warnings.join(' ')}`.trim(), 280),
              confirm: 'Approve',
              deny: 'Cancel',
            },
          }
        : {}),
    };
    parts.push({ kind: 'context', text: `pod-doctor · cluster ${plan.cluster} · plan ${plan.id} · may approve: ${approverList(approvers)}` });
    // Buttons last: when a message must be cut, trailing buttons are what is kept.
    parts.push({ kind: 'actions', buttons: [approve, { action: 'deny', label: 'Deny', value: plan.id, style: 'danger' }] });
  } else {
    parts.push({ kind: 'context', text: `pod-doctor · cluster ${plan.cluster} · plan ${plan.id}` });
  }
  const state = open ? `approval needed (${a.approvals.length}/${a.required})` : a.status;
  return { text: `[${plan.cluster}] ${t}: proposed fix "${plan.playbook.title}" (risk ${plan.risk}) — ${state}`, parts };
}

/** A one-line message in the thread: decisions, refusals, run progress. */
export function noteMessage(cluster: string, text: string, tone: Tone = 'neutral', extra: Part[] = []): ChatMessage {
  return { text: `[${cluster}] ${text}`, parts: [{ kind: 'section', text, tone }, ...extra] };
}

// ---- remediation progress ----

/** Thread lines for run events; null for events that are not worth a message. */
export function runEventNote(cluster: string, plan: Pick<Plan, 'playbook' | 'steps' | 'target'> | null, e: RunEvent): ChatMessage | null {
  const steps = plan?.steps.length ?? 0;
  const name = plan?.playbook.id ?? 'playbook';
  switch (e.type) {
    case 'run-started':
      return noteMessage(cluster, `Running ${e.playbook} on ${formatTarget(e.target)}${e.resumed ? ' (resumed after a restart)' : ''}…`, 'pending');
    case 'refused':
      return noteMessage(cluster, `Not run: ${e.reason}. Nothing was changed.`, 'warning');
    case 'step-started':
      return null;
    case 'step-finished':
      if (e.state === 'failed') return noteMessage(cluster, `Step ${e.index + 1}/${steps} (${e.action}) failed: ${e.error ?? 'unknown error'}`, 'error');
      return noteMessage(
        cluster,
        `Step ${e.index + 1}/${steps} (${e.action}) ${e.state === 'skipped' ? 'skipped' : 'done'}: ${e.detail ?? ''}`.trim(),
        'neutral',
      );
    case 'stopped':
      return noteMessage(cluster, `Stopped: ${e.reason}`, 'error');
    case 'verified': {
      const now = e.targetGone
        ? `${plan ? formatTarget(plan.target) : 'the target'} is gone`
        : e.findings.length === 0
          ? 'no findings'
          : `findings now: ${e.findings.map((f) => `${f.rule} (${f.severity})`).join(', ')}`;
      if (e.outcome === 'fixed') return noteMessage(cluster, `Fixed by ${name}: verified by a new diagnosis (${now}).`, 'ok');
      return noteMessage(
        cluster,
        `Not fixed by ${name}: ${e.remaining.length ? `still reported: ${e.remaining.join(', ')}` : 'an expected state does not hold'} (${now}).`,
        'error',
      );
    }
    case 'run-finished':
      return null;
  }
}

// ---- incidents ----

export interface IncidentState {
  cluster: string;
  incident: Incident;
  finding: Pick<Finding, 'title' | 'rule' | 'severity' | 'cause'>;
  updatedAt: string;
}

/** Root of an incident thread: one per root cause, listing the affected pods compactly. */
export function incidentRootMessage(s: IncidentState): ChatMessage {
  const pods = compactSubjects(s.incident.subjects, s.incident.count);
  return {
    text: `[${s.cluster}] Incident: ${SEVERITY_WORD[s.finding.severity]} ${s.finding.title} — ${pods}`,
    parts: [
      { kind: 'section', text: `Incident · ${SEVERITY_WORD[s.finding.severity]} · ${s.finding.title}`, tone: s.finding.severity },
      { kind: 'section', label: 'Affected', text: pods },
      {
        kind: 'context',
        text:
          `pod-doctor · cluster ${s.cluster} · ${s.finding.rule} · since ${clock(s.incident.createdAt)}` +
          ` · updated ${clock(s.updatedAt)} · details in the thread`,
      },
    ],
  };
}

// ---- replies to commands ----

export function helpMessage(cluster: string, defaultNamespace?: string): ChatMessage {
  const lines = [
    '/pod-doctor <namespace>/<pod> — diagnose a pod',
    `/pod-doctor <pod> — a pod in this channel's default namespace` +
      `${defaultNamespace ? ` (${defaultNamespace})` : ' (none set: POD_DOCTOR_DEFAULT_NAMESPACES)'}`,
    '/pod-doctor node/<name> — diagnose a node',
    '/pod-doctor ns/<name> — diagnose a namespace',
    '/pod-doctor help — this text',
  ];
  return {
    text: `[${cluster}] pod-doctor usage: ${lines.join(' | ')}`,
    parts: [
      { kind: 'section', text: `pod-doctor finds why a pod is stuck and proposes a fix that a person approves (cluster ${cluster}).` },
      { kind: 'list', items: lines },
      { kind: 'context', text: 'Findings appear in a thread under the message the command posts. Fixes run only after approval by a configured approver.' },
    ],
  };
}

export function badInputMessage(cluster: string, problem: string, defaultNamespace?: string): ChatMessage {
  const help = helpMessage(cluster, defaultNamespace);
  return { text: `[${cluster}] ${problem}`, parts: [{ kind: 'section', text: problem, tone: 'warning' }, ...help.parts.slice(1)] };
}

// ---- access refusals ----

/** Whom to ask about a refused target: where it may be diagnosed and by whom (the access policy's lists). */
export function askWhom(o: { channels: readonly string[]; usergroups: readonly string[] }): string {
  const who = o.usergroups.length ? `a member of ${o.usergroups.map((g) => `user group ${g}`).join(' or ')}` : '';
  const where = o.channels.length ? `in ${o.channels.map((c) => `channel ${c}`).join(' or ')}` : '';
  if (!who && !where) return "No channel or user group may diagnose it; ask the platform team to add it to pod-doctor's access policy.";
  return `Ask ${[who, where].filter(Boolean).join(', ')}.`;
}

/**
 * A command, re-run or click the access policy refused, told only to the person: what was
 * refused, the rule that refused it, whom to ask, and that nothing happened.
 */
export function accessRefusedMessage(cluster: string, r: { what: string; why: string; ask: string; nothing: string }): ChatMessage {
  return noteMessage(cluster, `Not allowed: ${r.what}. ${r.why} (access policy). ${r.ask} ${r.nothing}`, 'warning');
}

/**
 * A refusal because the user groups someone's right rests on could not be looked up (fail closed):
 * nothing is wrong with them, so it says to try again rather than whom to ask.
 */
export function accessUnverifiedText(r: { what: string; groups: readonly string[]; nothing: string; service?: string }): string {
  const names = r.groups.map((g) => `user group ${g}`).join(' and ');
  return (
    `Can't check that you may ${r.what}: ${r.service ?? 'Slack'} did not answer the lookup of ${names} just now, and your access depends on it. ${r.nothing} ` +
    'Try again in a moment; if it keeps failing, tell whoever runs pod-doctor.'
  );
}

export function accessUnverifiedMessage(cluster: string, r: Parameters<typeof accessUnverifiedText>[0]): ChatMessage {
  return noteMessage(cluster, accessUnverifiedText(r), 'warning');
}

export function notFoundMessage(cluster: string, target: Target, message: string | undefined, defaultNamespace?: string): ChatMessage {
  const t = formatTarget(target);
  const hint =
    target.kind === 'pod'
      ? `Check the namespace and the exact pod name (\`kubectl get pods -n ${target.namespace}\`); pods of a Deployment have generated names.` +
        (defaultNamespace && defaultNamespace === target.namespace
          ? ` This channel's default namespace is ${defaultNamespace}; name another one as <namespace>/<pod>.`
          : '')
      : 'Check the name.';
  return noteMessage(cluster, `${t} was not found on cluster ${cluster}. ${message ?? ''}`.trim(), 'warning', [{ kind: 'context', text: hint }]);
}

// ---- Alertmanager groups ----

/** One root cause among a group's diagnoses (storm grouping), for the group's summary. */
export interface GroupCause {
  key: string;
  title: string;
  rule: string;
  severity: Severity;
  count: number;
  subjects: string[];
}

/** What the parent of an Alertmanager group's thread summarises. */
export interface AlertGroupState {
  cluster: string;
  groupId: string;
  episode: number;
  status: 'firing' | 'resolved';
  receiver?: string;
  groupLabels: Record<string, string>;
  byAlertname: Record<string, number>;
  /** Every alert name the group had (the resolved summary still names them). */
  alertnames: string[];
  firing: number;
  resolved: number;
  notDiagnosable: number;
  truncatedAlerts: number;
  causes: GroupCause[];
  /** Diagnoses that found nothing wrong, targets that were gone, diagnoses that failed. */
  healthy: number;
  notFound: number;
  failed: number;
  since: string;
  updatedAt: string;
  /**
   * The alert-groups stream entry whose counts and status the parent shows: an older event
   * handled late (a retry after newer ones) never moves the parent back.
   */
  eventId?: string;
}

function labelsText(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return parts.length ? `{${parts.join(', ')}}` : '{}';
}

/** Causes shown on a group's parent, most pods first. */
export const GROUP_CAUSES_SHOWN = 8;

export function alertGroupRootMessage(s: AlertGroupState): ChatMessage {
  const firingNames = Object.entries(s.byAlertname).filter(([, c]) => c > 0);
  const names: [string, number][] =
    firingNames.length > 0 && s.status === 'firing' ? firingNames.sort((a, b) => b[1] - a[1]) : (s.alertnames ?? []).map((n) => [n, 0]);
  const nameText = names.length
    ? names
        .slice(0, 4)
        .map(([n, c]) => (c > 1 ? `${n} (${c})` : n))
        .join(', ') + (names.length > 4 ? ` and ${names.length - 4} more` : '')
    : 'alerts';
  const counts =
    `${s.firing} firing${s.resolved ? `, ${s.resolved} resolved` : ''}` +
    `${s.notDiagnosable ? `, ${s.notDiagnosable} not diagnosable` : ''}` +
    `${s.truncatedAlerts ? `, ${s.truncatedAlerts} left out by Alertmanager` : ''}`;
  const head = s.status === 'resolved' ? `Resolved: ${nameText}` : `${nameText}: ${counts}`;
  const parts: Part[] = [
    { kind: 'section', text: head, tone: s.status === 'resolved' ? 'ok' : s.causes.some((c) => c.severity === 'critical') ? 'critical' : 'warning' },
  ];
  const causes = [...s.causes].sort((a, b) => b.count - a.count);
  if (causes.length > 0) {
    const items = causes.slice(0, GROUP_CAUSES_SHOWN).map((c) => `${SEVERITY_WORD[c.severity]} ${c.title} — ${compactSubjects(c.subjects, c.count)}`);
    if (causes.length > GROUP_CAUSES_SHOWN) items.push(`… and ${causes.length - GROUP_CAUSES_SHOWN} more root causes`);
    parts.push({ kind: 'list', label: causes.length === 1 ? 'Root cause' : `Root causes (${causes.length})`, items });
  }
  const other = [
    s.healthy ? `${s.healthy} with no problem found` : '',
    s.notFound ? `${s.notFound} already gone` : '',
    s.failed ? `${s.failed} could not be diagnosed` : '',
  ].filter(Boolean);
  if (other.length) parts.push({ kind: 'context', text: `Diagnosed: ${other.join(', ')}` });
  parts.push({
    kind: 'context',
    text:
      `pod-doctor · cluster ${s.cluster} · Alertmanager group ${labelsText(s.groupLabels)}${s.receiver ? ` · receiver ${s.receiver}` : ''}` +
      ` · since ${clock(s.since)} · updated ${clock(s.updatedAt)} · details in the thread`,
  });
  const top = causes[0];
  return { text: `[${s.cluster}] ${head}${top ? ` — ${top.title}${causes.length > 1 ? ` (+${causes.length - 1} more causes)` : ''}` : ''}`, parts };
}

/** What a thread's parent message shows: a diagnosis, an incident, or an Alertmanager group. */
export type ThreadState = ({ kind: 'diagnosis' } & RootState) | ({ kind: 'incident' } & IncidentState) | ({ kind: 'alert-group' } & AlertGroupState);
