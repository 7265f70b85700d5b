// Identical GETs from concurrent diagnoses share one request. In an alert storm hundreds of
// pods on a handful of nodes are diagnosed at once, and each would otherwise read the same
// node, the same pods-on-node list and the same namespace, loading the API server with copies.
//
// Freshness is what a fresh read would give: a diagnosis reuses a read only if that read
// started at or after `since` (when the diagnosis was asked for), whether it is still in
// flight or finished less than `ttlMs` ago. So every answer reflects the cluster as of the
// request or later, never a state from before it. Failed reads are not kept.

export interface ReadCacheOptions {
  /** How long a finished read stays reusable (bounds memory, not freshness). */
  ttlMs?: number;
  /** Most reads kept; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  startedAt: number;
  body: Promise<unknown>;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Reads answered from another diagnosis' request, and reads that went to the server. */
  readonly stats = { shared: 0, fetched: 0 };

  constructor(options: ReadCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 256;
    this.now = options.now ?? Date.now;
  }

  /**
   * The answer for `key`: a reusable read that started at or after `since`, else `fetch()`.
   * Shared answers go to several diagnoses: callers must not change them (KubeSource freezes them).
   */
  read<T>(key: string, since: number, fetch: () => Promise<T>): Promise<T> {
    const now = this.now();
    this.expire(now);
    const hit = this.entries.get(key);
    if (hit && hit.startedAt >= since) {
      this.stats.shared++;
      return hit.body as Promise<T>;
    }
    this.stats.fetched++;
    const body = fetch();
    const entry: Entry = { startedAt: now, body };
    // Re-inserting keeps the map in start order, so expiry and eviction look at the front only.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    entry.body.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return body;
  }

  get size(): number {
    return this.entries.size;
  }

  private expire(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.startedAt <= this.ttlMs) return;
      this.entries.delete(key);
    }
  }
}
