// Chat posts per channel, from a token bucket in Redis shared by every bot process.
import type { RedisClient } from '../../../redis/client.js';
import { keys } from '../../../redis/keys.js';
import { lua, runScript } from '../../../redis/lua.js';
import { type BucketRate, sleep, TAKE } from '../../../redis/token-bucket.js';

// KEYS: 1 bucket hash. ARGV: 1 tokens to take back. A call's token counts from when Slack had it.
const CHARGE = lua(
  `local t = redis.call('HGET', KEYS[1], 't')
if t then redis.call('HSET', KEYS[1], 't', tostring(tonumber(t) - tonumber(ARGV[1]))) end
return 1`,
  1,
);

/**
 * Chat posts per channel, shared by all processes (Slack allows about one message per second
 * per channel). On HTTP 429 the caller pauses that channel for Retry-After seconds; other
 * channels keep their own pace.
 */
export class ChatLimiter {
  constructor(
    private readonly redis: RedisClient,
    readonly prefix: string,
    readonly rate: BucketRate = { ratePerSecond: 1, burst: 3 },
  ) {}

  /** Wait until `channel` may receive one message. Resolves with the ms waited. */
  async acquire(channel: string, options: { signal?: AbortSignal } = {}): Promise<number> {
    const started = Date.now();
    for (;;) {
      options.signal?.throwIfAborted();
      const [kind, ms] = await runScript<[number, number]>(
        this.redis,
        TAKE,
        [keys.chatBucket(this.prefix, channel), keys.chatPause(this.prefix, channel)],
        [this.rate.ratePerSecond / 1000, this.rate.burst, 1, '1'],
      );
      // By the wall clock: a timer armed during a long synchronous stretch fires early by as
      // much (libuv measures from the loop's cached time), and Slack would see the call early.
      const until = Date.now() + ms;
      while (Date.now() < until) await sleep(until - Date.now());
      if (kind === 0) {
        // A 429 may have paused the channel while we waited for our turn.
        const paused = ms > 0 ? await this.redis.pttl(keys.chatPause(this.prefix, channel)) : 0;
        if (paused <= 0) return Date.now() - started;
      }
    }
  }

  /**
   * A call took `ms` from leaving to its answer. Slack counts the call when it arrives, later than
   * the token was taken here: after a burst its bucket empties that much later and refills that
   * much later, so the next call would be early by as much (a 429). Taking the time back as
   * tokens keeps this bucket behind Slack's, never ahead.
   */
  async charge(channel: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    await runScript(this.redis, CHARGE, [keys.chatBucket(this.prefix, channel)], [(ms * this.rate.ratePerSecond) / 1000]);
  }

  /** Slack said 429 with Retry-After: hold this channel (only) for that long, for every process. */
  async pause(channel: string, retryAfterSeconds: number): Promise<void> {
    const ms = Math.max(1, Math.ceil(retryAfterSeconds * 1000));
    const key = keys.chatPause(this.prefix, channel);
    // Keep the longer of an existing pause and this one.
    const current = await this.redis.pttl(key);
    if (current >= ms) return;
    await this.redis.set(key, String(retryAfterSeconds), 'PX', ms);
  }
}
