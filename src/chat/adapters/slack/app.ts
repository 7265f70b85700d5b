// Bolt wiring: the buttons (decisions on fixes; an alert group thread's silence and mute) and the
// deny-reason modal, and in Socket Mode the /pod-doctor command (over HTTP the receiver answers
// commands itself: ./receiver.ts). Every button listener acknowledges first (Slack gives three
// seconds) and only then calls into the chat flows; a command is acknowledged once its diagnosis
// is queued (./commands.ts). Bolt owns no HTTP server: over HTTP its receiver is a route of the
// bot's server (src/http/), and Socket Mode's receiver only dials out.
import { App, type Authorize, type AuthorizeResult, type BlockAction, type App as BoltApp, type ButtonAction, SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { bounded } from '../../../bounded.js';
import { PodDoctorError } from '../../../errors.js';
import type { Route } from '../../../http/server.js';
import type { ChatContext } from '../../context.js';
import { answerClick, answerDenyReason, type ChatEdge, DECISION_ACTIONS, GROUP_ACTIONS } from '../../edge.js';
import type { ChatMetrics } from '../../metrics.js';
import type { ChatRouter } from '../../router.js';
import type { MessageRef } from '../../types.js';
import { actionIdPattern, actionOf } from './blocks/render.js';
import { answerCommand } from './commands.js';
import { SlackHttpReceiver } from './receiver.js';
import { slackClientOptions, slackLogger } from './web-client.js';

export interface SlackBotOptions {
  mode: 'http' | 'socket';
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  slackApiUrl: string;
  /** The default cluster's context; `router` finds a command's or a click's among several served clusters. */
  chat: ChatContext;
  router?: ChatRouter;
  logger: Logger;
  /** Also counts the Web API calls of Bolt's client (views.open, chat.getPermalink…). */
  metrics?: ChatMetrics;
}

export interface SlackBot {
  app: BoltApp;
  /** What the bot's server mounts: POST /slack/events over HTTP, nothing in Socket Mode. */
  routes: readonly Route[];
  /** Socket Mode's link to Slack: `ok`, `connecting` or why it failed (HTTP mode: always `ok`). */
  slack(): string;
  /** Settles with the reason when Socket Mode could not connect at all (a bad app token): the bot ends, to be restarted. */
  readonly failed: Promise<Error>;
  stop(): Promise<void>;
}

export const DENY_REASON_CALLBACK = 'pd_deny_reason';

/** chat.getPermalink is quick (Tier 4); a silence never waits long for its link. */
const PERMALINK_TIMEOUT_MS = 3000;

/** The modal that asks a denier why (optional): the denial is already recorded, this only adds the reason. */
function denyReasonView(planId: string): Parameters<BoltApp['client']['views']['open']>[0]['view'] {
  return {
    type: 'modal',
    callback_id: DENY_REASON_CALLBACK,
    private_metadata: planId,
    title: { type: 'plain_text', text: 'Why deny this fix?' },
    submit: { type: 'plain_text', text: 'Record reason' },
    close: { type: 'plain_text', text: 'Skip' },
    blocks: [
      {
        type: 'input',
        block_id: 'reason',
        optional: true,
        label: { type: 'plain_text', text: 'Reason (posted in the thread)' },
        element: { type: 'plain_text_input', action_id: 'reason', multiline: true, max_length: 500 },
      },
    ],
  };
}

/**
 * Bolt's listeners: the buttons and the deny-reason modal, and in Socket Mode the slash command
 * (over HTTP the command is answered by receiveSlashCommands before Bolt sees it).
 */
function registerListeners(app: BoltApp, o: SlackBotOptions, logger: Logger): void {
  const edge: ChatEdge = { chat: o.chat, ...(o.router ? { router: o.router } : {}), logger, ...(o.metrics ? { metrics: o.metrics } : {}) };
  const { metrics } = o;

  if (o.mode === 'socket') {
    app.command(/^\/pod-doctor/, async ({ command, ack, respond }) => {
      // Acknowledged once the diagnosis is queued (or with why not), as over HTTP.
      const answer = await answerCommand(edge, { text: command.text, channel: command.channel_id, user: command.user_id }, async (body) => {
        await respond(body);
      });
      await ack(answer.ack);
      await answer.follow?.();
    });
  }

  // One listener for every button (each click acknowledged once), handled at the chat edge.
  const actions = actionIdPattern([...DECISION_ACTIONS, ...GROUP_ACTIONS]);
  app.action({ action_id: actions }, async ({ ack, body, action, client }) => {
    const started = performance.now();
    await ack();
    metrics?.ackSeconds.observe({ kind: 'action' }, (performance.now() - started) / 1000);
    const b = body as BlockAction;
    const a = action as ButtonAction;
    const kind = actionOf(a.action_id);
    if (!kind) return;
    // The thread's link for a silence's comment; without one (no answer in time, an error) the flow names channel and ts.
    const permalink = async (ref: MessageRef): Promise<string | undefined> => {
      const asked = await bounded(PERMALINK_TIMEOUT_MS, async () => (await client.chat.getPermalink({ channel: ref.channel, message_ts: ref.ts })).permalink);
      if (asked.status === 'failed') logger.debug({ err: asked.error, channel: ref.channel }, 'chat.getPermalink failed');
      return asked.status === 'done' ? asked.value : undefined;
    };
    const name = b.user.username ?? b.user.name;
    try {
      const out = await answerClick(edge, {
        surface: 'slack',
        action: kind,
        value: a.value ?? '',
        user: b.user.id,
        ...(name ? { userName: name } : {}),
        ...(b.channel?.id ? { channel: b.channel.id } : {}),
        permalink,
      });
      if (out.kind === 'denied' && b.trigger_id) {
        // The denial is already recorded (who, when); the modal only adds why.
        await client.views
          .open({
            trigger_id: b.trigger_id,
            view: denyReasonView(out.planId),
          })
          .catch((err: unknown) => logger.warn({ err, planId: out.planId }, 'could not open the deny reason dialog'));
      }
    } catch (err) {
      logger.error({ err, action: kind, user: b.user.id }, 'button handler failed');
    }
  });

  app.view(DENY_REASON_CALLBACK, async ({ ack, view, body }) => {
    await ack();
    const reason = view.state.values.reason?.reason?.value ?? '';
    try {
      await answerDenyReason(edge, 'slack', view.private_metadata, body.user.id, reason);
    } catch (err) {
      logger.error({ err, user: body.user.id }, 'recording the deny reason failed');
    }
  });

  app.error(async (err) => {
    logger.error({ err: { message: err.message, code: err.code } }, 'bolt error');
  });
}

/**
 * The bot token's identity (auth.test) for Bolt. Bolt's own, for a `token`, asks once when the
 * App is made and keeps that promise: when Slack does not answer then, the rejection is unhandled
 * (the process exits) and every later event fails with it. This one keeps an answer, forgets a
 * failure so the next event asks again, and is warmed at start without being waited for.
 */
function botAuthorization(botToken: string, app: () => BoltApp, logger: Logger): Authorize<boolean> {
  let held: Promise<AuthorizeResult> | undefined;
  return () => {
    if (held) return held;
    const asked = app()
      .client.auth.test({ token: botToken })
      .then((r) => ({ botToken, botId: r.bot_id, botUserId: r.user_id, teamId: r.team_id, enterpriseId: r.enterprise_id }));
    held = asked;
    asked.catch((err: unknown) => {
      if (held === asked) held = undefined;
      logger.warn({ err }, 'Slack did not confirm the bot token (auth.test); asking again with the next event');
    });
    return asked;
  };
}

export async function startSlackBot(o: SlackBotOptions): Promise<SlackBot> {
  const logger = o.logger.child({ component: 'slack' });
  const authorize = botAuthorization(o.botToken, () => app, logger);
  const blog = slackLogger(logger);
  // Bolt's client waits out a 429 itself (a click's dialog or link; chat posts go through the adapter).
  const clientOptions = slackClientOptions({ slackApiUrl: o.slackApiUrl, logger, ...(o.metrics ? { metrics: o.metrics } : {}) });
  let app: BoltApp;
  let routes: Route[] = [];
  if (o.mode === 'socket') {
    if (!o.appToken) throw new PodDoctorError('BAD_CONFIG', 'Socket Mode needs SLACK_APP_TOKEN');
    // No custom routes and no installer: the receiver opens no HTTP server of its own.
    const receiver = new SocketModeReceiver({ appToken: o.appToken, logger: blog, installerOptions: { clientOptions } });
    app = new App({ authorize, receiver, socketMode: true, clientOptions, logger: blog, convoStore: false });
  } else {
    if (!o.signingSecret) throw new PodDoctorError('BAD_CONFIG', 'HTTP mode needs SLACK_SIGNING_SECRET');
    const receiver = new SlackHttpReceiver({
      signingSecret: o.signingSecret,
      chat: o.chat,
      ...(o.router ? { router: o.router } : {}),
      logger,
      ...(o.metrics ? { metrics: o.metrics } : {}),
    });
    app = new App({ authorize, receiver, clientOptions, logger: blog, convoStore: false });
    routes = [receiver.route];
  }
  registerListeners(app, o, logger);
  void authorize({ isEnterpriseInstall: false, teamId: undefined, enterpriseId: undefined }).catch(() => undefined);

  let slack = 'ok';
  let fail!: (err: Error) => void;
  const failed = new Promise<Error>((resolve) => (fail = resolve));
  if (o.mode === 'http') {
    await app.start();
  } else {
    // The WebSocket to Slack is not waited for (Slack down or slow must not hold the bot's start;
    // its server listens without waiting for it): /readyz says `slack: connecting` until it is up.
    slack = 'connecting';
    app.start().then(
      () => {
        slack = 'ok';
        logger.info('connected to Slack (Socket Mode)');
      },
      (err: unknown) => {
        slack = `not connected (${err instanceof Error ? err.message : String(err)})`;
        logger.error({ err }, 'Socket Mode could not connect to Slack');
        fail(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }
  logger.info({ mode: o.mode }, 'slack app started');
  return {
    app,
    routes,
    slack: () => slack,
    failed,
    stop: async () => {
      await app.stop().catch((err: unknown) => logger.warn({ err }, 'slack app stop failed'));
    },
  };
}
