// Slack's Web API through @slack/web-api's WebClient (the one Bolt uses), set up once for the
// adapter's client and Bolt's: SLACK_API_URL, short retries and timeouts for a bot that answers
// within seconds, and every HTTP call counted (pod_doctor_slack_api_calls_total, each retry too;
// pod_doctor_slack_api_errors_total for Slack's own errors). Counting sits in WebClient's `fetch`
// option, the one place every attempt passes, whichever client (ours or Bolt's) made it.
import { type FetchFunction, LogLevel, type RetryOptions, type Logger as SlackLogger, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChatMetrics } from '../../metrics.js';

export type SlackApiMetrics = Pick<ChatMetrics, 'slackCalls' | 'slackErrors'>;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;

/**
 * Network errors and 5xx answers are tried twice more, after about 0.25 s and 0.5 s (WebClient's
 * default is ten tries over half an hour). Parent updates and posts retry longer above this, with
 * the Redis-backed state that survives a restart.
 */
export const SLACK_RETRY = { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 1000, randomize: true } satisfies RetryOptions;
/** Per attempt: Slack answers in well under a second, a hung connection is given up on. */
const TIMEOUT_MS = 5000;

export interface SlackClientOptions {
  slackApiUrl: string;
  logger: Logger;
  metrics?: SlackApiMetrics;
  /** Per attempt (default 5000 ms). */
  timeoutMs?: number;
}

/** Slack's logger interface (Bolt's and WebClient's) over pino: they log strings. */
export function slackLogger(logger: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const text = (msg: unknown[]) => msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  return {
    // WebClient logs every request body at debug: skip the text when nobody reads it.
    debug: (...msg: unknown[]) => {
      if (logger.isLevelEnabled('debug')) logger.debug(text(msg));
    },
    info: (...msg: unknown[]) => logger.info(text(msg)),
    warn: (...msg: unknown[]) => logger.warn(text(msg)),
    error: (...msg: unknown[]) => logger.error(text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** WebClient options for every client of the bot (Bolt's `clientOptions` too). */
export function slackClientOptions(o: SlackClientOptions): WebClientOptions {
  return {
    slackApiUrl: o.slackApiUrl,
    logger: slackLogger(o.logger),
    retryConfig: SLACK_RETRY,
    timeout: TIMEOUT_MS,
    ...(o.metrics ? { fetch: countingFetch(o.slackApiUrl, o.metrics) } : {}),
  };
}

/**
 * The chat adapter's client. A 429 is handed to the adapter at once (rejectRateLimitedCalls):
 * it pauses only that channel's budget (or the chat.update one), in Redis for every process, and
 * asks again when it is that post's turn. WebClient's own wait would pause this client's whole
 * queue, every channel, in this process only, and its retry would skip the channel's budget.
 */
export function createSlackWebClient(token: string, o: SlackClientOptions): WebClient {
  // No retries of its own either: a post tried again after a timeout may be a second message;
  // the adapter retries, and looks for the first one before it posts again.
  return new WebClient(token, {
    ...slackClientOptions(o),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    ...(o.timeoutMs ? { timeout: o.timeoutMs } : {}),
  });
}

const PlatformError = z.object({ ok: z.literal(false), error: z.string() });
/** Slack's error codes are short snake_case words; anything else would be an unbounded label. */
const ERROR_CODE = /^[a-z0-9_]{1,64}$/;

/** The error code of an `ok: false` answer; undefined for anything else. */
function platformError(body: string): string | undefined {
  // Most answers are ok: true; parse only the ones that may not be.
  if (!/"ok"\s*:\s*false/.test(body)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const r = PlatformError.safeParse(parsed);
  if (!r.success) return undefined;
  return ERROR_CODE.test(r.data.error) ? r.data.error : 'other';
}

/**
 * fetch that counts each Web API call (URLs under `slackApiUrl`; response_url posts and file
 * uploads pass uncounted) by method and HTTP status, "error" when no answer came. A 200's body
 * is looked at as WebClient reads it: `ok: false` also counts its error code.
 */
export function countingFetch(slackApiUrl: string, metrics: SlackApiMetrics, base: FetchFunction = (url, init) => fetch(url, init)): FetchFunction {
  const prefix = slackApiUrl.endsWith('/') ? slackApiUrl : `${slackApiUrl}/`;
  return async (url, init) => {
    const href = String(url);
    if (!href.startsWith(prefix)) return base(url, init);
    const method = href.slice(prefix.length).split('?')[0] ?? '';
    let res: FetchResponse;
    try {
      res = await base(url, init);
    } catch (err) {
      metrics.slackCalls.inc({ method, status: 'error' });
      throw err;
    }
    metrics.slackCalls.inc({ method, status: String(res.status) });
    if (res.status !== 200) return res;
    const text = async () => {
      const body = await res.text();
      const error = platformError(body);
      if (error) metrics.slackErrors.inc({ method, error });
      return body;
    };
    return {
      ok: res.ok,
      status: res.status,
      statusText: res.statusText,
      url: res.url,
      headers: res.headers,
      arrayBuffer: () => res.arrayBuffer(),
      json: async () => JSON.parse(await text()) as unknown,
      text,
    };
  };
}
