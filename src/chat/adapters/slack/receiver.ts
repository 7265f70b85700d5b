// The Slack HTTP edge. Slash commands end here, in the shape of Bolt's HTTPReceiver but once:
// verified once (Bolt's verifySlackRequest, after a replay window that also bounds the future),
// parsed once, handed on as a typed command (./commands.ts) and acknowledged with its answer,
// which for a diagnosis comes once it is queued: nothing acknowledged waits in this process, so
// a bot killed mid-burst loses no command it answered. Bolt's own path (body parsing,
// middleware, listener) costs about half a millisecond per request, and a burst of a few hundred
// commands then queued for a hundred milliseconds or more. Everything else (buttons, modals, the
// Events API) goes to Bolt's receiver untouched.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HTTPReceiver, verifySlackRequest } from '@slack/bolt';
import { discard, readBody } from '../../../body.js';
import { answerCommand, type CommandEdge, type EphemeralBody, type Respond } from './commands.js';

/** Bolt's default body limit. */
const BODY_LIMIT = 4 * 1024 * 1024;

/** Slack's replay window for X-Slack-Request-Timestamp. */
const MAX_SKEW_SECONDS = 300;

/** X-Slack-Request-Timestamp within the replay window, past or future (Bolt bounds only the past). */
function freshTimestamp(timestamp: string | undefined, nowMs = Date.now()): timestamp is string {
  return !!timestamp && /^\d+$/.test(timestamp) && Math.abs(nowMs / 1000 - Number(timestamp)) <= MAX_SKEW_SECONDS;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? undefined : v;
}

/**
 * Why a request is not Slack's (Bolt's verifySlackRequest: v0 HMAC-SHA256 of `v0:<timestamp>:<body>`
 * with the signing secret, and not older than five minutes); undefined when it is.
 */
function signatureProblem(secret: string, body: string, signature: string | undefined, timestamp: string | undefined): string | undefined {
  if (!signature || !timestamp) return 'unsigned request (no x-slack-signature or x-slack-request-timestamp)';
  try {
    verifySlackRequest({ signingSecret: secret, body, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) } });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export interface ReceiverOptions extends CommandEdge {
  receiver: HTTPReceiver;
  signingSecret: string;
  path?: string;
}

/** POST a private answer to the command's response_url (valid for 30 minutes, five uses). */
function responder(url: string | null): Respond {
  return async (body: EphemeralBody) => {
    if (!url?.startsWith('http')) throw new Error('the command carries no response_url');
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`response_url answered HTTP ${res.status}`);
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, why: string): void {
  req.resume();
  res.writeHead(401, { 'content-type': 'text/plain' }).end(why);
}

export function receiveSlashCommands(o: ReceiverOptions): void {
  const bolt = o.receiver.requestListener;
  const path = o.path ?? '/slack/events';
  o.receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if (req.method !== 'POST' || (q < 0 ? url : url.slice(0, q)) !== path) {
      bolt(req, res);
      return;
    }
    // Bolt refuses old timestamps but accepts ones far in the future; refuse both here, before
    // the body is read or anything is handed on (a replayed or pre-signed request).
    const ts = header(req, 'x-slack-request-timestamp');
    const form = header(req, 'content-type') === 'application/x-www-form-urlencoded';
    // The Events API (JSON) may come without one; Bolt checks the rest of it.
    if (!freshTimestamp(ts) && (form || ts)) return refuse(req, res, 'stale or future request timestamp');
    if (!form) {
      bolt(req, res);
      return;
    }
    void readBody(req, BODY_LIMIT).then((read) => {
      if (!read.ok) {
        if (read.reason === 'too-large') {
          discard(req, BODY_LIMIT);
          res.writeHead(413).end();
        } else res.destroy();
        return;
      }
      const raw = read.body;
      const text = raw.toString('utf8');
      const params = new URLSearchParams(text);
      if (!params.has('command') || params.has('payload') || params.has('ssl_check')) {
        // Buttons and modals: Bolt reads the buffered body instead of the (consumed) stream.
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
        bolt(req, res);
        return;
      }
      const problem = signatureProblem(o.signingSecret, text, header(req, 'x-slack-signature'), ts);
      if (problem) return refuse(req, res, problem);
      const respond = responder(params.get('response_url'));
      const command = { text: params.get('text') ?? '', channel: params.get('channel_id') ?? '', user: params.get('user_id') ?? '' };
      void answerCommand(o, command, respond).then(
        (answer) => {
          // A known length: the answer goes out in one write (no chunked encoding).
          const body = JSON.stringify(answer.ack);
          res.writeHead(200, { 'content-length': Buffer.byteLength(body), 'content-type': 'application/json' }).end(body);
          void answer.follow?.().catch((err: unknown) => o.logger.error({ err, channel: command.channel }, 'slash command failed after its answer'));
        },
        (err: unknown) => {
          // A bug, not Redis (the answer says "try again" for that): Slack shows the person an error.
          o.logger.error({ err, channel: command.channel }, 'slash command failed');
          res.writeHead(500).end();
        },
      );
    });
  };
}
