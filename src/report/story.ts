// An incident's story, read back from what pod-doctor already keeps in Redis: the diagnosis
// results (results stream), the alert-group events (alert-groups stream), the decisions and runs
// (audit stream) and the run events (run-events stream). Nothing is recorded for the write-up:
// it is the trail the bot and the workers leave anyway, joined by job id, plan id and alert.
// Kept free of chat/ so the CLI and the chat flow read the same story (the flow supplies what
// only the chat knows: which thread opened which job).
import { z } from 'zod';
import { type AlertGroupEvent, parseGroupEventFields } from '../alerts/group-events.js';
import { alertKeys } from '../alerts/keys.js';
import type { AuditEntry } from '../audit/entry.js';
import { readAudit } from '../audit/stream.js';
import { markObject } from '../diagnosis/ignore.js';
import { markId } from '../jobs/not-a-problem.js';
import type { DiagnoseResult } from '../jobs/schemas.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import type { RunEvent } from '../remediation/results.js';
import { runEventsKey } from '../remediation/run-events.js';

/** What the story is about: a thread (by what its results carry) or an incident id. */
export interface StoryScope {
  cluster: string;
  /** Where the thread lives, for the report's header (no link is made from it). */
  thread?: { channel: string; ts: string };
  /** The thread's opaque id: the Not a problem marks pressed in it are named by it (with `thread`). */
  threadId?: string;
  /** `cluster|rule|causeKey`: results grouped into this incident. */
  incidentId?: string;
  /** An Alertmanager group thread: results of its alerts, its events. */
  groupId?: string;
  episode?: number;
  /** Jobs known to belong (the job that opened a diagnosis thread). */
  jobIds?: string[];
  /** Read from (ms): the thread's opening, give or take. */
  sinceMs: number;
  untilMs: number;
}

/** The chat side's answer to "did this job open (or post into) the thread?" (ThreadStore scopes). */
export type OwnsJob = (jobId: string, result: DiagnoseResult) => Promise<boolean>;

export interface StoredResult {
  /** Stream id: when the result was written. */
  id: string;
  at: number;
  result: DiagnoseResult;
}

export interface StoredRunEvent {
  id: string;
  event: RunEvent;
  /** The run's final words, on its last event. */
  reason?: string;
}

export interface Story {
  scope: StoryScope;
  results: StoredResult[];
  alerts: { id: string; event: AlertGroupEvent }[];
  audit: { id: string; entry: AuditEntry }[];
  runs: StoredRunEvent[];
  /** Plan ids offered with the story's results. */
  planIds: string[];
}

/** Stream ids are `<ms>-<seq>`: the time the entry was appended. */
export const streamTime = (id: string): number => Number(id.split('-')[0]);

async function* readStream(redis: RedisClient, key: string, sinceMs: number, untilMs: number, page = 200): AsyncGenerator<[string, string[]]> {
  let start = String(Math.max(0, Math.floor(sinceMs)));
  const end = String(Math.floor(untilMs));
  for (;;) {
    const entries = (await redis.xrange(key, start, end, 'COUNT', page)) as [string, string[]][];
    for (const e of entries) yield e;
    const last = entries.at(-1);
    if (!last || entries.length < page) return;
    start = `(${last[0]}`;
  }
}

function field(fields: string[], name: string): string | undefined {
  const i = fields.indexOf(name);
  return i >= 0 ? fields[i + 1] : undefined;
}

// Only the fields the story joins on are checked; the rest is read defensively where it is used.
const ResultShape = z.looseObject({
  jobId: z.string(),
  status: z.string(),
  job: z.looseObject({ cluster: z.string(), target: z.looseObject({ kind: z.string(), name: z.string() }), reason: z.string(), requestedAt: z.string() }),
  requesters: z.array(z.looseObject({ kind: z.string() })),
});

