// Redis streams with consumer groups: how results, run events and alert group events travel
// from workers to bot processes. Each entry is handled by one consumer and acknowledged only
// after its handler resolved; entries a crashed consumer left unacknowledged are claimed by
// another after `claimIdleMs`. One loop for every stream, so they all behave the same.
import type { Logger } from 'pino';
import type { RedisClient } from './client.js';

type Entry = [id: string, fields: string[]];

export interface StreamConsumerOptions<T> {
  /** A dedicated connection: XREADGROUP blocks it. */
  redis: RedisClient;
  stream: string;
  group: string;
  consumer: string;
  /** Decodes an entry's fields; undefined means "not understood": logged, acknowledged, skipped. */
  decode: (fields: string[]) => T | undefined;
  handler: (value: T, id: string) => Promise<void>;
  logger?: Logger;
  /** What the log lines call this stream (e.g. "results"). */
  label: string;
  claimIdleMs?: number;
  blockMs?: number;
  /**
   * Entries handled at once (default 1: in stream order). Results of different jobs are
   * independent; run events and alert group events keep their order.
   */
  concurrency?: number;
}

export interface StreamConsumer {
  stop: () => Promise<void>;
  done: Promise<void>;
  /** Whether the last read succeeded; `detail` says why not (for /readyz). */
  health: () => { ok: boolean; detail: string };
}

/** The JSON value stored under `field` in a stream entry. */
export function jsonField<T>(field: string): (fields: string[]) => T | undefined {
  return (fields) => {
    const i = fields.indexOf(field);
    const raw = i >= 0 ? fields[i + 1] : undefined;
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  };
}

/**
 * Whether stream entry id `a` comes before `b` (`<ms>-<seq>`, compared as numbers); false when
 * either is not an entry id. Entries of one stream are ordered by their ids, so an entry handled
 * late (failed, then claimed again after newer ones) tells by its id that it is older.
 */
export function streamIdBefore(a: string, b: string | undefined): boolean {
  const pa = /^(\d+)-(\d+)$/.exec(a);
  const pb = b === undefined ? null : /^(\d+)-(\d+)$/.exec(b);
  if (!pa || !pb) return false;
  const [ma, sa, mb, sb] = [pa[1], pa[2], pb[1], pb[2]].map((n) => BigInt(n ?? 0)) as [bigint, bigint, bigint, bigint];
  return ma < mb || (ma === mb && sa < sb);
}

/** When a stream entry was added (the ms part of its id); undefined for anything else. */
export function streamIdTime(id: string): number | undefined {
  const m = /^(\d+)-\d+$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

export function consumeStream<T>(options: StreamConsumerOptions<T>): StreamConsumer {
  const { redis, stream, group, consumer, handler, logger, label } = options;
  const claimIdleMs = options.claimIdleMs ?? 60_000;
  const blockMs = options.blockMs ?? 2000;
  let stopped = false;

  const concurrency = Math.max(1, options.concurrency ?? 1);
  let inFlight = 0;
  let freed: (() => void) | undefined;
  const handleOne = async ([id, fields]: Entry) => {
    try {
      const value = options.decode(fields);
      if (value === undefined) logger?.warn({ entry: id }, `${label} entry not understood, skipped`);
      else await handler(value, id);
      await redis.xack(stream, group, id);
    } catch (err) {
      // Left pending: retried by the claim loop after claimIdleMs.
      logger?.error({ err, entry: id }, `${label} handler failed`);
    }
  };
  // Handlers run in the background, at most `concurrency` at once; the loop reads only as many
  // entries as there are free slots, so a slow delivery never holds back the ones behind it.
  const start = (entry: Entry) => {
    inFlight++;
    void handleOne(entry).finally(() => {
      inFlight--;
      freed?.();
    });
  };
  const slots = async (want: number) => {
    while (inFlight > concurrency - want) await new Promise<void>((resolve) => (freed = resolve));
  };

  let health = { ok: true, detail: 'starting' };
  const createGroup = async () => {
    try {
      await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    }
  };

  const done = (async () => {
    await createGroup();
    let lastClaim = 0;
    while (!stopped) {
      try {
        await slots(1);
        if (Date.now() - lastClaim > claimIdleMs / 2) {
          lastClaim = Date.now();
          // Claimed entries may be many: wait for room for each.
          const claimed = (await redis.xautoclaim(stream, group, consumer, claimIdleMs, '0-0', 'COUNT', 100)) as [string, Entry[]];
          for (const entry of claimed[1] ?? []) {
            await slots(1);
            start(entry);
          }
        }
        await slots(1);
        const res = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', concurrency - inFlight, 'BLOCK', blockMs, 'STREAMS', stream, '>')) as
          | [string, Entry[]][]
          | null;
        health = { ok: true, detail: 'reading' };
        if (res) for (const [, entries] of res) for (const entry of entries) start(entry);
      } catch (err) {
        if (stopped) break;
        const message = err instanceof Error ? err.message : String(err);
        health = { ok: false, detail: message };
        // Redis lost its data (a restart without persistence, FLUSHALL): the stream and its group
        // are gone and every read says NOGROUP until the group exists again. Entries added before
        // the loss are lost with it; new ones are read from the start of the new stream.
        if (message.includes('NOGROUP')) {
          logger?.warn({ stream, group }, `${label} consumer group is gone (Redis lost its data); creating it again`);
          try {
            await createGroup();
            continue;
          } catch (createErr) {
            logger?.error({ err: createErr }, `${label} consumer group could not be created again`);
          }
        } else {
          logger?.error({ err }, `${label} stream read failed`);
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    // Let running handlers finish (and acknowledge) before the caller closes the connection.
    await slots(concurrency);
  })();

  return {
    done,
    health: () => health,
    stop: async () => {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}
