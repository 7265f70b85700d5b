// Slack over HTTP as a Bolt receiver (Bolt's `Receiver`: init(app), start(), stop()) that does not
// listen: it is a plain node:http handler the bot's server mounts at /slack/events (the server is
// the bot's, src/http/). Every request is verified once, here (a replay window that also bounds
// the future, then Bolt's verifySlackRequest), parsed once, and then:
// - a slash command is handed on as a typed command (./commands.ts) and acknowledged with its
//   answer, which for a diagnosis comes once it is queued: nothing acknowledged waits in this
//   process, so a bot killed mid-burst loses no command it answered. Bolt's own path (body parsing,
//   middleware, listener) costs about half a millisecond per request, and a burst of a few hundred
//   commands then queued for a hundred milliseconds or more;
// - everything else (buttons, the deny-reason modal, the Events API) becomes a ReceiverEvent for
//   app.processEvent, acknowledged through Bolt's HTTPResponseAck, as Bolt's HTTPReceiver does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type App,
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  HTTPResponseAck,
  type Receiver,
  type ReceiverEvent,
  verifySlackRequest,
} from '@slack/bolt';
import { z } from 'zod';
import { discard, readBody } from '../../../body.js';
import type { Route } from '../../../http/server.js';
import { answerCommand, type CommandEdge, type EphemeralBody, type Respond } from './commands.js';
import { slackLogger } from './web-client.js';

/** Bolt's default body limit. */
const BODY_LIMIT = HTTPModuleFunctions.defaultBodyLimit;

/** Slack's replay window for X-Slack-Request-Timestamp. */
const MAX_SKEW_SECONDS = 300;

export const EVENTS_PATH = '/slack/events';

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
function signatureProblem(secret: string, body: string, signature: string | undefined, timestamp: string): string | undefined {
  if (!signature) return 'unsigned request (no x-slack-signature or x-slack-request-timestamp)';
  try {
    verifySlackRequest({ signingSecret: secret, body, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) } });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
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

/** What Bolt gets: an object (a block_actions or view_submission payload, an Events API envelope). */
const boltBody = z.record(z.string(), z.unknown());

export interface SlackHttpReceiverOptions extends CommandEdge {
  signingSecret: string;
  /** Where the bot's server mounts the handler (default /slack/events). */
  path?: string;
}

export class SlackHttpReceiver implements Receiver {
  private app: App | undefined;
  private started = false;
  private readonly blog;
  /** The route the bot's server mounts: POST /slack/events. */
  readonly route: Route;

  constructor(private readonly o: SlackHttpReceiverOptions) {
    this.blog = slackLogger(o.logger);
    this.route = { method: 'POST', path: o.path ?? EVENTS_PATH, handler: (req, res) => this.handle(req, res) };
  }

  init(app: App): void {
    this.app = app;
  }

  /** Nothing to open: the bot's server listens. Events are dispatched from now on. */
  async start(): Promise<void> {
    this.started = true;
  }

  /** Events are refused (503, Slack retries) from now on; the bot's server closes itself. */
  async stop(): Promise<void> {
    this.started = false;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (!this.app || !this.started) {
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain' }).end('not serving Slack\n');
      return;
    }
    // Bolt refuses old timestamps but accepts ones far in the future; refuse both here, before
    // the body is read or anything is handed on (a replayed or pre-signed request).
    const ts = header(req, 'x-slack-request-timestamp');
    if (!freshTimestamp(ts)) {
      refuse(req, res, 'stale or future request timestamp');
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
      this.verified(req, res, ts, read.body);
    });
  }

  private verified(req: IncomingMessage, res: ServerResponse, ts: string, raw: Buffer): void {
    const text = raw.toString('utf8');
    const form = header(req, 'content-type') === 'application/x-www-form-urlencoded';
    const params = form ? new URLSearchParams(text) : undefined;
    // Slack's certificate check is not signed (as in Bolt, nothing of its body is used).
    if (params?.get('ssl_check') === '1') {
      HTTPModuleFunctions.buildSSLCheckResponse(res);
      return;
    }
    const problem = signatureProblem(this.o.signingSecret, text, header(req, 'x-slack-signature'), ts);
    if (problem) {
      refuse(req, res, problem);
      return;
    }
    if (params?.has('command') && !params.has('payload')) {
      this.command(res, params);
      return;
    }
    // Bolt's reading of the body (a form's `payload` is JSON), from the buffer read above.
    const buffered = Object.assign(req, { rawBody: raw }) as BufferedIncomingMessage;
    let body: z.infer<typeof boltBody>;
    try {
      body = boltBody.parse(HTTPModuleFunctions.parseHTTPRequestBody(buffered));
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed body\n');
      return;
    }
    if (body.type === 'url_verification') {
      HTTPModuleFunctions.buildUrlVerificationResponse(res, body);
      return;
    }
    void this.dispatch(buffered, res, body);
  }

  /** A slash command, acknowledged with the edge's answer (for a diagnosis: once queued). */
  private command(res: ServerResponse, params: URLSearchParams): void {
    const respond = responder(params.get('response_url'));
    const command = { text: params.get('text') ?? '', channel: params.get('channel_id') ?? '', user: params.get('user_id') ?? '' };
    void answerCommand(this.o, command, respond).then(
      (answer) => {
        // A known length: the answer goes out in one write (no chunked encoding).
        const body = JSON.stringify(answer.ack);
        res.writeHead(200, { 'content-length': Buffer.byteLength(body), 'content-type': 'application/json' }).end(body);
        void answer.follow?.().catch((err: unknown) => this.o.logger.error({ err, channel: command.channel }, 'slash command failed after its answer'));
      },
      (err: unknown) => {
        // A bug, not Redis (the answer says "try again" for that): Slack shows the person an error.
        this.o.logger.error({ err, channel: command.channel }, 'slash command failed');
        res.writeHead(500).end();
      },
    );
  }

  /** Everything else goes through Bolt's middleware and listeners, acknowledged as Bolt's HTTPReceiver does. */
  private async dispatch(req: BufferedIncomingMessage, res: ServerResponse, body: z.infer<typeof boltBody>): Promise<void> {
    const ack = new HTTPResponseAck({ logger: this.blog, processBeforeResponse: false, httpRequest: req, httpRequestBody: body, httpResponse: res });
    const event: ReceiverEvent = {
      body,
      ack: ack.bind(),
      // Slack's retries of an event it got no answer for (X-Slack-Retry-Num, X-Slack-Retry-Reason).
      retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
      retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
    };
    try {
      await this.app?.processEvent(event);
    } catch (error) {
      const handled = await HTTPModuleFunctions.defaultProcessEventErrorHandler({
        error: error as Error,
        logger: this.blog,
        request: req,
        response: res,
        storedResponse: ack.storedResponse,
      });
      if (handled) ack.ack();
    }
  }
}
