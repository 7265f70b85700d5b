// Diagnoses asked for in chat: a slash or console command is parsed (no I/O, so the adapter can
// answer before its acknowledgement deadline), then enqueued and given its thread; a re-run
// button enqueues the same target again into the thread it was clicked in.

import { withDeadline } from '../../bounded.js';
import type { Target } from '../../diagnosis/types.js';
import { enqueueDiagnosis } from '../../jobs/dedup.js';
import { formatTarget } from '../../kube/target.js';
import { type ScopedLogger, scoped } from '../../log.js';
import { ReplicationError } from '../../redis/replication.js';
import { beginSpan, runIn, settle, targetAttributes } from '../../tracing/spans.js';
import { AccessRefused, type DiagnoseVerdict, diagnoseRefusal, diagnoseVerdict, diagnoseVerdictNow } from '../access.js';
import { defaultNamespaceFor, parseCommand } from '../command.js';
import { type ChatContext, replyPrivately, type ThreadState, tell } from '../context.js';
import { chatErrorCode, isPermanentChatError } from '../errors.js';
import { badInputMessage, helpMessage, noteMessage } from '../messages/messages.js';
import type { ThreadRecord } from '../store/threads.js';
import { type ChatMessage, serviceName, userRef } from '../types.js';
import { deliveryKey } from './delivery.js';
import { jobScope, openJobThread } from './parents.js';

/**
 * What a command is, before any I/O: a reply to show at once (help, bad input, a refusal), or a
 * target to diagnose. A diagnosis gets no words here: what the person is told comes only after
 * the policy's verdict (diagnosisCommand), so a refused person never reads a promise.
 */
export type CommandReply = { kind: 'reply'; message: ChatMessage } | { kind: 'diagnose'; target: Target };

/**
 * Parse a command (no I/O): a reply to show at once, or a target to diagnose. A target the access
 * policy refuses here (the channel's scope; the person's user groups when cached) is answered
 * with the refusal; queueDiagnosis checks again, with the groups looked up, before anything is said.
 */
export function parseChatCommand(ctx: ChatContext, text: string, channel: string, user?: string): CommandReply {
  const ns = defaultNamespaceFor(ctx.options.defaultNamespaces ?? {}, channel, ctx.options.policy);
  const parsed = parseCommand(text, ns);
  if (parsed.kind === 'help') return { kind: 'reply', message: helpMessage(ctx.cluster, ns) };
  if (parsed.kind === 'error') {
    ctx.options.metrics?.commands.inc({ outcome: 'bad-input' });
    return { kind: 'reply', message: badInputMessage(ctx.cluster, parsed.problem, ns) };
  }
  const verdict = diagnoseVerdictNow(ctx, { channel, ...(user === undefined ? {} : { user }) }, parsed.target);
  if (verdict && !verdict.ok) {
    ctx.options.metrics?.commands.inc({ outcome: 'refused' });
    ctx.log.warn({ user, channel, target: formatTarget(parsed.target), reason: verdict.reason }, 'diagnosis refused by the access policy');
    return { kind: 'reply', message: diagnoseRefusal(ctx, parsed.target, verdict) };
  }
  return { kind: 'diagnose', target: parsed.target };
}

/** A response_url takes 5 answers in 30 minutes: a failed one is tried again for this long only. */
const RESPONSE_URL_RETRY_MS = 20_000;

/** A diagnosis asked for in a channel; `respond` answers the person privately (Slack's response_url). */
export interface CommandInput {
  channel: string;
  user: string;
  target: Target;
  respond?: (m: ChatMessage) => Promise<void>;
}

/** A command's diagnosis as far as Redis knows it: queued (or joined), or refused by the access policy. */
export type Queued = { kind: 'queued'; jobId: string; deduplicated: boolean } | { kind: 'refused'; reason: string; message: ChatMessage };

