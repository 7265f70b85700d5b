// Diagnoses asked for in chat: a slash or console command is parsed (no I/O, so the adapter can
// answer before its acknowledgement deadline), then enqueued and given its thread; a re-run
// button enqueues the same target again into the thread it was clicked in.
import { formatTarget } from '../diagnosis/target.js';
import type { Target } from '../diagnosis/types.js';
import { enqueueDiagnosis } from '../jobs/dedup.js';
import { scoped } from '../log.js';
import { parseCommand } from './command.js';
import { type ChatContext, defaultNamespace, type ThreadState, tell } from './context.js';
import { chatErrorCode } from './errors.js';
import { badInputMessage, helpMessage, noteMessage } from './messages.js';
import { openJobThread } from './parents.js';
import type { ThreadRecord } from './threads.js';
import { type ChatMessage, userRef } from './types.js';

/** What the adapter shows the person who typed a command, before any I/O. */
export type CommandReply = { kind: 'reply'; message: ChatMessage } | { kind: 'diagnose'; target: Target };

/** Parse a command (no I/O): a reply to show at once, or a target to diagnose. */
export function parseChatCommand(ctx: ChatContext, text: string, channel: string, options: { count?: boolean } = {}): CommandReply {
  const ns = defaultNamespace(ctx, channel);
  const parsed = parseCommand(text, ns);
  if (parsed.kind === 'help') return { kind: 'reply', message: helpMessage(ctx.cluster, ns) };
  if (parsed.kind === 'error') {
    if (options.count ?? true) ctx.options.metrics?.commands.inc({ outcome: 'bad-input' });
    return { kind: 'reply', message: badInputMessage(ctx.cluster, parsed.problem, ns) };
  }
  return { kind: 'diagnose', target: parsed.target };
}

/**
 * After the acknowledgement: enqueue the diagnosis and open its thread (or join the one
 * already open for the same job in this channel).
 */
export async function startDiagnosis(
  ctx: ChatContext,
  input: { channel: string; user: string; target: Target; respond?: (m: ChatMessage) => Promise<void> },
): Promise<{ jobId: string; thread?: ThreadRecord<ThreadState> }> {
  const { channel, user, target } = input;
  const log = scoped(ctx.log, { user, channel, target: formatTarget(target) });
  const { jobId, deduplicated } = await enqueueDiagnosis(ctx.options.queues, {
    cluster: ctx.cluster,
    target,
    reason: 'slash',
    requester: { kind: 'slack', user, channel },
  });
  // Not "queued" before a replica holds it (ReplicationError: the user is told to retry).
  await ctx.options.queues.confirmReplicated(ctx.cluster);
  ctx.options.metrics?.commands.inc({ outcome: deduplicated ? 'joined' : 'queued' });
  log.info({ jobId, deduplicated }, 'diagnosis requested');
  try {
    const { thread, created } = await openJobThread(ctx, channel, jobId, target, { origin: 'slash', requestedBy: [user] });
    if (!created && thread.state.kind === 'diagnosis' && !thread.state.requestedBy.includes(user)) {
      await ctx.parents.patch(thread.id, (s) => (s.kind === 'diagnosis' ? { ...s, requestedBy: [...s.requestedBy, user] } : s));
      await ctx.adapter.ephemeral(
        channel,
        user,
        noteMessage(ctx.cluster, `${formatTarget(target)} is already being diagnosed here; the findings will appear in the thread.`, 'pending'),
        thread,
      );
    }
    return { jobId, thread };
  } catch (err) {
    log.warn({ err, code: chatErrorCode(err) }, 'could not open the thread');
    const why =
      chatErrorCode(err) === 'not_in_channel' || chatErrorCode(err) === 'channel_not_found'
        ? 'I cannot post in this channel: invite me (`/invite @pod-doctor`) or use a public channel.'
        : 'I could not post in this channel; try again in a moment.';
    await input.respond?.(noteMessage(ctx.cluster, `${why} (${formatTarget(target)} is being diagnosed anyway.)`, 'warning')).catch(() => undefined);
    return { jobId };
  }
}

export async function rerun(ctx: ChatContext, threadId: string, user: string, channel?: string): Promise<void> {
  const thread = /^[A-Za-z0-9_-]{1,32}$/.test(threadId) ? await ctx.threads.get(threadId) : null;
  if (thread?.state.kind !== 'diagnosis') {
    ctx.log.info({ user, threadId }, 're-run refused: unknown thread');
    await tell(ctx, channel, user, 'This thread is too old to re-run from here; use /pod-doctor again.');
    return;
  }
  const target = thread.state.target;
  const parent = { channel: thread.channel, ts: thread.ts };
  const { jobId, deduplicated } = await enqueueDiagnosis(ctx.options.queues, {
    cluster: ctx.cluster,
    target,
    reason: 'rerun',
    requester: { kind: 'slack', user, channel: thread.channel, threadTs: thread.ts },
  });
  await ctx.options.queues.confirmReplicated(ctx.cluster);
  ctx.log.info({ user, jobId, deduplicated, target: formatTarget(target) }, 're-run requested');
  await ctx.adapter.postInThread(parent, noteMessage(ctx.cluster, `${userRef(user)} asked to diagnose ${formatTarget(target)} again…`, 'pending'));
}
