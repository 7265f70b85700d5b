// Chat metrics, registered in the process' registry next to the job metrics.
import { Counter, Histogram, type Registry } from 'prom-client';

export interface ChatMetrics {
  commands: Counter<'outcome'>;
  /** Commands, clicks and deny reasons entering the chat edge (src/chat/edge.ts), by surface. */
  inbound: Counter<'surface' | 'kind'>;
  /** Slash command received → acknowledged (what Slack's 3-second limit is about). */
  ackSeconds: Histogram<'kind'>;
  decisions: Counter<'decision'>;
  findingsPosted: Counter;
  /** Results (or replies) given up on: `undeliverable` (an error that cannot change) or `expired` (transient errors past the retry budget). */
  deliveriesDropped: Counter<'reason'>;
  /** Every Slack Web API HTTP call (a retry is another call) by method and status: the HTTP status, or "error" when no answer came. */
  slackCalls: Counter<'method' | 'status'>;
  /** Every Mattermost REST API call (a retry is another call) by method, route template and HTTP status ("error": no answer). */
  mattermostCalls: Counter<'method' | 'route' | 'status'>;
  /** Slack's own errors (HTTP 200 with ok: false) by method and Slack's error code. */
  slackErrors: Counter<'method' | 'error'>;
  /** User group lookups that failed with nothing fresh cached (their members are refused meanwhile), by how. */
  groupLookupFailures: Counter<'failure'>;
}

export function createChatMetrics(registry: Registry): ChatMetrics {
  return {
    commands: new Counter({
      name: 'pod_doctor_chat_commands_total',
      help:
        'Chat commands by outcome: queued, joined (an open job for the same target), bad-input, refused (access policy), unverified (refused: ' +
        'a user group could not be looked up), unavailable (not queued: Redis down, frozen or not confirming; told to try again).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    inbound: new Counter({
      name: 'pod_doctor_chat_inbound_total',
      help: 'Commands, button clicks and deny reasons that entered the chat edge, by surface (slack, mattermost, console) and kind.',
      labelNames: ['surface', 'kind'] as const,
      registers: [registry],
    }),
    ackSeconds: new Histogram({
      name: 'pod_doctor_chat_ack_seconds',
      help: 'Time from a Slack request reaching a listener to its acknowledgement.',
      labelNames: ['kind'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 3],
      registers: [registry],
    }),
    decisions: new Counter({
      name: 'pod_doctor_chat_decisions_total',
      help: 'Approval decisions: approve, deny, refused (not an approver), unverified (refused: an approver user group could not be looked up).',
      labelNames: ['decision'] as const,
      registers: [registry],
    }),
    findingsPosted: new Counter({ name: 'pod_doctor_chat_findings_posted_total', help: 'Diagnoses posted to chat threads.', registers: [registry] }),
    deliveriesDropped: new Counter({
      name: 'pod_doctor_chat_deliveries_dropped_total',
      help:
        "Chat deliveries given up on, by reason: undeliverable (Slack's answer cannot change: is_archived, msg_too_long, not_in_channel…) or " +
        'expired (transient errors past POD_DOCTOR_CHAT_RETRY_SECONDS). Each is reported on its thread or to the person.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    slackCalls: new Counter({
      name: 'pod_doctor_slack_api_calls_total',
      help: 'Slack Web API calls (each retry too) by method and HTTP status ("error": no answer, e.g. a network failure or timeout).',
      labelNames: ['method', 'status'] as const,
      registers: [registry],
    }),
    mattermostCalls: new Counter({
      name: 'pod_doctor_mattermost_api_calls_total',
      help: 'Mattermost REST API v4 calls (each retry too) by method, route (/posts/{id}/patch) and HTTP status ("error": no answer).',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    slackErrors: new Counter({
      name: 'pod_doctor_slack_api_errors_total',
      help: "Slack Web API answers with ok: false (HTTP 200) by method and Slack's error code (e.g. channel_not_found).",
      labelNames: ['method', 'error'] as const,
      registers: [registry],
    }),
    groupLookupFailures: new Counter({
      name: 'pod_doctor_usergroup_lookup_failures_total',
      help:
        'Slack user group lookups (usergroups.users.list) that failed with no members cached within POD_DOCTOR_USERGROUP_CACHE_SECONDS, by failure: ' +
        'platform (ok: false), http (5xx after retries), rate-limited (429 after retries), network, unknown. Everyone whose right depends on the ' +
        'group is refused until it resolves.',
      labelNames: ['failure'] as const,
      registers: [registry],
    }),
  };
}
