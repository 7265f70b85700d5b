// The chat flows, the same for every adapter: a command enqueues a diagnosis and opens its
// thread; results land in that thread (once per job and thread, however often they are
// delivered); findings with a playbook get a plan and an approval prompt; clicks are
// authorised and go through the approval state machine; run events become thread messages.
// Nothing here blocks an acknowledgement: adapters ack first and call in afterwards.
import type { Logger } from 'pino';
import { formatTarget } from '../diagnosis/target.js';
import type { Diagnosis, Target } from '../diagnosis/types.js';
import { enqueueDiagnosis, enqueueRemediation } from '../jobs/dedup.js';
import { primaryFinding } from '../jobs/incidents.js';
import { sharedTag } from '../redis/keys.js';
import type { JobQueues } from '../jobs/queues.js';
import type { RedisClient } from '../redis/client.js';
import type { DiagnoseResult, Requester } from '../jobs/schemas.js';
import { isPlanId, type Plan } from '../remediation/plan.js';
import { ApprovalStore, type ApprovalRecord, type ApproverPolicy } from './approvals.js';
import { defaultNamespaceFor, parseCommand } from './command.js';
import {
  approvalMessage,
  approverList,
  badInputMessage,
  clock,
  findingsMessage,
  helpMessage,
  incidentRootMessage,
  noteMessage,
  notFoundMessage,
  rootMessage,
  runEventNote,
  alertGroupRootMessage,
  type AlertGroupState,
  type IncidentState,
  type PlanOffer,
  type RootState,
} from './messages.js';
import type { ChatMetrics } from './metrics.js';
import type { ChatRunEvent } from '../remediation/run-events.js';
import type { RemediationPort } from './remediation.js';
import { DeliveryLog, ThreadStore, type ThreadRecord } from './threads.js';
import { userRef, type ChatAdapter, type ChatMessage, type MessageRef } from './types.js';
import { scoped } from '../log.js';

export type ThreadState = ({ kind: 'diagnosis' } & RootState) | ({ kind: 'incident' } & IncidentState) | ({ kind: 'alert-group' } & AlertGroupState);

export interface ChatServiceOptions {
  adapter: ChatAdapter;
  /** Producer connection (never a blocking one). */
  redis: RedisClient;
  queues: JobQueues;
  cluster: string;
  logger: Logger;
  approvers: ApproverPolicy;
  requireDifferentApprover?: boolean;
  approvalTtlSeconds?: number;
  /** Channel id (or `*`) → namespace of a bare `<pod>`. */
  defaultNamespaces?: Readonly<Record<string, string>>;
  /** Without it findings show their playbook but offer no buttons. */
  remediation?: RemediationPort;
  /** Incident threads for results nobody asked for in chat (alerts without their own route). */
  incidentChannel?: string;
  /** Alert-started results, when the Alertmanager side posts them itself. */
  onAlertResult?: (result: DiagnoseResult) => Promise<void>;
  /** Findings per diagnosis that get a plan (the highest ranked). */
  maxOffers?: number;
  metrics?: ChatMetrics;
  now?: () => number;
  /**
   * At most one update of a parent message this often (default 3000 ms): a storm changes a
   * group's parent hundreds of times, Slack allows about 50 chat.update calls a minute.
   */
  rootUpdateIntervalMs?: number;
}

/** What the adapter shows the person who typed a command, before any I/O. */
export type CommandReply = { kind: 'reply'; message: ChatMessage } | { kind: 'diagnose'; target: Target };

/** Slack platform errors that retrying will not fix: log and drop the delivery. */
const PERMANENT_CHAT_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'restricted_action',
  'team_access_not_granted',
  'msg_too_long',
  'invalid_blocks',
]);

export function chatErrorCode(err: unknown): string | undefined {
  return (err as { data?: { error?: string } })?.data?.error;
}

