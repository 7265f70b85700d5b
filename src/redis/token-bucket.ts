// Shared limits: token buckets in Redis, so every process of every role draws from the same
// budget. A call reserves its token and learns how long to wait (tokens may go negative, so
// waiters are served in arrival order without polling Redis). The clock is Redis' own TIME.
import type { RedisClient } from './client.js';
import { keys } from './keys.js';
import { LUA_NOW_MS, lua, runScript } from './lua.js';

export interface BucketRate {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Tokens a full bucket holds (how many calls may go at once after a quiet spell). */
  burst: number;
}

// KEYS: 1 bucket hash, 2 pause key (checked only when ARGV[4] == '1').
// ARGV: 1 rate per ms, 2 burst, 3 tokens wanted, 4 check pause.
// Returns {kind, ms, left}: kind 0 = reserved (wait ms, then go), 1 = paused (wait ms, then ask
// again); left = tokens after the reservation (a string: Lua numbers reply as integers).
// Shared with the chat limiter (src/chat/limiter.ts), which also honours the pause key.
export const TAKE = lua(
  `${LUA_NOW_MS}
local rate, burst, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if ARGV[4] == '1' then
  local p = redis.call('PTTL', KEYS[2])
  if p > 0 then return {1, p} end
end
local tokens = tonumber(redis.call('HGET', KEYS[1], 't') or burst)
local ts = tonumber(redis.call('HGET', KEYS[1], 'ts') or now)
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate) - n
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
if tokens >= 0 then return {0, 0, tostring(tokens)} end
return {0, math.ceil(-tokens / rate), tostring(tokens)}`,
  2,
);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A token bucket shared through Redis by every process that uses the same key. Takes asked for
 * in the same turn of the event loop (a collector starting its calls, several jobs at once)
 * share one round trip: n tokens are reserved together and each caller waits for its own.
 */
export class TokenBucket {
  private batch: { resolve: (ms: number) => void; reject: (err: unknown) => void }[] | undefined;

  constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    readonly rate: BucketRate,
  ) {
    if (!(rate.ratePerSecond > 0) || !(rate.burst >= 1)) throw new Error('token bucket needs ratePerSecond > 0 and burst >= 1');
  }

  /** Take one token, waiting as long as needed. Resolves with the ms waited. */
  async take(): Promise<number> {
    const ms = await new Promise<number>((resolve, reject) => {
      if (!this.batch) {
        this.batch = [];
        setImmediate(() => void this.reserve());
      }
      this.batch.push({ resolve, reject });
    });
    if (ms > 0) await sleep(ms);
    return ms;
  }

  private async reserve(): Promise<void> {
    const waiters = this.batch ?? [];
    this.batch = undefined;
    const n = waiters.length;
    const perMs = this.rate.ratePerSecond / 1000;
    try {
      const [, , left] = await runScript<[number, number, string]>(this.redis, TAKE, [this.key, this.key], [perMs, this.rate.burst, n, '0']);
      // Waiter i gets the (i+1)-th token: what is left after it decides whether it waits.
      waiters.forEach((w, i) => {
        const after = Number(left) + (n - 1 - i);
        w.resolve(after >= 0 ? 0 : Math.ceil(-after / perMs));
      });
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }
}

/** The Kubernetes API budget of one cluster, shared by all its workers. */
export function apiBucket(redis: RedisClient, prefix: string, cluster: string, rate: BucketRate): TokenBucket {
  return new TokenBucket(redis, keys.apiBucket(prefix, cluster), rate);
}
