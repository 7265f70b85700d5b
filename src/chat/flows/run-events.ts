// Run events of an approved plan (src/remediation/run-events.ts) as chat: a note in each thread
// the plan was offered in, the prompts re-rendered, and the outcome on the threads' parents once.
import type { ChatRunEvent } from '../../remediation/run-events.js';
import type { ChatContext } from '../context.js';
import { clock, noteMessage, runEventNote } from '../messages/messages.js';
import { noteThreads, refreshPrompts, remediationLine } from './prompts.js';

export async function runEvent(ctx: ChatContext, e: ChatRunEvent): Promise<void> {
  const planId = e.event.runId;
  const record = await ctx.approvals.get(planId);
  if (!record) {
    ctx.log.warn({ planId, event: e.event.type }, 'run event for an unknown plan');
    return;
  }
  if (e.result?.alreadyRan) return;
  const plan = (await ctx.options.remediation?.getPlan(planId)) ?? null;
  const log = ctx.log.child({ planId, playbook: plan?.playbook.id });
  const ev = e.event;
  const note = runEventNote(ctx.cluster, plan, ev);
  if (note) await noteThreads(ctx, record, note);
  const name = plan?.playbook.id ?? 'the playbook';
  if (ev.type === 'run-started') {
    await ctx.approvals.markRunning(planId);
    await refreshPrompts(ctx, planId, plan);
    log.info('remediation running');
    return;
  }
  let outcome: { ok: boolean; text: string } | undefined;
  if (ev.type === 'verified') {
    outcome =
      ev.outcome === 'fixed'
        ? { ok: true, text: `Fixed by ${name}: verified by a new diagnosis at ${clock(ev.at)}.` }
        : {
            ok: false,
            text: `Not fixed by ${name}: ${ev.remaining.length ? `still reported: ${ev.remaining.join(', ')}` : 'an expected state does not hold'}.`,
          };
  } else if (ev.type === 'refused') {
    outcome = { ok: false, text: `Not run: ${ev.reason}. Nothing was changed.` };
  } else if (ev.type === 'run-finished' && ev.status !== 'completed' && ev.status !== 'busy') {
    outcome = { ok: false, text: `${name} ${ev.status}: ${e.result?.reason ?? 'see the thread'}` };
    if (!note && ev.status !== 'refused') await noteThreads(ctx, record, noteMessage(ctx.cluster, outcome.text, 'error'));
  }
  if (!outcome) return;
  if (await ctx.approvals.markDone(planId, outcome)) {
    log.info({ ok: outcome.ok, outcome: outcome.text }, 'remediation finished');
    await refreshPrompts(ctx, planId, plan);
    await remediationLine(ctx, record, { ok: outcome.ok, text: outcome.text });
  }
}
