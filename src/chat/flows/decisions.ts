// Approve and deny: the clicker is authorised (a click from the plan's threads, by an approver of
// the access policy's rule where the plan runs, else the approver policy), the approval state machine
// (src/chat/approvals.ts) decides what the click means, and an approved plan is enqueued as a
// remediation job; every outcome is told to the clicker and shown on the plan's prompts.

import { type DecisionInput, recordDecision } from '../../audit/stream.js';
import { enqueueRemediation } from '../../jobs/dedup.js';
import { formatTarget } from '../../kube/target.js';
import { planSubject } from '../../remediation/audit.js';
import { isPlanId, type Plan } from '../../remediation/plan.js';
import { approversOf, groupService, placeOf, placeText, planRule } from '../access.js';
import { type ChatContext, tell } from '../context.js';
import { accessUnverifiedText, approverList, clock, noteMessage } from '../messages/messages.js';
import type { ApprovalRecord } from '../store/approvals.js';
import { userRef } from '../types.js';
import { notAProblem } from './not-a-problem.js';
import { noteThreads, refreshPrompts, remediationLine } from './prompts.js';
import { rerun } from './requests.js';
import { writeUpThread } from './writeup.js';

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
  else if (action === 'writeup') await writeUpThread(ctx, value, user, channel);
  else if (action === 'not-a-problem') await notAProblem(ctx, value, user, channel);
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
  if (!(await mayDecide(ctx, 'approve', { plan, record, user, channel }))) return;
  // A two-person rule where the plan runs holds even for a record made before it was configured.
  const rule = planRule(ctx, plan);
  if (rule?.people === 2) await ctx.approvals.tighten(planId, { required: 2, requireDifferent: true });
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
        rule?.people === 2
          ? `You asked for this diagnosis, and the access policy needs two people other than the requester to approve ${plan.playbook.id} ` +
              `(risk ${plan.risk}) in ${placeText(placeOf(plan.cluster, plan.target))}; nothing was recorded.`
          : 'You asked for this diagnosis, so a different person must approve its fix (POD_DOCTOR_REQUIRE_DIFFERENT_APPROVER).',
        'warning',
        thread,
      );
      return;
    case 'duplicate':
      await tell(ctx, channel, user, `You already approved ${what}; a second, different approver is needed.`, 'neutral', thread);
      return;
    case 'recorded':
      log.info({ decision: 'approve', count: out.record.approvals.length, required: out.record.required }, 'approval recorded');
      await auditDecision(ctx, plan, 'approval', [user], 'partial', `${out.record.approvals.length} of ${out.record.required} approvals`);
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
      await auditDecision(
        ctx,
        plan,
        'approval',
        out.record.approvals.map((a) => a.user),
        'approved',
      );
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

/**
 * May `user` approve or deny this plan from `channel`? A click must come from a channel the plan
 * was offered in (its prompt's thread), by one of its approvers (the access policy's rule where
 * it runs, else the playbook's or the global list). A refusal is told privately, and a
 * non-approver's approval attempt is noted in the plan's threads.
 */
async function mayDecide(
  ctx: ChatContext,
  decision: 'approve' | 'deny',
  o: { plan: Plan | null; record: ApprovalRecord; user: string; channel: string | undefined },
): Promise<boolean> {
  const { plan, record, user, channel } = o;
  const log = ctx.log.child({ planId: record.planId, user, playbook: plan?.playbook.id, decision });
  const thread = record.prompts[0] ? { channel: record.prompts[0].channel, ts: record.prompts[0].threadTs } : undefined;
  const button = decision === 'approve' ? 'Approve' : 'Deny';
  if (channel !== undefined && !record.prompts.some((p) => p.channel === channel)) {
    log.warn({ channel, allowed: false }, `${decision} refused: clicked outside the plan's threads`);
    ctx.options.metrics?.decisions.inc({ decision: 'refused' });
    await tell(ctx, channel, user, `This ${button} button belongs to another channel's thread; decide there. Nothing was recorded.`);
    return false;
  }
  const approvers = plan ? approversOf(ctx, plan) : ctx.options.approvers.listFor();
  const member = await ctx.options.approvers.check(user, approvers);
  const names = { ids: approvers, isGroup: (id: string) => ctx.options.approvers.isGroup(id) };
  if (member.ok) return true;
  const what = plan ? `${plan.playbook.title} (${formatTarget(plan.target)})` : 'this fix';
  if (member.unresolved.length > 0) {
    // Fail closed: their right may rest on a group Slack did not resolve (none cached within its TTL).
    log.warn({ allowed: false, unresolved: member.unresolved }, `${decision} refused: approver user groups did not resolve`);
    ctx.options.metrics?.decisions.inc({ decision: 'unverified' });
    const text = accessUnverifiedText({
      what: `${decision} ${what}`,
      groups: member.unresolved,
      nothing: 'Nothing was recorded.',
      service: groupService(ctx, channel ?? thread?.channel),
    });
    await tell(ctx, channel, user, text, 'warning', decision === 'approve' ? thread : undefined);
    return false;
  }
  log.warn({ allowed: false }, `${decision} refused: not an approver`);
  ctx.options.metrics?.decisions.inc({ decision: 'refused' });
  const rule = plan && planRule(ctx, plan);
  const text = rule
    ? `You may not ${decision} ${what}: in ${placeText(placeOf(plan.cluster, plan.target))} the access policy lets only ` +
      `${approverList(names)} decide on ${plan.playbook.id}. Ask one of them; nothing was recorded.`
    : decision === 'approve'
      ? `You may not approve ${what}. Approvers: ${approverList(names)}.`
      : `You may not decide on this fix. Approvers: ${approverList(names)}.`;
  await tell(ctx, channel, user, text, 'warning', decision === 'approve' ? thread : undefined);
  if (decision === 'approve' && plan) {
    await auditDecision(ctx, plan, 'approval', [user], 'not-allowed');
    const note = `${userRef(user)} tried to approve ${plan.playbook.id} but is not an approver; nothing was run.`;
    await noteThreads(ctx, record, noteMessage(ctx.cluster, note, 'warning'));
  }
  return false;
}

/** The decision in the audit trail (the worker mirrors it as an Event on the target); a failure is logged, the decision stands. */
async function auditDecision(ctx: ChatContext, plan: Plan, kind: DecisionInput['kind'], actors: string[], outcome: DecisionInput['outcome'], reason?: string) {
  await recordDecision(
    ctx.options.redis,
    ctx.prefix,
    { cluster: ctx.cluster, kind, ...planSubject(plan), actors, outcome, ...(reason ? { reason } : {}) },
    ctx.options.auditRetentionMs ? { retentionMs: ctx.options.auditRetentionMs } : {},
  ).catch((err: unknown) => ctx.log.error({ err, planId: plan.id, kind, outcome }, 'decision not recorded in the audit trail'));
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
  if (!(await mayDecide(ctx, 'deny', { plan, record, user, channel }))) return false;
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
  if (plan) await auditDecision(ctx, plan, 'denial', [user], 'denied', reason || undefined);
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
  const plan = await ctx.options.remediation?.getPlan(planId);
  if (plan) await auditDecision(ctx, plan, 'denial', [user], 'explained', text);
  await refreshPrompts(ctx, planId);
  await noteThreads(ctx, record, noteMessage(ctx.cluster, `Reason for the denial by ${userRef(user)}: ${text}`, 'neutral'));
}
