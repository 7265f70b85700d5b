// Alertmanager silences through its API v2: create one (`POST /api/v2/silences`) and expire it
// (`DELETE /api/v2/silence/{id}`). A small fetch client: every answer is validated with zod, each
// call has a deadline, and failures come back as SilenceError with what Alertmanager said.
// The chat side uses it through SilencePort (ChatOptions.silences), so tests and other media can
// put something else behind the same two calls.
import { z } from 'zod';

/** One label matcher of a silence (API v2 `matcher`); `isEqual: false` negates it (v0.22+). */
export const SilenceMatcher = z.object({
  name: z.string().min(1),
  value: z.string(),
  isRegex: z.boolean(),
  isEqual: z.boolean().default(true),
});
export type SilenceMatcher = z.infer<typeof SilenceMatcher>;

export const SilenceInput = z
  .object({
    matchers: z.array(SilenceMatcher).min(1, 'a silence needs at least one matcher'),
    startsAt: z.date(),
    endsAt: z.date(),
    createdBy: z.string().min(1).max(256),
    comment: z.string().min(1).max(4096),
  })
  .refine((s) => s.endsAt.getTime() > s.startsAt.getTime(), 'endsAt must be after startsAt');
export type SilenceInput = z.input<typeof SilenceInput>;

/** `GettableSilence`: a silence as Alertmanager lists it. */
export const Silence = z.object({
  id: z.string().min(1),
  status: z.object({ state: z.enum(['active', 'pending', 'expired']) }),
  updatedAt: z.string(),
  matchers: z.array(SilenceMatcher),
  startsAt: z.string(),
  endsAt: z.string(),
  createdBy: z.string(),
  comment: z.string(),
});
export type Silence = z.infer<typeof Silence>;

const Created = z.object({ silenceID: z.string().min(1) });

/** What expiring did: expired now (or already was), or Alertmanager does not know the id (garbage-collected). */
export type ExpireOutcome = 'expired' | 'not-found';

/** The two calls chat needs (ChatOptions.silences). */
export interface SilencePort {
  create(input: SilenceInput): Promise<{ id: string }>;
  expire(id: string): Promise<ExpireOutcome>;
}

export type SilenceAuth = { kind: 'bearer'; token: string } | { kind: 'basic'; username: string; password: string };

export interface SilenceClientOptions {
  /** Alertmanager's base URL, with its route prefix if it has one: `http://alertmanager:9093`. */
  url: string;
  auth?: SilenceAuth;
  /** Deadline of each call (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * `rejected`: Alertmanager refused the request (4xx: a bad matcher, times); `failed`: it answered
 * 5xx; `unreachable`/`timeout`: no answer; `bad-response`: an answer this client cannot read.
 */
export type SilenceErrorKind = 'rejected' | 'failed' | 'unreachable' | 'timeout' | 'bad-response';

export class SilenceError extends Error {
  constructor(
    readonly kind: SilenceErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SilenceError';
  }
}

/** Alertmanager's error bodies: a JSON string (`"Failed to create silence: …"`) or go-swagger's `{code, message}`. */
function errorText(body: string): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'string') text = parsed;
    else if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string')
      text = (parsed as { message: string }).message;
  } catch {
    // not JSON: the text as it came
  }
  text = text.trim();
  return text.length > 500 ? `${text.slice(0, 499)}…` : text || '(empty body)';
}

export class AlertmanagerSilences implements SilencePort {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SilenceClientOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/api/v2`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    if (json) h['content-type'] = 'application/json';
    const auth = this.options.auth;
    if (auth?.kind === 'bearer') h.authorization = `Bearer ${auth.token}`;
    else if (auth?.kind === 'basic') h.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    return h;
  }

  /** One call: the status and body text, or a SilenceError when there is no answer. */
  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const what = `${method} ${path}`;
    try {
      const res = await this.fetch(`${this.base}${path}`, {
        method,
        headers: this.headers(body !== undefined),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new SilenceError('timeout', `Alertmanager did not answer ${what} within ${this.timeoutMs} ms`, undefined, { cause: err });
      throw new SilenceError('unreachable', `Alertmanager unreachable (${what}): ${(err as Error)?.message ?? String(err)}`, undefined, { cause: err });
    }
  }

  private fail(what: string, status: number, text: string): never {
    const kind = status >= 500 ? 'failed' : status >= 400 ? 'rejected' : 'bad-response';
    throw new SilenceError(kind, `Alertmanager answered ${what} with ${status}: ${errorText(text)}`, status);
  }

  private parse<T>(schema: z.ZodType<T>, what: string, status: number, text: string): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SilenceError('bad-response', `Alertmanager answered ${what} with something not JSON: ${errorText(text)}`, status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new SilenceError('bad-response', `Alertmanager answered ${what} unexpectedly: ${parsed.error.issues[0]?.message ?? ''}`, status);
    return parsed.data;
  }

  async create(input: SilenceInput): Promise<{ id: string }> {
    const checked = SilenceInput.safeParse(input);
    if (!checked.success) throw new SilenceError('rejected', `not a valid silence: ${checked.error.issues.map((i) => i.message).join('; ')}`);
    const s = checked.data;
    const body = { matchers: s.matchers, startsAt: s.startsAt.toISOString(), endsAt: s.endsAt.toISOString(), createdBy: s.createdBy, comment: s.comment };
    const { status, text } = await this.call('POST', '/silences', body);
    if (status !== 200) this.fail('POST /silences', status, text);
    return { id: this.parse(Created, 'POST /silences', status, text).silenceID };
  }

  /**
   * Expire a silence. Expiring an expired one is fine (200); an id Alertmanager does not know is
   * `not-found` (404 from v0.27, 500 "silence not found" before).
   */
  async expire(id: string): Promise<ExpireOutcome> {
    const path = `/silence/${encodeURIComponent(id)}`;
    const { status, text } = await this.call('DELETE', path);
    if (status === 200) return 'expired';
    if (status === 404 || (status === 500 && /not found/i.test(errorText(text)))) return 'not-found';
    this.fail(`DELETE ${path}`, status, text);
  }

  /** One silence, or null when Alertmanager does not know it. */
  async get(id: string): Promise<Silence | null> {
    const path = `/silence/${encodeURIComponent(id)}`;
    const { status, text } = await this.call('GET', path);
    if (status === 404 || (status === 500 && /not found/i.test(errorText(text)))) return null;
    if (status !== 200) this.fail(`GET ${path}`, status, text);
    return this.parse(Silence, `GET ${path}`, status, text);
  }

  /** Every silence Alertmanager keeps (active, pending and recently expired). */
  async list(): Promise<Silence[]> {
    const { status, text } = await this.call('GET', '/silences');
    if (status !== 200) this.fail('GET /silences', status, text);
    return this.parse(z.array(Silence), 'GET /silences', status, text);
  }
}
