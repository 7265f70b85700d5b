// Thread parents: the message at the top of each thread, rendered from the thread's summary
// state. The state lives in Redis and every change marks the parent dirty in the same step; the
// chat.update follows in the background, so nothing that posts findings ever waits for it.
// Slack allows about 50 chat.update calls a minute for the whole workspace, so updates are
// coalesced per thread (the latest state is rendered, intermediate ones are skipped) and paced.
// A failed update (Redis or Slack down) is retried with backoff; threads still dirty after a
// while are swept from Redis, at start-up and after every reconnect, so the final state of every
// parent is eventually written even when the process that changed it died.
import type { Logger } from 'pino';
import type { Target } from '../../diagnosis/types.js';
import type { DiagnoseResult, Recurrence } from '../../jobs/schemas.js';
import { chatErrorCode, isPermanentChatError } from '../errors.js';
import { alertGroupRootMessage, incidentRootMessage, type RootState, rootMessage, type ThreadState } from '../messages/messages.js';
import type { ThreadRecord, ThreadStore } from '../store/threads.js';
import type { ChatAdapter, ChatMessage, MessageRef } from '../types.js';

export function renderParent(s: ThreadState): ChatMessage {
  switch (s.kind) {
    case 'incident':
      return incidentRootMessage(s);
    case 'alert-group':
      return alertGroupRootMessage(s);
    case 'diagnosis':
      return rootMessage(s);
  }
}

export const jobScope = (cluster: string, jobId: string) => `job:${cluster}:${jobId}`;
/**
 * Where a job's findings were posted when its thread is not its own (an incident's or an Alertmanager
 * group's thread): only for links to it, never to route results (that is `jobScope`).
 */
export const postedScope = (cluster: string, jobId: string) => `posted:${cluster}:${jobId}`;

/**
 * Remember `thread` as where the findings of `result` (and of its incident's first job) were posted,
 * so the next incident of the same cause links it. Best effort: a store that does not answer
 * only costs that link.
 */
export async function rememberPosted(
  ctx: { readonly cluster: string; readonly threads: ThreadStore<ThreadState>; readonly log: Logger },
  thread: { id: string; channel: string },
  result: Pick<DiagnoseResult, 'jobId' | 'incident'>,
): Promise<void> {
  const jobs = new Set([result.jobId, ...(result.incident ? [result.incident.firstJobId] : [])]);
  for (const job of jobs) {
    await ctx.threads.link(thread.channel, postedScope(ctx.cluster, job), thread.id).catch((err: unknown) => {
      ctx.log.warn({ err, jobId: job, threadId: thread.id }, 'thread of the findings not remembered: a recurrence will not link it');
    });
  }
}

/**
 * The threads in `channel` of the earlier incidents a recurrence names, by their first job: the
 * thread a command opened for it, else the incident's or alert group's thread its findings were
 * posted in. Best effort: a thread this chat no longer knows, or a store that does not answer,
 * leaves that incident without a link.
 */
export async function earlierThreads(
  ctx: { readonly cluster: string; readonly threads: ThreadStore<ThreadState> },
  channel: string,
  recurrence: Recurrence | undefined,
): Promise<Record<string, MessageRef>> {
  const out: Record<string, MessageRef> = {};
  for (const p of recurrence?.previous ?? []) {
    const thread =
      (await ctx.threads.byScope(channel, jobScope(ctx.cluster, p.jobId)).catch(() => null)) ??
      (await ctx.threads.byScope(channel, postedScope(ctx.cluster, p.jobId)).catch(() => null));
    if (thread) out[p.jobId] = { channel: thread.channel, ts: thread.ts };
  }
  return out;
}

/**
 * The thread of a diagnosis job in `channel`, opened once however many callers race for it.
 * `init` is the parent's first state: the outcome itself when the result comes first (one
 * post, no update), else "diagnosing".
 */
export async function openJobThread(
  ctx: { readonly cluster: string; readonly adapter: ChatAdapter; readonly now: () => number; readonly threads: ThreadStore<ThreadState> },
  channel: string,
  jobId: string,
  target: Target,
  init: Pick<RootState, 'origin' | 'requestedBy'> & Partial<RootState>,
): Promise<{ thread: ThreadRecord<ThreadState>; created: boolean }> {
  return ctx.threads.ensure(channel, jobScope(ctx.cluster, jobId), async () => {
    const state: ThreadState = {
      kind: 'diagnosis',
      cluster: ctx.cluster,
      target,
      status: 'diagnosing',
      updatedAt: new Date(ctx.now()).toISOString(),
      ...init,
    };
    // A parent that opens with the outcome has its findings right behind it.
    const ref = await ctx.adapter.postRoot(channel, rootMessage(state), { replyFollows: state.status !== 'diagnosing', key: jobScope(ctx.cluster, jobId) });
    return { ref, state };
  });
}

