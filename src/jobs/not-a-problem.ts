// Not a problem: a finding someone marked as a false positive in chat stays quiet for its object
// (the pod's owner workload, else the pod) and rule until the mark expires (default 30 days).
// One Redis hash per object (rule → who, when, until) so a diagnosis reads its marks in one
// round trip; an expired field is dropped when read, the key goes with its last mark.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Mark } from '../diagnosis/ignore.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { lua, runScript } from '../redis/lua.js';

export const DEFAULT_NOT_A_PROBLEM_DAYS = 30;

/**
 * The id of a Not a problem button (and of its audit entry): the same finding of the same object in
 * the same thread gets the same id, so a re-post never makes two and a write-up can find its marks.
 */
export function markId(offer: { cluster: string; object: string; rule: string; channel: string; threadId: string }): string {
  const h = createHash('sha256').update(JSON.stringify([offer.cluster, offer.object, offer.rule, offer.channel, offer.threadId]));
  return `mk${h.digest('hex').slice(0, 24)}`;
}

const isoTime = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)));

/** A stored mark, validated when read back: the user id is rendered as a chat mention. */
const StoredMarkSchema = z.object({
  user: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
  at: isoTime,
  until: isoTime,
});

// KEYS: 1 the object's marks. ARGV: 1 rule, 2 the mark's JSON, 3 its expiry (ms since the epoch).
// The key lives as long as its longest mark.
const MARK = lua(
  `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local expires = tonumber(ARGV[3])
local left = redis.call('PEXPIRETIME', KEYS[1])
if left < expires then redis.call('PEXPIREAT', KEYS[1], expires) end
return 1`,
  1,
);

/** Record a mark for `object` and `rule`, from `at` for `days`; returns the mark. */
export async function markNotAProblem(
  redis: RedisClient,
  prefix: string,
  input: { cluster: string; object: string; rule: string; user: string; at: number; days: number },
): Promise<Mark> {
  const untilMs = input.at + input.days * 86_400_000;
  const mark = { user: input.user, at: new Date(input.at).toISOString(), until: new Date(untilMs).toISOString() };
  await runScript(redis, MARK, [keys.marks(prefix, input.cluster, input.object)], [input.rule, JSON.stringify(StoredMarkSchema.parse(mark)), untilMs]);
  return { rule: input.rule, ...mark };
}

/** The marks of `object` that hold at `now`; expired or unreadable ones are dropped. */
export async function marksFor(redis: RedisClient, prefix: string, cluster: string, object: string, now: number): Promise<Mark[]> {
  const key = keys.marks(prefix, cluster, object);
  const all = await redis.hgetall(key);
  const out: Mark[] = [];
  const stale: string[] = [];
  for (const [rule, raw] of Object.entries(all)) {
    let parsed: ReturnType<typeof StoredMarkSchema.safeParse> | undefined;
    try {
      parsed = StoredMarkSchema.safeParse(JSON.parse(raw));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success && Date.parse(parsed.data.until) > now) out.push({ rule, ...parsed.data });
    else stale.push(rule);
  }
  if (stale.length > 0) await redis.hdel(key, ...stale);
  return out.sort((a, b) => a.rule.localeCompare(b.rule));
}
