import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connect, testPrefix } from '../../test/helpers/jobs.js';
import { keys } from '../redis/keys.js';
import { markNotAProblem, marksFor } from './not-a-problem.js';

const DAY = 86_400_000;

describe('Not a problem store', () => {
  const redis = connect();
  const prefix = testPrefix('nap');
  const object = 'shop/Deployment web';
  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('keeps a mark for its object and rule until it expires, then drops it', async () => {
    const at = Date.now();
    const mark = await markNotAProblem(redis, prefix, { cluster: 'c1', object, rule: 'crash.app-exit', user: 'U0BOB', at, days: 30 });
    expect(mark).toEqual({ rule: 'crash.app-exit', user: 'U0BOB', at: new Date(at).toISOString(), until: new Date(at + 30 * DAY).toISOString() });
    expect(await marksFor(redis, prefix, 'c1', object, at + DAY)).toEqual([mark]);
    // Another object, another cluster: nothing.
    expect(await marksFor(redis, prefix, 'c1', 'shop/Deployment api', at)).toEqual([]);
    expect(await marksFor(redis, prefix, 'c2', object, at)).toEqual([]);
    // The key lives as long as its mark, give or take the round trip.
    const ttl = await redis.pttl(keys.marks(prefix, 'c1', object));
    expect(ttl).toBeGreaterThan(30 * DAY - 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * DAY);
    // Past its expiry the mark no longer holds and is removed.
    expect(await marksFor(redis, prefix, 'c1', object, at + 30 * DAY + 1)).toEqual([]);
    expect(await redis.hlen(keys.marks(prefix, 'c1', object))).toBe(0);
  });

  it('a shorter mark never shortens the key; a longer one extends it; unreadable fields are dropped', async () => {
    const at = Date.now();
    const key = keys.marks(prefix, 'c1', 'shop/Pod web-1');
    await markNotAProblem(redis, prefix, { cluster: 'c1', object: 'shop/Pod web-1', rule: 'a.long', user: 'U1', at, days: 10 });
    await markNotAProblem(redis, prefix, { cluster: 'c1', object: 'shop/Pod web-1', rule: 'b.short', user: 'U2', at, days: 1 });
    expect(await redis.pttl(key)).toBeGreaterThan(9 * DAY);
    await redis.hset(key, 'c.bad', '{"user":"<!channel>"}');
    const marks = await marksFor(redis, prefix, 'c1', 'shop/Pod web-1', at + 2 * DAY);
    expect(marks.map((m) => m.rule)).toEqual(['a.long']);
    expect(await redis.hkeys(key)).toEqual(['a.long']);
    await markNotAProblem(redis, prefix, { cluster: 'c1', object: 'shop/Pod web-1', rule: 'a.long', user: 'U1', at, days: 20 });
    expect(await redis.pttl(key)).toBeGreaterThan(19 * DAY);
  });
});
