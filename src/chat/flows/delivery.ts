// Results to chat: a diagnosis result goes to every thread that asked for it (once per job and
// thread, however often it is delivered), and alert-started results to their Alertmanager
// group's thread (./alerts.ts) or, without groups, to an incident thread (./incidents.ts).
// A redelivery skips what was done.

import type { Diagnosis } from '../../diagnosis/types.js';
import type { DiagnoseResult, Requester } from '../../jobs/schemas.js';
import { formatTarget } from '../../kube/target.js';
import { type ScopedLogger, scoped } from '../../log.js';
import { beginSpan, contextFrom, runIn, settle, targetAttributes } from '../../tracing/spans.js';
import { type ChatContext, defaultNamespace, type ThreadState } from '../context.js';
import { chatErrorCode, isPermanentChatError } from '../errors.js';
import { findingsMessage, noteMessage, notFoundMessage, type PlanOffer, type RootState } from '../messages/messages.js';
import type { ThreadRecord } from '../store/threads.js';
import { type MessageRef, serviceName, userRef } from '../types.js';
import { alertGroups } from './alerts.js';
import { deliverIncident } from './incidents.js';
import { offerMarks } from './not-a-problem.js';
import { earlierThreads, openJobThread } from './parents.js';
import { offersFor, postPrompts } from './prompts.js';
import { DeliveryDropped, untilDelivered } from './retry.js';

export interface DeliverOptions {
  /** When the result was written (its stream entry's time): the retry budget counts from here. */
  since?: number;
}

/**
 * Post a result to everyone who asked for it. Safe to call again with the same result. A
 * `chat.post` span, in the trace of the job's `job.diagnose` span that the result carries.
 * Transient failures are retried here until the result's budget runs out (./retry.ts); what is
 * given up on is reported, so this only throws for what a redelivery may fix.
 */
export function deliver(ctx: ChatContext, result: DiagnoseResult, options: DeliverOptions = {}): Promise<void> {
  const attributes = {
    ...targetAttributes(result.job.cluster, result.job.target),
    'pod_doctor.job.id': result.jobId,
    'pod_doctor.job.status': result.status,
    'pod_doctor.findings': result.diagnosis?.findings.length ?? 0,
    'pod_doctor.finding.rules': result.diagnosis?.findings.map((f) => f.rule) ?? [],
    'pod_doctor.requesters': result.requesters.length,
  };
  const span = beginSpan('chat.post', { parent: contextFrom(result.trace), attributes });
  return settle(
    span,
    runIn(span.context, () => deliverResult(ctx, result, options.since ?? Date.now())),
  );
}

/**
 * Results delivered at once by a bot process, and per lane (`deliveryLane`): most deliveries wait
 * for their channel's turn (about a post a second) or the workspace's private replies (Tier 4),
 * and a lane that waits long must not take the slots of the others.
 */
export const DELIVERY_CONCURRENCY = { concurrency: 256, laneConcurrency: 32 } as const;

/**
 * The budget a result mostly waits for: a "not found" answer for the workspace's private replies,
 * a command's findings for their channel, an alert's for its group's thread.
 */
export function deliveryLane(result: DiagnoseResult): string {
  if (result.status === 'not-found') return 'private-replies';
  for (const r of result.requesters) if (r.kind === 'slack') return `channel:${r.channel}`;
  for (const r of result.requesters) if (r.kind === 'alert') return `alert-group:${r.groupKey}`;
  return 'other';
}

type SlackGroup = { channel: string; threadTs?: string; users: string[] };