function isPermanentChatError(err: unknown): boolean {
  const code = chatErrorCode(err);
  return code !== undefined && PERMANENT_CHAT_ERRORS.has(code);
}

export class ChatService {
  readonly threads: ThreadStore<ThreadState>;
  readonly approvals: ApprovalStore;
  private readonly deliveries: DeliveryLog;
  private readonly log: Logger;
  private readonly now: () => number;
  /** Per-thread parent updates: one in flight, the latest state re-rendered after it. */
  private readonly roots = new Map<string, { chain: Promise<void>; flushing?: Promise<void>; dirty: boolean }>();
  /** When each parent was last updated (kept past its flush, so a later change still waits its turn). */
  private readonly lastRootUpdate = new Map<string, number>();

  constructor(readonly options: ChatServiceOptions) {
    const prefix = options.queues.prefix;
    this.threads = new ThreadStore<ThreadState>(options.redis, prefix);
    this.approvals = new ApprovalStore(options.redis, prefix);
    this.deliveries = new DeliveryLog(options.redis, prefix);
    this.log = options.logger.child({ component: 'chat', medium: options.adapter.medium, cluster: options.cluster });
    this.now = options.now ?? Date.now;
  }

  get cluster(): string {
    return this.options.cluster;
  }

  get adapter(): ChatAdapter {
    return this.options.adapter;
  }

  defaultNamespace(channel: string): string | undefined {
    return defaultNamespaceFor(this.options.defaultNamespaces ?? {}, channel);
  }

  // ---- commands ----

  /** Parse a command (no I/O): a reply to show at once, or a target to diagnose. */
  command(text: string, channel: string, options: { count?: boolean } = {}): CommandReply {
    const ns = this.defaultNamespace(channel);
    const parsed = parseCommand(text, ns);
    if (parsed.kind === 'help') return { kind: 'reply', message: helpMessage(this.cluster, ns) };
    if (parsed.kind === 'error') {
      if (options.count ?? true) this.options.metrics?.commands.inc({ outcome: 'bad-input' });
      return { kind: 'reply', message: badInputMessage(this.cluster, parsed.problem, ns) };
    }
    return { kind: 'diagnose', target: parsed.target };
  }

