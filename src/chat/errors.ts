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
