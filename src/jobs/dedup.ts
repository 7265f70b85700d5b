// Dedup at the edge: one diagnosis per (cluster, target) at a time, every requester answered.
//
// Per target, a small hash records the open job (id, queued|active). A request joins it when
// it is open and younger than the window; otherwise it opens a new job. Requesters are kept in
// a list per job, read atomically when the job closes (just before delivery), so a request
// either joins before the close (and is answered with the result) or opens a new job after it.
//
// Alertmanager HA replicas send each notification several times: (fingerprint, status,
// startsAt) is remembered with SET NX + TTL, and a repeat enqueues nothing.
//
// Every admitted request makes sure the job is in BullMQ under its fixed id before returning:
// the first adds it, and whoever joins adds it again unless the admission script saw the job's
// hash already there (adding an existing id is a no-op in BullMQ, which checks the same key).
// So a joiner re-creates the job when the first caller died between the two steps, and in a
// storm most notifications cost one round trip: nothing "accepted" depends on another process.
import { randomUUID } from 'node:crypto';
import type { Target } from '../diagnosis/types.js';
import { targetKey } from '../kube/target.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { LUA_NOW_MS, lua, runScript } from '../redis/lua.js';
import { beginSpan, currentTrace, runIn, settle, targetAttributes } from '../tracing/spans.js';
import type { JobQueues } from './queues.js';
import { type DiagnoseJob, DiagnoseJobSchema, type DiagnoseReason, type RemediateJob, RemediateJobSchema, type Requester } from './schemas.js';

/** Requesters kept per job; beyond this the job still runs and the incident thread still updates. */
export const MAX_REQUESTERS = 1000;

export interface DiagnosisRequest {
  cluster: string;
  target: Target;
  reason: DiagnoseReason;
  requester?: Requester;
  /** Defaults to now. */
  requestedAt?: string;
}

export interface EnqueueResult {
  jobId: string;
  /** True when no new job was created: joined an open one, or a repeated alert notification. */
  deduplicated: boolean;
}

// KEYS: 1 dedup hash of the target, 2 alert notification key (ignored unless ARGV[8] == '1').
// ARGV: 1 candidate job id, 2 requester JSON or '', 3 window ms, 4 alert ttl ms,
//       5 join an active job ('1'/'0'), 6 requesters key prefix, 7 requesters ttl ms,
//       8 has alert, 9 max requesters, 10 the BullMQ job key prefix (`<queue prefix>:<name>:`).
// Returns {outcome, jobId, inQueue}: outcome new | joined | dup-open (repeat of a notification
// whose job is still open) | dup-closed (repeat of one already answered); inQueue 1 when the
// BullMQ job of a joined or dup-open request exists (the caller need not add it).
const ADMIT = lua(
  `${LUA_NOW_MS}
local D, A = KEYS[1], KEYS[2]
local cand, req, window, alertTtl = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local joinActive, reqPrefix, reqTtl, hasAlert, maxReq = ARGV[5], ARGV[6], tonumber(ARGV[7]), ARGV[8], tonumber(ARGV[9])
local cur = redis.call('HGET', D, 'jobId')
if hasAlert == '1' then
  local prev = redis.call('GET', A)
  if prev then
    if prev == cur then return {'dup-open', prev, redis.call('EXISTS', ARGV[10] .. prev)} end
    return {'dup-closed', prev, 0}
  end
end
local jobId, outcome = nil, 'new'
if cur then
  local state = redis.call('HGET', D, 'state')
  local at = tonumber(redis.call('HGET', D, 'at') or '0')
  if (now - at) < window and (state == 'queued' or joinActive == '1') then
    jobId, outcome = cur, 'joined'
  end
end
if not jobId then
  jobId = cand
  redis.call('DEL', D)
  redis.call('HSET', D, 'jobId', cand, 'state', 'queued', 'at', now)
  redis.call('PEXPIRE', D, window)
end
if req ~= '' then
  local R = reqPrefix .. jobId
  if redis.call('LLEN', R) < maxReq then redis.call('RPUSH', R, req) end
  redis.call('PEXPIRE', R, reqTtl)
end
if hasAlert == '1' then redis.call('SET', A, jobId, 'PX', alertTtl) end
local inQueue = 0
if outcome == 'joined' then inQueue = redis.call('EXISTS', ARGV[10] .. jobId) end
return {outcome, jobId, inQueue}`,
  2,
);

// KEYS: 1 dedup hash, ARGV: 1 job id. A verify/rerun request must not join a job whose facts
// may predate it; marking the job active tells them apart.
const MARK_ACTIVE = lua(
  `if redis.call('HGET', KEYS[1], 'jobId') == ARGV[1] then redis.call('HSET', KEYS[1], 'state', 'active') return 1 end
return 0`,
  1,
);

// KEYS: 1 dedup hash, 2 requesters of the job. ARGV: 1 job id, 2 requesters ttl ms.
// Closing twice (a job re-run after its worker died) returns the same requesters.
const CLOSE = lua(
  `if redis.call('HGET', KEYS[1], 'jobId') == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2])) end
return redis.call('LRANGE', KEYS[2], 0, -1)`,
  2,
);

