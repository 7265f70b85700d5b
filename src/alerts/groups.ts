// Alert groups: one state per (cluster, channel, Alertmanager groupKey), and the events the
// chat side turns into one thread per group.
//
// State (Redis hash `<prefix>:<cluster>:alert-group:<groupId>`): version `v`, `status`,
// `episode`, `truncated` (last truncatedAlerts), `reason` (last notification_reason), and one
// field per alert `a:<fingerprint>` → {status, startsAt, alertname, namespace, target, ...}.
//
// A notification is applied optimistically: read the state, work out what changed (new or
// re-fired alerts, resolved ones), queue or cancel the work for those changes (idempotent:
// enqueueDiagnosis dedups by (fingerprint, status, startsAt), expansion jobs have fixed ids),
// then one Lua script writes the new state AND appends the events, only if the version is
// still the one read. An HA replica sending the same notification at the same moment loses
// the race, re-reads, finds nothing new and writes nothing: events are published exactly once,
// while the work is made sure of by whoever gets there (at least once, deduplicated).
// A crash between queueing and the commit leaves no 200 behind: Alertmanager retries, the
// retry finds the same changes, queueing is a no-op, and the commit happens then.
//
// The events (types, fields, stream) are described with their schemas in ./group-events.ts.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { RedisClient } from '../redis/client.js';
import { lua, runScript } from '../redis/lua.js';
import type { AlertGroupEvent, AlertItem, GroupSummary, NotDiagnosableItem, ResolvedItem, TargetView } from './group-events.js';
import { alertKeys, groupIdOf } from './keys.js';
import { AlertStatus, type WebhookAlert } from './schema.js';
import { type AlertTarget, describeAlertTarget } from './targets.js';

// ---- stored state ----

const AlertRecord = z.object({
  s: AlertStatus,
  at: z.string(),
  end: z.string().nullable().optional(),
  name: z.string(),
  ns: z.string().nullable().optional(),
  /** describeAlertTarget, or null when not diagnosable. */
  t: z.string().nullable(),
  /** Listed as not diagnosable in this group already. */
  listed: z.boolean().optional(),
  /** Last change, ms (pruning of resolved records). */
  ch: z.number(),
});
type AlertRecord = z.infer<typeof AlertRecord>;

const ALERT_FIELD = 'a:';

export interface IncomingAlert {
  alert: WebhookAlert;
  target: AlertTarget;
}

export interface GroupInput {
  cluster: string;
  channel: string | null;
  groupKey: string;
  receiver: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  externalURL: string;
  notificationReason?: string | undefined;
  truncatedAlerts: number;
  alerts: IncomingAlert[];
}

export interface WorkContext {
  groupId: string;
  cluster: string;
  channel: string | null;
  groupKey: string;
  receiver: string;
}

/** What the group asks of the job system: queue work for a firing alert, cancel it when it resolves. */
export interface GroupWork {
  start(alert: IncomingAlert, ctx: WorkContext): Promise<{ jobIds: string[]; expansionJobId?: string }>;
  /** Mark resolved and cancel queued work of (fingerprint, startsAt) for each given startsAt; returns jobs cancelled. */
  stop(fingerprint: string, startsAts: string[], ctx: WorkContext): Promise<number>;
}

export interface GroupSettings {
  prefix: string;
  /** Group state is kept this long after its last change while alerts fire (ms). */
  ttlMs: number;
  /** Resolved alerts (and fully resolved groups) are remembered this long (ms), for late HA repeats. */
  resolvedKeepMs: number;
  streamMaxLen: number;
  /** Alerts whose work is queued at once. */
  concurrency?: number;
  /** Items per event; the rest are counted in `omitted`. */
  maxItems?: number;
  logger?: Logger;
}

export const DEFAULT_GROUP_SETTINGS: Omit<GroupSettings, 'prefix'> = {
  ttlMs: 86_400_000,
  resolvedKeepMs: 6 * 3600_000,
  streamMaxLen: 100_000,
  concurrency: 16,
  maxItems: 1000,
};

