// Alert-group events: the contract between the intake that publishes them (src/alerts/groups.ts,
// src/alerts/expand.ts) and the chat side that reads them (src/chat/alerts.ts). The schemas live
// apart from the group state so either side can change without touching the other's code.
//
// ---- Events (stream `<prefix>:<cluster>:alert-groups`, fields `type`, `groupId`, `event` JSON) ----
// Every event has: v: 1, type, cluster, channel (string | null), groupKey, groupId (thread key:
// one thread per groupId and episode), episode (1, 2... a group that resolved and fires again
// starts a new episode), at (ISO), receiver, externalURL, notificationReason (string | null),
// groupLabels.
//   group-opened     first firing alert of an episode: + commonLabels, reopened, summary
//   alerts-added     + alerts: AlertItem[] (new or re-fired, diagnosable: target + jobIds),
//                      notDiagnosable: {fingerprint, alertname, reason, labels}[] (each alert
//                      listed once per group), omitted (items beyond the cap), summary
//   alerts-resolved  + alerts: (AlertItem & {cancelledJobs})[], omitted, summary
//   truncated        + truncatedAlerts (> 0, and changed), summary
//   group-resolved   + summary: no alert of the group is firing any more
//   targets-expanded (from the worker, src/alerts/expand.ts) + fingerprint, alertname,
//                      workload {kind, namespace, name}, pods {name, jobId, reason}[],
//                      unhealthy, total, error (string | null)
// summary = {firing, resolved, diagnosable, notDiagnosable, truncatedAlerts,
//            byAlertname: {name: firing count}, byNamespace: {ns: firing count}} (top 20 each,
//            the rest under "(other)").
// An event's stream entry id is its version: the events of a cluster are appended in the order
// their group states were committed (one Lua script writes the state and appends its events), so
// the chat side applies an event's counts and status only when its id is newer than the one the
// group's parent shows, and a late or replayed event never moves a parent back.
// Diagnosis results keep coming on the results stream; their alert requesters carry the same
// groupId and channel, and storms are grouped by root cause (result.incident).
import type { Logger } from 'pino';
import { z } from 'zod';
import type { RedisClient } from '../redis/client.js';
import { consumeStream, type StreamConsumer } from '../redis/streams.js';
import { alertKeys } from './keys.js';
import { AlertStatus, Fingerprint } from './schema.js';

// ---- event schemas (the reader validates with them) ----

const Labels = z.record(z.string(), z.string());

export const TargetView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pod'), namespace: z.string(), name: z.string() }),
  z.object({ kind: z.literal('node'), name: z.string() }),
  z.object({ kind: z.literal('workload'), workloadKind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']), namespace: z.string(), name: z.string() }),
]);
export type TargetView = z.infer<typeof TargetView>;

export const AlertItem = z.object({
  fingerprint: Fingerprint,
  alertname: z.string(),
  status: AlertStatus,
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  severity: z.string().nullable(),
  namespace: z.string().nullable(),
  summary: z.string().nullable(),
  description: z.string().nullable(),
  generatorURL: z.string().nullable(),
  /** Bounded copy of the alert's labels (for display). */
  labels: Labels,
  target: TargetView.nullable(),
  /** Diagnosis jobs queued for it (pod and node targets). */
  jobIds: z.array(z.string()),
  /** Workload alerts: the job that finds the unhealthy pods (see targets-expanded). */
  expansionJobId: z.string().nullable(),
});
export type AlertItem = z.infer<typeof AlertItem>;

export const ResolvedItem = AlertItem.extend({ cancelledJobs: z.number().int() });
export type ResolvedItem = z.infer<typeof ResolvedItem>;

export const NotDiagnosableItem = z.object({ fingerprint: Fingerprint, alertname: z.string(), reason: z.string(), labels: Labels });
export type NotDiagnosableItem = z.infer<typeof NotDiagnosableItem>;

export const GroupSummary = z.object({
  firing: z.number().int(),
  resolved: z.number().int(),
  diagnosable: z.number().int(),
  notDiagnosable: z.number().int(),
  truncatedAlerts: z.number().int(),
  byAlertname: z.record(z.string(), z.number().int()),
  byNamespace: z.record(z.string(), z.number().int()),
});
export type GroupSummary = z.infer<typeof GroupSummary>;

