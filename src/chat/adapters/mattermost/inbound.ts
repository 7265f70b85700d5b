// Mattermost's inbound edge: plain node:http handlers for the bot's server to mount.
// POST /mattermost/command: the /pod-doctor slash command (a form; its `token` must be one of the
// configured command tokens, compared in constant time), answered with an ephemeral reply once
// the chat edge (../../edge.ts) has queued the diagnosis or said why not. POST /mattermost/actions:
// a button click (JSON; its integration context must carry a MAC pod-doctor made: Mattermost does
// not sign integration requests), answered at once, then handed to the edge, whose flows update
// the posts through the API. Bodies are read within a limit; bad input is a 4xx without details.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { discard, readBody } from '../../../body.js';
import type { RouteHandler } from '../../../http/server.js';
import { answerClick, answerCommand, answerDenyReason, type ChatEdge, isDecisionAction, isGroupAction } from '../../edge.js';
import type { ActionKind } from '../../types.js';
import type { MattermostAdapter } from './adapter.js';
import { mattermostIds } from './ids.js';
import { actionMac, threadUrl, verifyActionMac } from './render.js';

export const COMMAND_PATH = '/mattermost/command';
export const ACTIONS_PATH = '/mattermost/actions';
export const DIALOGS_PATH = '/mattermost/dialogs';
/** The deny-reason dialog's callback id. */
export const DENY_REASON_CALLBACK = 'pd_deny_reason';

/** A slash command's form or a click's JSON is a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;

export interface MattermostInboundOptions extends ChatEdge {
  adapter: MattermostAdapter;
  /** The slash command's tokens (one per team). */
  commandTokens: readonly string[];
  /** The key of the buttons' MACs. */
  actionSecret: string;
  /** The server's base URL (a silence's link to its thread). */
  serverUrl: string;
  /** <publicUrl>/mattermost/dialogs: where the deny-reason dialog is submitted. */
  dialogsUrl: string;
}

const id = z.string().refine((s) => mattermostIds.isUser(s), 'expected a Mattermost id');

const CommandForm = z.object({ token: z.string().min(1), text: z.string().max(4000).default(''), channel_id: id, user_id: id });

const DialogSubmission = z.object({
  callback_id: z.string(),
  state: z.string().max(3000),
  user_id: id,
  cancelled: z.boolean().default(false),
  submission: z.object({ reason: z.string().max(500).nullish() }).nullish(),
});

