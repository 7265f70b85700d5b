// Awaiting with a time limit, for work that may wait on a dead connection: ioredis queues
// commands while it reconnects (for ever on a worker connection), so a shutdown step or a
// scrape-time read must give up on its own.

export type Bounded<T> = { status: 'done'; value: T } | { status: 'failed'; error: unknown } | { status: 'timeout' };

/**
 * Runs `work` and settles by `ms` at the latest. Work that outlives it keeps running, and a late
 * rejection is swallowed (nobody awaits it any more). The timer is cleared either way, so it
 * never holds the process.
 */
export async function bounded<T>(ms: number, work: () => T | PromiseLike<T>): Promise<Bounded<Awaited<T>>> {
  let timer: NodeJS.Timeout | undefined;
  const running = (async () => {
    try {
      return { status: 'done' as const, value: await work() };
    } catch (error) {
      return { status: 'failed' as const, error };
    }
  })();
  try {
    return await Promise.race([
      running,
      new Promise<{ status: 'timeout' }>((resolve) => (timer = setTimeout(() => resolve({ status: 'timeout' }), Math.max(0, ms)))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `work`'s result, or a rejection with `timeoutError()` after `ms`: for a call whose caller
 * handles a timeout like any other failure. The timer is cleared either way; a late rejection of
 * `work` is swallowed.
 */
export async function withDeadline<T>(ms: number, work: () => T | PromiseLike<T>, timeoutError: () => unknown): Promise<Awaited<T>> {
  const out = await bounded(ms, work);
  if (out.status === 'done') return out.value;
  throw out.status === 'failed' ? out.error : timeoutError();
}
