// The one inbound edge of chat: every surface (Slack over HTTP or Socket Mode, Mattermost, the
// console) verifies and parses its own requests, then hands a command, a click or a deny reason
// here, once. Routing to a served cluster, the access policy, queueing and the flows are the
// same whatever the surface; the surface only renders the answer (an acknowledgement, a private
// reply) in its own format. `pod_doctor_chat_inbound_total{surface,kind}` counts each entry.
import type { Logger } from 'pino';
import type { ChatContext } from './context.js';
import { click, denyReason } from './flows/decisions.js';
import { diagnosisCommand, parseChatCommand } from './flows/requests.js';
import { type GroupActionOutcome, groupAction } from './flows/silences.js';
import type { ChatMetrics } from './metrics.js';
import { type ChatRouter, contextForClick, contextForPlan, contextForThread, routeCommand, singleCluster } from './router.js';
import type { ActionKind, ChatMessage, DecisionAction, GroupAction, MessageRef } from './types.js';

/** The chat surfaces an edge is entered from (metrics label, logs). */
export type Surface = 'slack' | 'mattermost' | 'console';

export interface ChatEdge {
  /** The default cluster's context; `router` picks among several served clusters. */
  chat: ChatContext;
  router?: ChatRouter;
  logger: Logger;
  metrics?: ChatMetrics;
}

/** A `/pod-doctor <text>` command, verified by its surface. */
export interface InboundCommand {
  surface: Surface;
  text: string;
  channel: string;
  user: string;
  /** Reaches the person privately after the acknowledgement (a thread that could not be opened). */
  respond(message: ChatMessage): Promise<void>;
}

export interface CommandAnswer {
  /** What the acknowledgement carries (the surface renders it as a private reply). */
  ack: ChatMessage;
  /** What follows the acknowledgement (a queued diagnosis' thread); absent when the answer is all. */
  follow?: () => Promise<unknown>;
}

/**
 * How long a diagnosis may take to be queued before its acknowledgement goes without it (Slack
 * waits three seconds for one from its side of the network; Mattermost waits longer).
 */
export const QUEUE_DEADLINE_MS = 2000;

export const DECISION_ACTIONS: readonly DecisionAction[] = ['approve', 'deny', 'rerun', 'writeup', 'not-a-problem'];
export const GROUP_ACTIONS: readonly GroupAction[] = ['silence-1h', 'silence-4h', 'silence-24h', 'unsilence', 'mute', 'unmute'];

export const isDecisionAction = (a: string): a is DecisionAction => (DECISION_ACTIONS as readonly string[]).includes(a);
export const isGroupAction = (a: string): a is GroupAction => (GROUP_ACTIONS as readonly string[]).includes(a);

/** A button click, verified and acknowledged by its surface. */
export interface InboundClick {
  surface: Surface;
  action: ActionKind;
  /** The button's value: an opaque server-side id (a plan, a thread, a mark). */
  value: string;
  user: string;
  /** The clicker's name when the surface tells it (a silence's author). */
  userName?: string;
  /** The channel the click came from. */
  channel?: string;
  /** A link to a message when the surface can make one (a silence's comment). */
  permalink?: (ref: MessageRef) => Promise<string | undefined>;
}

export type ClickAnswer =
  | { kind: 'done' }
  /** This click recorded a denial: the surface may ask why (Slack's modal), then call denyReasonOf. */
  | { kind: 'denied'; planId: string }
  | { kind: 'group'; outcome: GroupActionOutcome };

const routerOf = (edge: ChatEdge) => edge.router ?? singleCluster(edge.chat);

function entered(edge: ChatEdge, surface: Surface, kind: 'command' | 'click' | 'deny-reason'): void {
  edge.metrics?.inbound.inc({ surface, kind });
}

/**
 * The acknowledgement of a command: help, bad input or a refusal from the text alone; for a
 * diagnosis, only once it is queued (or why it is not: then nothing is promised).
 */
export async function answerCommand(edge: ChatEdge, command: InboundCommand): Promise<CommandAnswer> {
  entered(edge, command.surface, 'command');
  // `prod-eu:shop/web` names the cluster; an unknown one is answered here, and nothing is queued.
  const route = routeCommand(routerOf(edge), command.text, command.channel);
  if (route.kind === 'unknown') {
    route.ctx.options.metrics?.commands.inc({ outcome: 'bad-input' });
    edge.logger.info(
      { surface: command.surface, user: command.user, channel: command.channel, text: command.text.slice(0, 100) },
      'command for a cluster not served here',
    );
    return { ack: route.message };
  }
  const chat = route.ctx;
  const reply = parseChatCommand(chat, route.text, command.channel, command.user);
  if (reply.kind === 'reply') return { ack: reply.message };
  const outcome = await diagnosisCommand(
    chat,
    { channel: command.channel, user: command.user, target: reply.target, respond: (m) => command.respond(m) },
    QUEUE_DEADLINE_MS,
  );
  return { ack: outcome.message, ...(outcome.follow ? { follow: outcome.follow } : {}) };
}

/** A click on any of pod-doctor's buttons: decisions on fixes and threads, or an alert group's silence and mute. */
export async function answerClick(edge: ChatEdge, input: InboundClick): Promise<ClickAnswer> {
  entered(edge, input.surface, 'click');
  const router = routerOf(edge);
  const { action, value, user, channel } = input;
  if (isGroupAction(action)) {
    const outcome = await groupAction(await contextForThread(router, value), {
      action,
      value,
      user,
      ...(input.userName ? { userName: input.userName } : {}),
      ...(channel ? { channel } : {}),
      ...(input.permalink ? { permalink: input.permalink } : {}),
    });
    edge.logger.info(
      { surface: input.surface, action, user, channel, outcome: outcome.kind, ...('reason' in outcome ? { reason: outcome.reason } : {}) },
      'group action',
    );
    return { kind: 'group', outcome };
  }
  const ctx = await contextForClick(router, action, value);
  return click(ctx, { action, value, user, ...(channel ? { channel } : {}) });
}

/** Why a denier denied (optional; the denial itself is already recorded). */
export async function answerDenyReason(edge: ChatEdge, surface: Surface, planId: string, user: string, reason: string): Promise<void> {
  entered(edge, surface, 'deny-reason');
  await denyReason(await contextForPlan(routerOf(edge), planId), planId, user, reason);
}
