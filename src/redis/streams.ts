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
  /**
   * The budget an entry waits for (a chat channel, the workspace's private replies): each lane
   * runs at most `laneConcurrency` entries at once and keeps up to `laneBacklog` more in memory,
   * so entries that wait long for one budget never take the slots of the others. A lane's
   * overflow is left pending in Redis and claimed again after `claimIdleMs`.
   */
  lane?: (value: T) => string;
  laneConcurrency?: number;
  laneBacklog?: number;
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
  const laneConcurrency = options.lane ? Math.max(1, Math.min(concurrency, options.laneConcurrency ?? concurrency)) : concurrency;
  const laneBacklog = options.laneBacklog ?? 1000;
  /** Entries held in memory at most (running or waiting in their lane); more stay pending in Redis. */
  const maxHeld = concurrency + 10 * laneBacklog;
  let inFlight = 0;
  let freed: (() => void) | undefined;
  /** Ids running or waiting in a lane: the claim loop skips them, the heartbeat keeps them ours. */
  const held = new Set<string>();
  const lanes = new Map<string, { running: number; waiting: [string, T][] }>();
  const handleOne = async (id: string, value: T) => {
    try {
      await handler(value, id);
      await redis.xack(stream, group, id);
    } catch (err) {
      // Left pending: retried by the claim loop after claimIdleMs.
      logger?.error({ err, entry: id }, `${label} handler failed`);
    }
  };
  const run = (lane: string, id: string, value: T) => {
    const l = lanes.get(lane) ?? { running: 0, waiting: [] };
    lanes.set(lane, l);
    l.running++;
    inFlight++;
    void handleOne(id, value).finally(() => {
      held.delete(id);
      inFlight--;
      l.running--;
      const next = l.waiting.shift();
      if (next) run(lane, next[0], next[1]);
      else if (l.running === 0) lanes.delete(lane);
      freed?.();
    });
  };
  // Handlers run in the background, at most `concurrency` at once (and `laneConcurrency` per
  // lane); the loop reads only as many entries as there are free slots, so a slow delivery never
  // holds back the ones behind it, and a lane waiting for its budget never holds back another.
  const start = ([id, fields]: Entry) => {
    let value: T | undefined;
    try {
      value = options.decode(fields);
    } catch (err) {
      logger?.warn({ err, entry: id }, `${label} entry not understood, skipped`);
    }
    if (value === undefined) {
      if (!held.has(id)) void redis.xack(stream, group, id).catch(() => undefined);
      return;
    }
    if (held.has(id)) return;
    const lane = options.lane?.(value) ?? '';
    const l = lanes.get(lane);
    if (!l || l.running < laneConcurrency) {
      held.add(id);
      run(lane, id, value);
    } else if (l.waiting.length < laneBacklog && held.size < maxHeld) {
      held.add(id);
      l.waiting.push([id, value]);
    }
    // Else the lane is full: the entry stays pending and is claimed again later.
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

  // Entries held here stay ours: their idle time is reset before another consumer would claim them.
  const heartbeat = setInterval(
    () => {
      const ids = [...held];
      for (let i = 0; i < ids.length; i += 500)
        void redis.call('XCLAIM', stream, group, consumer, 0, ...ids.slice(i, i + 500), 'JUSTID').catch(() => undefined);
    },
    Math.max(1000, claimIdleMs / 3),
  ).unref();

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
            // Ours already (waiting in its lane, or running long): not twice.
            if (!entry || held.has(entry[0])) continue;
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
    // Entries waiting in a lane stay pending for the next consumer; running handlers finish (and
    // acknowledge) before the caller closes the connection.
    for (const l of lanes.values()) for (const [id] of l.waiting.splice(0)) held.delete(id);
    await slots(concurrency);
    clearInterval(heartbeat);
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
