// Commands issued in one tick leave a connection in one write (coalesceWrites), also after a
// reconnect, with each command still getting its own reply.
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redisFromUrl } from '../../src/redis/client.js';
import { REDIS_URL } from '../helpers/jobs.js';

describe('redis connections from redisFromUrl', () => {
  let redis: Redis | undefined;
  afterEach(() => redis?.disconnect());

  type Spied = { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
  const writesFor = async (r: Redis, n: number) => {
    const socket = r.stream as unknown as Spied;
    const one = vi.spyOn(socket, '_write');
    const many = vi.spyOn(socket, '_writev');
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) => (i === 3 ? r.call('nosuchcommand') : r.echo(`m${i}`)).catch((e: Error) => e.message)),
    );
    const writes = one.mock.calls.length + many.mock.calls.length;
    one.mockRestore();
    many.mockRestore();
    return { replies, writes };
  };

  it('sends the commands of one tick in one write, each with its own reply', async () => {
    redis = redisFromUrl(REDIS_URL, {}, { role: 'producer' }) as Redis;
    await redis.ping();
    const { replies, writes } = await writesFor(redis, 10);
    expect(replies[0]).toBe('m0');
    expect(replies[3]).toMatch(/unknown command/i);
    expect(replies[9]).toBe('m9');
    expect(writes).toBe(1);
    // Separate ticks still go out on their own (nothing waits for a batch to fill).
    const socket = redis.stream as unknown as Spied;
    const one = vi.spyOn(socket, '_write');
    const many = vi.spyOn(socket, '_writev');
    for (let i = 0; i < 3; i++) await redis.echo(`t${i}`);
    expect(one.mock.calls.length + many.mock.calls.length).toBe(3);
  });

  it('keeps doing so on the new socket after a reconnect', async () => {
    redis = redisFromUrl(REDIS_URL, {}, { role: 'producer' }) as Redis;
    await redis.ping();
    const first = redis.stream;
    redis.disconnect(true);
    await new Promise<void>((resolve) => redis!.once('ready', () => resolve()));
    expect(redis.stream).not.toBe(first);
    expect((await writesFor(redis, 8)).writes).toBe(1);
  });
});