const ActionRequest = z.object({
  user_id: id,
  user_name: z.string().max(64).optional(),
  channel_id: id.optional(),
  post_id: z.string().optional(),
  trigger_id: z.string().max(200).optional(),
  context: z.object({ action: z.string().max(32), value: z.string().min(1).max(2000), mac: z.string().max(100) }),
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function refuse(res: ServerResponse, status: 400 | 401 | 403 | 405 | 413, why: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(`${why}\n`);
}

/** Whether `token` is one of `tokens`, compared in constant time (digests, so lengths never tell). */
export function knownToken(tokens: readonly string[], token: string): boolean {
  const got = createHash('sha256').update(token).digest();
  let found = false;
  for (const t of tokens) found = timingSafeEqual(createHash('sha256').update(t).digest(), got) || found;
  return found;
}

/** The body of a POST within the limit, else the request answered (405, 413, or dropped). */
async function body(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  if (req.method !== 'POST') {
    req.resume();
    refuse(res, 405, 'method not allowed');
    return undefined;
  }
  const read = await readBody(req, BODY_LIMIT);
  if (read.ok) return read.body.toString('utf8');
  if (read.reason === 'too-large') {
    discard(req, BODY_LIMIT);
    refuse(res, 413, 'body too large');
  } else res.destroy();
  return undefined;
}

/** POST /mattermost/command. */
export function mattermostCommandHandler(o: MattermostInboundOptions): RouteHandler {
  return (req, res) =>
    void (async () => {
      const text = await body(req, res);
      if (text === undefined) return;
      const form = CommandForm.safeParse(Object.fromEntries(new URLSearchParams(text)));
      // The token first: a request without a known one learns nothing about what else is wrong.
      const token = new URLSearchParams(text).get('token') ?? '';
      if (!knownToken(o.commandTokens, token)) return refuse(res, 401, 'unknown slash command token');
      if (!form.success) return refuse(res, 400, 'bad slash command request');
      const { channel_id: channel, user_id: user } = form.data;
      const started = performance.now();
      try {
        const out = await answerCommand(o, {
          surface: 'mattermost',
          text: form.data.text,
          channel,
          user,
          respond: (m) => o.adapter.ephemeral(channel, user, m),
        });
        const ack = await o.adapter.renderOne(out.ack);
        o.metrics?.ackSeconds.observe({ kind: 'command' }, (performance.now() - started) / 1000);
        answer(res, 200, { response_type: 'ephemeral', text: ack.message, ...(ack.props.attachments ? { props: ack.props } : {}) });
        void out.follow?.().catch((err: unknown) => o.logger.error({ err, channel }, 'slash command failed after its answer'));
      } catch (err) {
        o.logger.error({ err, channel }, 'slash command failed');
        answer(res, 500, { response_type: 'ephemeral', text: 'pod-doctor failed to take this command; try again.' });
      }
    })();
}

/** A JSON body that `schema` accepts, else the request answered (400 and why; 405, 413 or dropped by body()). */
async function jsonBody<T>(req: IncomingMessage, res: ServerResponse, schema: z.ZodType<T>, what: string): Promise<T | undefined> {
  const text = await body(req, res);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    refuse(res, 400, 'bad JSON');
    return undefined;
  }
  const checked = schema.safeParse(parsed);
  if (checked.success) return checked.data;
  refuse(res, 400, `bad ${what}`);
  return undefined;
}

/** POST /mattermost/actions. */
export function mattermostActionsHandler(o: MattermostInboundOptions): RouteHandler {
  return (req, res) =>
    void (async () => {
      const click = await jsonBody(req, res, ActionRequest, 'action request');
      if (!click) return;
      const { action, value, mac } = click.context;
      if (!verifyActionMac(o.actionSecret, action, value, mac)) return refuse(res, 403, 'unknown action context');
      if (!isDecisionAction(action) && !isGroupAction(action)) return refuse(res, 400, 'unknown action');
      const started = performance.now();
      // Answered at once (Mattermost waits for it); the flows post and update through the API.
      answer(res, 200, {});
      o.metrics?.ackSeconds.observe({ kind: 'action' }, (performance.now() - started) / 1000);
      const { user_id: user, user_name: userName, channel_id: channel } = click;
      try {
        const out = await answerClick(o, {
          surface: 'mattermost',
          action: action satisfies ActionKind,
          value,
          user,
          ...(userName ? { userName } : {}),
          ...(channel ? { channel } : {}),
          permalink: async (ref) => threadUrl(o.serverUrl, ref),
        });
        // The denial is recorded (who, when); the dialog only asks why (optional), as Slack's modal does.
        if (out.kind === 'denied' && click.trigger_id) await openDenyReason(o, click.trigger_id, out.planId);
      } catch (err) {
        o.logger.error({ err, action, user }, 'button handler failed');
      }
    })();
}

/** The dialog that asks a denier why; its state is the plan and a MAC, so only a dialog pod-doctor opened is accepted back. */
async function openDenyReason(o: MattermostInboundOptions, triggerId: string, planId: string): Promise<void> {
  const dialog = {
    callback_id: DENY_REASON_CALLBACK,
    title: 'Why deny this fix?',
    submit_label: 'Record reason',
    state: `${planId} ${actionMac(o.actionSecret, DENY_REASON_CALLBACK, planId)}`,
    elements: [{ display_name: 'Reason (posted in the thread)', name: 'reason', type: 'textarea', optional: true, max_length: 500 }],
  };
  await o.adapter.client
    .openDialog(triggerId, o.dialogsUrl, dialog)
    .catch((err: unknown) => o.logger.warn({ err, planId }, 'could not open the deny reason dialog'));
}

/** POST /mattermost/dialogs: a deny reason submitted (optional; a cancelled dialog records nothing). */
export function mattermostDialogsHandler(o: MattermostInboundOptions): RouteHandler {
  return (req, res) =>
    void (async () => {
      const submitted = await jsonBody(req, res, DialogSubmission, 'dialog submission');
      if (!submitted) return;
      if (submitted.callback_id !== DENY_REASON_CALLBACK) return refuse(res, 400, 'bad dialog submission');
      const [planId = '', mac = ''] = submitted.state.split(' ');
      if (!verifyActionMac(o.actionSecret, DENY_REASON_CALLBACK, planId, mac)) return refuse(res, 403, 'unknown dialog state');
      answer(res, 200, {});
      const reason = submitted.submission?.reason?.trim();
      if (submitted.cancelled || !reason) return;
      await answerDenyReason(o, 'mattermost', planId, submitted.user_id, reason).catch((err: unknown) =>
        o.logger.error({ err, user: submitted.user_id }, 'recording the deny reason failed'),
      );
    })();
}
