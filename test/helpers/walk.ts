// The walk of one command through the house (test/chat/walk.test.ts, mattermost-walk.test.ts):
// where the command becomes a job and where a result becomes a chat post, as call stacks, and
// the project folders each stack passes through.
import { expect, vi } from 'vitest';
import { JobQueues } from '../../src/jobs/queues.js';

/**
 * The project folders a call stack passes through, innermost first, with repeats collapsed:
 * `['jobs', 'chat']` is "chat/ called jobs/". Frames of libraries and of tests are left out.
 */
export function foldersOf(stack: string): string[] {
  const folders: string[] = [];
  for (const m of stack.matchAll(/\/src\/([a-z-]+)\/[^\s:)]+\.ts:\d+/g)) {
    const folder = m[1]!;
    if (folders.at(-1) !== folder) folders.push(folder);
  }
  return folders;
}

type Posting = abstract new (...args: never[]) => { postRoot: (...a: never[]) => unknown; postInThread: (...a: never[]) => unknown };

/**
 * Records the stack of every job confirmed into Redis (`inbound`) and of every root or thread post
 * of `adapter`'s class (`outbound`); `stop()` restores the spies and the stack depth.
 */
export function recordWalk(adapter: Posting): { inbound: string[]; outbound: string[]; stop(): void } {
  const inbound: string[] = [];
  const outbound: string[] = [];
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const confirm = JobQueues.prototype.confirmReplicated;
  vi.spyOn(JobQueues.prototype, 'confirmReplicated').mockImplementation(function (this: JobQueues, ...args) {
    inbound.push(new Error().stack ?? '');
    return confirm.apply(this, args);
  });
  const proto = adapter.prototype as unknown as Record<'postRoot' | 'postInThread', (...a: unknown[]) => Promise<unknown>>;
  for (const method of ['postRoot', 'postInThread'] as const) {
    const real = proto[method];
    vi.spyOn(proto, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      outbound.push(new Error().stack ?? '');
      return real.apply(this, args);
    });
  }
  return {
    inbound,
    outbound,
    stop: () => {
      vi.restoreAllMocks();
      Error.stackTraceLimit = stackTraceLimit;
    },
  };
}

/**
 * The walk's measure: one job, confirmed from chat/ (its innermost project frame), and every post
 * made from chat/ entered once, the findings handed over by the results stream's reader
 * (redis/streams.ts, which jobs/sink.ts starts for the bot), not by a callback from elsewhere.
 */
export function expectOneWayInOneWayOut(walk: { inbound: readonly string[]; outbound: readonly string[] }): void {
  expect(walk.inbound).toHaveLength(1);
  expect(foldersOf(walk.inbound[0]!), walk.inbound[0]).toEqual(['chat']);
  expect(walk.outbound.length).toBeGreaterThan(0);
  for (const stack of walk.outbound) {
    const wayOut = foldersOf(stack);
    expect(wayOut[0], stack).toBe('chat');
    expect(
      wayOut.filter((f) => f === 'chat'),
      stack,
    ).toHaveLength(1);
  }
  expect(walk.outbound.map(foldersOf)).toContainEqual(['chat', 'redis']);
}
