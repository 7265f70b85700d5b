// Job payloads: versioned, validated on both ends. The bot validates before enqueueing; the
// worker validates again, because Redis is shared and a payload from an older or newer
// release (or a hand-edited job) must fail once, visibly, instead of being retried.
// Job data never holds secrets: only names, ids and times.
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import type { Diagnosis } from '../diagnosis/types.js';
import { Dns1123Label, TargetSchema } from '../kube/target.js';
import { TraceCarrier } from '../tracing/carrier.js';

/** Cluster names key queues and Redis keys: DNS-1123 labels, like POD_DOCTOR_CLUSTER. */
export const ClusterName = Dns1123Label;

const isoTime = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not an RFC 3339 time');
const text = (max: number) => z.string().min(1).max(max);

export const SlackRequester = z.object({
  kind: z.literal('slack'),
  user: text(64),
  channel: text(64),
  threadTs: text(64).optional(),
});

export const AlertRequester = z.object({
  kind: z.literal('alert'),
  groupKey: text(2048),
  /** Alertmanager's alert fingerprint (hex). */
  fingerprint: z.string().regex(/^[0-9A-Za-z]{1,64}$/),
  status: z.enum(['firing', 'resolved']),
  startsAt: isoTime,
  receiver: text(256),
  // Optional, set by the Alertmanager webhook (src/alerts/): where the group's thread lives.
  /** Chat channel of the group thread (absent: no route matched and no default channel). */
  channel: text(256).optional(),
  /** Stable id of the group state (cluster, channel, groupKey); the same id is in the alert-groups events. */
  groupId: z
    .string()
    .regex(/^[0-9a-f]{1,64}$/)
    .optional(),
  alertname: text(256).optional(),
  /** Set for one pod of a workload alert: then `fingerprint` is per pod and this is the alert's. */
  alertFingerprint: z
    .string()
    .regex(/^[0-9A-Za-z]{1,64}$/)
    .optional(),
  /** The workload alert this pod was found through: `deployment/ns/name`. */
  workload: text(512).optional(),
});

export const RequesterSchema = z.discriminatedUnion('kind', [SlackRequester, AlertRequester]);
export type Requester = z.infer<typeof RequesterSchema>;
export type AlertRequester = z.infer<typeof AlertRequester>;

export const DiagnoseReason = z.enum(['slash', 'alert', 'rerun', 'verify', 'cli']);
export type DiagnoseReason = z.infer<typeof DiagnoseReason>;

export const DiagnoseJobSchema = z.object({
  v: z.literal(1),
  cluster: ClusterName,
  target: TargetSchema,
  reason: DiagnoseReason,
  requester: RequesterSchema.optional(),
  requestedAt: isoTime,
  /**
   * The trace of the request that queued the job (W3C traceparent of its `job.enqueue` span).
   * Absent from older releases' jobs and with tracing off; a malformed one is dropped, never
   * costing the diagnosis.
   */
  trace: TraceCarrier.optional().catch(undefined),
});
export type DiagnoseJob = z.infer<typeof DiagnoseJobSchema>;

export const RemediateJobSchema = z.object({
  v: z.literal(1),
  cluster: ClusterName,
  /** Opaque id of a server-side proposal (the playbook runner owns its contents). */
  proposalId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
});
export type RemediateJob = z.infer<typeof RemediateJobSchema>;

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Worker side: a payload that does not parse is never retried. */
export function parseDiagnoseJob(data: unknown): DiagnoseJob {
  const result = DiagnoseJobSchema.safeParse(data);
  if (!result.success) throw new UnrecoverableError(`invalid diagnose job: ${describeIssues(result.error)}`);
  return result.data;
}

export function parseRemediateJob(data: unknown): RemediateJob {
  const result = RemediateJobSchema.safeParse(data);
  if (!result.success) throw new UnrecoverableError(`invalid remediate job: ${describeIssues(result.error)}`);
  return result.data;
}

// ---- Results (worker → chat side) ----

export type DiagnoseStatus = 'diagnosed' | 'not-found' | 'failed';

/** Pods that share one root cause (the primary finding's rule and cause key). */
export interface Incident {
  /** `cluster|rule|causeKey`: structured, stable while the cause lasts. */
  id: string;
  cluster: string;
  rule: string;
  causeKey: string;
  /** True for exactly one job: the one that opened the incident (post a thread); others update it. */
  created: boolean;
  /** Job that opened the incident (its thread is the incident's thread). */
  firstJobId: string;
  createdAt: string;
  /** Affected subjects (`pod/ns/name`) so far, counted exactly up to a bound. */
  count: number;
  /** The first affected subjects, oldest first (bounded list for display). */
  subjects: string[];
}

/**
 * A fix the worker proposed for a finding: a plan it made against the live cluster and stored
 * (the bot renders it and records approvals, it never proposes), or why none is offered.
 */
/** The same story before: this fingerprint's incidents in the last `days` days (this one included). */
export interface Recurrence {
  /** `rule|workload|node`. */
  fingerprint: string;
  count: number;
  days: number;
  /** Earlier incidents, newest first: their first job (its thread) and when they began. */
  previous: { jobId: string; at: string }[];
  /** The last approved fix run for this fingerprint, and whether its verification found it fixed. */
  lastFix?: { playbook: string; outcome: 'fixed' | 'not-fixed'; at: string };
}

export interface PlanOffer {
  fingerprint: string;
  playbook: string;
  planId?: string;
  /** Approvals the plan needs, its risk and when it expires (for the approval record). */
  approvals?: 1 | 2;
  risk?: string;
  expiresAt?: string;
  notOffered?: string;
}

export interface DiagnoseResult {
  job: DiagnoseJob;
  jobId: string;
  status: DiagnoseStatus;
  diagnosis?: Diagnosis;
  message?: string;
  /** Everyone who asked while this job was open (slash users, alert notifications). */
  requesters: Requester[];
  incident?: Incident;
  /** When the same cause hit the same workload (and node) before, within the window. */
  recurrence?: Recurrence;
  /** Fixes proposed for the top findings that name a playbook (made once, with the diagnosis). */
  offers?: PlanOffer[];
  /** The job's `job.diagnose` span, so the chat post joins its trace (absent with tracing off). */
  trace?: TraceCarrier;
}
