// The /pod-doctor slash command, the same in both Slack modes (the HTTP receiver and Bolt's
// Socket Mode listener call it once per command). Help, bad input and the channel's refusal need
// no I/O; a diagnosis is acknowledged only once it is queued in Redis (a bot killed after the
// acknowledgement loses nothing it promised), within QUEUE_DEADLINE_MS, or the acknowledgement
// says why not and to try again. Its thread follows; what goes wrong with it later reaches the
// person privately (Slack's response_url).
import type { Logger } from 'pino';
import type { ChatContext } from '../../context.js';
import { diagnosisCommand, parseChatCommand } from '../../flows/requests.js';
import type { ChatMetrics } from '../../metrics.js';
import { type ChatRouter, routeCommand, singleCluster } from '../../router.js';
import type { ChatMessage } from '../../types.js';
import { renderSingle } from './blocks/render.js';

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

/**
 * How long a diagnosis may take to be queued before its acknowledgement goes without it (Slack
 * waits three seconds for one, from its side of the network).
 */
export const QUEUE_DEADLINE_MS = 2000;

export interface CommandEdge {
  /** The default cluster's context; `router` picks among several served clusters. */
  chat: ChatContext;
  router?: ChatRouter;
  logger: Logger;
  metrics?: ChatMetrics;
}

export function ephemeralBody(m: ChatMessage): EphemeralBody {
  const r = renderSingle(m);
  return { response_type: 'ephemeral', text: r.text, blocks: r.blocks as never };
}

/**
 * The acknowledgement of a command: help, bad input or a refusal from the text alone; for a
 * diagnosis, only once it is queued (or why it is not: then nothing is promised). `respond`
 * reaches the person privately later (a thread that cannot be opened).
 */
export async function answerCommand(edge: CommandEdge, command: SlashCommand, respond: Respond): Promise<CommandAnswer> {
  const started = performance.now();
  const acked = (answer: CommandAnswer) => {
    edge.metrics?.ackSeconds.observe({ kind: 'command' }, (performance.now() - started) / 1000);
    return answer;
  };
  // `prod-eu:shop/web` names the cluster; an unknown one is answered here, and nothing is queued.
  const route = routeCommand(edge.router ?? singleCluster(edge.chat), command.text, command.channel);
  if (route.kind === 'unknown') {
    route.ctx.options.metrics?.commands.inc({ outcome: 'bad-input' });
    edge.logger.info({ user: command.user, channel: command.channel, text: command.text.slice(0, 100) }, 'command for a cluster not served here');
    return acked({ ack: ephemeralBody(route.message) });
  }
  const chat = route.ctx;
  const reply = parseChatCommand(chat, route.text, command.channel, command.user);
  if (reply.kind === 'reply') return acked({ ack: ephemeralBody(reply.message) });
  const outcome = await diagnosisCommand(
    chat,
    { channel: command.channel, user: command.user, target: reply.target, respond: (m) => respond(ephemeralBody(m)) },
    QUEUE_DEADLINE_MS,
  );
  return acked({ ack: ephemeralBody(outcome.message), ...(outcome.follow ? { follow: outcome.follow } : {}) });
}