/** One results-stream entry, or undefined when it is not a result this release reads. */
export function decodeResult(fields: string[]): DiagnoseResult | undefined {
  const raw = field(fields, 'result');
  if (!raw) return undefined;
  try {
    const parsed = ResultShape.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as unknown as DiagnoseResult) : undefined;
  } catch {
    return undefined;
  }
}

const RunEventShape = z.looseObject({
  cluster: z.string(),
  event: z.looseObject({ type: z.string(), runId: z.string(), at: z.string() }),
  result: z.looseObject({ reason: z.string().optional() }).optional(),
});

/**
 * Results of a cluster written in a window, oldest first. `mayBe` looks at an entry's raw JSON
 * first: a week of a busy cluster's results is parsed only where it can matter.
 */
export async function* readResults(
  redis: RedisClient,
  prefix: string,
  cluster: string,
  sinceMs: number,
  untilMs: number,
  mayBe: (raw: string) => boolean = () => true,
): AsyncGenerator<StoredResult> {
  for await (const [id, fields] of readStream(redis, keys.results(prefix, cluster), sinceMs, untilMs)) {
    if (!mayBe(field(fields, 'result') ?? '')) continue;
    const result = decodeResult(fields);
    if (result) yield { id, at: streamTime(id), result };
  }
}