/**
 * Queue the diagnosis a person asked for, and nothing else (no chat I/O): the access verdict
 * (their user groups looked up when the policy needs them), the job, and the replicas'
 * confirmation when one is required (ReplicationError otherwise). Once `signal` is aborted (the
 * acknowledgement's deadline passed) nothing more is queued: the person is being told to retry.
 */
export async function queueDiagnosis(ctx: ChatContext, input: Omit<CommandInput, 'respond'>, signal?: AbortSignal): Promise<Queued> {
  const { channel, user, target } = input;
  const log = scoped(ctx.log, { user, channel, target: formatTarget(target) });
  const verdict = await diagnoseVerdict(ctx, { channel, user }, target);
  if (!verdict.ok) {
    refusedBy(ctx, log, verdict, 'diagnosis');
    return { kind: 'refused', reason: verdict.reason, message: diagnoseRefusal(ctx, target, verdict) };
  }
  signal?.throwIfAborted();
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
  return { kind: 'queued', jobId, deduplicated };
}

/** Count and log a refused diagnosis: by the policy, or because the user groups it turns on did not resolve. */
function refusedBy(ctx: ChatContext, log: ScopedLogger, verdict: Exclude<DiagnoseVerdict, { ok: true }>, what: 'diagnosis' | 're-run'): void {
  if ('unresolved' in verdict) {
    ctx.options.metrics?.commands.inc({ outcome: 'unverified' });
    log.warn({ unresolved: verdict.unresolved }, `${what} refused: user groups did not resolve (fail closed); told to retry`);
    return;
  }
  ctx.options.metrics?.commands.inc({ outcome: 'refused' });
  log.warn({ reason: verdict.reason }, `${what} refused by the access policy`);
}

/** The acknowledgement's deadline passed before the diagnosis was queued. */
export class QueueDeadline extends Error {
  constructor(readonly ms: number) {
    super(`not queued within ${ms} ms`);
    this.name = 'QueueDeadline';
  }
}

/** What the acknowledgement of a command says, and what follows it (the thread). */
export interface CommandOutcome {
  message: ChatMessage;
  follow?: () => Promise<unknown>;
}

/**
 * A command's diagnosis, acknowledged only once it is durable: queued within `deadlineMs` (every
 * Redis command on the way has its own deadline too), the person is told "Diagnosing…" and the
 * thread follows; refused, they are told why; otherwise (Redis down, frozen or failing over, a
 * group lookup that does not answer) they are told to try again, and nothing is promised. A
 * request cut by the deadline may still have reached Redis: the retry joins that job.
 */
export function diagnosisCommand(ctx: ChatContext, input: CommandInput, deadlineMs: number): Promise<CommandOutcome> {
  const span = beginSpan('chat.command', { parent: 'root', attributes: { ...targetAttributes(ctx.cluster, input.target), 'pod_doctor.command': 'diagnose' } });
  return settle(
    span,
    runIn(span.context, async (): Promise<CommandOutcome> => {
      const t = formatTarget(input.target);
      const log = scoped(ctx.log, { user: input.user, channel: input.channel, target: t });
      const abort = new AbortController();
      try {
        const queued = await withDeadline(
          deadlineMs,
          () => queueDiagnosis(ctx, input, abort.signal),
          () => {
            const late = new QueueDeadline(deadlineMs);
            abort.abort(late); // what is still queueing stops; a retry joins what did reach Redis
            return late;
          },
        );
        if (queued.kind === 'refused') return { message: queued.message };
        return {
          message: noteMessage(ctx.cluster, `Diagnosing ${t}… the findings will be posted in a thread here.`, 'pending'),
          // Its thread belongs to the command's trace, after the acknowledgement.
          follow: () => runIn(span.context, () => followDiagnosis(ctx, input, queued)),
        };
      } catch (err) {
        ctx.options.metrics?.commands.inc({ outcome: 'unavailable' });
        log.error({ err }, 'diagnosis not queued; the person is told to try again');
        const why =
          err instanceof ReplicationError
            ? 'Redis did not confirm it was stored safely (failover?)'
            : err instanceof QueueDeadline
              ? `it could not be queued within ${deadlineMs / 1000} s`
              : 'Redis is not answering';
        return { message: noteMessage(ctx.cluster, `Can't queue the diagnosis of ${t} right now: ${why}. Try again in a moment.`, 'error') };
      }
    }),
  );
}