export interface GroupOutcome {
  groupId: string;
  episode: number;
  events: AlertGroupEvent[];
  /** Alerts new or re-fired in this notification. */
  added: number;
  resolved: number;
  repeats: number;
  notDiagnosable: number;
  jobs: number;
  cancelled: number;
  /** Commit attempts (more than 1: a concurrent notification of the same group won a race). */
  attempts: number;
}

// KEYS: 1 group hash, 2 stream. ARGV: 1 expected version, 2 ttl ms, 3 stream maxlen,
// 4 number of field/value pairs to set, 5 number of fields to delete, 6 number of events,
// then the pairs, the fields, and (type, groupId, json) per event.
// Returns 1 (applied) or 0 (the state changed since it was read).
const COMMIT = lua(
  `local H, S = KEYS[1], KEYS[2]
if (redis.call('HGET', H, 'v') or '0') ~= ARGV[1] then return 0 end
local nset, ndel, nev = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local i = 7
for _ = 1, nset do redis.call('HSET', H, ARGV[i], ARGV[i + 1]) i = i + 2 end
for _ = 1, ndel do redis.call('HDEL', H, ARGV[i]) i = i + 1 end
for _ = 1, nev do
  redis.call('XADD', S, 'MAXLEN', '~', ARGV[3], '*', 'type', ARGV[i], 'groupId', ARGV[i + 1], 'event', ARGV[i + 2])
  i = i + 3
end
redis.call('HINCRBY', H, 'v', 1)
redis.call('PEXPIRE', H, tonumber(ARGV[2]))
return 1`,
  2,
);

const MAX_ATTEMPTS = 8;
const TOP = 20;

function clip(s: string | undefined, max: number): string | null {
  if (!s) return null;
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function boundedLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels).slice(0, 40)) out[k.slice(0, 128)] = clip(v, 256) ?? '';
  return out;
}

export function targetView(t: AlertTarget): TargetView | null {
  switch (t.kind) {
    case 'pod':
      return { kind: 'pod', namespace: t.target.namespace, name: t.target.name };
    case 'node':
      return { kind: 'node', name: t.target.name };
    case 'workload':
      return { kind: 'workload', workloadKind: t.workload.kind, namespace: t.workload.namespace, name: t.workload.name };
    case 'none':
      return null;
  }
}

function alertName(a: WebhookAlert): string {
  return a.labels.alertname || '(no alertname)';
}

function toItem(a: IncomingAlert, namespaceLabel: string | null, work: { jobIds: string[]; expansionJobId?: string } | undefined): AlertItem {
  const { alert } = a;
  const zeroEnd = !alert.endsAt || alert.endsAt.startsWith('0001-');
  return {
    fingerprint: alert.fingerprint,
    alertname: alertName(alert),
    status: alert.status,
    startsAt: alert.startsAt,
    endsAt: zeroEnd ? null : (alert.endsAt ?? null),
    severity: clip(alert.labels.severity, 64),
    namespace: namespaceLabel,
    summary: clip(alert.annotations.summary, 500),
    description: clip(alert.annotations.description ?? alert.annotations.message, 1000),
    generatorURL: clip(alert.generatorURL, 2048),
    labels: boundedLabels(alert.labels),
    target: targetView(a.target),
    jobIds: work?.jobIds ?? [],
    expansionJobId: work?.expansionJobId ?? null,
  };
}

function namespaceOf(a: IncomingAlert): string | null {
  if (a.target.kind === 'pod') return a.target.target.namespace;
  if (a.target.kind === 'workload') return a.target.workload.namespace;
  return clip(a.alert.labels.namespace, 253);
}

function topCounts(values: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const out: Record<string, number> = {};
  for (const [k, n] of sorted.slice(0, TOP)) out[k] = n;
  const rest = sorted.slice(TOP).reduce((sum, [, n]) => sum + n, 0);
  if (rest > 0) out['(other)'] = rest;
  return out;
}

export function summarize(records: Iterable<AlertRecord>, truncatedAlerts: number): GroupSummary {
  const firing: AlertRecord[] = [];
  let resolved = 0;
  for (const r of records) {
    if (r.s === 'firing') firing.push(r);
    else resolved += 1;
  }
  const diagnosable = firing.filter((r) => r.t !== null).length;
  return {
    firing: firing.length,
    resolved,
    diagnosable,
    notDiagnosable: firing.length - diagnosable,
    truncatedAlerts,
    byAlertname: topCounts(firing.map((r) => r.name)),
    byNamespace: topCounts(firing.map((r) => r.ns ?? '(none)')),
  };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, run));
  return out;
}

