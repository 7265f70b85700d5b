// Slack platform errors by code: which ones retrying will not fix, so a delivery is dropped
// (and logged) instead of redelivered forever.
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
  // chat.update of a parent or prompt that can no longer change.
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
]);

export function chatErrorCode(err: unknown): string | undefined {
  return (err as { data?: { error?: string } })?.data?.error;
}

export function isPermanentChatError(err: unknown): boolean {
  const code = chatErrorCode(err);
  return code !== undefined && PERMANENT_CHAT_ERRORS.has(code);
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
