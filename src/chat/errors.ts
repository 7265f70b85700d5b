// Slack platform errors by code: which ones retrying will not fix, so a delivery is dropped
// (and reported) instead of retried. Everything else is transient: retried with backoff for a
// bounded time (flows/retry.ts). `invalid_auth` comes and goes with Slack incidents and token
// rotations; `channel_not_found` right after a working post is the same kind of blip.
const PERMANENT_CHAT_ERRORS = new Set([
  'not_in_channel',
  'is_archived',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'restricted_action',
  'team_access_not_granted',
  'msg_too_long',
  'invalid_blocks',
  'no_text',
  'user_not_in_channel',
  // chat.update of a parent or prompt that can no longer change.
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
]);

/** A channel the bot has never posted to answering `channel_not_found` is not a blip: it does not exist. */
const PERMANENT_UNLESS_SEEN = new Set(['channel_not_found']);

export function chatErrorCode(err: unknown): string | undefined {
  return (err as { data?: { error?: string } })?.data?.error;
}

/**
 * Whether retrying cannot help. `channelWorked`: a post to that channel succeeded recently, so its
 * `channel_not_found` is transient.
 */
export function isPermanentChatError(err: unknown, channelWorked = false): boolean {
  const code = chatErrorCode(err);
  if (code === undefined) return false;
  return PERMANENT_CHAT_ERRORS.has(code) || (PERMANENT_UNLESS_SEEN.has(code) && !channelWorked);
}

/**
 * How a user group lookup failed: Slack answered `ok: false` (`platform`, e.g. missing_scope),
 * an HTTP error after the client's retries (`http`, a 5xx), 429 after ours (`rate-limited`), or
 * no answer at all (`network`, a timeout); `unknown` for anything else.
 */
export type GroupLookupFailure = 'platform' | 'http' | 'rate-limited' | 'network' | 'unknown';

/** A user group's members could not be looked up; whoever's right depends on it is refused until it resolves. */
export class GroupLookupError extends Error {
  constructor(
    readonly group: string,
    readonly failure: GroupLookupFailure,
    /** Slack's error code or the HTTP status, for the log. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`user group ${group} lookup failed (${failure}: ${detail})`, options);
    this.name = 'GroupLookupError';
  }
}
