// Expiries: an approval nobody decides expires silently (the approval record only notices when
// someone clicks late), so the worker that proposes a plan watches it until the plan itself
// expires (the approval window is never longer), then looks at the approval record once: still
// pending or expired means it ran out, and that is recorded. Sweeping is idempotent across
// workers: the watch entry is removed and the expiry appended in one script.
import type { RedisClient } from '../redis/client.js';
import { clusterTag } from '../redis/keys.js';
import { lua, runScript } from '../redis/lua.js';
import { readApproval } from './approvals.js';
import { type AuditEntry, AuditEntrySchema, type AuditSubject } from './entry.js';
import { auditKey, DEFAULT_AUDIT_RETENTION_MS, minIdFor } from './stream.js';

const watchKey = (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:audit:expiring`;
const watchMetaKey = (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:audit:expiring:plans`;

/** The watch outlives any plan it holds: a cluster without workers for this long forgets it. */
const WATCH_TTL_MS = 7 * 86_400_000;

export async function watchExpiry(redis: RedisClient, prefix: string, input: AuditSubject & { cluster: string; expiresAt: number }): Promise<void> {
  const { cluster, expiresAt, ...subject } = input;
  const zset = watchKey(prefix, cluster);
  const meta = watchMetaKey(prefix, cluster);
  await redis
    .multi()
    .zadd(zset, expiresAt, subject.planId)
    .hset(meta, subject.planId, JSON.stringify(subject))
    .pexpire(zset, WATCH_TTL_MS)
    .pexpire(meta, WATCH_TTL_MS)
    .exec();
}

// KEYS: 1 watch zset, 2 watch meta hash, 3 audit stream. ARGV: 1 plan id, 2 entry JSON ('' for
// none), 3 MINID. Only the caller that removes the watch appends: one expiry per plan.
const SETTLE = lua(
  `if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
if ARGV[2] ~= '' then redis.call('XADD', KEYS[3], 'MINID', ARGV[3], '*', 'entry', ARGV[2]) end
return 1`,
  3,
);

export interface SweepOptions {
  now?: () => number;
  retentionMs?: number;
  /** Plans looked at per sweep. */
  limit?: number;
}

function parseSubject(raw: string | null): AuditSubject | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as AuditSubject;
  } catch {
    return undefined;
  }
}

type Verdict = { entry?: AuditEntry } | { later: number };

/**
 * The expiry entry for a plan whose approval ran out; none when it was decided or never offered
 * to anyone; `later` when its approval window is still open (clocks apart).
 */
async function expiryOf(redis: RedisClient, prefix: string, cluster: string, subject: AuditSubject, nowMs: number): Promise<Verdict> {
  const approval = await readApproval(redis, prefix, subject.planId);
  if (!approval || (approval.status !== 'pending' && approval.status !== 'expired')) return {};
  if (approval.status === 'pending' && approval.expiresAt > nowMs) return { later: approval.expiresAt };
  const partial = approval.approvers.length ? `; approved by ${approval.approvers.join(', ')} only (${approval.approvers.length} of ${approval.required})` : '';
  const entry: AuditEntry = {
    at: new Date(nowMs).toISOString(),
    cluster,
    kind: 'expiry',
    ...subject,
    actors: [],
    outcome: 'expired',
    reason: `the approval window ended at ${new Date(approval.expiresAt).toISOString()}${partial}`,
  };
  return AuditEntrySchema.safeParse(entry).success ? { entry } : {};
}

/** Settles the watched plans whose time has come; returns the expiries recorded. */
export async function sweepExpired(redis: RedisClient, prefix: string, cluster: string, options: SweepOptions = {}): Promise<number> {
  const nowMs = options.now?.() ?? Date.now();
  const zset = watchKey(prefix, cluster);
  const meta = watchMetaKey(prefix, cluster);
  const due = await redis.zrangebyscore(zset, '-inf', nowMs, 'LIMIT', 0, options.limit ?? 100);
  let recorded = 0;
  for (const planId of due) {
    const subject = parseSubject(await redis.hget(meta, planId));
    const verdict = subject ? await expiryOf(redis, prefix, cluster, subject, nowMs) : {};
    if ('later' in verdict) {
      await redis.zadd(zset, 'XX', verdict.later, planId);
      continue;
    }
    const entry = verdict.entry;
    const minId = minIdFor(nowMs, options.retentionMs ?? DEFAULT_AUDIT_RETENTION_MS);
    const settled = await runScript<number>(redis, SETTLE, [zset, meta, auditKey(prefix, cluster)], [planId, entry ? JSON.stringify(entry) : '', minId]);
    if (Number(settled) === 1 && entry) recorded++;
  }
  return recorded;
}