const Base = {
  v: z.literal(1),
  cluster: z.string(),
  channel: z.string().nullable(),
  groupKey: z.string(),
  groupId: z.string(),
  episode: z.number().int(),
  at: z.string(),
};
const NotificationBase = {
  ...Base,
  receiver: z.string(),
  externalURL: z.string(),
  notificationReason: z.string().nullable(),
  groupLabels: Labels,
  summary: GroupSummary,
};

export const ExpandedPod = z.object({ name: z.string(), jobId: z.string(), reason: z.string() });
export type ExpandedPod = z.infer<typeof ExpandedPod>;

export const AlertGroupEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('group-opened'), ...NotificationBase, commonLabels: Labels, reopened: z.boolean() }),
  z.object({
    type: z.literal('alerts-added'),
    ...NotificationBase,
    alerts: z.array(AlertItem),
    notDiagnosable: z.array(NotDiagnosableItem),
    omitted: z.number().int(),
  }),
  z.object({ type: z.literal('alerts-resolved'), ...NotificationBase, alerts: z.array(ResolvedItem), omitted: z.number().int() }),
  z.object({ type: z.literal('truncated'), ...NotificationBase, truncatedAlerts: z.number().int() }),
  z.object({ type: z.literal('group-resolved'), ...NotificationBase }),
  z.object({
    type: z.literal('targets-expanded'),
    ...Base,
    fingerprint: Fingerprint,
    alertname: z.string(),
    workload: z.object({ kind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']), namespace: z.string(), name: z.string() }),
    pods: z.array(ExpandedPod),
    unhealthy: z.number().int(),
    total: z.number().int(),
    error: z.string().nullable(),
  }),
]);
export type AlertGroupEvent = z.infer<typeof AlertGroupEvent>;
export type AlertGroupEventType = AlertGroupEvent['type'];

// ---- reading the stream (chat side) ----

export interface StoredGroupEvent {
  /** Stream entry id: order, and the key to make handling idempotent. */
  id: string;
  event: AlertGroupEvent;
}

/** Parse one stream entry's fields; null for entries this version does not understand. */
export function parseGroupEventFields(fields: string[]): AlertGroupEvent | null {
  const i = fields.indexOf('event');
  const raw = i >= 0 ? fields[i + 1] : undefined;
  if (!raw) return null;
  try {
    const parsed = AlertGroupEvent.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Events after `after` (exclusive; default: from the start), oldest first. */
export async function readAlertGroupEvents(
  redis: RedisClient,
  options: { prefix: string; cluster: string; after?: string; count?: number },
): Promise<StoredGroupEvent[]> {
  const stream = alertKeys.stream(options.prefix, options.cluster);
  const start = options.after ? `(${options.after}` : '-';
  const entries = (await redis.xrange(stream, start, '+', 'COUNT', options.count ?? 1000)) as [string, string[]][];
  const out: StoredGroupEvent[] = [];
  for (const [id, fields] of entries) {
    const event = parseGroupEventFields(fields);
    if (event) out.push({ id, event });
  }
  return out;
}

export interface ConsumeGroupEventsOptions {
  /** A dedicated connection: XREADGROUP blocks it. */
  redis: RedisClient;
  prefix: string;
  cluster: string;
  /** Consumer group (one per bot deployment) and this process' name within it. */
  group: string;
  consumer: string;
  handler: (event: AlertGroupEvent, id: string) => Promise<void>;
  logger?: Logger;
  /** Entries another consumer took but did not ack for this long are taken over (ms). */
  claimIdleMs?: number;
  blockMs?: number;
}

/**
 * Reads the group events with a consumer group, like consumeResults: each event is handled
 * by one bot process and acknowledged after its handler resolves; a crashed consumer's events
 * are claimed by another. Per group, handle events in stream order (one consumer per cluster,
 * or serialise by groupId) so a thread exists before it is updated.
 */
export function consumeAlertGroupEvents(options: ConsumeGroupEventsOptions): StreamConsumer {
  return consumeStream({
    ...options,
    stream: alertKeys.stream(options.prefix, options.cluster),
    decode: (fields) => parseGroupEventFields(fields) ?? undefined,
    label: 'alert group event',
  });
}