async function deliverResult(ctx: ChatContext, result: DiagnoseResult, since: number): Promise<void> {
  const log = scoped(ctx.log, { jobId: result.jobId, target: formatTarget(result.job.target), status: result.status });
  const retry = { until: since + (ctx.options.deliveryRetryMs ?? 300_000) };
  const slack = result.requesters.filter((r): r is Extract<Requester, { kind: 'slack' }> => r.kind === 'slack');
  const groups = new Map<string, SlackGroup>();
  for (const r of slack) {
    const key = `${r.channel}|${r.threadTs ?? ''}`;
    const g = groups.get(key) ?? { channel: r.channel, ...(r.threadTs ? { threadTs: r.threadTs } : {}), users: [] };
    if (!g.users.includes(r.user)) g.users.push(r.user);
    groups.set(key, g);
  }
  const retrying = <T>(what: string, channel: string | undefined, fn: () => Promise<T>) =>
    untilDelivered({ adapter: ctx.adapter, log, what, ...(channel ? { channel } : {}) }, retry, fn);
  let offers: PlanOffer[] = [];
  try {
    const wanted = groups.size > 0 || (ctx.options.incidentChannel && result.incident?.created);
    offers = wanted ? await retrying('plan offers', undefined, () => offersFor(ctx, result, slack[0]?.user)) : [];
  } catch (err) {
    // Findings without buttons beat no findings.
    log.error({ err }, 'plan offers not made; findings posted without them');
  }
  // Channels are independent: one waiting for its turn (or failing) never holds back another.
  await Promise.all(
    [...groups.values()].map(async (g) => {
      try {
        await retrying('result delivery', g.channel, () => deliverToChannel(ctx, result, g, offers));
        log.info({ channel: g.channel, users: g.users }, 'result delivered');
      } catch (err) {
        await reportDropped(ctx, result, g, err, log);
      }
    }),
  );
  const alerts = result.requesters.some((r) => r.kind === 'alert');
  try {
    if (alerts && ctx.options.alertGroups) await retrying('alert result delivery', undefined, () => alertGroups(ctx).result(result));
    else if (alerts && ctx.options.incidentChannel) {
      const channel = ctx.options.incidentChannel;
      await retrying('incident delivery', channel, () => deliverIncident(ctx, channel, result, offers));
    }
  } catch (err) {
    ctx.options.metrics?.deliveriesDropped.inc({ reason: err instanceof DeliveryDropped ? err.reason : 'expired' });
    log.error({ err, code: chatErrorCode(err) ?? (err as DeliveryDropped).slackError }, 'alert result not delivered; dropped');
  }
}

/**
 * A result given up on for one channel: counted, logged, and each person who asked is told in a
 * direct message (a not-found answer is sent there itself). Best effort: Slack may still refuse.
 */
async function reportDropped(ctx: ChatContext, result: DiagnoseResult, g: SlackGroup, err: unknown, log: ScopedLogger): Promise<void> {
  const dropped = err instanceof DeliveryDropped ? err : undefined;
  ctx.options.metrics?.deliveriesDropped.inc({ reason: dropped?.reason ?? 'expired' });
  const code = dropped?.slackError ?? chatErrorCode(err);
  log.error({ err, channel: g.channel, code, reason: dropped?.reason }, 'result not delivered to this channel; reporting it');
  const t = formatTarget(result.job.target);
  const what = result.status === 'diagnosed' ? 'The findings' : 'The result of the diagnosis';
  const service = serviceName(ctx.adapter, g.channel);
  const why = code ? `${service} answered \`${code}\`` : 'the chat service did not answer';
  const message =
    result.status === 'not-found'
      ? notFoundMessage(ctx.cluster, result.job.target, result.message, defaultNamespace(ctx, g.channel))
      : noteMessage(
          ctx.cluster,
          dropped?.reason === 'undeliverable'
            ? `${what} of ${t} cannot be posted in channel ${g.channel}: ${why}.`
            : `${what} of ${t} could not be posted in channel ${g.channel}: ${why}, retried for ` +
                `${Math.round((ctx.options.deliveryRetryMs ?? 300_000) / 1000)} s. Ask again with /pod-doctor once ${service} works.`,
          'error',
        );
  for (const user of g.users) {
    await ctx.adapter
      .postRoot(user, message, { priority: 'answer' })
      .catch((e: unknown) => log.warn({ err: e, user, code: chatErrorCode(e) }, 'could not tell the requester either'));
  }
}

/** The once-key of a result's delivery to a channel (a thread when `threadTs`). */
export function deliveryKey(cluster: string, jobId: string, channel: string, threadTs?: string): string {
  return `${cluster}:${jobId}:${channel}:${threadTs ?? '-'}`;
}

/**
 * The thread this result goes to. A command's thread is opened here when the result comes
 * before its placeholder was due: the parent then shows the outcome from its first post.
 */
async function threadFor(
  ctx: ChatContext,
  result: DiagnoseResult,
  g: { channel: string; threadTs?: string; users: string[] },
  outcome: Partial<RootState>,
): Promise<{ thread: ThreadRecord<ThreadState>; created: boolean }> {
  if (g.threadTs) {
    const existing = await ctx.threads.byTs(g.channel, g.threadTs);
    if (existing) return { thread: existing, created: false };
  }
  const origin = result.job.reason === 'rerun' ? 'rerun' : result.job.reason === 'slash' ? 'slash' : 'other';
  return openJobThread(ctx, g.channel, result.jobId, result.job.target, { origin, requestedBy: g.users, ...outcome });
}