export interface ParentMessagesOptions {
  threads: ThreadStore<ThreadState>;
  adapter: ChatAdapter;
  log: Logger;
  now: () => number;
  /** At most one update of a parent this often. */
  intervalMs: number;
  /** Parents updated at once (each waits for the workspace's chat.update budget). */
  concurrency?: number;
  /** Parents remembered in memory; more wait in Redis for a sweep. */
  maxPending?: number;
  /** First retry after a failed update; doubled each time, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often Redis is swept for parents whose update nobody is doing. */
  sweepMs?: number;
  /** A parent dirty for this long without an update in this process is taken by a sweep. */
  staleMs?: number;
}

interface Pending {
  dueAt: number;
  attempts: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class ParentMessages {
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<string>();
  /** When each parent was last updated (kept past its flush, so a later change waits its turn). */
  private readonly lastUpdate = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private sweeper: NodeJS.Timeout | undefined;
  private stopped = false;
  private idle: (() => void)[] = [];
  private readonly o: Required<ParentMessagesOptions>;

  constructor(options: ParentMessagesOptions) {
    this.o = {
      concurrency: 4,
      maxPending: 10_000,
      backoffMs: 1000,
      maxBackoffMs: 60_000,
      sweepMs: 30_000,
      staleMs: 20_000,
      ...options,
    };
  }

  /** Parents waiting for an update in this process (a gauge). */
  get backlog(): number {
    return this.pending.size + this.inFlight.size;
  }

  /**
   * Change a thread's summary state (saved before this resolves: a Redis failure throws, so the
   * caller's delivery is retried) and schedule its parent's update in the background.
   */
  async patch(threadId: string, mutate: (s: ThreadState) => ThreadState): Promise<void> {
    const { threads, now } = this.o;
    for (let attempt = 0; attempt < 20; attempt++) {
      const t = await threads.get(threadId);
      if (!t) return;
      const next = mutate(t.state);
      if (sameState(next, t.state)) return;
      const rev = await threads.setState(threadId, t.rev, { ...next, updatedAt: new Date(now()).toISOString() } as ThreadState);
      if (rev === 'gone') return;
      if (rev === 'conflict') continue;
      this.schedule(threadId);
      return;
    }
    throw new Error(`thread ${threadId}: state changed by others 20 times in a row`);
  }

  /** Update the parent of `threadId` when its turn comes (coalesced with a pending update). */
  schedule(threadId: string): void {
    // Pending already: that update renders the latest state when it goes.
    if (this.stopped || this.pending.has(threadId)) return;
    // Full: the parent stays dirty in Redis and a later sweep brings it back.
    if (this.pending.size >= this.o.maxPending) return;
    const dueAt = Math.max(Date.now(), (this.lastUpdate.get(threadId) ?? 0) + this.o.intervalMs);
    this.pending.set(threadId, { dueAt, attempts: 0 });
    // Only a sooner deadline re-plans (a storm schedules thousands; each must stay cheap).
    if (dueAt < this.timerAt || (dueAt <= Date.now() && this.inFlight.size < this.o.concurrency)) this.pump();
  }

  /**
   * Start sweeping Redis for parents left dirty (by a crash, a Redis outage, a full queue).
   * Returns the function that stops it and every update still waiting (after `settle`).
   */
  start(redisEvents?: { on(event: 'ready', fn: () => void): unknown; off(event: 'ready', fn: () => void): unknown }): () => void {
    const sweep = () => void this.sweep().catch((err: unknown) => this.o.log.debug({ err }, 'parent sweep failed; next time'));
    // At start-up everything dirty is someone's unfinished update: take it at once.
    void this.sweep(0).catch((err: unknown) => this.o.log.debug({ err }, 'parent sweep failed; next time'));
    this.sweeper = setInterval(sweep, this.o.sweepMs).unref();
    redisEvents?.on('ready', sweep);
    return () => {
      redisEvents?.off('ready', sweep);
      this.stop();
    };
  }

  /** Schedule every parent that has been dirty for longer than `staleMs`. */
  async sweep(staleMs = this.o.staleMs): Promise<number> {
    const room = this.o.maxPending - this.pending.size;
    if (room <= 0 || this.stopped) return 0;
    const ids = await this.o.threads.dirty(Date.now() - staleMs, room);
    let n = 0;
    for (const id of ids) {
      if (this.pending.has(id) || this.inFlight.has(id)) continue;
      this.schedule(id);
      n++;
    }
    if (n > 0) this.o.log.info({ parents: n }, 'parent updates resumed from Redis');
    return n;
  }

  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    // Earliest due first: a storm's backlog drains in the order it was changed.
    const due = [...this.pending.entries()].filter(([id]) => !this.inFlight.has(id)).sort((a, b) => a[1].dueAt - b[1].dueAt);
    for (const [id, p] of due) {
      if (p.dueAt > now) {
        next = Math.min(next, p.dueAt);
        break;
      }
      if (this.inFlight.size >= this.o.concurrency) break;
      this.pending.delete(id);
      this.inFlight.add(id);
      void this.flush(id, p).finally(() => {
        this.inFlight.delete(id);
        this.pump();
      });
    }
    if (Number.isFinite(next)) {
      this.timerAt = next;
      this.timer = setTimeout(() => this.pump(), Math.max(1, next - now)).unref();
    }
    if (this.pending.size === 0 && this.inFlight.size === 0) for (const w of this.idle.splice(0)) w();
  }

