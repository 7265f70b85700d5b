// How the chat roles are built from the configuration object: the pieces the bot and the demo
// share, each made one way here (the chat context, the remediation port, Slack's approvers, the
// Slack adapter with its limiters), so a setting means the same in every role. Redis connections
// come from redis/client.ts (redisConnections), which the worker uses without loading any of this.
import type { Logger } from 'pino';
import { AlertmanagerSilences } from '../alerts/silences.js';
import { MattermostAdapter } from '../chat/adapters/mattermost/adapter.js';
import { MattermostClient } from '../chat/adapters/mattermost/api.js';
import { mattermostIds } from '../chat/adapters/mattermost/ids.js';
import { ACTIONS_PATH } from '../chat/adapters/mattermost/inbound.js';
import { SlackAdapter } from '../chat/adapters/slack/adapter.js';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { ChatLimiter } from '../chat/adapters/slack/limiter.js';
import { createSlackWebClient, type SlackApiMetrics } from '../chat/adapters/slack/web-client.js';
import { type ChatContext, type ChatOptions, createChatContext } from '../chat/context.js';
import { GroupLookupError } from '../chat/errors.js';
import type { ChatMetrics } from '../chat/metrics.js';
import { remediationPort } from '../chat/remediation.js';
import { ApproverPolicy } from '../chat/store/approvals.js';
import type { Config } from '../config/schema.js';
import type { RedisClient } from '../redis/client.js';
import type { Playbook } from '../remediation/schema.js';
import { RedisRunStore } from '../remediation/store.js';
import { chatIds } from './config.js';

/**
 * The chat side of a role: the configuration's access policy, approval and namespace settings and
 * alert channel (incident threads go where alert threads do), the given adapter and approvers.
 */
export function composeChat(
  config: Config,
  parts: Pick<ChatOptions, 'adapter' | 'redis' | 'queues' | 'cluster' | 'logger' | 'approvers'> &
    Partial<Pick<ChatOptions, 'rootUpdateIntervalMs' | 'placeholderMs' | 'deliveryRetryMs' | 'incidentChannel' | 'alertGroups' | 'metrics' | 'silences'>> & {
      playbooks: readonly Playbook[];
    },
): ChatContext {
  const { playbooks, ...rest } = parts;
  return createChatContext({
    ...(config.alertChannel ? { incidentChannel: config.alertChannel } : {}),
    ...(config.alertmanagerUrl
      ? {
          silences: new AlertmanagerSilences({
            url: config.alertmanagerUrl,
            ...(config.alertmanagerApiToken ? { auth: { kind: 'bearer' as const, token: config.alertmanagerApiToken } } : {}),
          }),
        }
      : {}),
    // Given parts win (the demo's simulated Alertmanager silences).
    ...rest,
    policy: config.policy,
    auditRetentionMs: config.auditRetentionDays * 86_400_000,
    requireDifferentApprover: config.requireDifferentApprover,
    approvalTtlSeconds: config.approvalTtlSeconds,
    notAProblemDays: config.notAProblemDays,
    defaultNamespaces: config.defaultNamespaces,
    // Plans are read from Redis: chat renders and approves, the worker runs them.
    remediation: remediationPort(new RedisRunStore(parts.redis, parts.cluster, parts.queues.prefix), playbooks),
  });
}

/** Whoever resolves a surface's user groups (its adapter). */
interface GroupSource {
  groupMembers(group: string): Promise<string[]>;
}

/**
 * The approvers from the configuration (users and user groups of the served surfaces), each group
 * resolved through its own surface: Slack's S… by usergroups.users.list, Mattermost's
 * `group:<id>` by its members.
 */
export function chatApprovers(
  config: Config,
  surfaces: { slack?: GroupSource; mattermost?: GroupSource },
  logger: Logger,
  metrics?: ChatMetrics,
): ApproverPolicy {
  const source = (g: string) => (slackIds.isGroup(g) ? surfaces.slack : mattermostIds.isGroup(g) ? surfaces.mattermost : undefined);
  return new ApproverPolicy({
    approvers: config.approvers,
    ids: chatIds(config),
    resolveGroup: (g) => source(g)?.groupMembers(g) ?? Promise.reject(new GroupLookupError(g, 'unknown', 'no served chat surface has this group')),
    cacheMs: config.usergroupCacheSeconds * 1000,
    logger,
    ...(metrics ? { metrics } : {}),
  });
}

/**
 * The Slack adapter: WebClient (SLACK_API_URL, short retries, every call counted in `metrics`)
 * under Slack's limits as shared budgets in Redis (posts per channel, Tier 3 updates, Tier 4
 * ephemeral replies); a 429 pauses the budget it hit, for every process.
 */
export function composeSlackAdapter(
  config: Config,
  parts: { token: string; redis: RedisClient; prefix: string; logger: Logger; metrics?: SlackApiMetrics },
): SlackAdapter {
  const client = createSlackWebClient(parts.token, {
    slackApiUrl: config.slackApiUrl,
    logger: parts.logger.child({ component: 'slack-web-api' }),
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
  });
  return new SlackAdapter({
    client,
    limiter: new ChatLimiter(parts.redis, parts.prefix, { ratePerSecond: config.chatPostsPerSecond, burst: config.chatBurst }),
    // Slack's Tier 3 for chat.update: about 50 a minute; stay under it with a small burst.
    updateLimiter: new ChatLimiter(parts.redis, parts.prefix, { ratePerSecond: config.chatUpdatesPerMinute / 60, burst: 10 }),
    // Tier 4 for chat.postEphemeral: about 100 a minute.
    ephemeralLimiter: new ChatLimiter(parts.redis, parts.prefix, { ratePerSecond: 100 / 60, burst: 20 }),
    logger: parts.logger,
  });
}

/**
 * The Mattermost adapter: the REST API v4 with the bot token, under the server's per-token limit
 * (MATTERMOST_REQUESTS_PER_SECOND; Mattermost's default is 10) as a budget every process shares,
 * posts paced per channel like Slack's (POD_DOCTOR_CHAT_POSTS_PER_SECOND, POD_DOCTOR_CHAT_BURST).
 * Its buttons post to <POD_DOCTOR_PUBLIC_URL>/mattermost/actions with a context signed by
 * MATTERMOST_ACTION_SECRET.
 */
export function composeMattermostAdapter(
  config: Config,
  parts: { redis: RedisClient; prefix: string; logger: Logger; metrics?: Pick<ChatMetrics, 'mattermostCalls'> },
): MattermostAdapter {
  // Checked by the bot's configuration check (checkChatConfig) before this is built.
  const url = config.mattermostUrl ?? '';
  const client = new MattermostClient({
    url,
    token: config.mattermostBotToken ?? '',
    budget: new ChatLimiter(parts.redis, parts.prefix, {
      ratePerSecond: config.mattermostRequestsPerSecond,
      burst: Math.max(1, Math.round(config.mattermostRequestsPerSecond * 2)),
    }),
    ...(parts.metrics ? { onCall: (c: { method: string; route: string; status: string }) => parts.metrics?.mattermostCalls.inc(c) } : {}),
  });
  return new MattermostAdapter({
    client,
    render: {
      actionsUrl: `${(config.publicUrl ?? '').replace(/\/+$/, '')}${ACTIONS_PATH}`,
      actionSecret: config.mattermostActionSecret ?? '',
      serverUrl: url,
    },
    limiter: new ChatLimiter(parts.redis, parts.prefix, { ratePerSecond: config.chatPostsPerSecond, burst: config.chatBurst }),
    logger: parts.logger.child({ component: 'mattermost' }),
  });
}
