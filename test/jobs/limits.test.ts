import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import type { RedisClient } from '../../src/redis/client.js';
import { apiBucket, TokenBucket } from '../../src/redis/token-bucket.js';
import { cleanup, connect, sleep, testPrefix } from '../helpers/jobs.js';

// Rates are chosen so the lower bounds asserted here are far from what an unlimited run takes
// (a few ms), and no upper bounds are asserted: a loaded machine only makes waits longer.
describe('shared limits', () => {
  let one: RedisClient;
  let two: RedisClient;
  let prefix: string;

  beforeEach(() => {
    one = connect();
    two = connect();
    prefix = testPrefix('limits');
  });

  afterEach(async () => {
    await cleanup(one, prefix);
    one.disconnect();
    two.disconnect();
  });

  it('shares one API budget between two processes (two connections)', async () => {
    const rate = { ratePerSecond: 10, burst: 2 };
    const a = apiBucket(one, prefix, 'c1', rate);
    const b = apiBucket(two, prefix, 'c1', rate);
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).take()));
    // 12 tokens, 2 in the bucket, 10 more at 10/s: at least ~1 s, whoever asks.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('serves takes asked for together with one round trip, each waiting for its own token', async () => {
    const rate = { ratePerSecond: 20, burst: 4 };
    const bucket = apiBucket(one, prefix, 'c1', rate);
    await bucket.take(); // loads the script
    // Commands that name this bucket, as Redis sees them (other test files share the server).
    const monitor = await (connect() as Redis).monitor();
    const calls: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.includes(bucket.key)) calls.push(String(args[0]).toLowerCase());
    });
    await sleep(50);
    const waits = await Promise.all(Array.from({ length: 7 }, () => bucket.take()));
    await sleep(50);
    monitor.disconnect();
    expect(calls).toEqual(['evalsha']);
    // What the bucket holds (3 or 4: it refilled meanwhile) goes at once, then one every 50 ms.
    const now = waits.filter((w) => w === 0).length;
    expect(now).toBeGreaterThanOrEqual(3);
    expect(now).toBeLessThanOrEqual(4);
    for (let i = now + 1; i < 7; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]! + 45);
    expect(waits[6]).toBeGreaterThanOrEqual(100);
  });

  it('gives each cluster its own API budget', async () => {
    const rate = { ratePerSecond: 1, burst: 3 };
    const started = Date.now();
    await Promise.all([
      ...Array.from({ length: 3 }, () => apiBucket(one, prefix, 'c1', rate).take()),
      ...Array.from({ length: 3 }, () => apiBucket(two, prefix, 'c2', rate).take()),
    ]);
    // Shared by mistake, the second three would wait ~3 s.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('paces chat posts per channel across two limiter instances, without holding back other channels', async () => {
    const rate = { ratePerSecond: 5, burst: 1 };
    const a = new ChatLimiter(one, prefix, rate);
    const b = new ChatLimiter(two, prefix, rate);
    const started = Date.now();
    const [ops, dev] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).acquire('C-ops'))).then(() => Date.now() - started),
      sleep(50)
        .then(() => b.acquire('C-dev'))
        .then(() => Date.now() - started),
    ]);
    // 8 posts at 5/s after a burst of 1: at least 1.4 s; the other channel goes at once.
    expect(ops).toBeGreaterThanOrEqual(1300);
    expect(dev).toBeLessThan(ops / 2);
  });

  it('pauses only the channel that got HTTP 429, for every process, for Retry-After', async () => {
    const rate = { ratePerSecond: 50, burst: 5 };
    const a = new ChatLimiter(one, prefix, rate);
    const b = new ChatLimiter(two, prefix, rate);
    await a.pause('C-ops', 1.2);
    const started = Date.now();
    const [ops, dev] = await Promise.all([b.acquire('C-ops').then(() => Date.now() - started), b.acquire('C-dev').then(() => Date.now() - started)]);
    expect(ops).toBeGreaterThanOrEqual(1100);
    expect(dev).toBeLessThan(ops / 2);
    // A shorter pause never cuts a longer one short.
    await a.pause('C-ops', 1);
    await a.pause('C-ops', 0.01);
    expect(await one.pttl(`{${prefix}}:chat:pause:C-ops`)).toBeGreaterThan(500);
  });

  it('refuses a bucket that could never hand out a token', () => {
    expect(() => new TokenBucket(one, `${prefix}:x`, { ratePerSecond: 0, burst: 1 })).toThrow();
  });
});