/**
 * Queue a diagnosis and follow it with its thread (the console, the demo: no acknowledgement to
 * wait for). When the access policy does not let the person diagnose the target from this
 * channel, they are told privately, nothing is queued and AccessRefused is thrown.
 */
export function startDiagnosis(ctx: ChatContext, input: CommandInput): Promise<{ jobId: string; thread?: ThreadRecord<ThreadState> }> {
  // A trace of its own: the command, its job, the diagnosis and the post of its findings.
  const span = beginSpan('chat.command', { parent: 'root', attributes: { ...targetAttributes(ctx.cluster, input.target), 'pod_doctor.command': 'diagnose' } });
  return settle(
    span,
    runIn(span.context, async () => {
      const queued = await queueDiagnosis(ctx, input);
      if (queued.kind === 'queued') return followDiagnosis(ctx, input, queued);
      const { channel, user } = input;
      const { respond } = input;
      await replyPrivately(
        ctx,
        'refusal reply',
        () => (respond ? respond(queued.message) : ctx.adapter.ephemeral(channel, user, queued.message)),
        channel,
        RESPONSE_URL_RETRY_MS,
      );
      throw new AccessRefused(input.target, queued.reason);
    }),
  );
}

/**
 * After the person heard it is queued: its thread opens with the findings when they come within
 * `placeholderMs` (one post and no update: a person waits no longer, and the channel's budget goes
 * further in a storm); a slower diagnosis gets a "diagnosing…" parent then. A second person asking
 * for the same job in the same channel joins its thread.
 */
async function followDiagnosis(
  ctx: ChatContext,
  input: CommandInput,
  { jobId, deduplicated }: { jobId: string; deduplicated: boolean },
): Promise<{ jobId: string; thread?: ThreadRecord<ThreadState> }> {
  const log = scoped(ctx.log, { user: input.user, channel: input.channel, target: formatTarget(input.target) });
  ctx.expected.expect(input.channel, jobId);
  const placeholderMs = ctx.options.placeholderMs ?? 2000;
  const open = (joinOnly = false) => openCommandThread(ctx, input, jobId, { placeholder: placeholderMs > 0, joinOnly });
  // Joining a thread that is already there: say so at once.
  if (placeholderMs <= 0 || deduplicated) {
    const thread = await open(placeholderMs > 0);
    if (thread || placeholderMs <= 0) return { jobId, ...(thread ? { thread } : {}) };
  }
  // The result may open the thread first (a redelivered or another replica's delivery too):
  // the timer then finds it and does nothing. Lost on a restart, which the result covers.
  setTimeout(() => void open().catch((err: unknown) => log.warn({ err }, 'placeholder failed')), placeholderMs).unref();
  return { jobId };
}

/**
 * The command's thread: joined when it exists (the person is added to who asked), else opened
 * with a "diagnosing…" parent, unless `placeholder` and its result is being posted right now.
 */
