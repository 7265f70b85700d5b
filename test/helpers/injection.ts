// Hostile chat text and a check for live Slack control sequences, shared by the injection tests.

/** Every form Slack would turn into a mention, a broadcast or a disguised link. */
export const HOSTILE = [
  '<@U0EVIL1>',
  '<@W0EVIL2|boss>',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S0EVIL3>',
  '<#C0EVIL4>',
  '<https://evil.example/x|click me>',
  '<mailto:a@evil.example|mail>',
];

/** Anything in a rendered payload that Slack parses as a control sequence, except our own mentions. */
export function liveControls(payload: unknown, allowedUsers: string[] = []): string[] {
  const text = JSON.stringify(payload);
  return [...text.matchAll(/<([@!#][^>]*|https?:[^>]*|mailto:[^>]*)>/g)].map((m) => m[0]).filter((m) => !allowedUsers.some((u) => m === `<@${u}>`));
}
