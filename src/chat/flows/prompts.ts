// Approval prompts: the plans the worker proposed with a result (result.offers) get their
// approval record and a prompt in each thread they are offered in; whatever happens to a plan
// later (a decision, a run event) re-renders those prompts and notes it in those threads.
import type { DiagnoseResult } from '../../jobs/schemas.js';
import { keys } from '../../redis/keys.js';
import type { Plan } from '../../remediation/plan.js';
import { approvalBar, approversOf } from '../access.js';
import type { ChatContext } from '../context.js';
import { chatErrorCode } from '../errors.js';
import { approvalMessage, type PlanOffer } from '../messages/messages.js';
import type { ApprovalRecord } from '../store/approvals.js';
import type { ChatMessage, MessageRef } from '../types.js';

/**
 * The fixes the worker proposed with this result: each offered plan gets its approval record
 * (who asked, how many approvers, when it expires) the first time the result is delivered; the
 * access policy's two-person rule for where a plan runs needs two approvers, neither its requester.
 */
export async function offersFor(ctx: ChatContext, result: DiagnoseResult, requester?: string): Promise<PlanOffer[]> {
  if (result.status !== 'diagnosed' || !result.diagnosis) return [];
  const offers = result.offers ?? [];
  if (!offers.some((o) => o.planId)) return offers;
  // Once per job: a redelivery, or the alert group's thread after the requesters' threads,
  // must not reset who asked.
  const key = keys.chat(ctx.options.queues.prefix, 'offers', ctx.cluster, result.jobId);
  if ((await ctx.options.redis.set(key, '1', 'EX', 7 * 86_400, 'NX')) !== 'OK') return offers;
  const ttlMs = (ctx.options.approvalTtlSeconds ?? 900) * 1000;
  for (const o of offers) {
    if (!o.planId) continue;
    // The access policy's rule for where the plan runs may raise the count (never lower it).
    const plan = ctx.options.policy ? await ctx.options.remediation?.getPlan(o.planId) : undefined;
    const asked = o.approvals ?? 1;
    const bar = plan ? approvalBar(ctx, plan, asked) : { required: asked, requireDifferent: Boolean(ctx.options.requireDifferentApprover) };
    await ctx.approvals.create({
      planId: o.planId,
      cluster: ctx.cluster,
      required: bar.required,
      ...(requester ? { requester } : {}),
      requireDifferent: bar.requireDifferent,
      expiresAt: Math.min(o.expiresAt ? Date.parse(o.expiresAt) : Number.POSITIVE_INFINITY, ctx.now() + ttlMs),
    });
  }
  return offers;
}

/** A plan's prompt: who may approve where it runs, and as many approvals as its record needs. */
function promptMessage(ctx: ChatContext, plan: Plan, record: ApprovalRecord): ChatMessage {
  const shown = record.required > plan.approvals ? { ...plan, approvals: record.required } : plan;
  return approvalMessage(shown, record, { ids: approversOf(ctx, plan), isGroup: (id) => ctx.options.approvers.isGroup(id) }, ctx.now());
}

/** One prompt per offered plan in the thread of `parent`, remembered on the plan's record. */
export async function postPrompts(ctx: ChatContext, parent: MessageRef, offers: PlanOffer[]): Promise<void> {
  const port = ctx.options.remediation;
  if (!port) return;
  for (const o of offers) {
    if (!o.planId) continue;
    const [plan, record] = await Promise.all([port.getPlan(o.planId), ctx.approvals.get(o.planId)]);
    if (!plan || !record) continue;
    // After the findings still expected in this channel (at its limit, each post is a turn).
    const [ref] = await ctx.adapter.postInThread(parent, promptMessage(ctx, plan, record), {
      priority: 'prompt',
      holdWhile: () => ctx.expected.pending(parent.channel),
      key: `prompt:${plan.id}`,
    });
    if (ref) await ctx.approvals.addPrompt(plan.id, { channel: ref.channel, ts: ref.ts, threadTs: parent.ts });
  }
}

/** Re-render every prompt of a plan (who approved, running, done). */
export async function refreshPrompts(ctx: ChatContext, planId: string, plan?: Plan | null): Promise<void> {
  const p = plan ?? (await ctx.options.remediation?.getPlan(planId)) ?? null;
  const record = await ctx.approvals.get(planId);
  if (!p || !record) return;
  const msg = promptMessage(ctx, p, record);
  await Promise.all(
    record.prompts.map((r) =>
      ctx.adapter
        .update({ channel: r.channel, ts: r.ts }, msg)
        .catch((err: unknown) => ctx.log.warn({ err, planId, code: chatErrorCode(err) }, 'prompt update failed')),
    ),
  );
}

/** A line in every thread the plan was offered in. */
export async function noteThreads(ctx: ChatContext, record: ApprovalRecord, message: ChatMessage): Promise<void> {
  const seen = new Set<string>();
  for (const p of record.prompts) {
    const key = `${p.channel}|${p.threadTs}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await ctx.adapter
      .postInThread({ channel: p.channel, ts: p.threadTs }, message)
      .catch((err: unknown) => ctx.log.warn({ err, code: chatErrorCode(err) }, 'thread note failed'));
  }
}

/** The fix's status line on the parent of every diagnosis thread the plan was offered in. */
export async function remediationLine(ctx: ChatContext, record: ApprovalRecord, line: { ok: boolean | null; text: string }): Promise<void> {
  for (const p of record.prompts) {
    const t = await ctx.threads.byTs(p.channel, p.threadTs);
    if (t) await ctx.parents.patch(t.id, (s) => (s.kind === 'diagnosis' ? { ...s, remediation: line } : s));
  }
}