  private async flush(threadId: string, p: Pending): Promise<void> {
    const { threads, adapter, log } = this.o;
    let t: ThreadRecord<ThreadState> | null;
    try {
      t = await threads.get(threadId);
    } catch (err) {
      return this.retry(threadId, p, err, 'reading the thread');
    }
    if (!t) return;
    this.lastUpdate.set(threadId, Date.now());
    if (this.lastUpdate.size > 10_000) for (const [id, at] of this.lastUpdate) if (Date.now() - at > this.o.intervalMs) this.lastUpdate.delete(id);
    try {
      await adapter.update({ channel: t.channel, ts: t.ts }, renderParent(t.state));
    } catch (err) {
      if (isPermanentChatError(err)) {
        log.warn({ err, threadId, code: chatErrorCode(err) }, 'parent message cannot be updated; dropped');
        await threads.dropDirty(threadId).catch(() => undefined);
        return;
      }
      return this.retry(threadId, p, err, 'chat.update');
    }
    try {
      // A change made while the update was on its way keeps the parent dirty: go again.
      if (!(await threads.rendered(threadId, t.rev))) this.schedule(threadId);
    } catch (err) {
      // The parent shows this state; the sweep clears the mark (one extra update at worst).
      log.debug({ err, threadId }, 'could not mark the parent rendered');
    }
  }

  private retry(threadId: string, p: Pending, err: unknown, what: string): void {
    const attempts = p.attempts + 1;
    const wait = Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** (attempts - 1));
    this.o.log.warn({ err, threadId, code: chatErrorCode(err), attempts, retryInMs: wait }, `parent message update failed (${what}); retrying`);
    if (this.stopped || (this.pending.size >= this.o.maxPending && !this.pending.has(threadId))) return;
    this.pending.set(threadId, { dueAt: Date.now() + wait, attempts });
  }

  /**
   * Send the updates that are due, waiting at most `budgetMs` (before a clean shutdown). What is
   * left stays dirty in Redis for the next process.
   */
  async settle(budgetMs = 10_000): Promise<void> {
    const deadline = Date.now() + budgetMs;
    // Pacing does not hold a shutdown: everything pending is due now.
    for (const p of this.pending.values()) if (p.attempts === 0) p.dueAt = Math.min(p.dueAt, Date.now());
    this.pump();
    while (this.pending.size > 0 || this.inFlight.size > 0) {
      const onlyRetries = this.inFlight.size === 0 && [...this.pending.values()].every((p) => p.attempts > 0);
      const left = deadline - Date.now();
      if (left <= 0 || onlyRetries) break;
      await Promise.race([new Promise<void>((r) => this.idle.push(r)), sleep(Math.min(left, 100))]);
    }
  }

  /** Stop taking updates (after `settle`). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.pending.clear();
  }
}

/** Whether a change would leave the parent as it is (`updatedAt` aside). */
function sameState(a: ThreadState, b: ThreadState): boolean {
  return JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });
}