interface ReadState {
  version: string;
  status: string | undefined;
  episode: number;
  truncated: number;
  records: Map<string, AlertRecord>;
}

async function readState(redis: RedisClient, key: string): Promise<ReadState> {
  const raw = await redis.hgetall(key);
  const records = new Map<string, AlertRecord>();
  for (const [field, value] of Object.entries(raw)) {
    if (!field.startsWith(ALERT_FIELD)) continue;
    try {
      const parsed = AlertRecord.safeParse(JSON.parse(value));
      if (parsed.success) records.set(field.slice(ALERT_FIELD.length), parsed.data);
    } catch {
      // a record this version cannot read counts as unseen
    }
  }
  return { version: raw.v ?? '0', status: raw.status, episode: Number(raw.episode ?? 0) || 0, truncated: Number(raw.truncated ?? 0) || 0, records };
}

type Change = 'new' | 'repeat' | 'resolved' | 'resolved-unseen';

function classify(alert: WebhookAlert, prev: AlertRecord | undefined): Change {
  if (prev && prev.s === alert.status && prev.at === alert.startsAt) return 'repeat';
  // An occurrence that resolved stays resolved: a firing copy of it is an HA replica's late
  // notification. Firing again means a new startsAt (Prometheus starts a new occurrence).
  if (prev && prev.s === 'resolved' && prev.at === alert.startsAt) return 'repeat';
  if (alert.status === 'firing') return 'new';
  return prev?.s === 'firing' ? 'resolved' : 'resolved-unseen';
}

type ChangeOf = { a: IncomingAlert; prev: AlertRecord | undefined; change: Change };

/** Apply one notification's alerts (already split by cluster and channel) to their group. */
export async function processGroup(
  redis: RedisClient,
  settings: GroupSettings,
  input: GroupInput,
  work: GroupWork,
  now: () => number = Date.now,
): Promise<GroupOutcome> {
  const groupId = groupIdOf(input.cluster, input.channel, input.groupKey);
  const key = alertKeys.group(settings.prefix, input.cluster, groupId);
  const ctx: WorkContext = { groupId, cluster: input.cluster, channel: input.channel, groupKey: input.groupKey, receiver: input.receiver };
  // One entry per fingerprint (the last wins), as Alertmanager sends them.
  const alerts = [...new Map(input.alerts.map((a) => [a.alert.fingerprint, a])).values()];

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const state = await readState(redis, key);
    const changes: ChangeOf[] = alerts.map((a) => ({
      a,
      prev: state.records.get(a.alert.fingerprint),
      change: classify(a.alert, state.records.get(a.alert.fingerprint)),
    }));
    const truncChanged = input.truncatedAlerts !== state.truncated;
    const repeats = changes.filter((c) => c.change === 'repeat').length;
    if (repeats === changes.length && !truncChanged) {
      // Nothing new (an HA duplicate or a repeat_interval resend): keep the state alive only.
      await redis
        .multi()
        .hset(key, 'reason', input.notificationReason ?? '')
        .pexpire(key, state.status === 'firing' ? settings.ttlMs : settings.resolvedKeepMs)
        .exec();
      return { groupId, episode: state.episode, events: [], added: 0, resolved: 0, repeats, notDiagnosable: 0, jobs: 0, cancelled: 0, attempts: attempt };
    }

    const prevFiring = [...state.records.values()].filter((r) => r.s === 'firing').length;
    const opening = prevFiring === 0 && changes.some((c) => c.change === 'new');
    const episode = opening ? state.episode + 1 : Math.max(state.episode, 1);
    // Work first (idempotent), so the commit below only ever announces queued work.
    const done = await startAndStop(settings, changes, work, ctx);
    const t = now();
    const next = applyChanges(state, changes, done, settings, t);
    const summary = summarize(next.records.values(), input.truncatedAlerts);
    const events = groupEvents(input, settings, { groupId, episode, t, summary, opening, reopened: state.episode > 0, truncChanged, prevFiring }, next);
    if (!(await commitGroup(redis, settings, input, { groupId, key, version: state.version, episode, firing: summary.firing > 0 }, next, events))) {
      settings.logger?.debug({ groupId, attempt }, 'alert group changed meanwhile, applying again');
      continue;
    }
    return {
      groupId,
      episode,
      events,
      added: changes.filter((c) => c.change === 'new').length,
      resolved: done.stopping.length,
      repeats,
      notDiagnosable: changes.filter((c) => c.change === 'new' && c.a.target.kind === 'none').length,
      jobs: done.started.reduce((n, w) => n + w.jobIds.length + (w.expansionJobId ? 1 : 0), 0),
      cancelled: done.stopped.reduce((n, c) => n + c, 0),
      attempts: attempt,
    };
  }
  throw new Error(`alert group ${groupId}: state kept changing, gave up after ${MAX_ATTEMPTS} attempts`);
}

