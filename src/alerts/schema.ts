// Alertmanager webhook payload, version "4" (alertmanager notify/webhook + template.Data).
// Validated before anything is queued. Bounds keep one request from costing unbounded memory
// or Redis space; the byte limit of the HTTP edge comes first, these catch what fits in it.
// Unknown fields are accepted and dropped (newer Alertmanagers add fields; a receiver that
// refused them would turn an upgrade into lost alerts, since 4xx is never retried).
import { z } from 'zod';

export const PAYLOAD_LIMITS = {
  alerts: 5000,
  labelsPerAlert: 256,
  labelName: 256,
  labelValue: 4096,
  annotationsPerAlert: 256,
  annotationValue: 65_536,
  groupKey: 16_384,
  receiver: 1024,
  url: 8192,
} as const;

/** RFC 3339 as Go marshals time.Time (up to nanoseconds, `Z` or an offset). Kept verbatim: it is part of the HA dedup key. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const Time = z
  .string()
  .max(64)
  .refine((s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)), 'not an RFC 3339 time');

const boundedRecord = (value: z.ZodString, maxEntries: number, what: string) =>
  z.record(z.string().min(1).max(PAYLOAD_LIMITS.labelName), value).refine((o) => Object.keys(o).length <= maxEntries, `more than ${maxEntries} ${what}`);

export const LabelSet = boundedRecord(z.string().max(PAYLOAD_LIMITS.labelValue), PAYLOAD_LIMITS.labelsPerAlert, 'labels');
export const AnnotationSet = boundedRecord(z.string().max(PAYLOAD_LIMITS.annotationValue), PAYLOAD_LIMITS.annotationsPerAlert, 'annotations');

export const AlertStatus = z.enum(['firing', 'resolved']);
export type AlertStatus = z.infer<typeof AlertStatus>;

/** Alertmanager's label-set hash: 16 hex characters in practice. */
export const Fingerprint = z.string().regex(/^[0-9A-Za-z]{1,64}$/, 'expected 1-64 letters or digits');

export const WebhookAlert = z.object({
  status: AlertStatus,
  labels: LabelSet,
  annotations: AnnotationSet.default({}),
  startsAt: Time,
  /** `0001-01-01T00:00:00Z` while firing (Alertmanager zeroes a future end). */
  endsAt: Time.optional(),
  generatorURL: z.string().max(PAYLOAD_LIMITS.url).default(''),
  fingerprint: Fingerprint,
});
export type WebhookAlert = z.infer<typeof WebhookAlert>;

export const WebhookPayload = z.object({
  version: z.literal('4'),
  /** Arrives regexp-quoted (`regexp.QuoteMeta`): `team\.sre` for `team.sre`. */
  receiver: z.string().min(1).max(PAYLOAD_LIMITS.receiver),
  status: AlertStatus,
  alerts: z.array(WebhookAlert).min(1).max(PAYLOAD_LIMITS.alerts),
  groupLabels: LabelSet.default({}),
  commonLabels: LabelSet.default({}),
  commonAnnotations: AnnotationSet.default({}),
  externalURL: z.string().max(PAYLOAD_LIMITS.url).default(''),
  groupKey: z.string().min(1).max(PAYLOAD_LIMITS.groupKey),
  /** Alerts dropped by `max_alerts` (absent before Alertmanager v0.21). */
  truncatedAlerts: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  /** v0.32+: `first notification`, `new alerts added`, `some alerts resolved`, ... (snake_case on the wire). */
  notification_reason: z.string().max(256).optional(),
  /** v0.34+. */
  routeLabels: LabelSet.optional(),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** `alerts.3.labels.pod: Too big...; version: Invalid input` — the first few issues, bounded. */
export function summarizeIssues(error: z.ZodError, max = 5): string {
  const parts = error.issues.slice(0, max).map((i) => {
    const path = i.path.map(String).join('.') || '(root)';
    return `${path.length > 120 ? `${path.slice(0, 117)}...` : path}: ${i.message.slice(0, 200)}`;
  });
  const more = error.issues.length > max ? `; and ${error.issues.length - max} more` : '';
  return `${parts.join('; ')}${more}`;
}

export type ParsedPayload = { ok: true; payload: WebhookPayload } | { ok: false; reason: string };

export function parseWebhookPayload(data: unknown): ParsedPayload {
  const result = WebhookPayload.safeParse(data);
  if (!result.success) return { ok: false, reason: summarizeIssues(result.error) };
  return { ok: true, payload: result.data };
}

/** Undo `regexp.QuoteMeta` on the receiver name. */
export function unquoteReceiver(receiver: string): string {
  return receiver.replace(/\\(.)/g, '$1');
}
