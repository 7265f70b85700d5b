// The Not a problem button on each finding: a false positive marked in chat. The press is
// authorised like a diagnosis of the target (the access policy, chat/access.ts), recorded for the
// finding's object (its pod's owner workload, else the pod) and rule with an expiry
// (POD_DOCTOR_NOT_A_PROBLEM_DAYS), audited with who and when, and said in the thread. The next
// diagnosis of that object leaves the finding out and says who marked it, until when.

import { recordDecision } from '../../audit/stream.js';
import { bounded } from '../../bounded.js';
import { markObject } from '../../diagnosis/ignore.js';
import type { Diagnosis } from '../../diagnosis/types.js';
import { DEFAULT_NOT_A_PROBLEM_DAYS, markNotAProblem } from '../../jobs/not-a-problem.js';
import { keys } from '../../redis/keys.js';
import { diagnoseRefusal, diagnoseVerdict } from '../access.js';
import { type ChatContext, tell } from '../context.js';
import { chatErrorCode } from '../errors.js';
import { noteMessage } from '../messages/messages.js';
import { type MarkOffer, readMarkOffer, saveMarkOffers } from '../store/marks.js';
import { userRef } from '../types.js';

/** A second press within this long is the same one (a double click, two replicas). */
const ONCE_MS = 15_000;
/** Posting findings never waits long for their buttons: without them the answer still goes out. */
const OFFER_TIMEOUT_MS = 2000;

/** The Not a problem buttons of a diagnosis posted in a thread: fingerprint → button id (none when it cannot be kept). */
export async function offerMarks(ctx: ChatContext, d: Diagnosis, thread: { id: string; channel: string }): Promise<Record<string, string>> {
  const object = markObject(d.target, d.workload);
  if (object === undefined || d.findings.length === 0) return {};
  const offers: MarkOffer[] = d.findings.map((f) => ({
    cluster: ctx.cluster,
    target: d.target,
    object,
    rule: f.rule,
    title: f.title.slice(0, 3000),
    channel: thread.channel,
    threadId: thread.id,
  }));
  const saved = await bounded(OFFER_TIMEOUT_MS, () => saveMarkOffers(ctx.redis, ctx.prefix, offers));
  if (saved.status !== 'done') {
    ctx.log.warn(
      { err: saved.status === 'failed' ? saved.error : 'timeout', threadId: thread.id },
      'Not a problem buttons not offered: Redis did not keep them',
    );
    return {};
  }
  return Object.fromEntries(d.findings.map((f, i) => [f.fingerprint, saved.value[i] ?? '']));
}

/** The Not a problem button: mark the finding for its object and rule, audited, and say so in the thread. */
export async function notAProblem(ctx: ChatContext, id: string, user: string, channel?: string): Promise<void> {
  const log = ctx.log.child({ markId: id, user });
  const offer = await readMarkOffer(ctx.redis, ctx.prefix, id);
  const thread = offer ? await ctx.threads.get(offer.threadId) : null;
  if (!offer || !thread) {
    log.info('not-a-problem refused: unknown or expired button');
    await tell(ctx, channel, user, 'This finding is too old to mark from here; diagnose it again and press Not a problem on the new answer.');
    return;
  }
  if (channel !== undefined && channel !== thread.channel) {
    log.warn({ channel, threadChannel: thread.channel }, 'not-a-problem refused: clicked outside its thread');
    await tell(ctx, channel, user, "This Not a problem button belongs to another channel's thread; nothing was recorded.");
    return;
  }
  const parent = { channel: thread.channel, ts: thread.ts };
  // Whoever may diagnose the target may say its finding is not a problem: the same people, the same places.
  const verdict = await diagnoseVerdict(ctx, { channel: thread.channel, user }, offer.target);
  if (!verdict.ok) {
    log.warn({ reason: verdict.reason }, 'not-a-problem refused by the access policy');
    await ctx.adapter
      .ephemeral(thread.channel, user, diagnoseRefusal(ctx, offer.target, verdict, 'Nothing was recorded.'), parent)
      .catch((err: unknown) => log.warn({ err, code: chatErrorCode(err) }, 'refusal reply failed'));
    return;
  }
  if ((await ctx.redis.set(keys.chat(ctx.prefix, 'marking', id), user, 'PX', ONCE_MS, 'NX')) !== 'OK') {
    await tell(ctx, channel, user, 'This finding is being marked already.', 'neutral', parent);
    return;
  }
  const days = ctx.options.notAProblemDays ?? DEFAULT_NOT_A_PROBLEM_DAYS;
  const mark = await markNotAProblem(ctx.redis, ctx.prefix, { cluster: offer.cluster, object: offer.object, rule: offer.rule, user, at: ctx.now(), days });
  await recordDecision(
    ctx.options.redis,
    ctx.prefix,
    {
      cluster: offer.cluster,
      kind: 'mark',
      planId: id,
      playbook: offer.rule,
      target: offer.target,
      actors: [user],
      outcome: 'not-a-problem',
      reason: `on ${offer.object} until ${mark.until}`,
    },
    { ...(ctx.options.auditRetentionMs ? { retentionMs: ctx.options.auditRetentionMs } : {}), now: ctx.now },
  ).catch((err: unknown) => log.error({ err }, 'Not a problem mark not recorded in the audit trail'));
  log.info({ rule: offer.rule, object: offer.object, until: mark.until }, 'finding marked not a problem');
  await ctx.adapter.postInThread(
    parent,
    noteMessage(
      ctx.cluster,
      `${userRef(user)} marked ${offer.rule} (${offer.title}) not a problem for ${offer.object} until ${mark.until.slice(0, 10)}: ` +
        'its findings there stay out of the answers until then, which say so.',
      'neutral',
    ),
  );
}
