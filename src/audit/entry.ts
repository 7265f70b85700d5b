// One audit record: who decided what about which plan, or how its run ended. The same entry is
// the audit stream's JSON, the line `pod-doctor audit export` prints and the source of the
// Kubernetes Event on the plan's target; validated wherever it is read back.
import { z } from 'zod';
import { Dns1123Label, type Target, TargetSchema } from '../kube/target.js';

export const AUDIT_KINDS = ['approval', 'denial', 'expiry', 'run', 'mark'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * What came of it. approval: `partial` (more approvers needed), `approved`, `not-allowed` (the
 * clicker may not approve); denial: `denied`, `explained` (the reason given after the click);
 * expiry: `expired`; run: its verification or why it stopped; mark: `not-a-problem` (a finding
 * marked as a false positive in chat: `planId` is the mark's id, `playbook` its rule, `reason` the
 * object it holds for and until when).
 */
export const AUDIT_OUTCOMES = {
  approval: ['partial', 'approved', 'not-allowed'],
  denial: ['denied', 'explained'],
  expiry: ['expired'],
  run: ['fixed', 'not-fixed', 'refused', 'failed', 'stopped'],
  mark: ['not-a-problem'],
} as const satisfies Record<AuditKind, readonly string[]>;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[AuditKind][number];

const ALL_OUTCOMES = Object.values(AUDIT_OUTCOMES).flat() as [AuditOutcome, ...AuditOutcome[]];

const isoTime = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not an RFC 3339 time');

export const AuditEntrySchema = z
  .object({
    /** When it was recorded (RFC 3339). */
    at: isoTime,
    cluster: Dns1123Label,
    kind: z.enum(AUDIT_KINDS),
    planId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
    playbook: z.string().min(1).max(128),
    target: TargetSchema,
    /** UID of the object the plan was made for, when the plan pins one (involvedObject.uid). */
    uid: z.string().max(64).optional(),
    /** Chat user ids: who decided; for a run, who approved it. Empty for an expiry. */
    actors: z.array(z.string().min(1).max(128)).max(16),
    outcome: z.enum(ALL_OUTCOMES),
    reason: z.string().max(1000).optional(),
  })
  .refine((e) => (AUDIT_OUTCOMES[e.kind] as readonly string[]).includes(e.outcome), { message: 'outcome does not belong to the kind', path: ['outcome'] });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The plan an entry is about: what the runner's plan gives (src/remediation/audit.ts). */
export interface AuditSubject {
  planId: string;
  playbook: string;
  target: Target;
  uid?: string;
}

/** Warning when the cluster is left as it was or worse; Normal when people agreed or it was fixed. */
export function eventTypeOf(entry: Pick<AuditEntry, 'outcome'>): 'Normal' | 'Warning' {
  return entry.outcome === 'partial' ||
    entry.outcome === 'approved' ||
    entry.outcome === 'fixed' ||
    entry.outcome === 'explained' ||
    entry.outcome === 'not-a-problem'
    ? 'Normal'
    : 'Warning';
}

const people = (actors: readonly string[]) => (actors.length ? actors.join(', ') : 'nobody on record');

/** One line naming the plan, the playbook, the people and the outcome (the Event's message). */
export function describeEntry(e: AuditEntry): string {
  const plan = `Plan ${e.planId} (${e.playbook})`;
  const why = e.reason ? `: ${e.reason}` : '';
  switch (e.outcome) {
    case 'partial':
      return `${plan} approved by ${people(e.actors)}; another approver is needed${why}`;
    case 'approved':
      return `${plan} approved by ${people(e.actors)}; handed to the runner${why}`;
    case 'not-allowed':
      return `${plan}: ${people(e.actors)} tried to approve but is not an approver; nothing was run${why}`;
    case 'denied':
      return `${plan} denied by ${people(e.actors)}${why}. Nothing was changed`;
    case 'explained':
      return `${plan}: reason for the denial by ${people(e.actors)}${why}`;
    case 'expired':
      return `${plan} expired without approval${why}. Nothing was changed`;
    case 'not-a-problem':
      return `Findings of rule ${e.playbook} marked not a problem by ${people(e.actors)}${why}`;
    default:
      return `${plan} run, approved by ${people(e.actors)}: ${e.outcome}${why}`;
  }
}