  /**
   * After the acknowledgement: enqueue the diagnosis and open its thread (or join the one
   * already open for the same job in this channel).
   */
  async startDiagnosis(input: {
    channel: string;
    user: string;
    target: Target;
    respond?: (m: ChatMessage) => Promise<void>;
  }): Promise<{ jobId: string; thread?: ThreadRecord<ThreadState> }> {
    const { channel, user, target } = input;
    const log = scoped(this.log, { user, channel, target: formatTarget(target) });
    const { jobId, deduplicated } = await enqueueDiagnosis(this.options.queues, {
      cluster: this.cluster,
      target,
      reason: 'slash',
      requester: { kind: 'slack', user, channel },
    });
    // Not "queued" before a replica holds it (ReplicationError: the user is told to retry).
    await this.options.queues.confirmReplicated(this.cluster);
    this.options.metrics?.commands.inc({ outcome: deduplicated ? 'joined' : 'queued' });
    log.info({ jobId, deduplicated }, 'diagnosis requested');
    try {
      const { thread, created } = await this.jobThread(channel, jobId, target, { origin: 'slash', requestedBy: [user] });
      if (!created && thread.state.kind === 'diagnosis' && !thread.state.requestedBy.includes(user)) {
        await this.patchRoot(thread.id, (s) => (s.kind === 'diagnosis' ? { ...s, requestedBy: [...s.requestedBy, user] } : s));
        await this.adapter.ephemeral(
          channel,
          user,
          noteMessage(this.cluster, `${formatTarget(target)} is already being diagnosed here; the findings will appear in the thread.`, 'pending'),
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
      await input.respond?.(noteMessage(this.cluster, `${why} (${formatTarget(target)} is being diagnosed anyway.)`, 'warning')).catch(() => undefined);
      return { jobId };
    }
  }

  private async jobThread(
    channel: string,
    jobId: string,
    target: Target,
    init: Pick<RootState, 'origin' | 'requestedBy'>,
  ): Promise<{ thread: ThreadRecord<ThreadState>; created: boolean }> {
    return this.threads.ensure(channel, `job:${this.cluster}:${jobId}`, async () => {
      const state: ThreadState = {
        kind: 'diagnosis',
        cluster: this.cluster,
        target,
        status: 'diagnosing',
        updatedAt: new Date(this.now()).toISOString(),
        ...init,
      };
      const ref = await this.adapter.postRoot(channel, rootMessage(state));
      return { ref, state };
    });
  }

  // ---- thread parents ----

  render(s: ThreadState): ChatMessage {
    switch (s.kind) {
      case 'incident':
        return incidentRootMessage(s);
      case 'alert-group':
        return alertGroupRootMessage(s);
      case 'diagnosis':
        return rootMessage(s);
    }
  }

  /**
   * Change a thread's summary state and re-render its parent. Bursts coalesce: while one
   * update is in flight, later changes are rendered together once it returns.
   */
  async patchRoot(threadId: string, mutate: (s: ThreadState) => ThreadState): Promise<void> {
    let entry = this.roots.get(threadId);
    if (!entry) this.roots.set(threadId, (entry = { chain: Promise.resolve(), dirty: false }));
    const e = entry;
    e.chain = e.chain.then(async () => {
      const t = await this.threads.get(threadId);
      if (!t) return;
      await this.threads.setState(threadId, { ...mutate(t.state), updatedAt: new Date(this.now()).toISOString() } as ThreadState);
    });
    await e.chain.catch((err: unknown) => this.log.warn({ err, threadId }, 'thread state update failed'));
    e.dirty = true;
    // The state is saved; the parent follows. A caller waits for the update only when it goes
    // out now: during a storm the next one waits its turn in the background, so event and result
    // handlers are never held back by the parent's pacing.
    const due = (this.lastRootUpdate.get(threadId) ?? 0) + (this.options.rootUpdateIntervalMs ?? 3000) <= Date.now();
    if (e.flushing) return due ? e.flushing : undefined;
    e.flushing = (async () => {
      try {
        const interval = this.options.rootUpdateIntervalMs ?? 3000;
        while (e.dirty) {
          // Changes that arrive meanwhile are rendered together, once (the latest state wins).
          const wait = (this.lastRootUpdate.get(threadId) ?? 0) + interval - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          e.dirty = false;
          const t = await this.threads.get(threadId);
          if (!t) return;
          this.lastRootUpdate.set(threadId, Date.now());
          if (this.lastRootUpdate.size > 10_000) for (const [id, at] of this.lastRootUpdate) if (Date.now() - at > interval) this.lastRootUpdate.delete(id);
          await this.adapter
            .update({ channel: t.channel, ts: t.ts }, this.render(t.state))
            .catch((err: unknown) => this.log.warn({ err, threadId, code: chatErrorCode(err) }, 'parent message update failed'));
        }
      } catch (err) {
        // Nobody may be awaiting this flush (it runs in the background during a storm).
        this.log.warn({ err, threadId }, 'parent message update failed');
      } finally {
        e.flushing = undefined;
        if (!e.dirty) this.roots.delete(threadId);
      }
    })();
    return due ? e.flushing : undefined;
  }

  /** Resolves once every pending parent update has gone out (before a clean shutdown). */
  async settle(): Promise<void> {
    while (this.roots.size > 0) await Promise.all([...this.roots.values()].map((e) => e.flushing ?? e.chain.catch(() => undefined)));
  }

  // ---- results ----

  /** Post a result to everyone who asked for it. Safe to call again with the same result. */
  async deliver(result: DiagnoseResult): Promise<void> {
    const log = scoped(this.log, { jobId: result.jobId, target: formatTarget(result.job.target), status: result.status });
    const slack = result.requesters.filter((r): r is Extract<Requester, { kind: 'slack' }> => r.kind === 'slack');
    const groups = new Map<string, { channel: string; threadTs?: string; users: string[] }>();
    for (const r of slack) {
      const key = `${r.channel}|${r.threadTs ?? ''}`;
      const g = groups.get(key) ?? { channel: r.channel, ...(r.threadTs ? { threadTs: r.threadTs } : {}), users: [] };
      if (!g.users.includes(r.user)) g.users.push(r.user);
      groups.set(key, g);
    }
    const offers = groups.size > 0 || (this.options.incidentChannel && result.incident?.created) ? await this.offersFor(result, slack[0]?.user) : [];
    const failures: unknown[] = [];
    for (const g of groups.values()) {
      try {
        const outcome = await this.deliveries.once(`${this.cluster}:${result.jobId}:${g.channel}:${g.threadTs ?? '-'}`, () =>
          this.deliverToChannel(result, g, offers),
        );
        log.info({ channel: g.channel, users: g.users, outcome }, 'result delivered');
      } catch (err) {
        if (isPermanentChatError(err)) log.error({ err, channel: g.channel, code: chatErrorCode(err) }, 'result not deliverable to this channel; dropped');
        else failures.push(err);
      }
    }
    const alerts = result.requesters.some((r) => r.kind === 'alert');
    if (alerts && this.options.onAlertResult) await this.options.onAlertResult(result);
    else if (alerts && this.options.incidentChannel) {
      try {
        await this.deliverIncident(this.options.incidentChannel, result, offers);
      } catch (err) {
        if (isPermanentChatError(err)) log.error({ err, code: chatErrorCode(err) }, 'incident not deliverable; dropped');
        else failures.push(err);
      }
    }
    // Throwing makes the job (or the stream entry) deliver again; done deliveries are skipped.
    if (failures.length > 0) throw failures[0];
  }

  /**
   * The fixes the worker proposed with this result: each offered plan gets its approval record
   * (who asked, how many approvers, when it expires) the first time the result is delivered.
   */
  async offersFor(result: DiagnoseResult, requester?: string): Promise<PlanOffer[]> {
    if (result.status !== 'diagnosed' || !result.diagnosis) return [];
    const offers = result.offers ?? [];
    if (!offers.some((o) => o.planId)) return offers;
    // Once per job: a redelivery, or the alert group's thread after the requesters' threads,
    // must not reset who asked.
    const key = `${sharedTag(this.options.queues.prefix)}:chat:offers:${this.cluster}:${result.jobId}`;
    if ((await this.options.redis.set(key, '1', 'EX', 7 * 86_400, 'NX')) !== 'OK') return offers;
    const ttlMs = (this.options.approvalTtlSeconds ?? 900) * 1000;
    for (const o of offers) {
      if (!o.planId) continue;
      await this.approvals.create({
        planId: o.planId,
        cluster: this.cluster,
        required: o.approvals ?? 1,
        ...(requester ? { requester } : {}),
        requireDifferent: Boolean(this.options.requireDifferentApprover),
        expiresAt: Math.min(o.expiresAt ? Date.parse(o.expiresAt) : Number.POSITIVE_INFINITY, this.now() + ttlMs),
      });
    }
    return offers;
  }

  private async threadFor(result: DiagnoseResult, g: { channel: string; threadTs?: string; users: string[] }): Promise<ThreadRecord<ThreadState>> {
    if (g.threadTs) {
      const existing = await this.threads.byTs(g.channel, g.threadTs);
      if (existing) return existing;
    }
    const origin = result.job.reason === 'rerun' ? 'rerun' : result.job.reason === 'slash' ? 'slash' : 'other';
    return (await this.jobThread(g.channel, result.jobId, result.job.target, { origin, requestedBy: g.users })).thread;
  }

  private async deliverToChannel(result: DiagnoseResult, g: { channel: string; threadTs?: string; users: string[] }, offers: PlanOffer[]): Promise<void> {
    const thread = await this.threadFor(result, g);
    const parent: MessageRef = { channel: thread.channel, ts: thread.ts };
    const defaultNs = this.defaultNamespace(g.channel);
    if (result.status === 'not-found') {
      await this.patchRoot(thread.id, (s) =>
        s.kind === 'diagnosis' ? { ...s, status: 'not-found', ...(result.message ? { message: result.message } : {}) } : s,
      );
      for (const user of g.users) {
        await this.adapter
          .ephemeral(g.channel, user, notFoundMessage(this.cluster, result.job.target, result.message, defaultNs), parent)
          .catch((err: unknown) => this.log.warn({ err, user, code: chatErrorCode(err) }, 'not-found reply failed'));
      }
      return;
    }
    if (result.status === 'failed' || !result.diagnosis) {
      await this.adapter.postInThread(
        parent,
        noteMessage(this.cluster, `The diagnosis of ${formatTarget(result.job.target)} failed: ${result.message ?? 'unknown error'}`, 'error'),
      );
      await this.patchRoot(thread.id, (s) => (s.kind === 'diagnosis' ? { ...s, status: 'failed', ...(result.message ? { message: result.message } : {}) } : s));
      return;
    }
    const d = result.diagnosis;
    const note = result.job.reason === 'rerun' ? `Re-run asked by ${g.users.map(userRef).join(', ')}` : undefined;
    await this.adapter.postInThread(
      parent,
      findingsMessage(d, { threadId: thread.id, offers, ...(result.incident ? { incident: result.incident } : {}), ...(note ? { note } : {}) }),
    );
    this.options.metrics?.findingsPosted.inc();
    await this.postPrompts(parent, offers);
    await this.patchRoot(thread.id, (s) => (s.kind === 'diagnosis' ? { ...s, ...rootFromDiagnosis(d, result) } : s));
  }

  async postPrompts(parent: MessageRef, offers: PlanOffer[]): Promise<void> {
    const port = this.options.remediation;
    if (!port) return;
    for (const o of offers) {
      if (!o.planId) continue;
      const [plan, record] = await Promise.all([port.getPlan(o.planId), this.approvals.get(o.planId)]);
      if (!plan || !record) continue;
      const [ref] = await this.adapter.postInThread(parent, approvalMessage(plan, record, this.options.approvers.listFor(plan.approvers), this.now()));
      if (ref) await this.approvals.addPrompt(plan.id, { channel: ref.channel, ts: ref.ts, threadTs: parent.ts });
    }
  }

  /** One thread per incident (root cause) in `channel`; later pods update its list. */
  async deliverIncident(channel: string, result: DiagnoseResult, offers: PlanOffer[] = []): Promise<void> {
    const incident = result.incident;
    const d = result.diagnosis;
    const primary = d ? primaryFinding(d) : undefined;
    if (!incident || !d || !primary) return;
    const { thread, created } = await this.threads.ensure(channel, `incident:${incident.id}`, async () => {
      const state: ThreadState = {
        kind: 'incident',
        cluster: this.cluster,
        incident,
        finding: { title: primary.title, rule: primary.rule, severity: primary.severity, cause: primary.cause },
        updatedAt: new Date(this.now()).toISOString(),
      };
      return { ref: await this.adapter.postRoot(channel, incidentRootMessage(state)), state };
    });
    if (created) {
      await this.deliveries.once(`${this.cluster}:${result.jobId}:${channel}:incident`, async () => {
        const parent = { channel: thread.channel, ts: thread.ts };
        await this.adapter.postInThread(parent, findingsMessage(d, { threadId: thread.id, offers, incident }));
        await this.postPrompts(parent, offers);
      });
      return;
    }
    await this.patchRoot(thread.id, (s) => (s.kind === 'incident' && incident.count >= s.incident.count ? { ...s, incident } : s));
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
    this.log.warn({ action, user }, 'unknown action');
    return { kind: 'done' };
  }

  private async tell(
    channel: string | undefined,
    user: string,
    text: string,
    tone: Parameters<typeof noteMessage>[2] = 'warning',
    thread?: MessageRef,
  ): Promise<void> {
    if (!channel) return;
    await this.adapter
      .ephemeral(channel, user, noteMessage(this.cluster, text, tone), thread)
      .catch((err: unknown) => this.log.warn({ err, code: chatErrorCode(err) }, 'ephemeral reply failed'));
  }

  async rerun(threadId: string, user: string, channel?: string): Promise<void> {
    const thread = /^[A-Za-z0-9_-]{1,32}$/.test(threadId) ? await this.threads.get(threadId) : null;
    if (thread?.state.kind !== 'diagnosis') {
      this.log.info({ user, threadId }, 're-run refused: unknown thread');
      await this.tell(channel, user, 'This thread is too old to re-run from here; use /pod-doctor again.');
      return;
    }
    const target = thread.state.target;
    const parent = { channel: thread.channel, ts: thread.ts };
    const { jobId, deduplicated } = await enqueueDiagnosis(this.options.queues, {
      cluster: this.cluster,
      target,
      reason: 'rerun',
      requester: { kind: 'slack', user, channel: thread.channel, threadTs: thread.ts },
    });
    await this.options.queues.confirmReplicated(this.cluster);
    this.log.info({ user, jobId, deduplicated, target: formatTarget(target) }, 're-run requested');
    await this.adapter.postInThread(parent, noteMessage(this.cluster, `${userRef(user)} asked to diagnose ${formatTarget(target)} again…`, 'pending'));
  }

  private async planFor(planId: string): Promise<{ plan: Plan | null; record: ApprovalRecord | null }> {
    if (!isPlanId(planId)) return { plan: null, record: null };
    const [plan, record] = await Promise.all([this.options.remediation?.getPlan(planId) ?? Promise.resolve(null), this.approvals.get(planId)]);
    return { plan, record };
  }

  /** Re-render every prompt of a plan (who approved, running, done). */
  private async refreshPrompts(planId: string, plan?: Plan | null): Promise<void> {
    const p = plan ?? (await this.options.remediation?.getPlan(planId)) ?? null;
    const record = await this.approvals.get(planId);
    if (!p || !record) return;
    const msg = approvalMessage(p, record, this.options.approvers.listFor(p.approvers), this.now());
    await Promise.all(
      record.prompts.map((r) =>
        this.adapter
          .update({ channel: r.channel, ts: r.ts }, msg)
          .catch((err: unknown) => this.log.warn({ err, planId, code: chatErrorCode(err) }, 'prompt update failed')),
      ),
    );
  }

  /** A line in every thread the plan was offered in. */
  private async noteThreads(record: ApprovalRecord, message: ChatMessage): Promise<void> {
    const seen = new Set<string>();
    for (const p of record.prompts) {
      const key = `${p.channel}|${p.threadTs}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await this.adapter
        .postInThread({ channel: p.channel, ts: p.threadTs }, message)
        .catch((err: unknown) => this.log.warn({ err, code: chatErrorCode(err) }, 'thread note failed'));
    }
  }

  private async remediationLine(record: ApprovalRecord, line: { ok: boolean | null; text: string }): Promise<void> {
    for (const p of record.prompts) {
      const t = await this.threads.byTs(p.channel, p.threadTs);
      if (t) await this.patchRoot(t.id, (s) => (s.kind === 'diagnosis' ? { ...s, remediation: line } : s));
    }
  }

  async approve(planId: string, user: string, channel?: string): Promise<void> {
    const { plan, record } = await this.planFor(planId);
    const log = this.log.child({ planId, user, playbook: plan?.playbook.id });
    const thread = record?.prompts[0] ? { channel: record.prompts[0].channel, ts: record.prompts[0].threadTs } : undefined;
    if (!record || !plan) {
      log.info('approval refused: unknown or expired plan');
      await this.tell(channel, user, 'This proposal is unknown or has expired. Re-run the diagnosis for a new one.');
      return;
    }
    const what = `${plan.playbook.title} (${formatTarget(plan.target)})`;
    if (!(await this.options.approvers.may(user, plan.approvers))) {
      log.warn({ decision: 'approve', allowed: false }, 'approval refused: not an approver');
      this.options.metrics?.decisions.inc({ decision: 'refused' });
      await this.tell(
        channel,
        user,
        `You may not approve ${what}. Approvers: ${approverList(this.options.approvers.listFor(plan.approvers))}.`,
        'warning',
        thread,
      );
      await this.noteThreads(
        record,
        noteMessage(this.cluster, `${userRef(user)} tried to approve ${plan.playbook.id} but is not an approver; nothing was run.`, 'warning'),
      );
      return;
    }
    const out = await this.approvals.approve(planId, user);
    switch (out.kind) {
      case 'unknown':
        await this.tell(channel, user, 'This proposal is unknown or has expired. Re-run the diagnosis for a new one.');
        return;
      case 'expired':
        log.info({ decision: 'approve' }, 'approval refused: expired');
        await this.tell(channel, user, `This proposal expired at ${clock(out.record.expiresAt)}. Re-run the diagnosis for a new one.`);
        await this.refreshPrompts(planId, plan);
        return;
      case 'not-pending':
        log.info({ decision: 'approve', status: out.record.status }, 'approval ignored: already decided');
        await this.tell(
          channel,
          user,
          `Already ${out.record.status}${out.record.approvals.length ? ` (approved by ${out.record.approvals.map((a) => userRef(a.user)).join(', ')})` : ''}${out.record.denied ? ` (denied by ${userRef(out.record.denied.user)})` : ''}.`,
          'neutral',
          thread,
        );
        await this.refreshPrompts(planId, plan);
        return;
      case 'requester':
        log.info({ decision: 'approve' }, 'approval refused: requester may not approve');
        await this.tell(
          channel,
          user,
          'You asked for this diagnosis, so a different person must approve its fix (POD_DOCTOR_REQUIRE_DIFFERENT_APPROVER).',
          'warning',
          thread,
        );
        return;
      case 'duplicate':
        await this.tell(channel, user, `You already approved ${what}; a second, different approver is needed.`, 'neutral', thread);
        return;
      case 'recorded':
        log.info({ decision: 'approve', count: out.record.approvals.length, required: out.record.required }, 'approval recorded');
        this.options.metrics?.decisions.inc({ decision: 'approve' });
        await this.refreshPrompts(planId, plan);
        await this.noteThreads(
          out.record,
          noteMessage(
            this.cluster,
            `${userRef(user)} approved ${plan.playbook.id} (${out.record.approvals.length}/${out.record.required}); one more approver needed, a different person.`,
            'pending',
          ),
        );
        return;
      case 'approved': {
        log.info({ decision: 'approve', approvers: out.record.approvals.map((a) => a.user) }, 'plan approved; handing to the runner');
        this.options.metrics?.decisions.inc({ decision: 'approve' });
        // Enqueue first: the job id is the plan id, so this happens once however often it is called.
        await enqueueRemediation(this.options.queues, { cluster: this.cluster, proposalId: planId });
        await this.options.queues.confirmReplicated(this.cluster);
        await this.refreshPrompts(planId, plan);
        const by = out.record.approvals.map((a) => userRef(a.user)).join(' and ');
        await this.noteThreads(
          out.record,
          noteMessage(this.cluster, `${by} approved ${plan.playbook.id} at ${clock(out.record.approvals.at(-1)?.at ?? this.now())}; running it.`, 'pending'),
        );
        await this.remediationLine(out.record, { ok: null, text: `Fix approved by ${by}: running ${plan.playbook.id}…` });
        return;
      }
    }
  }

  /** Returns true when this call recorded the denial (the adapter may then ask why). */
  async deny(planId: string, user: string, reason = '', channel?: string): Promise<boolean> {
    const { plan, record } = await this.planFor(planId);
    const log = this.log.child({ planId, user, playbook: plan?.playbook.id });
    if (!record) {
      await this.tell(channel, user, 'This proposal is unknown or has expired.');
      return false;
    }
    if (!(await this.options.approvers.may(user, plan?.approvers))) {
      log.warn({ decision: 'deny', allowed: false }, 'denial refused: not an approver');
      this.options.metrics?.decisions.inc({ decision: 'refused' });
      await this.tell(channel, user, `You may not decide on this fix. Approvers: ${approverList(this.options.approvers.listFor(plan?.approvers))}.`);
      return false;
    }
    const out = await this.approvals.deny(planId, user, reason);
    if (out.kind !== 'denied') {
      await this.tell(
        channel,
        user,
        out.kind === 'expired' ? 'This proposal has expired.' : out.kind === 'unknown' ? 'This proposal is unknown.' : `Already ${out.record.status}.`,
        'neutral',
      );
      if (out.kind !== 'unknown') await this.refreshPrompts(planId, plan);
      return false;
    }
    log.info({ decision: 'deny', reason: reason || undefined }, 'plan denied');
    this.options.metrics?.decisions.inc({ decision: 'deny' });
    await this.refreshPrompts(planId, plan);
    await this.noteThreads(
      out.record,
      noteMessage(
        this.cluster,
        `${userRef(user)} denied ${plan?.playbook.id ?? 'the fix'} at ${clock(out.record.denied?.at ?? this.now())}${reason ? `: ${reason}` : ''}. Nothing was changed.`,
        'neutral',
      ),
    );
    await this.remediationLine(out.record, { ok: false, text: `Fix denied by ${userRef(user)}${reason ? `: ${reason}` : ''}` });
    return true;
  }

  /** The reason for a denial, given after the click (a modal, a console line). */
  async denyReason(planId: string, user: string, reason: string): Promise<void> {
    const text = reason.trim();
    if (!text || !isPlanId(planId)) return;
    if (!(await this.approvals.setDenyReason(planId, user, text))) return;
    const record = await this.approvals.get(planId);
    if (!record) return;
    this.log.info({ planId, user, decision: 'deny', reason: text }, 'denial reason recorded');
    await this.refreshPrompts(planId);
    await this.noteThreads(record, noteMessage(this.cluster, `Reason for the denial by ${userRef(user)}: ${text}`, 'neutral'));
  }

  // ---- run events ----

  async runEvent(e: ChatRunEvent): Promise<void> {
    const planId = e.event.runId;
    const record = await this.approvals.get(planId);
    if (!record) {
      this.log.warn({ planId, event: e.event.type }, 'run event for an unknown plan');
      return;
    }
    if (e.result?.alreadyRan) return;
    const plan = (await this.options.remediation?.getPlan(planId)) ?? null;
    const log = this.log.child({ planId, playbook: plan?.playbook.id });
    const ev = e.event;
    const note = runEventNote(this.cluster, plan, ev);
    if (note) await this.noteThreads(record, note);
    const name = plan?.playbook.id ?? 'the playbook';
    if (ev.type === 'run-started') {
      await this.approvals.markRunning(planId);
      await this.refreshPrompts(planId, plan);
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
      if (!note && ev.status !== 'refused') await this.noteThreads(record, noteMessage(this.cluster, outcome.text, 'error'));
    }
    if (!outcome) return;
    if (await this.approvals.markDone(planId, outcome)) {
      log.info({ ok: outcome.ok, outcome: outcome.text }, 'remediation finished');
      await this.refreshPrompts(planId, plan);
      await this.remediationLine(record, { ok: outcome.ok, text: outcome.text });
    }
  }
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
