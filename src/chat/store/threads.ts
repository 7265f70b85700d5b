// Threads in Redis: which chat message is the parent of which diagnosis or incident, created
// exactly once even when several bot replicas (or the slash handler and the result consumer)
// race for it: one script either finds the thread or takes a short lock, the winner posts the
// parent and stores its ts (releasing the lock in the same script), the others wait for it. Each thread has an opaque id (re-run buttons carry it) and a
// small state the parent's summary line is rendered from.
import { randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '../../redis/client.js';
import { keys } from '../../redis/keys.js';
import { lua, releaseLock, runScript } from '../../redis/lua.js';
import type { MessageRef } from '../types.js';

export interface ThreadRecord<S = unknown> {
  id: string;
  channel: string;
  ts: string;
  /** Summary state of the parent message (rendered by the flows). */
  state: S;
  /** Revision of `state`: bumped by every change, compared when the parent is rendered. */
  rev: number;
}

export interface ThreadStoreOptions {
  /** How long threads are remembered (re-run buttons and approvals work that long). */
  ttlSeconds?: number;
  /** How long a creator may take to post the parent before another process takes over. */
  lockMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// KEYS: 1 lock. ARGV: 1 token. Delete the lock only if we still hold it.

// KEYS: 1 scope, 2 lock. ARGV: 1 token, 2 lock ms.
// Returns the scope's thread id if there is one, 'go' if the caller now holds the lock (and must
// create the parent), '' if another process holds it.
const CLAIM_SCOPE = lua(
  `local id = redis.call('GET', KEYS[1])
if id then return id end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', tonumber(ARGV[2]), 'NX') then return 'go' end
return ''`,
  2,
);

// KEYS: 1 thread hash, 2 by-ts key, 3 scope, 4 lock. ARGV: 1 token, 2 ttl s, 3 id, 4 channel,
// 5 ts, 6 state JSON. Stores a created thread and releases the lock, in one round trip.
const COMMIT = lua(
  `redis.call('HSET', KEYS[1], 'channel', ARGV[4], 'ts', ARGV[5], 'state', ARGV[6])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[2]))
redis.call('SET', KEYS[3], ARGV[3], 'EX', tonumber(ARGV[2]))
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end
return 1`,
  4,
);

// KEYS: 1 thread hash, 2 dirty set. ARGV: 1 expected rev, 2 state JSON, 3 now ms.
// Compare-and-set of a thread's state: -1 if another writer changed it first (the caller reads
// again), 0 if the thread is gone, else the new revision. The thread joins the set of parents
// whose latest state is not yet rendered, in the same step, so a crash between the write and
// the chat.update never loses the update.
const SET_STATE = lua(
  `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if rev ~= tonumber(ARGV[1]) then return -1 end
rev = rev + 1
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'rev', rev)
redis.call('ZADD', KEYS[2], 'NX', tonumber(ARGV[3]), KEYS[1])
return rev`,
  2,
);

// KEYS: 1 thread hash, 2 dirty set. ARGV: 1 rendered rev. The parent shows revision ARGV[1]:
// it leaves the dirty set unless a newer state arrived meanwhile. Returns 1 when clean.
const RENDERED = lua(
  `local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if rev > tonumber(ARGV[1]) then return 0 end
redis.call('ZREM', KEYS[2], KEYS[1])
return 1`,
  2,
);

export class ThreadStore<S = unknown> {
  private readonly ttl: number;
  private readonly lockMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    options: ThreadStoreOptions = {},
  ) {
    this.ttl = options.ttlSeconds ?? 7 * 86_400;
    // A parent's post may wait its channel's turn (about one post a second) for a while.
    this.lockMs = options.lockMs ?? 60_000;
  }

  private k = {
    scope: (channel: string, scope: string) => keys.chat(this.prefix, 'scope', channel, scope),
    thread: (id: string) => keys.chat(this.prefix, 'thread', id),
    byTs: (channel: string, ts: string) => keys.chat(this.prefix, 'ts', channel, ts),
    dirty: () => keys.chat(this.prefix, 'parents-dirty'),
    lock: (channel: string, scope: string) => `${this.k.scope(channel, scope)}:lock`,
  };

  /**
   * The thread of `scope` in `channel`, creating its parent with `create` if nobody has.
   * `created` is true for exactly one caller.
   */
  async ensure(
    channel: string,
    scope: string,
    create: (id: string) => Promise<{ ref: MessageRef; state: S }>,
  ): Promise<{ thread: ThreadRecord<S>; created: boolean }> {
    const scopeKey = this.k.scope(channel, scope);
    const lockKey = this.k.lock(channel, scope);
    const deadline = Date.now() + this.lockMs * 2;
    for (;;) {
      const token = randomUUID();
      const claim = String(await runScript(this.redis, CLAIM_SCOPE, [scopeKey, lockKey], [token, this.lockMs]));
      if (claim === 'go') {
        let committed = false;
        try {
          const id = randomBytes(9).toString('base64url');
          const { ref, state } = await create(id);
          await runScript(
            this.redis,
            COMMIT,
            [this.k.thread(id), this.k.byTs(ref.channel, ref.ts), scopeKey, lockKey],
            [token, this.ttl, id, ref.channel, ref.ts, JSON.stringify(state)],
          );
          committed = true;
          return { thread: { id, channel: ref.channel, ts: ref.ts, state, rev: 0 }, created: true };
        } finally {
          if (!committed) await releaseLock(this.redis, lockKey, token);
        }
      }
      if (claim !== '') {
        const thread = await this.get(claim);
        if (thread) return { thread, created: false };
        // The scope outlived its thread (they expire together, give or take): forget it, retry.
        await releaseLock(this.redis, scopeKey, claim);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`thread ${scope} in ${channel}: its parent was not created within ${this.lockMs * 2} ms`);
      await sleep(25);
    }
  }

  /** Register a thread whose parent already exists (a re-run inside an existing thread). */
  async get(id: string): Promise<ThreadRecord<S> | null> {
    const h = await this.redis.hgetall(this.k.thread(id));
    if (!h.ts || !h.channel) return null;
    let state: S;
    try {
      state = JSON.parse(h.state ?? 'null') as S;
    } catch {
      return null;
    }
    return { id, channel: h.channel, ts: h.ts, state, rev: Number(h.rev ?? 0) };
  }

  /** The thread of `scope` in `channel`, if one was opened (never creates it). */
  async byScope(channel: string, scope: string): Promise<ThreadRecord<S> | null> {
    const id = await this.redis.get(this.k.scope(channel, scope));
    return id ? this.get(id) : null;
  }

  /** Whether a caller is creating the parent of `scope` in `channel` right now. */
  async creating(channel: string, scope: string): Promise<boolean> {
    return (await this.redis.exists(this.k.lock(channel, scope))) === 1;
  }

  async byTs(channel: string, ts: string): Promise<ThreadRecord<S> | null> {
    const id = await this.redis.get(this.k.byTs(channel, ts));
    return id ? this.get(id) : null;
  }

  /** Attach another scope (an incident, a job) to an existing thread. */
  async link(channel: string, scope: string, id: string): Promise<void> {
    await this.redis.set(this.k.scope(channel, scope), id, 'EX', this.ttl);
  }

  /**
   * Change a thread's state if it is still at revision `rev`: the new revision, `'conflict'` when
   * another writer came first (read and try again), or `'gone'` when the thread expired.
   * The parent is then due for an update (see `dirty`).
   */
  async setState(id: string, rev: number, state: S, now = Date.now()): Promise<number | 'conflict' | 'gone'> {
    const out = Number(await runScript(this.redis, SET_STATE, [this.k.thread(id), this.k.dirty()], [rev, JSON.stringify(state), now]));
    return out === -1 ? 'conflict' : out === 0 ? 'gone' : out;
  }

  /** Parents whose latest state has not been rendered, changed before `before` (oldest first). */
  async dirty(before: number, limit: number): Promise<string[]> {
    const members = await this.redis.zrangebyscore(this.k.dirty(), '-inf', before, 'LIMIT', 0, limit);
    const head = this.k.thread('');
    return members.filter((m) => m.startsWith(head)).map((m) => m.slice(head.length));
  }

  /** The parent now shows revision `rev`; true unless a newer state is waiting. */
  async rendered(id: string, rev: number): Promise<boolean> {
    return Number(await runScript(this.redis, RENDERED, [this.k.thread(id), this.k.dirty()], [rev])) === 1;
  }

  /** Forget a thread's pending update (its parent cannot be updated: deleted, channel archived). */
  async dropDirty(id: string): Promise<void> {
    await this.redis.zrem(this.k.dirty(), this.k.thread(id));
  }
}

// ---- idempotent delivery ----

// KEYS: 1 delivery key. ARGV: 1 token, 2 lock ms. Returns 'go' (we post), 'done', or 'busy'.
const CLAIM = lua(
  `local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'done' end
if v then return 'busy' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
return 'go'`,
  1,
);

/**
 * "Post this once": results are delivered at least once (a job re-run after a crash delivers
 * again with the same id), so each (job, thread) delivery is claimed, then marked done.
 */
export class DeliveryLog {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    // Longer than a post may wait for its channel's turn in a storm.
    private readonly lockMs = 120_000,
    private readonly keepSeconds = 7 * 86_400,
  ) {}

  private key(id: string): string {
    return keys.chat(this.prefix, 'delivered', id);
  }

  /** Whether delivery `id` has happened. */
  async done(id: string): Promise<boolean> {
    return (await this.redis.get(this.key(id))) === 'done';
  }

  /** Run `post` unless this delivery already happened; waits while another process posts it. */
  async once(id: string, post: () => Promise<void>): Promise<'posted' | 'duplicate'> {
    const key = this.key(id);
    const deadline = Date.now() + this.lockMs * 2;
    for (;;) {
      const token = randomUUID();
      const claim = String(await runScript(this.redis, CLAIM, [key], [token, String(this.lockMs)]));
      if (claim === 'done') return 'duplicate';
      if (claim === 'go') {
        try {
          await post();
        } catch (err) {
          // Let a retry (the job's or the stream's) post it again.
          await releaseLock(this.redis, key, token);
          throw err;
        }
        // Posted: a Redis blip while marking it must not lose the mark (nor throw at once, which
        // would post again). Still failing, the claim lapses and the retry posts it again: a
        // message twice rather than none.
        for (let attempt = 1; ; attempt++) {
          try {
            await this.redis.set(key, 'done', 'EX', this.keepSeconds);
            return 'posted';
          } catch (err) {
            if (attempt >= 5) throw err;
            await sleep(200 * attempt);
          }
        }
      }
      if (Date.now() > deadline) throw new Error(`delivery ${id} is held by another process`);
      await sleep(50);
    }
  }
}