/** A string as it appears inside JSON (quotes and backslashes escaped). */
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * Could this raw result belong to the scope? A cheap substring test before the parse: every way
 * a result belongs (its job, incident, thread, alert group, or the thread's channel for the
 * chat's own check) leaves its id in the JSON. False positives are parsed and checked exactly.
 */
export function mayBelong(scope: StoryScope, withChannel: boolean): (raw: string) => boolean {
  const needles = [
    ...(scope.jobIds ?? []).map((j) => `"jobId":"${inJson(j)}"`),
    ...(scope.incidentId ? [`"id":"${inJson(scope.incidentId)}"`] : []),
    ...(scope.thread ? [`"threadTs":"${inJson(scope.thread.ts)}"`] : []),
    ...(scope.groupId ? [`"groupId":"${inJson(scope.groupId)}"`] : []),
    ...(withChannel && scope.thread ? [`"channel":"${inJson(scope.thread.channel)}"`] : []),
  ];
  return (raw) => needles.some((n) => raw.includes(n));
}

/** Run events of a cluster written in a window, oldest first. */
export async function* readRunEvents(redis: RedisClient, prefix: string, cluster: string, sinceMs: number, untilMs: number): AsyncGenerator<StoredRunEvent> {
  for await (const [id, fields] of readStream(redis, runEventsKey(prefix, cluster), sinceMs, untilMs)) {
    try {
      const parsed = RunEventShape.safeParse(JSON.parse(field(fields, 'event') ?? 'null'));
      if (parsed.success)
        yield { id, event: parsed.data.event as unknown as RunEvent, ...(parsed.data.result?.reason ? { reason: parsed.data.result.reason } : {}) };
    } catch {
      // not an event this release reads
    }
  }
}

/** Does this result belong to the scope by what it carries (incident, thread, alert group, job)? */
export function carriedBy(scope: StoryScope, r: DiagnoseResult): boolean {
  if (scope.jobIds?.includes(r.jobId)) return true;
  if (scope.incidentId && r.incident?.id === scope.incidentId) return true;
  for (const q of r.requesters ?? []) {
    if (q.kind === 'slack' && scope.thread && q.channel === scope.thread.channel && q.threadTs === scope.thread.ts) return true;
    if (q.kind === 'alert' && scope.groupId && q.groupId === scope.groupId) return true;
  }
  return false;
}

/** Alert fingerprints (and their groups) that asked for the story's diagnoses. */
function alertsOf(results: readonly StoredResult[]): { fingerprints: Set<string>; groups: Set<string>; jobs: Set<string> } {
  const fingerprints = new Set<string>();
  const groups = new Set<string>();
  const jobs = new Set<string>();
  for (const { result } of results) {
    jobs.add(result.jobId);
    for (const q of result.requesters ?? []) {
      if (q.kind !== 'alert') continue;
      fingerprints.add(q.alertFingerprint ?? q.fingerprint);
      if (q.groupId) groups.add(q.groupId);
    }
  }
  return { fingerprints, groups, jobs };
}

/** An alert-group event that tells of one of the story's alerts (or is its group's, for a group thread). */
function alertEventBelongs(scope: StoryScope, e: AlertGroupEvent, mine: ReturnType<typeof alertsOf>): boolean {
  if (scope.groupId) return e.groupId === scope.groupId && (scope.episode === undefined || e.episode === scope.episode);
  if (!mine.groups.has(e.groupId)) return false;
  if (e.type === 'alerts-added' || e.type === 'alerts-resolved')
    return e.alerts.some((a) => mine.fingerprints.has(a.fingerprint) || a.jobIds.some((j) => mine.jobs.has(j)));
  return e.type === 'group-resolved';
}

/**
 * Reads the story of `scope` from Redis: results first (what belongs), then what they point at
 * (their plans' decisions and runs, their alerts). `ownsJob` answers for results only the chat
 * can place (the job that opened a command's thread).
 */
export async function gatherStory(redis: RedisClient, prefix: string, scope: StoryScope, ownsJob?: OwnsJob): Promise<Story> {
  const { cluster, sinceMs, untilMs } = scope;
  const results: StoredResult[] = [];
  for await (const r of readResults(redis, prefix, cluster, sinceMs, untilMs, mayBelong(scope, ownsJob !== undefined))) {
    if (carriedBy(scope, r.result) || (ownsJob && (await ownsJob(r.result.jobId, r.result)))) results.push(r);
  }
  const planIds = [...new Set(results.flatMap((r) => (r.result.offers ?? []).flatMap((o) => (o.planId ? [o.planId] : []))))];
  const plans = new Set(planIds);
  const marks = markIdsOf(scope, results);
  const audit: Story['audit'] = [];
  for await (const a of readAudit(redis, prefix, cluster, { sinceMs, untilMs })) if (plans.has(a.entry.planId) || marks.has(a.entry.planId)) audit.push(a);
  const runs: StoredRunEvent[] = [];
  for await (const e of readRunEvents(redis, prefix, cluster, sinceMs, untilMs)) if (plans.has(e.event.runId)) runs.push(e);
  const mine = alertsOf(results);
  const alerts: Story['alerts'] = [];
  if (scope.groupId || mine.groups.size > 0) {
    // Alerts fire before the diagnoses they ask for: look back a little further.
    for await (const [id, fields] of readStream(redis, alertKeys.stream(prefix, cluster), sinceMs - 3_600_000, untilMs)) {
      const event = parseGroupEventFields(fields);
      if (event && alertEventBelongs(scope, event, mine)) alerts.push({ id, event });
    }
  }
  return { scope, results, alerts, audit, runs, planIds };
}

/** The ids the Not a problem buttons of the thread's findings had (their audit entries carry them). */
function markIdsOf(scope: StoryScope, results: readonly StoredResult[]): Set<string> {
  const ids = new Set<string>();
  if (!scope.thread || !scope.threadId) return ids;
  for (const { result } of results) {
    const d = result.diagnosis;
    const object = d ? markObject(d.target, d.workload) : undefined;
    if (!d || object === undefined) continue;
    for (const f of d.findings) ids.add(markId({ cluster: scope.cluster, object, rule: f.rule, channel: scope.thread.channel, threadId: scope.threadId }));
  }
  return ids;
}

/** The chat users the story names: who asked, who decided. */
export function peopleIn(story: Story): string[] {
  const ids = new Set<string>();
  for (const { result } of story.results) for (const q of result.requesters ?? []) if (q.kind === 'slack') ids.add(q.user);
  for (const { entry } of story.audit) for (const a of entry.actors) ids.add(a);
  return [...ids];
}
