// A resolved alert cancels the work queued for it: diagnosis jobs still waiting (or delayed
// for a retry) whose every requester is a resolved alert, and workload expansions not yet
// started. A running job is never touched (its result still reaches the thread, marked as
// late by the chat side if it likes); a job someone else also asked for is kept.
//
// Detaching is one Lua script: it checks the job's requester list and, only if every
// requester is an alert already marked resolved, drops the target's dedup entry so nobody
// joins the job any more. Then BullMQ removes the job; if a worker took it in between,
// removal fails (the job is locked) and the job simply runs.
import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { JobQueues } from '../jobs/queues.js';
import type { DiagnoseJob } from '../jobs/schemas.js';
import { targetKey } from '../kube/target.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { lua, runScript } from '../redis/lua.js';
import { alertKeys } from './keys.js';

export const EXPAND_MEMBER = 'expand:';

// KEYS: 1 dedup hash of the target, 2 requester list of the job. ARGV: 1 job id, 2 prefix of resolved markers.
// Returns 'detached' or 'shared'.
const DETACH = lua(
  `local D, R = KEYS[1], KEYS[2]
local jobId, rp = ARGV[1], ARGV[2]
for _, raw in ipairs(redis.call('LRANGE', R, 0, -1)) do
  local ok, r = pcall(cjson.decode, raw)
  if not ok or type(r) ~= 'table' or r.kind ~= 'alert' then return 'shared' end
  local fp = r.alertFingerprint
  if type(fp) ~= 'string' then fp = r.fingerprint end
  if type(fp) ~= 'string' or type(r.startsAt) ~= 'string' then return 'shared' end
  if redis.call('EXISTS', rp .. fp .. ':' .. r.startsAt) == 0 then return 'shared' end
end
if redis.call('HGET', D, 'jobId') == jobId then redis.call('DEL', D) end
return 'detached'`,
  2,
);

const QUEUED_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

export interface CancelDeps {
  queues: JobQueues;
  /** The workload-expansion queue of a cluster. */
  expandQueue: (cluster: string) => Queue;
  logger?: Logger;
}

export interface CancelOutcome {
  cancelled: number;
  kept: number;
}

/** Remember that (fingerprint, startsAt) resolved, for as long as its notifications are deduplicated. */
export async function markResolved(redis: RedisClient, prefix: string, cluster: string, fingerprint: string, startsAt: string, ttlMs: number): Promise<void> {
  await redis.set(alertKeys.resolved(prefix, cluster, fingerprint, startsAt), '1', 'PX', ttlMs);
}

export async function isResolved(redis: RedisClient, prefix: string, cluster: string, fingerprint: string, startsAt: string): Promise<boolean> {
  return (await redis.exists(alertKeys.resolved(prefix, cluster, fingerprint, startsAt))) === 1;
}

async function removeIfQueued(job: Job, logger?: Logger): Promise<boolean> {
  const state = await job.getState();
  if (!QUEUED_STATES.has(state)) return false;
  try {
    await job.remove();
    return true;
  } catch (err) {
    // Taken by a worker meanwhile (locked) or already gone: it runs or ran; nothing to undo.
    logger?.debug({ jobId: job.id, err: { message: (err as Error).message } }, 'queued job not removed');
    return false;
  }
}

/** The requester that opened the job is an alert that resolved (the requester list may have expired). */
async function openedByResolvedAlert(redis: RedisClient, prefix: string, cluster: string, job: Job<DiagnoseJob>): Promise<boolean> {
  const r = job.data?.requester;
  if (r?.kind !== 'alert') return false;
  return isResolved(redis, prefix, cluster, r.alertFingerprint ?? r.fingerprint, r.startsAt);
}

/** Cancel what is still queued for the alert (fingerprint, startsAt); call after markResolved. */
export async function cancelAlertJobs(deps: CancelDeps, cluster: string, fingerprint: string, startsAt: string): Promise<CancelOutcome> {
  const { queues, logger } = deps;
  const redis = queues.redis;
  const prefix = queues.prefix;
  const members = await redis.smembers(alertKeys.jobs(prefix, cluster, fingerprint, startsAt));
  const outcome: CancelOutcome = { cancelled: 0, kept: 0 };
  for (const member of members) {
    if (member.startsWith(EXPAND_MEMBER)) {
      const job = await deps.expandQueue(cluster).getJob(member.slice(EXPAND_MEMBER.length));
      if (job && (await removeIfQueued(job, logger))) outcome.cancelled += 1;
      continue;
    }
    const job = (await queues.diagnose(cluster).getJob(member)) as Job<DiagnoseJob> | undefined;
    if (!job) continue;
    const state = await job.getState();
    // The job's creator is part of "who asked": a CLI or Slack job an alert joined is kept.
    if (!QUEUED_STATES.has(state) || !(await openedByResolvedAlert(redis, prefix, cluster, job))) {
      outcome.kept += 1;
      continue;
    }
    const verdict = await runScript<string>(
      redis,
      DETACH,
      [keys.dedup(prefix, cluster, targetKey(job.data.target)), keys.requesters(prefix, cluster, member)],
      [member, alertKeys.resolvedPrefix(prefix, cluster)],
    );
    if (verdict !== 'detached') {
      outcome.kept += 1;
      continue;
    }
    if (await removeIfQueued(job, logger)) {
      outcome.cancelled += 1;
      await redis.del(keys.requesters(prefix, cluster, member));
    } else {
      outcome.kept += 1;
    }
  }
  return outcome;
}
