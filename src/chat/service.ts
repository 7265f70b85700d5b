// The chat flows, the same for every adapter, behind one object the adapters and the bot hold.
// Each flow lives in its own module under flows/ and gets the shared context, so a change to one
// (say approvals) does not touch another (say command parsing):
//   requests.ts    commands and re-run buttons → diagnosis jobs and their threads
//   delivery.ts    results → the threads that asked for them; alert-started ones to alerts.ts
//                  (Alertmanager group threads) or incidents.ts (incident threads)
//   prompts.ts     offered plans → approval records and prompts
//   decisions.ts   approve / deny clicks
//   run-events.ts  remediation run events → thread messages
//   parents.ts     thread parents, rendered from state and paced
// Nothing here blocks an acknowledgement: adapters ack first and call in afterwards.
import type { AlertGroupEvent } from '../alerts/group-events.js';
import type { DiagnoseResult } from '../jobs/schemas.js';
import type { ChatRunEvent } from '../remediation/run-events.js';
import { type ChatContext, type ChatServiceOptions, createChatContext, type ThreadState } from './context.js';
import { alertGroups } from './flows/alerts.js';
import { approve, deny, denyReason } from './flows/decisions.js';
import { deliver } from './flows/delivery.js';
import { type CommandInput, type CommandReply, parseChatCommand, rerun, startDiagnosis } from './flows/requests.js';
import { runEvent } from './flows/run-events.js';
import type { ApprovalStore } from './store/approvals.js';
import type { ThreadRecord, ThreadStore } from './store/threads.js';
import type { ChatAdapter } from './types.js';

export class ChatService {
  private readonly ctx: ChatContext;

  constructor(readonly options: ChatServiceOptions) {
    this.ctx = createChatContext(options);
  }

  get cluster(): string {
    return this.ctx.cluster;
  }

  get adapter(): ChatAdapter {
    return this.ctx.adapter;
  }

  get threads(): ThreadStore<ThreadState> {
    return this.ctx.threads;
  }

  get approvals(): ApprovalStore {
    return this.ctx.approvals;
  }

  // ---- commands ----

  /** Parse a command (no I/O): a reply to show at once, or a target to diagnose. */
  command(text: string, channel: string): CommandReply {
    return parseChatCommand(this.ctx, text, channel);
  }

  startDiagnosis(input: CommandInput): Promise<{ jobId: string; thread?: ThreadRecord<ThreadState> }> {
    return startDiagnosis(this.ctx, input);
  }

  rerun(threadId: string, user: string, channel?: string): Promise<void> {
    return rerun(this.ctx, threadId, user, channel);
  }

  // ---- thread parents ----

  /**
   * Resume parent updates left undone (by a crash, a Redis outage) now, after every Redis
   * reconnect and periodically. Returns a function that stops it.
   */
  start(): () => void {
    return this.ctx.parents.start(this.options.redis);
  }

  /**
   * Send the parent updates that are due, for at most `budgetMs` (before a clean shutdown), then
   * stop taking new ones; what is left stays in Redis for the next process.
   */
  async settle(budgetMs?: number): Promise<void> {
    await this.ctx.parents.settle(budgetMs);
  }

  // ---- results and prompts ----

  /** Post a result to everyone who asked for it. Safe to call again with the same result. */
  deliver(result: DiagnoseResult): Promise<void> {
    return deliver(this.ctx, result);
  }

  /** One event of the alert-groups stream; `id` (the stream entry id) makes it idempotent. */
  alertEvent(e: AlertGroupEvent, id: string): Promise<void> {
    return alertGroups(this.ctx).event(e, id);
  }

  // ---- buttons ----

  /** A click. Acknowledge before calling. Returns what the adapter may still need to do. */
  async action(input: { action: string; value: string; user: string; channel?: string }): Promise<{ kind: 'done' } | { kind: 'denied'; planId: string }> {
    const { action, value, user } = input;
    if (action === 'rerun') {
      await this.rerun(value, user, input.channel);
      return { kind: 'done' };
    }
    if (action === 'approve') {
      await this.approve(value, user, input.channel);
      return { kind: 'done' };
    }
    if (action === 'deny') return (await this.deny(value, user, '', input.channel)) ? { kind: 'denied', planId: value } : { kind: 'done' };
    this.ctx.log.warn({ action, user }, 'unknown action');
    return { kind: 'done' };
  }

  approve(planId: string, user: string, channel?: string): Promise<void> {
    return approve(this.ctx, planId, user, channel);
  }

  /** Returns true when this call recorded the denial (the adapter may then ask why). */
  deny(planId: string, user: string, reason = '', channel?: string): Promise<boolean> {
    return deny(this.ctx, planId, user, reason, channel);
  }

  /** The reason for a denial, given after the click (a modal, a console line). */
  denyReason(planId: string, user: string, reason: string): Promise<void> {
    return denyReason(this.ctx, planId, user, reason);
  }

  // ---- run events ----

  runEvent(e: ChatRunEvent): Promise<void> {
    return runEvent(this.ctx, e);
  }
}