/** Requester lists outlive their job long enough for a re-run after a crash. */
const REQUESTERS_TTL_MS = 24 * 3600 * 1000;

/**
 * Enqueue a diagnosis, sharing an open job for the same (cluster, target). Resolves only once
 * the job is in Redis (BullMQ has answered), so an HTTP edge may answer 200 after it.
 */
export function enqueueDiagnosis(queues: JobQueues, request: DiagnosisRequest): Promise<EnqueueResult> {
  const span = beginSpan('job.enqueue', { attributes: { ...targetAttributes(request.cluster, request.target), 'pod_doctor.job.reason': request.reason } });
  return settle(
    span,
    runIn(span.context, () => admit(queues, request)),
    (r) => ({ 'pod_doctor.job.id': r.jobId, 'pod_doctor.job.deduplicated': r.deduplicated }),
  );
}

/** The job's data carries the `job.enqueue` span's context: the worker continues its trace. */
async function admit(queues: JobQueues, request: DiagnosisRequest): Promise<EnqueueResult> {
  const trace = currentTrace();
  const job: DiagnoseJob = DiagnoseJobSchema.parse({
    v: 1,
    cluster: request.cluster,
    target: request.target,
    reason: request.reason,
    ...(request.requester ? { requester: request.requester } : {}),
    requestedAt: request.requestedAt ?? new Date().toISOString(),
    ...(trace ? { trace } : {}),
  });
  const { prefix, dedupWindowMs, alertDedupMs } = queues.settings;
  const tkey = targetKey(job.target);
  const alert = job.requester?.kind === 'alert' ? job.requester : undefined;
  const dedupKey = keys.dedup(prefix, job.cluster, tkey);
  const alertKey = alert ? keys.alert(prefix, job.cluster, alert.fingerprint, alert.status, alert.startsAt) : dedupKey;
  // Facts collected before a verify/rerun request may predate the fix it checks.
  const joinActive = job.reason === 'verify' || job.reason === 'rerun' ? '0' : '1';
  const queue = queues.diagnose(job.cluster);
  const [outcome, jobId, inQueue] = await runScript<[string, string, number]>(
    queues.redis,
    ADMIT,
    [dedupKey, alertKey],
    [
      randomUUID(),
      job.requester ? JSON.stringify(job.requester) : '',
      dedupWindowMs,
      alertDedupMs,
      joinActive,
      keys.requestersPrefix(prefix, job.cluster),
      REQUESTERS_TTL_MS,
      alert ? '1' : '0',
      MAX_REQUESTERS,
      queue.toKey(''),
    ],
  );
  if (outcome === 'dup-closed') return { jobId, deduplicated: true };
  // new, or joined/dup-open whose job is not (yet, or any more) in BullMQ: add it.
  if (inQueue !== 1) await queue.add('diagnose', job, { jobId });
  return { jobId, deduplicated: outcome !== 'new' };
}

/** Worker side: the job started; later verify/rerun requests open a new one. */
export async function markActive(redis: RedisClient, prefix: string, job: DiagnoseJob, jobId: string): Promise<void> {
  await runScript(redis, MARK_ACTIVE, [keys.dedup(prefix, job.cluster, targetKey(job.target))], [jobId]);
}

/** Worker side, just before delivery: no one joins this job any more; who asked for it? */
export async function closeJob(redis: RedisClient, prefix: string, job: DiagnoseJob, jobId: string): Promise<Requester[]> {
  const raw = await runScript<string[]>(
    redis,
    CLOSE,
    [keys.dedup(prefix, job.cluster, targetKey(job.target)), keys.requesters(prefix, job.cluster, jobId)],
    [jobId, REQUESTERS_TTL_MS],
  );
  const out: Requester[] = [];
  for (const r of raw) {
    try {
      out.push(JSON.parse(r) as Requester);
    } catch {
      // written by enqueueDiagnosis from a validated object; skip anything else
    }
  }
  // A job opened by a caller without requester (CLI) has none: fall back to the job's own.
  if (out.length === 0 && job.requester) out.push(job.requester);
  return out;
}

/**
 * Enqueue a remediation. The job id is the proposal id, so concurrent approve clicks (or a
 * retried request) enqueue it once; BullMQ keeps finished ones, so a late repeat is a no-op.
 */
export async function enqueueRemediation(queues: JobQueues, input: { cluster: string; proposalId: string }): Promise<EnqueueResult> {
  const job: RemediateJob = RemediateJobSchema.parse({ v: 1, cluster: input.cluster, proposalId: input.proposalId });
  const queue = queues.remediate(job.cluster);
  const existing = await queue.getJob(job.proposalId);
  if (existing) return { jobId: job.proposalId, deduplicated: true };
  const added = await queue.add('remediate', job, { jobId: job.proposalId });
  return { jobId: added.id ?? job.proposalId, deduplicated: false };
}
