// A stream consumer survives Redis losing its data: the stream and its group vanish (a restart
// without persistence, FLUSHALL), every read answers NOGROUP, and the consumer creates the group
// again instead of failing forever; while it cannot read, its health says so (for /readyz).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connect, eventually, testPrefix } from '../../test/helpers/jobs.js';
import { consumeStream, jsonField, type StreamConsumer, streamIdBefore } from './streams.js';

describe('consumeStream after Redis lost its data', () => {
  const admin = connect();
  const prefix = testPrefix('streams');
  const stream = `${prefix}:events`;
  let consumer: StreamConsumer | undefined;
  let reader: ReturnType<typeof connect> | undefined;

  afterEach(async () => {
    await consumer?.stop();
    reader?.disconnect();
    await cleanup(admin, prefix);
  });

  it('creates its group again on NOGROUP and reads what comes after; health is false while reads fail', async () => {
    const seen: string[] = [];
    reader = connect();
    consumer = consumeStream<{ n: string }>({
      redis: reader,
      stream,
      group: 'chat',
      consumer: 'c1',
      decode: jsonField('e'),
      handler: async (v) => void seen.push(v.n),
      label: 'test',
      blockMs: 100,
    });
    await admin.xadd(stream, '*', 'e', JSON.stringify({ n: 'before' }));
    await eventually(async () => seen.includes('before'));
    expect(consumer.health().ok).toBe(true);

    // The key turns into something else: reads fail (WRONGTYPE) and the consumer is not healthy.
    await admin.del(stream);
    await admin.set(stream, 'not a stream');
    await eventually(async () => !consumer!.health().ok, 5000);
    expect(consumer.health().detail).toMatch(/WRONGTYPE|NOGROUP|UNBLOCKED/);

    // Redis "lost everything": the key is gone, so is the group. The consumer recovers by itself.
    await admin.del(stream);
    await eventually(async () => (await admin.exists(stream)) === 1, 5000);
    await admin.xadd(stream, '*', 'e', JSON.stringify({ n: 'after' }));
    await eventually(async () => seen.includes('after'), 5000);
    expect(consumer.health()).toEqual({ ok: true, detail: 'reading' });
  });
});

describe('consumeStream lanes', () => {
  const admin = connect();
  const prefix = testPrefix('lanes');
  const stream = `${prefix}:results`;
  let consumer: StreamConsumer | undefined;
  let reader: ReturnType<typeof connect> | undefined;

  afterEach(async () => {
    await consumer?.stop();
    reader?.disconnect();
    await cleanup(admin, prefix);
  });

  it('a slow lane keeps its own slots: the other lane is handled at once, and nothing waiting is claimed twice', async () => {
    const started: string[] = [];
    const done: string[] = [];
    reader = connect();
    consumer = consumeStream<{ n: string; lane: string }>({
      redis: reader,
      stream,
      group: 'chat',
      consumer: 'c1',
      decode: jsonField('e'),
      handler: async (v) => {
        started.push(v.n);
        if (v.lane === 'slow') await new Promise((r) => setTimeout(r, 400));
        done.push(v.n);
      },
      label: 'test',
      blockMs: 50,
      // Entries waiting in their lane are idle longer than this: the claim loop must skip them.
      claimIdleMs: 200,
      concurrency: 4,
      lane: (v) => v.lane,
      laneConcurrency: 1,
    });
    for (let i = 0; i < 4; i++) await admin.xadd(stream, '*', 'e', JSON.stringify({ n: `slow-${i}`, lane: 'slow' }));
    await admin.xadd(stream, '*', 'e', JSON.stringify({ n: 'fast', lane: 'fast' }));
    await eventually(async () => done.includes('fast'), 1000);
    // The fast one did not wait for the slow lane (one at a time, 400 ms each).
    expect(done.filter((n) => n.startsWith('slow'))).toHaveLength(0);
    await eventually(async () => done.length === 5, 5000);
    await new Promise((r) => setTimeout(r, 300));
    expect([...started].sort()).toEqual(['fast', 'slow-0', 'slow-1', 'slow-2', 'slow-3']);
    expect(done.filter((n) => n.startsWith('slow'))).toEqual(['slow-0', 'slow-1', 'slow-2', 'slow-3']);
    expect(await admin.xpending(stream, 'chat')).toEqual([0, null, null, null]);
  });
});

describe('streamIdBefore', () => {
  it.each([
    ['1700000000000-0', '1700000000001-0', true],
    ['1700000000000-9', '1700000000000-10', true],
    ['1700000000000-10', '1700000000000-9', false],
    ['1700000000001-0', '1700000000000-5', false],
    ['1700000000000-3', '1700000000000-3', false],
    ['99999999999999999999-0', '100000000000000000000-0', true],
    ['1700000000000-0', undefined, false],
    ['entry-1', '1700000000000-0', false],
    ['1700000000000-0', '*', false],
  ] as const)('%s before %s: %s', (a, b, before) => {
    expect(streamIdBefore(a, b)).toBe(before);
  });
});
