// Storm grouping: diagnoses whose primary finding has the same rule and cause key (same node
// and holder process, same image and registry error, same hung mount) are one incident. The
// chat side posts one thread per incident (for the job that created it) and updates it for
// the others. One Lua script does the join, so concurrent workers never open two incidents
// for one cause, and a job re-run after a crash gets the same answer as the first time.
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { LUA_NOW_MS, lua, runScript } from '../redis/lua.js';
import type { Incident } from './schemas.js';

export interface IncidentSettings {
  prefix: string;
  ttlSeconds: number;
  /** Subjects listed for display (first ones, in arrival order). */
  listed?: number;
  /** Subjects counted exactly (a set); beyond it new subjects are counted without dedup. */
  tracked?: number;
}

// KEYS: 1 incident hash, 2 its subject set, 3 its listed subjects, 4 the cluster's index (zset).
// ARGV: 1 job id, 2 subject, 3 ttl ms, 4 listed max, 5 tracked max, 6 incident id.
// Returns {firstJobId, createdAtMs, count, listed...}.
const JOIN = lua(
  `${LUA_NOW_MS}
local H, S, L, IDX = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local jobId, subject, ttl, listed, tracked, id = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
if redis.call('HSETNX', H, 'firstJobId', jobId) == 1 then
  redis.call('HSET', H, 'createdAt', now, 'overflow', 0)
  redis.call('ZADD', IDX, now, id)
end
local added = 0
if redis.call('SISMEMBER', S, subject) == 0 then
  if redis.call('SCARD', S) < tracked then
    added = redis.call('SADD', S, subject)
  else
    redis.call('HINCRBY', H, 'overflow', 1)
  end
end
if added == 1 and redis.call('LLEN', L) < listed then redis.call('RPUSH', L, subject) end
redis.call('PEXPIRE', H, ttl)
redis.call('PEXPIRE', S, ttl)
redis.call('PEXPIRE', L, ttl)
redis.call('ZREMRANGEBYSCORE', IDX, '-inf', now - ttl)
redis.call('PEXPIRE', IDX, ttl)
local count = redis.call('SCARD', S) + tonumber(redis.call('HGET', H, 'overflow') or '0')
local out = {redis.call('HGET', H, 'firstJobId'), redis.call('HGET', H, 'createdAt'), count}
for _, s in ipairs(redis.call('LRANGE', L, 0, -1)) do table.insert(out, s) end
return out`,
  4,
);

/** The finding a diagnosis is grouped by: its top-ranked one, if it says something is wrong. */
export function primaryFinding(diagnosis: Diagnosis): Finding | undefined {
  const first = diagnosis.findings[0];
  return first && first.severity !== 'info' ? first : undefined;
}

export function incidentId(cluster: string, rule: string, causeKey: string): string {
  return `${cluster}|${rule}|${causeKey}`;
}

/** Add this diagnosis' subject to the incident of its primary finding's root cause. */
export async function joinIncident(
  redis: RedisClient,
  settings: IncidentSettings,
  input: { cluster: string; jobId: string; finding: Finding },
): Promise<Incident> {
  const { cluster, jobId, finding } = input;
  const id = incidentId(cluster, finding.rule, finding.causeKey);
  const base = keys.incident(settings.prefix, cluster, finding.rule, finding.causeKey);
  const raw = await runScript<(string | number)[]>(
    redis,
    JOIN,
    [base, `${base}:subjects`, `${base}:listed`, keys.incidents(settings.prefix, cluster)],
    [jobId, finding.subject, settings.ttlSeconds * 1000, settings.listed ?? 50, settings.tracked ?? 10_000, id],
  );
  const [firstJobId, createdAt, count, ...subjects] = raw;
  return {
    id,
    cluster,
    rule: finding.rule,
    causeKey: finding.causeKey,
    created: String(firstJobId) === jobId,
    firstJobId: String(firstJobId),
    createdAt: new Date(Number(createdAt)).toISOString(),
    count: Number(count),
    subjects: subjects.map(String),
  };
}

/** Incident ids of a cluster that are still alive, oldest first. */
export async function listIncidents(redis: RedisClient, prefix: string, cluster: string): Promise<string[]> {
  return redis.zrange(keys.incidents(prefix, cluster), '0', '-1');
}

/** One incident as stored (for the chat side's summary line), or null when expired. */
export async function readIncident(redis: RedisClient, prefix: string, id: string): Promise<Omit<Incident, 'created'> | null> {
  const [cluster, rule, ...rest] = id.split('|');
  const causeKey = rest.join('|');
  if (!cluster || !rule || !causeKey) return null;
  const base = keys.incident(prefix, cluster, rule, causeKey);
  const [h, count, subjects] = await Promise.all([redis.hgetall(base), redis.scard(`${base}:subjects`), redis.lrange(`${base}:listed`, 0, -1)]);
  if (!h.firstJobId) return null;
  return {
    id,
    cluster,
    rule,
    causeKey,
    firstJobId: h.firstJobId,
    createdAt: new Date(Number(h.createdAt)).toISOString(),
    count: count + Number(h.overflow ?? 0),
    subjects,
  };
}