/** What a diagnosis thread's parent says once the result is in. */
function outcomeOf(result: DiagnoseResult): Partial<RootState> {
  if (result.status === 'not-found') return { status: 'not-found', ...(result.message ? { message: result.message } : {}) };
  if (result.status === 'failed' || !result.diagnosis) return { status: 'failed', ...(result.message ? { message: result.message } : {}) };
  return rootFromDiagnosis(result.diagnosis, result);
}

/**
 * The messages first (each posted once, however often the result is delivered), then the
 * parent's state: saved before this returns, rendered in the background. A parent that was
 * opened with the outcome needs no update at all.
 */
async function deliverToChannel(
  ctx: ChatContext,
  result: DiagnoseResult,
  g: { channel: string; threadTs?: string; users: string[] },
  offers: PlanOffer[],
): Promise<void> {
  const outcome = outcomeOf(result);
  const { thread, created } = await threadFor(ctx, result, g, outcome);
  const parent: MessageRef = { channel: thread.channel, ts: thread.ts };
  const key = deliveryKey(ctx.cluster, result.jobId, g.channel, g.threadTs);
  await ctx.deliveries.once(key, () => postOutcome(ctx, result, g, parent, thread.id, offers, key));
  ctx.expected.arrived(g.channel, result.jobId);
  // Apart: a prompt that fails is posted again without posting the findings twice.
  if (result.status === 'diagnosed' && offers.some((o) => o.planId)) await ctx.deliveries.once(`${key}:prompts`, () => postPrompts(ctx, parent, offers));
  if (created) return;
  await ctx.parents.patch(thread.id, (s) => (s.kind === 'diagnosis' ? { ...s, ...outcome } : s));
}

async function postOutcome(
  ctx: ChatContext,
  result: DiagnoseResult,
  g: { channel: string; users: string[] },
  parent: MessageRef,
  threadId: string,
  offers: PlanOffer[],
  key: string,
): Promise<void> {
  if (result.status === 'not-found') {
    const defaultNs = defaultNamespace(ctx, g.channel);
    const message = notFoundMessage(ctx.cluster, result.job.target, result.message, defaultNs);
    // Once per person: a retry after one of them failed never answers the others twice. A failure
    // (Slack's or Redis') is thrown, so the reply is retried like any other message.
    for (const user of g.users) {
      await ctx.deliveries.once(`${key}:to:${user}`, async () => {
        try {
          await ctx.adapter.ephemeral(g.channel, user, message, parent);
        } catch (err) {
          if (!isPermanentChatError(err, ctx.adapter.postedTo?.(g.channel))) throw err;
          // Not in the channel any more, or the channel went away: a direct message instead.
          ctx.log.warn({ err, user, code: chatErrorCode(err) }, 'not-found reply refused; sending it as a direct message');
          await ctx.adapter.postRoot(user, message, { priority: 'answer' });
        }
      });
    }
    return;
  }
  if (result.status === 'failed' || !result.diagnosis) {
    await ctx.adapter.postInThread(
      parent,
      noteMessage(ctx.cluster, `The diagnosis of ${formatTarget(result.job.target)} failed: ${result.message ?? 'unknown error'}`, 'error'),
      { priority: 'answer', key },
    );
    return;
  }
  const d = result.diagnosis;
  const note = result.job.reason === 'rerun' ? `Re-run asked by ${g.users.map(userRef).join(', ')}` : undefined;
  await ctx.adapter.postInThread(
    parent,
    findingsMessage(d, {
      threadId,
      offers,
      marks: await offerMarks(ctx, d, { id: threadId, channel: parent.channel }),
      ...(result.incident ? { incident: result.incident } : {}),
      ...(result.recurrence ? { recurrence: result.recurrence, earlierThreads: await earlierThreads(ctx, parent.channel, result.recurrence) } : {}),
      ...(note ? { note } : {}),
    }),
    { priority: 'answer', key },
  );
  ctx.options.metrics?.findingsPosted.inc();
}

function rootFromDiagnosis(d: Diagnosis, result: DiagnoseResult): Partial<RootState> {
  const first = d.findings[0];
  return {
    status: 'diagnosed',
    findings: d.findings.length,
    ...(first
      ? { severity: first.severity, primaryTitle: first.title, primaryRule: first.rule }
      : { severity: undefined, primaryTitle: undefined, primaryRule: undefined }),
    ...(result.incident && result.incident.count > 1 ? { incident: { count: result.incident.count, subjects: result.incident.subjects } } : {}),
    message: undefined,
  };
}
