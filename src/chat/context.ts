// The chat side of a bot: what the flows share (the options, the stores, the parent-message pacer),
// built once and handed to each flow. There is no façade: an adapter calls the flows a person sets
// off, the bot's stream readers the flows a result sets off, each with this context:
//   flows/requests.ts    commands and re-run buttons → diagnosis jobs and their threads
//   flows/decisions.ts   clicks: approve / deny / re-run, and a denial's reason
//   flows/delivery.ts    results → the threads that asked for them; alert-started ones to
//                        flows/alerts.ts (Alertmanager group threads) or flows/incidents.ts
//   flows/prompts.ts     offered plans → approval records and prompts
//   flows/run-events.ts  remediation run events → thread messages
//   flows/parents.ts     thread parents, rendered from state and paced (`parents.start/settle`)
// Nothing here blocks an acknowledgement: adapters ack first and call in afterwards.
import type { Logger } from 'pino';
import type { Policy } from '../access/policy.js';
import type { SilencePort } from '../alerts/silences.js';
import type { JobQueues } from '../jobs/queues.js';
import type { RedisClient } from '../redis/client.js';
import { defaultNamespaceFor } from './command.js';
import { chatErrorCode } from './errors.js';
import { ExpectedAnswers } from './flows/expected.js';
import { ParentMessages, type ParentMessagesOptions } from './flows/parents.js';
import { DeliveryDropped, untilDelivered } from './flows/retry.js';
import { noteMessage, type ThreadState } from './messages/messages.js';
import type { ChatMetrics } from './metrics.js';
import type { RemediationPort } from './remediation.js';
import { ApprovalStore, type ApproverPolicy } from './store/approvals.js';
import { DeliveryLog, ThreadStore } from './store/threads.js';
import type { ChatAdapter, MessageRef } from './types.js';

export type { ThreadState } from './messages/messages.js';

export interface ChatOptions {
  adapter: ChatAdapter;
  /** Producer connection (never a blocking one). */
  redis: RedisClient;
  queues: JobQueues;
  cluster: string;
  logger: Logger;
  approvers: ApproverPolicy;
  /** Who may diagnose and approve what, per channel, user group and namespace (the config file's `policy`). */
  policy?: Policy;
  /**
   * Alertmanager silences made from an alert group's thread (Silence 1h/4h/24h, Unsilence:
   * flows/silences.ts). Without it group threads offer Mute only.
   */
  silences?: SilencePort;
  /** How long the audit trail keeps decisions (POD_DOCTOR_AUDIT_RETENTION_DAYS; default 30 days). */
  auditRetentionMs?: number;
  requireDifferentApprover?: boolean;
  approvalTtlSeconds?: number;
  /** How long a Not a problem mark holds (POD_DOCTOR_NOT_A_PROBLEM_DAYS; default 30 days). */
  notAProblemDays?: number;
  /** Channel id (or `*`) → namespace of a bare `<pod>`. */
  defaultNamespaces?: Readonly<Record<string, string>>;
  /** Without it findings show their playbook but offer no buttons. */
  remediation?: RemediationPort;
  /** Incident threads for results nobody asked for in chat (alerts without their own route). */
  incidentChannel?: string;
  /**
   * Alert-started results go to their Alertmanager group's thread (src/chat/alerts.ts), which
   * the alert-groups stream opens; without it, to incident threads in `incidentChannel` (set from the configuration's alertChannel).
   * `listed`: alerts listed per notification in the thread, the rest counted (default 10).
   */
  alertGroups?: { listed?: number };
  /** Findings per diagnosis that get a plan (the highest ranked). */
  maxOffers?: number;
  metrics?: ChatMetrics;
  now?: () => number;
  /**
   * At most one update of a parent message this often (default 3000 ms): a storm changes a
   * group's parent hundreds of times, Slack allows about 50 chat.update calls a minute.
   */
  rootUpdateIntervalMs?: number;
  /** Retry and sweep settings of parent updates (tests shorten them). */
  parentUpdates?: Partial<Pick<ParentMessagesOptions, 'backoffMs' | 'maxBackoffMs' | 'sweepMs' | 'staleMs' | 'concurrency' | 'maxPending'>>;
  /**
   * A command's thread opens with the findings when they come within this many ms (one post,
   * no update); only a slower diagnosis gets a "diagnosing…" parent first (default 2000; 0: at once).
   */
  placeholderMs?: number;
  /**
   * How long a result's messages are retried through transient errors, from when the result was
   * written (default 300 000; POD_DOCTOR_CHAT_RETRY_SECONDS). Then it is reported as not delivered.
   */
  deliveryRetryMs?: number;
}

export interface ChatContext {
  readonly options: ChatOptions;
  readonly cluster: string;
  /** Producer connection, and the key prefix of everything chat keeps in Redis. */
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly adapter: ChatAdapter;
  readonly log: Logger;
  readonly now: () => number;
  readonly threads: ThreadStore<ThreadState>;
  readonly approvals: ApprovalStore;
  readonly deliveries: DeliveryLog;
  readonly parents: ParentMessages;
  readonly expected: ExpectedAnswers;
}

export function createChatContext(options: ChatOptions): ChatContext {
  const prefix = options.queues.prefix;
  const threads = new ThreadStore<ThreadState>(options.redis, prefix);
  const log = options.logger.child({ component: 'chat', medium: options.adapter.medium, cluster: options.cluster });
  const now = options.now ?? Date.now;
  return {
    options,
    cluster: options.cluster,
    redis: options.redis,
    prefix,
    adapter: options.adapter,
    log,
    now,
    threads,
    approvals: new ApprovalStore(options.redis, prefix),
    deliveries: new DeliveryLog(options.redis, prefix),
    expected: new ExpectedAnswers(),
    parents: new ParentMessages({ threads, adapter: options.adapter, log, now, intervalMs: options.rootUpdateIntervalMs ?? 3000, ...options.parentUpdates }),
  };
}

export function defaultNamespace(ctx: ChatContext, channel: string): string | undefined {
  return defaultNamespaceFor(ctx.options.defaultNamespaces ?? {}, channel, ctx.options.policy);
}

/** How long a private reply to a click or command is retried through transient errors. */
const REPLY_RETRY_MS = 60_000;

/**
 * A note only `user` sees, retried through transient errors for up to a minute (the click or
 * command was already acknowledged); a failure after that, or one that cannot change, is logged.
 */
export async function tell(
  ctx: ChatContext,
  channel: string | undefined,
  user: string,
  text: string,
  tone: Parameters<typeof noteMessage>[2] = 'warning',
  thread?: MessageRef,
): Promise<void> {
  if (!channel) return;
  await replyPrivately(ctx, 'private reply', () => ctx.adapter.ephemeral(channel, user, noteMessage(ctx.cluster, text, tone), thread), channel);
}

/**
 * Send a private reply (an ephemeral message, or a post to a command's response_url), retried
 * through transient errors for up to `withinMs`; a give-up is counted and logged, never thrown.
 */
export async function replyPrivately(ctx: ChatContext, what: string, send: () => Promise<void>, channel?: string, withinMs = REPLY_RETRY_MS): Promise<void> {
  const until = Date.now() + Math.min(withinMs, ctx.options.deliveryRetryMs ?? withinMs);
  await untilDelivered({ adapter: ctx.adapter, log: ctx.log, what, ...(channel ? { channel } : {}) }, { until }, send).catch((err: unknown) => {
    ctx.options.metrics?.deliveriesDropped.inc({ reason: err instanceof DeliveryDropped ? err.reason : 'expired' });
    ctx.log.warn({ err, code: chatErrorCode(err) }, `${what} failed`);
  });
}
