// When the digest is posted, and by whom: every bot replica looks once a minute whether a slot
// of the schedule (`mon 09:00`, `daily 08:30`, UTC) has come; the first to take the slot's lock
// in Redis posts it, the others see it taken. A post that fails gives the lock back, so the next
// look (here or on another replica) tries again; a replica that dies while posting lets its lock
// lapse. A slot missed by more than `lateMs` (every replica down) is skipped, not posted late.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { releaseLock } from '../redis/lua.js';

export const DIGEST_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** `mon 09:00` (weekly, UTC) or `daily 08:30`. */
export const SCHEDULE_PATTERN = /^(daily|mon|tue|wed|thu|fri|sat|sun) ([01]\d|2[0-3]):([0-5]\d)$/;

export interface DigestSchedule {
  day: 'daily' | (typeof DIGEST_DAYS)[number];
  hour: number;
  minute: number;
}

export function parseSchedule(text: string): DigestSchedule | undefined {
  const m = SCHEDULE_PATTERN.exec(text.trim());
  if (!m) return undefined;
  return { day: m[1] as DigestSchedule['day'], hour: Number(m[2]), minute: Number(m[3]) };
}

const DAY_MS = 86_400_000;

/** How much a slot's digest covers: the week (or day) before it. */
export function periodMs(s: DigestSchedule): number {
  return s.day === 'daily' ? DAY_MS : 7 * DAY_MS;
}

/** The latest slot at or before `now` (epoch ms, UTC). */
export function lastSlot(s: DigestSchedule, now: number): number {
  const d = new Date(now);
  let slot = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), s.hour, s.minute);
  if (s.day !== 'daily') {
    // getUTCDay: 0 is Sunday.
    const want = (DIGEST_DAYS.indexOf(s.day) + 1) % 7;
    slot -= ((d.getUTCDay() - want + 7) % 7) * DAY_MS;
  }
  while (slot > now) slot -= periodMs(s);
  return slot;
}

export interface DigestPosterOptions {
  redis: RedisClient;
  prefix: string;
  schedule: DigestSchedule;
  /** Post the digest of [sinceMs, untilMs]; a throw gives the slot back. */
  post: (window: { sinceMs: number; untilMs: number }) => Promise<void>;
  now?: () => number;
  /** A slot is posted up to this long after it came (default 6 h). */
  lateMs?: number;
  /** How long one replica may take to post before another may (default 10 min). */
  lockMs?: number;
  logger?: Logger;
}

export type DigestTick = 'posted' | 'not-due' | 'taken' | 'failed';

export const digestLockKey = (prefix: string, slot: number) => keys.chat(prefix, 'digest', new Date(slot).toISOString());

/** One look: post the due slot's digest if nobody has (exactly one replica gets `posted`). */
export async function digestTick(o: DigestPosterOptions): Promise<DigestTick> {
  const now = (o.now ?? Date.now)();
  const slot = lastSlot(o.schedule, now);
  if (now - slot > (o.lateMs ?? 6 * 3_600_000)) return 'not-due';
  const key = digestLockKey(o.prefix, slot);
  const token = randomUUID();
  if ((await o.redis.set(key, token, 'PX', o.lockMs ?? 600_000, 'NX')) !== 'OK') return 'taken';
  try {
    await o.post({ sinceMs: slot - periodMs(o.schedule), untilMs: slot });
  } catch (err) {
    o.logger?.warn({ err, slot: new Date(slot).toISOString() }, 'digest not posted; trying again at the next look');
    await releaseLock(o.redis, key, token).catch(() => undefined);
    return 'failed';
  }
  // Remembered past the slot's window: no replica posts it again.
  await o.redis.set(key, 'posted', 'PX', periodMs(o.schedule) + DAY_MS);
  o.logger?.info({ slot: new Date(slot).toISOString() }, 'digest posted');
  return 'posted';
}

/** Looks every `everyMs` (default a minute) until stopped. */
export function startDigestPoster(o: DigestPosterOptions & { everyMs?: number }): { stop(): void } {
  let running: Promise<unknown> = Promise.resolve();
  const look = () => {
    running = running.then(() => digestTick(o)).catch((err: unknown) => o.logger?.warn({ err }, 'digest look failed'));
  };
  const timer = setInterval(look, o.everyMs ?? 60_000);
  timer.unref();
  look();
  return { stop: () => clearInterval(timer) };
}
