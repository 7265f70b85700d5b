// Thread parents: the message at the top of each thread, rendered from the thread's summary
// state. A storm changes a parent hundreds of times and Slack allows about 50 chat.update calls
// a minute, so updates are paced per thread: one in flight, the latest state rendered after it.
import type { Logger } from 'pino';
import type { Target } from '../diagnosis/types.js';
import type { ChatContext, ThreadState } from './context.js';
import { chatErrorCode } from './errors.js';
import { alertGroupRootMessage, incidentRootMessage, rootMessage, type RootState } from './messages.js';
import type { ThreadRecord, ThreadStore } from './threads.js';
import type { ChatAdapter, ChatMessage } from './types.js';

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

/** The thread of a diagnosis job in `channel`, opened once however many callers race for it. */
export async function openJobThread(
  ctx: ChatContext,
  channel: string,
  jobId: string,
  target: Target,
  init: Pick<RootState, 'origin' | 'requestedBy'>,
): Promise<{ thread: ThreadRecord<ThreadState>; created: boolean }> {
  return ctx.threads.ensure(channel, `job:${ctx.cluster}:${jobId}`, async () => {
    const state: ThreadState = {
      kind: 'diagnosis',
      cluster: ctx.cluster,
      target,
      status: 'diagnosing',
      updatedAt: new Date(ctx.now()).toISOString(),
      ...init,
    };
    const ref = await ctx.adapter.postRoot(channel, rootMessage(state));
    return { ref, state };
  });
}

export class ParentMessages {
  /** Per-thread parent updates: one in flight, the latest state re-rendered after it. */
  private readonly roots = new Map<string, { chain: Promise<void>; flushing?: Promise<void>; dirty: boolean }>();
  /** When each parent was last updated (kept past its flush, so a later change still waits its turn). */
  private readonly lastRootUpdate = new Map<string, number>();

  constructor(
    private readonly deps: {
      threads: ThreadStore<ThreadState>;
      adapter: ChatAdapter;
      log: Logger;
      now: () => number;
      intervalMs: number;
    },
  ) {}

  /**
   * Change a thread's summary state and re-render its parent. Bursts coalesce: while one
   * update is in flight, later changes are rendered together once it returns.
   */
  async patch(threadId: string, mutate: (s: ThreadState) => ThreadState): Promise<void> {
    const { threads, adapter, log, now, intervalMs: interval } = this.deps;
    let entry = this.roots.get(threadId);
    if (!entry) this.roots.set(threadId, (entry = { chain: Promise.resolve(), dirty: false }));
    const e = entry;
    e.chain = e.chain.then(async () => {
      const t = await threads.get(threadId);
      if (!t) return;
      await threads.setState(threadId, { ...mutate(t.state), updatedAt: new Date(now()).toISOString() } as ThreadState);
    });
    await e.chain.catch((err: unknown) => log.warn({ err, threadId }, 'thread state update failed'));
    e.dirty = true;
    // The state is saved; the parent follows. A caller waits for the update only when it goes
    // out now: during a storm the next one waits its turn in the background, so event and result
    // handlers are never held back by the parent's pacing.
    const due = (this.lastRootUpdate.get(threadId) ?? 0) + interval <= Date.now();
    if (e.flushing) return due ? e.flushing : undefined;
    e.flushing = (async () => {
      try {
        while (e.dirty) {
          // Changes that arrive meanwhile are rendered together, once (the latest state wins).
          const wait = (this.lastRootUpdate.get(threadId) ?? 0) + interval - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          e.dirty = false;
          const t = await threads.get(threadId);
          if (!t) return;
          this.lastRootUpdate.set(threadId, Date.now());
          if (this.lastRootUpdate.size > 10_000) for (const [id, at] of this.lastRootUpdate) if (Date.now() - at > interval) this.lastRootUpdate.delete(id);
          await adapter
            .update({ channel: t.channel, ts: t.ts }, renderParent(t.state))
            .catch((err: unknown) => log.warn({ err, threadId, code: chatErrorCode(err) }, 'parent message update failed'));
        }
      } catch (err) {
        // Nobody may be awaiting this flush (it runs in the background during a storm).
        log.warn({ err, threadId }, 'parent message update failed');
      } finally {
        e.flushing = undefined;
        if (!e.dirty) this.roots.delete(threadId);
      }
    })();
    return due ? e.flushing : undefined;
  }

  /** Resolves once every pending parent update has gone out (before a clean shutdown). */
  async settle(): Promise<void> {
    while (this.roots.size > 0) await Promise.all([...this.roots.values()].map((e) => e.flushing ?? e.chain.catch(() => undefined)));
  }
}
