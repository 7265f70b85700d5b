// Approve and deny: the clicker is authorised by the approver policy, the approval state machine
// (src/chat/approvals.ts) decides what the click means, and an approved plan is enqueued as a
// remediation job; every outcome is told to the clicker and shown on the plan's prompts.

import { enqueueRemediation } from '../../jobs/dedup.js';
import { formatTarget } from '../../kube/target.js';
import { isPlanId, type Plan } from '../../remediation/plan.js';
import { type ChatContext, tell } from '../context.js';
import { approverList, clock, noteMessage } from '../messages/messages.js';
import type { ApprovalRecord } from '../store/approvals.js';
import { userRef } from '../types.js';
import { noteThreads, refreshPrompts, remediationLine } from './prompts.js';
import { rerun } from './requests.js';

async function planFor(ctx: ChatContext, planId: string): Promise<{ plan: Plan | null; record: ApprovalRecord | null }> {
  if (!isPlanId(planId)) return { plan: null, record: null };
  const [plan, record] = await Promise.all([ctx.options.remediation?.getPlan(planId) ?? Promise.resolve(null), ctx.approvals.get(planId)]);
  return { plan, record };
}

/** A button click, acknowledged already. `denied`: this click recorded a denial (the adapter may ask why). */
export async function click(
  ctx: ChatContext,
  input: { action: string; value: string; user: string; channel?: string },
): Promise<{ kind: 'done' } | { kind: 'denied'; planId: string }> {
  const { action, value, user, channel } = input;
  if (action === 'rerun') await rerun(ctx, value, user, channel);
  else if (action === 'approve') await approve(ctx, value, user, channel);
  else if (action === 'deny') return (await deny(ctx, value, user, '', channel)) ? { kind: 'denied', planId: value } : { kind: 'done' };
  else ctx.log.warn({ action, user }, 'unknown action');
  return { kind: 'done' };
}

export async function approve(ctx: ChatContext, planId: string, user: string, channel?: string): Promise<void> {
  const { plan, record } = await planFor(ctx, planId);
  const log = ctx.log.child({ planId, user, playbook: plan?.playbook.id });
  const thread = record?.prompts[0] ? { channel: record.prompts[0].channel, ts: record.prompts[0].threadTs } : undefined;
  if (!record || !plan) {
    log.info('approval refused: unknown or expired plan');
    await tell(ctx, channel, user, 'This proposal is unknown or has expired. Re-run the diagnosis for a new one.');
    return;
  }
  const what = `${plan.playbook.title} (${formatTarget(plan.target)})`;
  if (!(await ctx.options.approvers.may(user, plan.approvers))) {
    log.warn({ decision: 'approve', allowed: false }, 'approval refused: not an approver');
    ctx.options.metrics?.decisions.inc({ decision: 'refused' });
    await tell(
      ctx,
      channel,
      user,
      `You may not approve ${what}. Approvers: ${approverList(ctx.options.approvers.listFor(plan.approvers))}.`,
      'warning',
      thread,
    );
    await noteThreads(
      ctx,
      record,
      noteMessage(ctx.cluster, `${userRef(user)} tried to approve ${plan.playbook.id} but is not an approver; nothing was run.`, 'warning'),
    );
    return;
  }
  const out = await ctx.approvals.approve(planId, user);
  switch (out.kind) {
    case 'unknown':
      await tell(ctx, channel, user, 'This proposal is unknown or has expired. Re-run the diagnosis for a new one.');
      return;
    case 'expired':
      log.info({ decision: 'approve' }, 'approval refused: expired');
      await tell(ctx, channel, user, `This proposal expired at ${clock(out.record.expiresAt)}. Re-run the diagnosis for a new one.`);
      await refreshPrompts(ctx, planId, plan);
      return;
    case 'not-pending':
      log.info({ decision: 'approve', status: out.record.status }, 'approval ignored: already decided');
      await tell(
        ctx,
        channel,
        user,
        `Already ${out.record.status}` +
          `${out.record.approvals.length ? ` (approved by ${out.record.approvals.map((a) => userRef(a.user)).join(', ')})` : ''}` +
          `${out.record.denied ? ` (denied by ${userRef(out.record.denied.user)})` : ''}.`,
        'neutral',
        thread,
      );
      await refreshPrompts(ctx, planId, plan);
      return;
    case 'requester':
      log.info({ decision: 'approve' }, 'approval refused: requester may not approve');
      await tell(
        ctx,
        channel,
        user,
        'You asked for this diagnosis, so a different person must approve its fix (POD_DOCTOR_REQUIRE_DIFFERENT_APPROVER).',
        'warning',
        thread,
      );
      return;
    case 'duplicate':
      await tell(ctx, channel, user, `You already approved ${what}; a second, different approver is needed.`, 'neutral', thread);
      return;
    case 'recorded':
      log.info({ decision: 'approve', count: out.record.approvals.length, required: out.record.required }, 'approval recorded');
      await announce(
        ctx,
        'approve',
        planId,
        plan,
        out.record,
        `${userRef(user)} approved ${plan.playbook.id} (${out.record.approvals.length}/${out.record.required}); one more approver needed, a different person.`,
        'pending',
      );
      return;
    case 'approved': {
      log.info({ decision: 'approve', approvers: out.record.approvals.map((a) => a.user) }, 'plan approved; handing to the runner');
      // Enqueue first: the job id is the plan id, so this happens once however often it is called.
      await enqueueRemediation(ctx.options.queues, { cluster: ctx.cluster, proposalId: planId });
      await ctx.options.queues.confirmReplicated(ctx.cluster);
      const by = out.record.approvals.map((a) => userRef(a.user)).join(' and ');
      await announce(
        ctx,
        'approve',
        planId,
        plan,
        out.record,
        `${by} approved ${plan.playbook.id} at ${clock(out.record.approvals.at(-1)?.at ?? ctx.now())}; running it.`,
        'pending',
      );
      await remediationLine(ctx, out.record, { ok: null, text: `Fix approved by ${by}: running ${plan.playbook.id}…` });
      return;
    }
  }
}