/** Diagnoses started for new alerts, queued ones cancelled for resolved alerts. */
async function startAndStop(settings: GroupSettings, changes: ChangeOf[], work: GroupWork, ctx: WorkContext) {
  const starting = changes.filter((c) => c.change === 'new' && c.a.target.kind !== 'none');
  const started = await pool(starting, settings.concurrency ?? 16, (c) => work.start(c.a, ctx));
  const stopping = changes.filter((c) => c.change === 'resolved' || c.change === 'resolved-unseen');
  const stopped = await pool(stopping, settings.concurrency ?? 16, (c) =>
    work.stop(c.a.alert.fingerprint, [...new Set([c.a.alert.startsAt, ...(c.prev?.s === 'firing' ? [c.prev.at] : [])])], ctx),
  );
  return {
    started,
    stopping,
    stopped,
    workOf: new Map(starting.map((c, i) => [c.a.alert.fingerprint, started[i]])),
    cancelledOf: new Map(stopping.map((c, i) => [c.a.alert.fingerprint, stopped[i] ?? 0])),
  };
}

/** The group's records after this notification, the hash fields to write and delete, and what changed. */
function applyChanges(
  state: Awaited<ReturnType<typeof readState>>,
  changes: ChangeOf[],
  done: Awaited<ReturnType<typeof startAndStop>>,
  settings: GroupSettings,
  t: number,
) {
  const records = new Map(state.records);
  const sets: string[] = [];
  const added: AlertItem[] = [];
  const notDiagnosable: NotDiagnosableItem[] = [];
  const resolved: ResolvedItem[] = [];
  for (const { a, prev, change } of changes) {
    if (change === 'repeat') continue;
    const ns = namespaceOf(a);
    const rec: AlertRecord = {
      s: a.alert.status,
      at: a.alert.startsAt,
      end: a.alert.status === 'resolved' ? (a.alert.endsAt ?? null) : null,
      name: clip(alertName(a.alert), 256) ?? '',
      ns,
      t: describeAlertTarget(a.target),
      listed: prev?.listed ?? false,
      ch: t,
    };
    if (change === 'new') {
      if (a.target.kind === 'none') {
        if (!rec.listed)
          notDiagnosable.push({ fingerprint: a.alert.fingerprint, alertname: rec.name, reason: a.target.reason, labels: boundedLabels(a.alert.labels) });
        rec.listed = true;
      } else {
        added.push(toItem(a, ns, done.workOf.get(a.alert.fingerprint)));
      }
    } else if (change === 'resolved') {
      resolved.push({ ...toItem(a, ns, undefined), cancelledJobs: done.cancelledOf.get(a.alert.fingerprint) ?? 0 });
    }
    records.set(a.alert.fingerprint, rec);
    sets.push(`${ALERT_FIELD}${a.alert.fingerprint}`, JSON.stringify(rec));
  }
  const dels: string[] = [];
  for (const [fp, rec] of records) {
    if (rec.s === 'resolved' && t - rec.ch > settings.resolvedKeepMs) {
      records.delete(fp);
      dels.push(`${ALERT_FIELD}${fp}`);
    }
  }
  return { records, sets, dels, added, notDiagnosable, resolved };
}

