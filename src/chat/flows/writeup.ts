// The Write-up button: the thread's post-incident report (src/report/), read back from what
// Redis keeps about it, posted in the thread as a Markdown file (or as a code block when the file
// cannot be posted). Anyone in the thread's channel may ask: the report says nothing the thread
// does not. Two clicks at once (two replicas, a double click) post it once.

import type { RedisClient } from '../../redis/client.js';
import { keys } from '../../redis/keys.js';
import { gatherStory, peopleIn, type StoryScope } from '../../report/story.js';
import { writeUp } from '../../report/writeup.js';
import { type ChatContext, tell } from '../context.js';
import { chatErrorCode } from '../errors.js';
import { noteMessage, type ThreadState } from '../messages/messages.js';
import type { ThreadRecord, ThreadStore } from '../store/threads.js';
import { type ChatAdapter, userRef } from '../types.js';
import { jobScope } from './parents.js';

/** A second press within this long is the same request. */
const ONCE_MS = 15_000;
/** Threads live a week (ThreadStore); nothing of theirs is older. */
const THREAD_DAYS_MS = 8 * 86_400_000;

/** What of the stored trail belongs to this thread, from what its state says it is about. */
export function scopeOfThread(thread: ThreadRecord<ThreadState>, now: number): StoryScope {
  const s = thread.state;
  // A Slack ts is the parent's post time in seconds; the results of a thread come after it.
  const posted = Number(thread.ts) * 1000;
  const sinceMs = posted > 1e12 && posted <= now ? posted - 3_600_000 : now - THREAD_DAYS_MS;
  const base = { cluster: s.cluster, thread: { channel: thread.channel, ts: thread.ts }, threadId: thread.id, sinceMs, untilMs: now };
  switch (s.kind) {
    case 'incident':
      return { ...base, incidentId: s.incident.id };
    case 'alert-group':
      return { ...base, groupId: s.groupId, episode: s.episode };
    case 'diagnosis':
      return base;
  }
}

/** What reading a thread's story needs (a chat context has it; so does the CLI). */
export interface WriteUpDeps {
  redis: RedisClient;
  prefix: string;
  threads: ThreadStore<ThreadState>;
  /** Names people by their chat ids, when the medium can (Slack's users.info). */
  adapter?: Pick<ChatAdapter, 'userNames'>;
}

/** The write-up of a thread as Markdown, read from Redis now. */
export async function writeUpOf(deps: WriteUpDeps, thread: ThreadRecord<ThreadState>, now: number): Promise<string> {
  const scope = scopeOfThread(thread, now);
  // The job that opened a command's thread: its scope key points at this thread.
  const ownsJob = async (jobId: string, result: { requesters?: { kind: string; channel?: string }[] }) =>
    (result.requesters ?? []).some((q) => q.kind === 'slack' && q.channel === thread.channel) &&
    (await deps.threads.byScope(thread.channel, jobScope(scope.cluster, jobId)))?.id === thread.id;
  const story = await gatherStory(deps.redis, deps.prefix, scope, ownsJob);
  const names = (await deps.adapter?.userNames?.(peopleIn(story)).catch(() => undefined)) ?? {};
  return writeUp(story, { now, where: `${thread.channel} / ${thread.ts}`, names });
}

/** The Write-up button: the report in the thread, as a file; a code block when the file fails. */
export async function writeUpThread(ctx: ChatContext, threadId: string, user: string, channel?: string): Promise<void> {
  const log = ctx.log.child({ threadId, user });
  const thread = /^[A-Za-z0-9_-]{1,32}$/.test(threadId) ? await ctx.threads.get(threadId) : null;
  if (!thread) {
    await tell(ctx, channel, user, 'This thread is too old for a write-up from here; `pod-doctor report <incident id>` reads what is left.');
    return;
  }
  if (channel !== undefined && channel !== thread.channel) {
    await tell(ctx, channel, user, "This Write-up button belongs to another channel's thread; nothing was posted.");
    return;
  }
  const once = keys.chat(ctx.prefix, 'writeup', threadId);
  if ((await ctx.redis.set(once, user, 'PX', ONCE_MS, 'NX')) !== 'OK') {
    await tell(ctx, channel, user, 'The write-up of this thread is being posted already.', 'neutral');
    return;
  }
  const markdown = await writeUpOf(ctx, thread, ctx.now());
  const parent = { channel: thread.channel, ts: thread.ts };
  const date = new Date(ctx.now()).toISOString().slice(0, 10);
  const comment = `Post-incident write-up, asked by ${userRef(user)}`;
  if (ctx.adapter.postFile) {
    try {
      await ctx.adapter.postFile(parent, {
        filename: `post-incident-${ctx.cluster}-${date}.md`,
        title: `Post-incident report (${ctx.cluster})`,
        content: markdown,
        comment,
      });
      log.info({ bytes: markdown.length }, 'write-up posted as a file');
      return;
    } catch (err) {
      log.warn({ err, code: chatErrorCode(err) }, 'write-up file upload failed; posting it as a message');
    }
  }
  await ctx.adapter.postInThread(parent, noteMessage(ctx.cluster, `${comment}:`, 'neutral', [{ kind: 'code', lines: markdown.split('\n') }]));
  log.info({ bytes: markdown.length }, 'write-up posted as a message');
}