/** A recorded decision: counted, its prompts redrawn, and said in every thread that shows the plan. */
async function announce(
  ctx: ChatContext,
  decision: 'approve' | 'deny',
  planId: string,
  plan: Parameters<typeof refreshPrompts>[2],
  record: ApprovalRecord,
  text: string,
  tone: 'pending' | 'neutral',
): Promise<void> {
  ctx.options.metrics?.decisions.inc({ decision });
  await refreshPrompts(ctx, planId, plan);
  await noteThreads(ctx, record, noteMessage(ctx.cluster, text, tone));
}

/** Returns true when this call recorded the denial (the adapter may then ask why). */
export async function deny(ctx: ChatContext, planId: string, user: string, reason = '', channel?: string): Promise<boolean> {
  const { plan, record } = await planFor(ctx, planId);
  const log = ctx.log.child({ planId, user, playbook: plan?.playbook.id });
  if (!record) {
    await tell(ctx, channel, user, 'This proposal is unknown or has expired.');
    return false;
  }
  if (!(await ctx.options.approvers.may(user, plan?.approvers))) {
    log.warn({ decision: 'deny', allowed: false }, 'denial refused: not an approver');
    ctx.options.metrics?.decisions.inc({ decision: 'refused' });
    await tell(ctx, channel, user, `You may not decide on this fix. Approvers: ${approverList(ctx.options.approvers.listFor(plan?.approvers))}.`);
    return false;
  }
  const out = await ctx.approvals.deny(planId, user, reason);
  if (out.kind !== 'denied') {
    await tell(
      ctx,
      channel,
      user,
      out.kind === 'expired' ? 'This proposal has expired.' : out.kind === 'unknown' ? 'This proposal is unknown.' : `Already ${out.record.status}.`,
      'neutral',
    );
    if (out.kind !== 'unknown') await refreshPrompts(ctx, planId, plan);
    return false;
  }
  log.info({ decision: 'deny', reason: reason || undefined }, 'plan denied');
  await announce(
    ctx,
    'deny',
    planId,
    plan,
    out.record,
    `${userRef(user)} denied ${plan?.playbook.id ?? 'the fix'} at ${clock(out.record.denied?.at ?? ctx.now())}` +
      `${reason ? `: ${reason}` : ''}. Nothing was changed.`,
    'neutral',
  );
  await remediationLine(ctx, out.record, { ok: false, text: `Fix denied by ${userRef(user)}${reason ? `: ${reason}` : ''}` });
  return true;
}

/** The reason for a denial, given after the click (a modal, a console line). */
export async function denyReason(ctx: ChatContext, planId: string, user: string, reason: string): Promise<void> {
  const text = reason.trim();
  if (!text || !isPlanId(planId)) return;
  if (!(await ctx.approvals.setDenyReason(planId, user, text))) return;
  const record = await ctx.approvals.get(planId);
  if (!record) return;
  ctx.log.info({ planId, user, decision: 'deny', reason: text }, 'denial reason recorded');
  await refreshPrompts(ctx, planId);
  await noteThreads(ctx, record, noteMessage(ctx.cluster, `Reason for the denial by ${userRef(user)}: ${text}`, 'neutral'));
}
