// The audit stream: one append-only Redis stream per Kubernetes cluster
// (`{<prefix>:<cluster>}:audit`, field `entry`: JSON), trimmed by age (MINID) rather than by
// length, so a busy week never pushes out last month's approvals. The bot appends decisions, the
// worker appends runs and expiries; the cluster's workers turn each entry into an Event.
import type { RedisClient } from '../redis/client.js';
import { clusterTag } from '../redis/keys.js';
import { type AuditEntry, AuditEntrySchema, type AuditKind, type AuditOutcome, type AuditSubject } from './entry.js';

export const DEFAULT_AUDIT_RETENTION_MS = 30 * 86_400_000;

export function auditKey(prefix: string, cluster: string): string {
  return `${clusterTag(prefix, cluster)}:audit`;
}

export interface AppendOptions {
  /** Entries older than this are trimmed as new ones come (default 30 days). */
  retentionMs?: number;
  now?: () => number;
}

/**
 * `MINID <id>`: entries older than the retention go with the next append. Exact, not `~`: the
 * approximate form only drops whole stream nodes (100 entries), which a quiet cluster never fills.
 */
export function minIdFor(nowMs: number, retentionMs: number): string {
  return `${Math.max(0, Math.floor(nowMs - retentionMs))}-0`;
}

/** Appends a validated entry; returns its stream id. */
export async function appendAudit(redis: RedisClient, prefix: string, entry: AuditEntry, options: AppendOptions = {}): Promise<string> {
  const valid = AuditEntrySchema.parse(entry);
  const now = options.now?.() ?? Date.now();
  const id = await redis.xadd(
    auditKey(prefix, valid.cluster),
    'MINID',
    minIdFor(now, options.retentionMs ?? DEFAULT_AUDIT_RETENTION_MS),
    '*',
    'entry',
    JSON.stringify(valid),
  );
  return id ?? '';
}

export type DecisionInput = AuditSubject & {
  cluster: string;
  kind: Exclude<AuditKind, 'run' | 'expiry'>;
  actors: string[];
  outcome: AuditOutcome;
  reason?: string;
};

/**
 * A decision made in chat (approval, denial, a refused click, the reason for a denial), from the
 * flow that recorded it: exactly one caller gets each state transition, so each is one entry.
 */
export async function recordDecision(redis: RedisClient, prefix: string, input: DecisionInput, options: AppendOptions = {}): Promise<string> {
  const at = new Date(options.now?.() ?? Date.now()).toISOString();
  const { reason, uid, ...rest } = input;
  return appendAudit(redis, prefix, { at, ...rest, ...(uid ? { uid } : {}), ...(reason ? { reason: reason.slice(0, 1000) } : {}) }, options);
}

/** The JSON of one stream entry, or undefined when it is not an audit entry this release reads. */
export function decodeAudit(fields: string[]): AuditEntry | undefined {
  const i = fields.indexOf('entry');
  const raw = i >= 0 ? fields[i + 1] : undefined;
  if (raw === undefined) return undefined;
  try {
    const parsed = AuditEntrySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface AuditRecord {
  /** Stream id: `<ms>-<seq>`, when it was appended. */
  id: string;
  entry: AuditEntry;
}

/**
 * Entries appended from `sinceMs` up to `untilMs` (inclusive), oldest first, read in pages so a
 * month of entries never sits in memory at once. Entries this release cannot read are skipped.
 */
export async function* readAudit(
  redis: RedisClient,
  prefix: string,
  cluster: string,
  range: { sinceMs: number; untilMs: number; pageSize?: number },
): AsyncGenerator<AuditRecord> {
  const key = auditKey(prefix, cluster);
  const page = range.pageSize ?? 500;
  const end = String(Math.floor(range.untilMs));
  let start = String(Math.max(0, Math.floor(range.sinceMs)));
  for (;;) {
    const entries = (await redis.xrange(key, start, end, 'COUNT', page)) as [string, string[]][];
    for (const [id, fields] of entries) {
      const entry = decodeAudit(fields);
      if (entry) yield { id, entry };
    }
    const last = entries.at(-1);
    if (!last || entries.length < page) return;
    start = `(${last[0]}`;
  }
}
