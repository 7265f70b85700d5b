// The /pod-doctor slash command in Slack's shape, the same in both Slack modes (the HTTP receiver
// and Bolt's Socket Mode listener call it once per command): the command goes through the chat
// edge (../../edge.ts: routing, policy, queueing, the same for every surface), and its answers
// are rendered as Slack's private replies (the acknowledgement's body, or a POST to response_url).
import { answerCommand as answerAtEdge, type ChatEdge } from '../../edge.js';
import type { ChatMessage } from '../../types.js';
import { renderSingle } from './blocks/render.js';

export { QUEUE_DEADLINE_MS } from '../../edge.js';

/** A slash command as Slack sends it, verified. */
export interface SlashCommand {
  text: string;
  channel: string;
  user: string;
}

/** A private answer (the acknowledgement's body, or a POST to response_url). */
export interface EphemeralBody {
  response_type: 'ephemeral';
  text: string;
  blocks: never;
}

export type Respond = (body: EphemeralBody) => Promise<void>;

export interface CommandAnswer {
  /** What the acknowledgement carries. */
  ack: EphemeralBody;
  /** What follows the acknowledgement (a queued diagnosis' thread); absent when the answer is all. */
  follow?: () => Promise<unknown>;
}

export type CommandEdge = ChatEdge;

export function ephemeralBody(m: ChatMessage): EphemeralBody {
  const r = renderSingle(m);
  return { response_type: 'ephemeral', text: r.text, blocks: r.blocks as never };
}

/** The acknowledgement of a Slack command (../../edge.ts answerCommand), in Slack's shape; ack time observed. */
export async function answerCommand(edge: CommandEdge, command: SlashCommand, respond: Respond): Promise<CommandAnswer> {
  const started = performance.now();
  const answer = await answerAtEdge(edge, { surface: 'slack', ...command, respond: (m) => respond(ephemeralBody(m)) });
  edge.metrics?.ackSeconds.observe({ kind: 'command' }, (performance.now() - started) / 1000);
  return { ack: ephemeralBody(answer.ack), ...(answer.follow ? { follow: answer.follow } : {}) };
}
