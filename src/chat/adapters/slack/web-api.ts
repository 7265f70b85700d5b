// The bot's own caller for the few Web API methods it uses on every diagnosis (chat.postMessage,
// chat.update, chat.postEphemeral): one JSON POST over a keep-alive agent. WebClient does the
// same call with a debug dump of every body, a queue, a retry wrapper and a WHATWG Response in
// between, about half of the bot's CPU per message in a burst (see docs/slack.md). Errors have
// WebClient's shapes, so callers treat both alike: `code` from ErrorCode, `data.error` for
// platform errors, `retryAfter` (seconds) for 429s.
import http from 'node:http';
import https from 'node:https';
import { ErrorCode } from '@slack/web-api';

export interface SlackApiOptions {
  token: string;
  /** Base URL, `https://slack.com/api/` by default (GovSlack: `https://slack-gov.com/api/`). */
  apiUrl?: string;
  /** Attempts for network errors and 5xx answers (429s are the caller's: it pauses the channel). */
  attempts?: number;
  /** Backoff before the second attempt; doubled each time. */
  retryDelayMs?: number;
  timeoutMs?: number;
}

export type SlackApiResult = Record<string, unknown> & { ok: true; channel?: string; ts?: string };

/** What WebClient throws, with the same fields. */
export class SlackApiError extends Error {
  readonly data?: Record<string, unknown>;
  readonly retryAfter?: number;
  readonly statusCode?: number;
  readonly original?: unknown;

  constructor(
    message: string,
    readonly code: ErrorCode,
    extra: { data?: Record<string, unknown>; retryAfter?: number; statusCode?: number; original?: unknown } = {},
  ) {
    super(message);
    this.name = 'SlackApiError';
    Object.assign(this, extra);
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class SlackApi {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly auth: string;
  private readonly attempts: number;
  private readonly retryDelayMs: number;
  private readonly timeoutMs: number;

  constructor(options: SlackApiOptions) {
    const base = options.apiUrl ?? 'https://slack.com/api/';
    this.base = new URL(base.endsWith('/') ? base : `${base}/`);
    // Idle sockets close after 4 s, before a server's usual keep-alive limit closes them under us.
    const agentOptions = { keepAlive: true, timeout: 4_000 };
    this.agent = this.base.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.auth = `Bearer ${options.token}`;
    this.attempts = options.attempts ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Call `method` with a JSON body; resolves with the answer when `ok`, else throws SlackApiError. */
  async call(method: string, args: Record<string, unknown>): Promise<SlackApiResult> {
    const url = new URL(method, this.base);
    const body = JSON.stringify(args);
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.post(url, body);
      } catch (err) {
        if (attempt < this.attempts) {
          await this.backoff(attempt);
          continue;
        }
        throw new SlackApiError(`A request error occurred: ${err instanceof Error ? err.message : String(err)}`, ErrorCode.RequestError, { original: err });
      }
      if (answer.status === 429) {
        const retryAfter = Number.parseInt(String(answer.headers['retry-after'] ?? ''), 10);
        throw new SlackApiError(`A rate limit was exceeded (url: ${method}, retry-after: ${retryAfter})`, ErrorCode.RateLimitedError, {
          retryAfter: Number.isFinite(retryAfter) ? retryAfter : 1,
        });
      }
      if (answer.status >= 500 && attempt < this.attempts) {
        await this.backoff(attempt);
        continue;
      }
      if (answer.status !== 200)
        throw new SlackApiError(`An HTTP protocol error occurred: statusCode = ${answer.status}`, ErrorCode.HTTPError, { statusCode: answer.status });
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(answer.body) as Record<string, unknown>;
      } catch (err) {
        throw new SlackApiError(`A request error occurred: ${method} answered with something other than JSON`, ErrorCode.RequestError, { original: err });
      }
      if (data.ok !== true) throw new SlackApiError(`An API error occurred: ${String(data.error)}`, ErrorCode.PlatformError, { data });
      return data as SlackApiResult;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private backoff(attempt: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** (attempt - 1)));
  }

  private post(url: URL, body: string): Promise<Answer> {
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(url, {
        method: 'POST',
        agent: this.agent,
        timeout: this.timeoutMs,
        headers: { authorization: this.auth, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}