async function openCommandThread(
  ctx: ChatContext,
  input: CommandInput,
  jobId: string,
  options: { placeholder: boolean; joinOnly?: boolean },
): Promise<ThreadRecord<ThreadState> | undefined> {
  const { channel, user, target } = input;
  const scope = jobScope(ctx.cluster, jobId);
  try {
    let thread = await ctx.threads.byScope(channel, scope);
    let created = false;
    if (!thread) {
      if (options.joinOnly) return undefined;
      // A placeholder never races the result's own parent (which carries the outcome).
      if (options.placeholder && (await ctx.threads.creating(channel, scope))) return undefined;
      if (options.placeholder && (await ctx.deliveries.done(deliveryKey(ctx.cluster, jobId, channel)))) return undefined;
      ({ thread, created } = await openJobThread(ctx, channel, jobId, target, { origin: 'slash', requestedBy: [user] }));
    }
    if (!created && thread.state.kind === 'diagnosis' && !thread.state.requestedBy.includes(user)) {
      await ctx.parents.patch(thread.id, (s) =>
        s.kind === 'diagnosis' && !s.requestedBy.includes(user) ? { ...s, requestedBy: [...s.requestedBy, user] } : s,
      );
      await ctx.adapter.ephemeral(
        channel,
        user,
        noteMessage(ctx.cluster, `${formatTarget(target)} is already being diagnosed here; the findings will appear in the thread.`, 'pending'),
        thread,
      );
    }
    return thread;
  } catch (err) {
    ctx.log.warn({ err, code: chatErrorCode(err), channel, user }, 'could not open the thread');
    // Never "being diagnosed" about findings that will not arrive: a channel the bot cannot post
    // to gets none; a transient failure is retried, and a give-up is told by direct message.
    const t = formatTarget(target);
    const code = chatErrorCode(err);
    const retrySeconds = Math.round((ctx.options.deliveryRetryMs ?? 300_000) / 1000);
    const why = isPermanentChatError(err, ctx.adapter.postedTo?.(channel))
      ? code === 'not_in_channel' || code === 'channel_not_found'
        ? `I cannot post in this channel, so the findings of ${t} will not appear here: invite me (\`/invite @pod-doctor\`) or use a public ` +
          `channel, then ask again.`
        : `I cannot post in this channel (${serviceName(ctx.adapter, channel)} answered \`${code}\`), so the findings of ${t} will not appear here.`
      : `I could not post in this channel just now; ${t} is being diagnosed and its findings will be posted when ${serviceName(ctx.adapter, channel)} ` +
        `lets me (I keep trying for ` +
        `${retrySeconds} s, then tell you by direct message).`;
    const { respond } = input;
    if (respond) await replyPrivately(ctx, 'thread failure reply', () => respond(noteMessage(ctx.cluster, why, 'warning')), channel, RESPONSE_URL_RETRY_MS);
    return undefined;
  }
}

export function rerun(ctx: ChatContext, threadId: string, user: string, channel?: string): Promise<void> {
  const span = beginSpan('chat.command', { parent: 'root', attributes: { 'k8s.cluster.name': ctx.cluster, 'pod_doctor.command': 'rerun' } });
  return settle(
    span,
    runIn(span.context, () => rerunInThread(ctx, threadId, user, channel)),
  );
}

async function rerunInThread(ctx: ChatContext, threadId: string, user: string, channel?: string): Promise<void> {
  const thread = /^[A-Za-z0-9_-]{1,32}$/.test(threadId) ? await ctx.threads.get(threadId) : null;
  if (thread?.state.kind !== 'diagnosis') {
    ctx.log.info({ user, threadId }, 're-run refused: unknown thread');
    await tell(ctx, channel, user, 'This thread is too old to re-run from here; use /pod-doctor again.');
    return;
  }
  const target = thread.state.target;
  const parent = { channel: thread.channel, ts: thread.ts };
  // A thread's button re-runs in that thread's channel, for someone that channel's policy lets in.
  if (channel !== undefined && channel !== thread.channel) {
    ctx.log.warn({ user, threadId, channel, threadChannel: thread.channel }, 're-run refused: clicked outside its thread');
    await tell(ctx, channel, user, "This Re-run button belongs to another channel's thread; nothing was queued.");
    return;
  }
  const verdict = await diagnoseVerdict(ctx, { channel: thread.channel, user }, target);
  if (!verdict.ok) {
    refusedBy(ctx, scoped(ctx.log, { user, threadId, target: formatTarget(target) }), verdict, 're-run');
    await ctx.adapter
      .ephemeral(thread.channel, user, diagnoseRefusal(ctx, target, verdict), parent)
      .catch((err: unknown) => ctx.log.warn({ err, code: chatErrorCode(err) }, 'refusal reply failed'));
    return;
  }
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