/** What the chat side hears of this notification, in order: opened, added, resolved, truncated, group resolved. */
function groupEvents(
  input: GroupInput,
  settings: GroupSettings,
  g: {
    groupId: string;
    episode: number;
    t: number;
    summary: ReturnType<typeof summarize>;
    opening: boolean;
    reopened: boolean;
    truncChanged: boolean;
    prevFiring: number;
  },
  next: ReturnType<typeof applyChanges>,
): AlertGroupEvent[] {
  const maxItems = settings.maxItems ?? DEFAULT_GROUP_SETTINGS.maxItems ?? 1000;
  const firingNow = g.summary.firing > 0;
  const base = {
    v: 1 as const,
    cluster: input.cluster,
    channel: input.channel,
    groupKey: input.groupKey,
    groupId: g.groupId,
    episode: g.episode,
    at: new Date(g.t).toISOString(),
    receiver: input.receiver,
    externalURL: input.externalURL,
    notificationReason: input.notificationReason ?? null,
    groupLabels: input.groupLabels,
    summary: g.summary,
  };
  const { added, notDiagnosable, resolved } = next;
  const events: AlertGroupEvent[] = [];
  if (g.opening) events.push({ ...base, type: 'group-opened', commonLabels: boundedLabels(input.commonLabels), reopened: g.reopened });
  if (added.length > 0 || notDiagnosable.length > 0) {
    events.push({
      ...base,
      type: 'alerts-added',
      alerts: added.slice(0, maxItems),
      notDiagnosable: notDiagnosable.slice(0, maxItems),
      omitted: Math.max(0, added.length - maxItems) + Math.max(0, notDiagnosable.length - maxItems),
    });
  }
  if (resolved.length > 0)
    events.push({ ...base, type: 'alerts-resolved', alerts: resolved.slice(0, maxItems), omitted: Math.max(0, resolved.length - maxItems) });
  if (g.truncChanged && input.truncatedAlerts > 0 && (firingNow || events.length > 0))
    events.push({ ...base, type: 'truncated', truncatedAlerts: input.truncatedAlerts });
  if (g.prevFiring > 0 && !firingNow) events.push({ ...base, type: 'group-resolved' });
  return events;
}

/** The new state and its events in one step, if the group is still at `version` (else false: apply again). */
async function commitGroup(
  redis: RedisClient,
  settings: GroupSettings,
  input: GroupInput,
  g: { groupId: string; key: string; version: string; episode: number; firing: boolean },
  next: ReturnType<typeof applyChanges>,
  events: AlertGroupEvent[],
): Promise<boolean> {
  const sets = [
    ...next.sets,
    'status',
    g.firing ? 'firing' : 'resolved',
    'episode',
    String(g.episode),
    'truncated',
    String(input.truncatedAlerts),
    'reason',
    input.notificationReason ?? '',
    'cluster',
    input.cluster,
    'channel',
    input.channel ?? '',
    'groupKey',
    input.groupKey,
    'receiver',
    input.receiver,
  ];
  const eventArgs = events.flatMap((e) => [e.type, g.groupId, JSON.stringify(e)]);
  const applied = await runScript<number>(
    redis,
    COMMIT,
    [g.key, alertKeys.stream(settings.prefix, input.cluster)],
    [
      g.version,
      g.firing ? settings.ttlMs : settings.resolvedKeepMs,
      settings.streamMaxLen,
      sets.length / 2,
      next.dels.length,
      events.length,
      ...sets,
      ...next.dels,
      ...eventArgs,
    ],
  );
  return applied === 1;
}

/** The group's current episode (0: no state). Used by the expansion worker to label its event. */
export async function groupEpisode(redis: RedisClient, prefix: string, cluster: string, groupId: string): Promise<number> {
  return Number((await redis.hget(alertKeys.group(prefix, cluster, groupId), 'episode')) ?? 0) || 0;
}

export async function appendGroupEvent(
  redis: RedisClient,
  prefix: string,
  event: AlertGroupEvent,
  maxLen = DEFAULT_GROUP_SETTINGS.streamMaxLen,
): Promise<string> {
  const id = await redis.xadd(
    alertKeys.stream(prefix, event.cluster),
    'MAXLEN',
    '~',
    String(maxLen),
    '*',
    'type',
    event.type,
    'groupId',
    event.groupId,
    'event',
    JSON.stringify(event),
  );
  return id ?? '';
}
