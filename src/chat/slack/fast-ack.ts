// Slash commands are answered before Bolt runs. Bolt's HTTP path (body parsing, middleware,
// listener) costs about half a millisecond per request; a burst of a few hundred commands then
// queues for a hundred milliseconds or more. The answer to a command needs no I/O (bad input and
// help are answered from the text alone), so for a correctly signed command the HTTP response
// is written at once, and the same request is handed to Bolt right after (its command listener
// then does the work, with a no-op ack). Everything else, and anything not correctly signed,
// goes to Bolt untouched: Bolt answers 401 for bad signatures and old timestamps.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, HTTPReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ChatMetrics } from '../metrics.js';
import type { ChatService } from '../service.js';
import type { ChatMessage } from '../types.js';
import { renderSingle } from './blocks/render.js';

/** Marks requests already answered (Bolt puts custom properties into the listener's context). */
export const ACKED = 'podDoctorAcked';

/** Bolt's default body limit. */
const BODY_LIMIT = 4 * 1024 * 1024;
/** Work waits while requests arrived within this many ms… */
const QUIET_MS = 3;
/** …but never longer than this. */
const MAX_DEFER_MS = 250;

export function ephemeralBody(m: ChatMessage) {
  const r = renderSingle(m);
  return { response_type: 'ephemeral' as const, text: r.text, blocks: r.blocks as never };
}

/** Slack's replay window for X-Slack-Request-Timestamp. */
const MAX_SKEW_SECONDS = 300;

/**
 * Slack's request signature (v0 HMAC-SHA256 of `v0:<timestamp>:<body>`), compared in constant
 * time, with the five-minute replay window. Only decides whether a command takes the fast path:
 * anything that fails goes to Bolt, which checks again and answers 401. (Bolt's own check
 * compares through tsscmp, whose random HMAC keys cost more than the rest of an answer.)
 */
export function validSlackSignature(secret: string, body: string, signature: string | undefined, timestamp: string | undefined, nowMs = Date.now()): boolean {
  if (!signature?.startsWith('v0=') || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? undefined : v;
}

export interface FastAckOptions {
  receiver: HTTPReceiver;
  app: App;
  signingSecret: string;
  service: ChatService;
  logger: Logger;
  metrics?: ChatMetrics;
  path?: string;
}

export function ackSlashCommandsFirst(o: FastAckOptions): void {
  const bolt = o.receiver.requestListener;
  const path = o.path ?? '/slack/events';
  // Answered commands wait here for Bolt while requests keep arriving (a burst is answered
  // first, its work follows), at most MAX_DEFER_MS; then one per turn of the event loop.
  const handoffs: { fn: () => void; at: number }[] = [];
  let lastArrival = 0;
  let scheduled = false;
  const schedule = (ms: number) => {
    scheduled = true;
    if (ms > 0) setTimeout(drain, ms);
    else setImmediate(drain);
  };
  const drain = () => {
    scheduled = false;
    const now = performance.now();
    const head = handoffs[0];
    if (!head) return;
    if (now - lastArrival < QUIET_MS && now - head.at < MAX_DEFER_MS) return schedule(QUIET_MS);
    handoffs.shift()?.fn();
    if (handoffs.length > 0) schedule(0);
  };
  const handOff = (fn: () => void) => {
    handoffs.push({ fn, at: performance.now() });
    if (!scheduled) schedule(0);
  };
  o.receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if (req.method !== 'POST' || (q < 0 ? url : url.slice(0, q)) !== path) {
      bolt(req, res);
      return;
    }
    if (header(req, 'content-type') !== 'application/x-www-form-urlencoded') {
      // Events API (JSON): only the timestamp window is ours to check; Bolt does the rest.
      const ts = header(req, 'x-slack-request-timestamp');
      if (ts && /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) > MAX_SKEW_SECONDS) {
        req.resume();
        res.writeHead(401, { 'content-type': 'text/plain' }).end('stale or future request timestamp');
        return;
      }
      bolt(req, res);
      return;
    }
    // Bolt refuses old timestamps but accepts ones far in the future; refuse both here, before
    // the body is read or anything is handed on (a replayed or pre-signed request).
    const ts = header(req, 'x-slack-request-timestamp');
    if (!ts || !/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > MAX_SKEW_SECONDS) {
      req.resume();
      res.writeHead(401, { 'content-type': 'text/plain' }).end('stale or future request timestamp');
      return;
    }
    lastArrival = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (tooLarge) {
        res.writeHead(413).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      // Bolt reads a buffered body from here instead of the (consumed) stream.
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
      const text = raw.toString('utf8');
      const params = new URLSearchParams(text);
      const command = params.has('command') && !params.has('payload') && !params.has('ssl_check');
      if (!command || !validSlackSignature(o.signingSecret, text, header(req, 'x-slack-signature'), header(req, 'x-slack-request-timestamp'))) {
        bolt(req, res);
        return;
      }
      const started = performance.now();
      const reply = o.service.command(params.get('text') ?? '', params.get('channel_id') ?? '');
      // A known length: the answer goes out in one write (no chunked encoding).
      const answer = JSON.stringify(ephemeralBody(reply.kind === 'reply' ? reply.message : reply.ack));
      res.writeHead(200, { 'content-length': Buffer.byteLength(answer), 'content-type': 'application/json' }).end(answer);
      o.metrics?.ackSeconds.observe({ kind: 'command' }, (performance.now() - started) / 1000);
      // Help and bad input are fully answered; only a diagnosis has work left for Bolt's listener.
      if (reply.kind === 'reply') return;
      handOff(() => {
        const retry = header(req, 'x-slack-retry-num');
        const reason = header(req, 'x-slack-retry-reason');
        o.app
          .processEvent({
            body: Object.fromEntries(params),
            ack: async () => undefined,
            ...(retry ? { retryNum: Number(retry) } : {}),
            ...(reason ? { retryReason: reason } : {}),
            customProperties: { [ACKED]: true },
          })
          .catch((err: unknown) => o.logger.error({ err }, 'slash command failed after its answer'));
      });
    });
  };
}
