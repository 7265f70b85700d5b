// The edge answers "accepted" only once a replica holds the job. Redis replication is
// asynchronous: a primary that dies right after an enqueue takes the job with it, and the
// promoted replica never saw it. `WAIT n ms` blocks the connection until n replicas have
// acknowledged every write this connection sent before it, so the edge runs it after the
// enqueue, on the primary that owns the job's slot, and answers 503 (retry) if no replica
// confirms in time. Without replicas (a single Redis) there is nothing to wait for.
//
// WAIT is per connection and refused inside MULTI and scripts; with ioredis' Cluster it has
// no key to route by, so it goes to the node connection `slots[slot]` names (the one that
// carried the enqueue). Concurrent callers share one WAIT: a caller that arrives while a WAIT
// is in flight joins the next one (sent after its write), like a group commit.
import { Cluster, Command, type Redis } from 'ioredis';
import type { RedisClient } from './client.js';

export interface ReplicationSettings {
  /** Replicas that must confirm (capped at the replicas connected); 0 turns the wait off. */
  replicas: number;
  timeoutMs: number;
  /** How long the primary's replica count (`INFO replication`) is cached. */
  replicaInfoMs?: number;
}

export interface Confirmation {
  /** Replicas waited for (0: none connected, or the wait is off). */
  needed: number;
  acked: number;
}

/** No replica confirmed the write in time: the caller must not answer "accepted". */
export class ReplicationError extends Error {
  constructor(
    message: string,
    readonly confirmation?: Confirmation,
  ) {
    super(message);
    this.name = 'ReplicationError';
  }
}

// CRC16-CCITT (XMODEM), the Redis Cluster key hash.
const CRC_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** The Redis Cluster slot of a key (its hash tag when it has a non-empty one). */
export function keySlot(key: string): number {
  let bytes = Buffer.from(key);
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) bytes = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ b) & 0xff]!;
  return crc % 16384;
}

/** The primary connection that owns `key`'s slot: the client itself unless it is a Cluster. */
export function primaryFor(redis: RedisClient, key: string): Redis {
  if (!(redis instanceof Cluster)) return redis;
  const owner = redis.slots[keySlot(key)]?.[0];
  const node = owner ? redis.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === owner) : undefined;
  if (!node) throw new ReplicationError(`no primary known for the slot of ${key}`);
  return node;
}

/** How long past its own timeout a WAIT may take to answer before it counts as unanswered. */
const WAIT_SLACK_MS = 1000;

class NodeBarrier {
  private inflight?: Promise<Confirmation>;
  private next?: Promise<Confirmation>;
  private known?: { replicas: number; at: number };

  constructor(
    private readonly node: Redis,
    private readonly settings: ReplicationSettings,
  ) {}

  confirm(): Promise<Confirmation> {
    if (!this.inflight) {
      this.inflight = this.run().finally(() => {
        this.inflight = undefined;
      });
      return this.inflight;
    }
    const after = this.inflight.then(
      () => undefined,
      () => undefined,
    );
    this.next ??= after.then(() => {
      this.next = undefined;
      return this.confirm();
    });
    return this.next;
  }

  private async replicas(): Promise<number> {
    const ttl = this.settings.replicaInfoMs ?? 5000;
    if (this.known && Date.now() - this.known.at < ttl) return this.known.replicas;
    const info = await this.node.info('replication');
    const replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
    this.known = { replicas, at: Date.now() };
    return replicas;
  }

  private async run(): Promise<Confirmation> {
    const connected = await this.replicas();
    if (connected === 0) return { needed: 0, acked: 0 };
    const needed = Math.min(this.settings.replicas, connected);
    // WAIT blocks for up to its timeout by design: its own deadline, past the connection's.
    const wait = new Command('wait', [needed, this.settings.timeoutMs], { replyEncoding: 'utf8' });
    wait.setTimeout(this.settings.timeoutMs + WAIT_SLACK_MS);
    const acked = Number(await this.node.sendCommand(wait));
    // A replica that did not answer may be gone: count them again next time.
    if (acked < needed) this.known = undefined;
    return { needed, acked };
  }
}

/** One per connection: confirms that replicas hold this process's writes to a slot. */
export class ReplicaBarrier {
  private readonly nodes = new WeakMap<Redis, NodeBarrier>();

  constructor(
    private readonly redis: RedisClient,
    readonly settings: ReplicationSettings,
  ) {}

  /**
   * Resolves once `settings.replicas` replicas (at most the connected ones) of the primary
   * owning `key` hold every write this client sent it before the call; resolves at once when
   * that primary has no replica or the wait is off. Throws ReplicationError when fewer confirm
   * within `timeoutMs` (the primary may have failed: the caller answers "retry").
   */
  async confirm(key: string): Promise<Confirmation> {
    if (this.settings.replicas <= 0) return { needed: 0, acked: 0 };
    const node = primaryFor(this.redis, key);
    let barrier = this.nodes.get(node);
    if (!barrier) this.nodes.set(node, (barrier = new NodeBarrier(node, this.settings)));
    const out = await barrier.confirm();
    if (out.acked < out.needed)
      throw new ReplicationError(`${out.acked} of ${out.needed} replicas confirmed the write within ${this.settings.timeoutMs} ms`, out);
    return out;
  }
}
