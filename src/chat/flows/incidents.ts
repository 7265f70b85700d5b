// Incident threads: one thread per root cause (incident) in a channel, opened by its first
// result with the findings and the fix prompts; later pods of the same incident update its list.
import { primaryFinding } from '../../jobs/incidents.js';
import type { DiagnoseResult } from '../../jobs/schemas.js';
import type { ChatContext, ThreadState } from '../context.js';
import { findingsMessage, incidentRootMessage, type PlanOffer } from '../messages/messages.js';
import { offerMarks } from './not-a-problem.js';
import { earlierThreads, rememberPosted } from './parents.js';
import { postPrompts } from './prompts.js';

/** One thread per incident (root cause) in `channel`; later pods update its list. */
export async function deliverIncident(ctx: ChatContext, channel: string, result: DiagnoseResult, offers: PlanOffer[] = []): Promise<void> {
  const incident = result.incident;
  const d = result.diagnosis;
  const primary = d ? primaryFinding(d) : undefined;
  if (!incident || !d || !primary) return;
  const { thread, created } = await ctx.threads.ensure(channel, `incident:${incident.id}`, async () => {
    const state: ThreadState = {
      kind: 'incident',
      cluster: ctx.cluster,
      incident,
      finding: { title: primary.title, rule: primary.rule, severity: primary.severity, cause: primary.cause },
      updatedAt: new Date(ctx.now()).toISOString(),
    };
    return { ref: await ctx.adapter.postRoot(channel, incidentRootMessage(state), { key: `${ctx.cluster}:incident:${incident.id}` }), state };
  });
  if (created) {
    await ctx.deliveries.once(`${ctx.cluster}:${result.jobId}:${channel}:incident`, async () => {
      const parent = { channel: thread.channel, ts: thread.ts };
      await ctx.adapter.postInThread(
        parent,
        findingsMessage(d, {
          threadId: thread.id,
          offers,
          marks: await offerMarks(ctx, d, thread),
          incident,
          ...(result.recurrence ? { recurrence: result.recurrence, earlierThreads: await earlierThreads(ctx, channel, result.recurrence) } : {}),
        }),
        { priority: 'answer', key: `findings:${result.jobId}` },
      );
      await rememberPosted(ctx, thread, result);
      await postPrompts(ctx, parent, offers);
    });
    return;
  }
  await ctx.parents.patch(thread.id, (s) => (s.kind === 'incident' && incident.count >= s.incident.count ? { ...s, incident } : s));
}
