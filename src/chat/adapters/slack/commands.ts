// The /pod-doctor slash command, the same in both Slack modes (the HTTP receiver and Bolt's
// Socket Mode listener call it once per command). Its answer needs no I/O — help, bad input, or
// "Diagnosing …", or the access policy's refusal — and goes back in the acknowledgement; a
// diagnosis then starts, and if it cannot (or the policy refuses it once the person's user
// groups are looked up), the person hears why privately (Slack's response_url).
import type { Logger } from 'pino';
import { ReplicationError } from '../../../redis/replication.js';
import { AccessRefused } from '../../access.js';
import type { ChatContext } from '../../context.js';
import { parseChatCommand, startDiagnosis } from '../../flows/requests.js';
import { noteMessage } from '../../messages/messages.js';
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
  /** The work after the acknowledgement (a diagnosis to start); absent when the answer is all. */
  work?: (respond: Respond) => Promise<void>;
}

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

export function answerCommand(edge: CommandEdge, command: SlashCommand): CommandAnswer {
  const started = performance.now();
  // `prod-eu:shop/web` names the cluster; an unknown one is answered here, and nothing is queued.
  const route = routeCommand(edge.router ?? singleCluster(edge.chat), command.text, command.channel);
  if (route.kind === 'unknown') {
    route.ctx.options.metrics?.commands.inc({ outcome: 'bad-input' });
    edge.logger.info({ user: command.user, channel: command.channel, text: command.text.slice(0, 100) }, 'command for a cluster not served here');
  }
  const chat = route.ctx;
  const reply =
    route.kind === 'unknown' ? ({ kind: 'reply', message: route.message } as const) : parseChatCommand(chat, route.text, command.channel, command.user);
  const answer: CommandAnswer = { ack: ephemeralBody(reply.kind === 'reply' ? reply.message : reply.ack) };
  edge.metrics?.ackSeconds.observe({ kind: 'command' }, (performance.now() - started) / 1000);
  if (reply.kind === 'reply') return answer;
  answer.work = async (respond) => {
    try {
      await startDiagnosis(chat, {
        channel: command.channel,
        user: command.user,
        target: reply.target,
        respond: (m) => respond(ephemeralBody(m)),
      });
    } catch (err) {
      // Refused by the access policy: the person was told privately, and that is all.
      if (err instanceof AccessRefused) return;
      edge.logger.error({ err, user: command.user, channel: command.channel }, 'slash command failed after its answer');
      const why =
        err instanceof ReplicationError
          ? 'Redis did not confirm the diagnosis was stored safely (failover?).'
          : 'Something went wrong queueing the diagnosis (Redis unreachable?).';
      await respond(ephemeralBody(noteMessage(chat.cluster, `${why} Try again in a moment.`, 'error'))).catch(() => undefined);
    }
  };
  return answer;
}
