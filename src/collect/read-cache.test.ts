import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

describe('ReadCache', () => {
  const clock = () => {
    const c = { t: 1_000, now: () => c.t };
    return c;
  };
  const fetcher = () => {
    const f = { calls: 0, fetch: async () => `body ${++f.calls}` };
    return f;
  };

  it('reuses a read that started at or after `since`, in flight or finished', async () => {
    const c = clock();
    const cache = new ReadCache({ now: c.now });
    const f = fetcher();
    const first = cache.read('k', 1_000, f.fetch);
    expect(cache.read('k', 1_000, f.fetch)).toBe(first);
    expect(await first).toBe('body 1');
    c.t = 1_500;
    expect(await cache.read('k', 900, f.fetch)).toBe('body 1');
    expect(f.calls).toBe(1);
    expect(cache.stats).toEqual({ shared: 2, fetched: 1 });
  });

  it('fetches again for a diagnosis asked for after the read started, and later ones reuse that', async () => {
    const c = clock();
    const cache = new ReadCache({ now: c.now });
    const f = fetcher();
    await cache.read('k', 1_000, f.fetch);
    c.t = 1_200;
    expect(await cache.read('k', 1_001, f.fetch)).toBe('body 2');
    expect(await cache.read('k', 1_001, f.fetch)).toBe('body 2');
    expect(f.calls).toBe(2);
  });

  it('forgets reads older than the ttl and the oldest beyond maxEntries', async () => {
    const c = clock();
    const cache = new ReadCache({ now: c.now, ttlMs: 100, maxEntries: 2 });
    const f = fetcher();
    await cache.read('a', 0, f.fetch);
    c.t = 1_050;
    await cache.read('b', 0, f.fetch);
    c.t = 1_101;
    expect(cache.size).toBe(2);
    await cache.read('c', 0, f.fetch); // 'a' expired on the way in
    expect(cache.size).toBe(2);
    await cache.read('d', 0, f.fetch); // 'b' evicted as the oldest
    expect(cache.size).toBe(2);
    expect(await cache.read('b', 0, f.fetch)).toBe('body 5');
  });

  it('drops a failed read so the next one retries', async () => {
    const cache = new ReadCache({ now: clock().now });
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('etcdserver: request timed out'));
    };
    await expect(cache.read('k', 0, failing)).rejects.toThrow(/timed out/);
    await expect(cache.read('k', 0, failing)).rejects.toThrow(/timed out/);
    expect(calls).toBe(2);
    expect(cache.size).toBe(0);
  });
});
