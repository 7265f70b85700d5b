// "It happened before": each incident's fingerprint (cluster, root-cause rule, owner workload,
// node) is kept in Redis for a retention (default 90 days), one entry per incident (the storm
// incident's first job), so re-runs and the other pods of one incident count once. When it
// recurs, the result says how often it happened in the last days and when.
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { LUA_NOW_MS, lua, runScript } from '../redis/lua.js';
import type { Incident, Recurrence } from './schemas.js';

export interface RecurrenceSettings {
  prefix: string;
  /** How long an incident's fingerprint is kept. */
  retentionSeconds: number;
  /** The window "3rd time in N days" counts over. */
  windowDays: number;
}

/** "3rd time in 7 days". */
export const RECURRENCE_WINDOW_DAYS = 7;

/** Earlier occurrences listed at most. */
const LISTED = 5;

// KEYS: 1 the fingerprint's occurrences (zset: incident → its start, ms).
// ARGV: 1 incident (its first job id), 2 its start (ms), 3 retention ms, 4 window ms.
// Returns the occurrences of the window: {member, score, ...}, oldest first.
const RECORD = lua(
  `${LUA_NOW_MS}
local key, member, at, retention, window = KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZADD', key, 'NX', at, member)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - retention)
redis.call('PEXPIRE', key, retention)
return redis.call('ZRANGEBYSCORE', key, now - window, '+inf', 'WITHSCORES')`,
  1,
);

/** `rule|Deployment web|node-1`: what makes two incidents the same story. */
export function recurrenceFingerprint(diagnosis: Diagnosis, finding: Finding): string {
  return `${finding.rule}|${diagnosis.workload ?? finding.subject}|${diagnosis.node ?? ''}`;
}

/** Record this incident under its fingerprint; the recurrence when it happened before within the window. */
export async function recordRecurrence(
  redis: RedisClient,
  settings: RecurrenceSettings,
  input: { cluster: string; diagnosis: Diagnosis; finding: Finding; incident: Incident },
): Promise<Recurrence | undefined> {
  const { cluster, diagnosis, finding, incident } = input;
  const fingerprint = recurrenceFingerprint(diagnosis, finding);
  const at = Date.parse(incident.createdAt);
  const raw = await runScript<string[]>(
    redis,
    RECORD,
    [keys.recurrence(settings.prefix, cluster, fingerprint)],
    [incident.firstJobId, at, settings.retentionSeconds * 1000, settings.windowDays * 86_400_000],
  );
  const seen: { job: string; at: number }[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) seen.push({ job: String(raw[i]), at: Number(raw[i + 1]) });
  if (seen.length < 2) return undefined;
  const previous = seen
    .filter((s) => s.job !== incident.firstJobId)
    .sort((a, b) => b.at - a.at)
    .slice(0, LISTED);
  const lastFix = await readFix(redis, settings.prefix, cluster, fingerprint);
  return {
    fingerprint,
    count: seen.length,
    days: settings.windowDays,
    previous: previous.map((p) => ({ jobId: p.job, at: new Date(p.at).toISOString() })),
    ...(lastFix ? { lastFix } : {}),
  };
}

/** Remember the last fix run for a fingerprint (its verification's outcome), for the retention. */
export async function recordFix(
  redis: RedisClient,
  settings: Pick<RecurrenceSettings, 'prefix' | 'retentionSeconds'>,
  cluster: string,
  fingerprint: string,
  fix: NonNullable<Recurrence['lastFix']>,
): Promise<void> {
  const key = keys.recurrenceFix(settings.prefix, cluster, fingerprint);
  await redis
    .multi()
    .hset(key, fix)
    .pexpire(key, settings.retentionSeconds * 1000)
    .exec();
}

async function readFix(redis: RedisClient, prefix: string, cluster: string, fingerprint: string): Promise<Recurrence['lastFix']> {
  const h = await redis.hgetall(keys.recurrenceFix(prefix, cluster, fingerprint));
  if (!h.playbook || (h.outcome !== 'fixed' && h.outcome !== 'not-fixed') || !h.at) return undefined;
  return { playbook: h.playbook, outcome: h.outcome, at: h.at };
}

/**
 * The incidents of a fingerprint in the window, newest first, without recording anything (what
 * `pod-doctor diagnose` shows when Redis is configured); undefined when there are none.
 */
export async function readRecurrence(
  redis: RedisClient,
  settings: Pick<RecurrenceSettings, 'prefix' | 'windowDays'>,
  cluster: string,
  fingerprint: string,
  now = Date.now(),
): Promise<Recurrence | undefined> {
  const raw = await redis.zrangebyscore(keys.recurrence(settings.prefix, cluster, fingerprint), now - settings.windowDays * 86_400_000, '+inf', 'WITHSCORES');
  const seen: { job: string; at: number }[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) seen.push({ job: String(raw[i]), at: Number(raw[i + 1]) });
  if (seen.length === 0) return undefined;
  seen.sort((a, b) => b.at - a.at);
  return {
    fingerprint,
    count: seen.length,
    days: settings.windowDays,
    previous: seen.slice(0, LISTED).map((p) => ({ jobId: p.job, at: new Date(p.at).toISOString() })),
  };
}
