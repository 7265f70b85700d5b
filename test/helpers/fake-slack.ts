// A local stand-in for the Slack Web API (the methods pod-doctor calls) plus helpers to send
// correctly signed requests to a bot, as Slack would. Calls are recorded; messages are kept
// with their updates applied; a method can be told to answer 429 with Retry-After. Messages
// are checked against Block Kit limits like Slack does: a violation is answered with
// `invalid_blocks` and counted in `rejected`.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { checkSlackMessage } from '../../src/chat/adapters/slack/blocks/limits.js';
import type { SlackBlock } from '../../src/chat/adapters/slack/blocks/render.js';

export interface FakeCall {
  method: string;
  args: Record<string, unknown>;
  token?: string;
  at: number;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks: SlackBlock[];
  /** Versions before the latest update, oldest first. */
  history: { text: string; blocks: SlackBlock[] }[];
  postedAt: number;
  updatedAt?: number;
  /** Message metadata as posted (`event_type`, `event_payload`). */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Files shared with this message (files.completeUploadExternal). */
  files?: FakeFile[];
}

/** A file uploaded (files.getUploadURLExternal + the upload) and shared (files.completeUploadExternal). */
export interface FakeFile {
  id: string;
  filename: string;
  title?: string;
  content: string;
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
}

export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string;
  blocks: SlackBlock[];
  thread_ts?: string;
  at: number;
}

export interface FakeSlackOptions {
  /** user group id → member user ids (usergroups.users.list). */
  groups?: Record<string, string[]>;
  /** user id → display name (users.info); other ids answer `user_not_found`. */
  users?: Record<string, string>;
  /** Channels chat.postMessage refuses with `not_in_channel`. */
  closedChannels?: string[];
  botUserId?: string;
  /**
   * Enforce Slack's documented per-method limits (SLACK_LIMITS), answering 429 with Retry-After.
   */
  enforceLimits?: boolean;
}

/**
 * Slack's published limits (api.slack.com/docs/rate-limits) as token buckets. Slack gives rates
 * and says bursts are "short" or "sporadic" without a number; the bursts here are the strict
 * reading, so a bot that passes here passes there.
 *   chat.postMessage   special: "1 per second" per channel, "short bursts >1 allowed"
 *   chat.update        Tier 3: "50+ per minute", workspace-wide
 *   chat.postEphemeral Tier 4: "100+ per minute", workspace-wide
 */
export const SLACK_LIMITS: Record<string, { perSecond: number; burst: number; scope: 'channel' | 'workspace' }> = {
  'chat.postMessage': { perSecond: 1, burst: 3, scope: 'channel' },
  'chat.update': { perSecond: 50 / 60, burst: 10, scope: 'workspace' },
  'chat.postEphemeral': { perSecond: 100 / 60, burst: 20, scope: 'workspace' },
};

/** Slack's Socket Mode side: `apps.connections.open` hands out this WebSocket. */
export interface FakeSocket {
  /** Resolves when an app is connected (after `hello`). */
  connected(): Promise<void>;
  /** Sends an envelope (`slash_commands`, `interactive`, …) and resolves with the app's ack. */
  send(type: string, payload: Record<string, unknown>): Promise<{ envelope_id: string; payload?: unknown; at: number }>;
  connections: number;
}

export interface FakeSlack {
  url: string;
  /** SLACK_API_URL for the bot: `<url>/api/`. */
  apiUrl: string;
  calls: FakeCall[];
  messages: FakeMessage[];
  ephemerals: FakeEphemeral[];
  /** Files uploaded, shared or not (a share sets channel and thread_ts). */
  files: FakeFile[];
  /** Bodies posted to response_url (`<url>/respond/<id>`). */
  responses: { id: string; body: Record<string, unknown>; at: number }[];
  rejected: { method: string; problems: string[] }[];
  /** Calls answered 429 because of `enforceLimits`. */
  throttled: { method: string; channel?: string; at: number }[];
  /** Calls per method (answered or throttled). */
  callsByMethod(): Record<string, number>;
  /** The next `count` calls of `method` answer HTTP 429 with `Retry-After: retryAfter`. */
  rateLimit(method: string, count: number, retryAfterSeconds: number): void;
  /** The next `count` calls of `method` answer HTTP `status` (an outage: 500, 503). */
  fail(method: string, count: number, status?: number): void;
  /** The next `count` calls of `method` answer HTTP 200 with `ok: false` and Slack's `error` code. */
  refuseNext(method: string, count: number, error: string): void;
  /**
   * For the next `forMs`, calls of `method` (to `channel` only, when given) answer HTTP 200 with
   * `ok: false` and `error` (invalid_auth during a Slack incident, channel_not_found, is_archived).
   */
  refuse(method: string, error: string, forMs: number, channel?: string): void;
  /** The next `count` calls of `method` are carried out at once but answered `ms` later (past a client's timeout). */
  answerLate(method: string, count: number, ms: number): void;
  /** Thread replies under `ts` in `channel`, oldest first. */
  thread(channel: string, ts: string): FakeMessage[];
  roots(channel?: string): FakeMessage[];
  message(channel: string, ts: string): FakeMessage | undefined;
  waitFor<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  socket: FakeSocket;
  close(): Promise<void>;
}

/** Every text a message shows, blocks included (for assertions). */
/** The text of a message as Slack displays it (entities decoded), fallback and blocks together. */
export function messageText(m: { text: string; blocks: SlackBlock[] }): string {
  const out: string[] = [m.text];
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    if (typeof o.text === 'string') out.push(o.text);
    for (const [k, x] of Object.entries(o)) if (k !== 'text' || typeof x !== 'string') walk(x);
  };
  walk(m.blocks);
  // What a person sees: Slack shows &lt; &gt; &amp; as the characters they escape.
  return out.join('\n').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Buttons of a message: action_id, value, label, confirm present. */
export function buttonsOf(m: { blocks: SlackBlock[] }): { action_id: string; value: string; text: string; confirm: boolean }[] {
  return m.blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) =>
      (b.elements as Record<string, unknown>[]).map((e) => ({
        action_id: String(e.action_id),
        value: String(e.value ?? ''),
        text: String((e.text as { text: string }).text),
        confirm: Boolean(e.confirm),
      })),
    );
}

function readBody(req: IncomingMessage): Promise<string> {
  // Events rather than `for await`: the async iterator costs the bench's process more CPU per
  // call than the rest of the fake, and that CPU is taken from the bot under test.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if ((contentType ?? '').includes('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // WebClient sends objects (blocks, view) as JSON strings.
    out[k] = /^[[{]/.test(v) ? safeJson(v) : v;
  }
  return out;
}

function isMetadata(v: unknown): v is { event_type: string; event_payload: Record<string, unknown> } {
  const o = v as { event_type?: unknown; event_payload?: unknown } | undefined;
  return typeof o?.event_type === 'string' && typeof o.event_payload === 'object' && o.event_payload !== null;
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const calls: FakeCall[] = [];
  const messages: FakeMessage[] = [];
  const ephemerals: FakeEphemeral[] = [];
  const files: FakeFile[] = [];
  const uploads = new Map<string, FakeFile & { length: number; uploaded: boolean }>();
  const responses: FakeSlack['responses'] = [];
  const rejected: FakeSlack['rejected'] = [];
  const throttled: FakeSlack['throttled'] = [];
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** Take one token of the method's bucket; the seconds to wait when there is none. */
  const take = (method: string, channel: string | undefined): number => {
    const limit = SLACK_LIMITS[method];
    if (!limit) return 0;
    const key = limit.scope === 'channel' ? `${method}|${channel ?? ''}` : method;
    const now = Date.now() / 1000;
    const b = buckets.get(key) ?? { tokens: limit.burst, at: now };
    b.tokens = Math.min(limit.burst, b.tokens + (now - b.at) * limit.perSecond);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / limit.perSecond);
  };
  const limits = new Map<string, { count: number; retryAfter: number }>();
  const failures = new Map<string, { count: number; status: number }>();
  const refusalsNext = new Map<string, { count: number; error: string }>();
  const refusals: { method: string; error: string; until: number; channel?: string }[] = [];
  const late = new Map<string, { count: number; ms: number }>();
  const closed = new Set(options.closedChannels ?? []);
  const botUserId = options.botUserId ?? 'UBOT';
  let seq = 0;
  const nextTs = () => {
    seq++;
    return `${Math.floor(Date.now() / 1000)}.${String(seq).padStart(6, '0')}`;
  };
  const byTs = new Map<string, FakeMessage>();
  const find = (channel: string, ts: string) => byTs.get(`${channel}|${ts}`);

  const checked = (method: string, args: Record<string, unknown>): string[] => {
    const problems = checkSlackMessage({ text: String(args.text ?? ''), blocks: (args.blocks as SlackBlock[] | undefined) ?? [] });
    if (problems.length > 0) rejected.push({ method, problems });
    return problems;
  };

  const api = (method: string, args: Record<string, unknown>): Record<string, unknown> => {
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://fake.slack.test/', team: 'Fake', user: 'pod-doctor', team_id: 'T0FAKE', user_id: botUserId, bot_id: 'B0FAKE' };
      case 'chat.postMessage': {
        const channel = String(args.channel ?? '');
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (closed.has(channel)) return { ok: false, error: 'not_in_channel' };
        if (checked(method, args).length > 0) return { ok: false, error: 'invalid_blocks' };
        const thread = args.thread_ts ? String(args.thread_ts) : undefined;
        if (thread && !find(channel, thread)) return { ok: false, error: 'thread_not_found' };
        const ts = nextTs();
        const m: FakeMessage = {
          channel,
          ts,
          ...(thread ? { thread_ts: thread } : {}),
          text: String(args.text ?? ''),
          blocks: (args.blocks as SlackBlock[]) ?? [],
          history: [],
          postedAt: Date.now(),
          ...(isMetadata(args.metadata) ? { metadata: args.metadata } : {}),
        };
        messages.push(m);
        byTs.set(`${channel}|${ts}`, m);
        return { ok: true, channel, ts, message: { type: 'message', user: botUserId, text: m.text, ts, ...(thread ? { thread_ts: thread } : {}) } };
      }
      case 'chat.update': {
        const m = find(String(args.channel), String(args.ts));
        if (!m) return { ok: false, error: 'message_not_found' };
        if (checked(method, args).length > 0) return { ok: false, error: 'invalid_blocks' };
        m.history.push({ text: m.text, blocks: m.blocks });
        m.text = String(args.text ?? '');
        m.blocks = (args.blocks as SlackBlock[]) ?? [];
        m.updatedAt = Date.now();
        return { ok: true, channel: m.channel, ts: m.ts, text: m.text };
      }
      case 'chat.postEphemeral': {
        if (checked(method, args).length > 0) return { ok: false, error: 'invalid_blocks' };
        ephemerals.push({
          channel: String(args.channel),
          user: String(args.user),
          text: String(args.text ?? ''),
          blocks: (args.blocks as SlackBlock[]) ?? [],
          ...(args.thread_ts ? { thread_ts: String(args.thread_ts) } : {}),
          at: Date.now(),
        });
        return { ok: true, message_ts: nextTs() };
      }
      case 'conversations.history':
      case 'conversations.replies': {
        // Newest first, like Slack; `oldest` bounds the page; metadata only when asked for.
        const channel = String(args.channel ?? '');
        const oldest = Number(args.oldest ?? 0);
        const inThread = method === 'conversations.replies' ? String(args.ts ?? '') : undefined;
        const found = messages
          .filter((m) => m.channel === channel && Number(m.ts) >= oldest && (inThread ? m.thread_ts === inThread || m.ts === inThread : !m.thread_ts))
          .reverse()
          .slice(0, Number(args.limit ?? 100))
          .map((m) => ({
            type: 'message',
            ts: m.ts,
            text: m.text,
            ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
            ...(m.metadata && String(args.include_all_metadata) === 'true' ? { metadata: m.metadata } : {}),
          }));
        return { ok: true, messages: found, has_more: false };
      }
      case 'usergroups.users.list': {
        const users = options.groups?.[String(args.usergroup)];
        return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
      }
      case 'users.info': {
        const id = String(args.user ?? '');
        const name = options.users?.[id];
        return name
          ? { ok: true, user: { id, name: name.toLowerCase().replace(/\s+/g, '.'), real_name: name, profile: { display_name: name, real_name: name } } }
          : { ok: false, error: 'user_not_found' };
      }
      case 'files.getUploadURLExternal': {
        const filename = String(args.filename ?? '');
        const length = Number(args.length);
        if (!filename || !Number.isInteger(length) || length <= 0) return { ok: false, error: 'invalid_arguments' };
        const id = `F${String(++seq).padStart(8, '0')}`;
        uploads.set(id, { id, filename, content: '', length, uploaded: false });
        return { ok: true, upload_url: `${url}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const list = (typeof args.files === 'string' ? safeJson(args.files) : args.files) as { id?: string; title?: string }[] | undefined;
        if (!Array.isArray(list) || list.length === 0) return { ok: false, error: 'invalid_arguments' };
        const shared: FakeFile[] = [];
        for (const f of list) {
          const u = uploads.get(String(f.id));
          // Slack refuses to complete a file whose bytes never arrived (or arrived short).
          if (!u?.uploaded || Buffer.byteLength(u.content) !== u.length) return { ok: false, error: 'file_not_found' };
          shared.push({ ...u, ...(f.title ? { title: f.title } : {}) });
        }
        const channel = args.channel_id ? String(args.channel_id) : undefined;
        const thread = args.thread_ts ? String(args.thread_ts) : undefined;
        if (thread && channel && !find(channel, thread)) return { ok: false, error: 'thread_not_found' };
        const comment = args.initial_comment ? String(args.initial_comment) : undefined;
        for (const f of shared) {
          const file: FakeFile = {
            id: f.id,
            filename: f.filename,
            content: f.content,
            ...(f.title ? { title: f.title } : {}),
            ...(channel ? { channel } : {}),
            ...(thread ? { thread_ts: thread } : {}),
            ...(comment ? { initial_comment: comment } : {}),
          };
          files.push(file);
        }
        if (channel) {
          const ts = nextTs();
          const m: FakeMessage = {
            channel,
            ts,
            ...(thread ? { thread_ts: thread } : {}),
            text: comment ?? '',
            blocks: [],
            history: [],
            postedAt: Date.now(),
            files: files.slice(-shared.length),
          };
          messages.push(m);
          byTs.set(`${channel}|${ts}`, m);
        }
        return { ok: true, files: shared.map((f) => ({ id: f.id, title: f.title ?? f.filename })) };
      }
      case 'views.open':
        return { ok: true, view: { id: `V${seq++}` } };
      case 'apps.connections.open':
        return { ok: true, url: `${url.replace('http:', 'ws:')}/socket` };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = await readBody(req);
      if (url.pathname.startsWith('/upload/')) {
        const u = uploads.get(url.pathname.slice('/upload/'.length));
        if (!u || req.method !== 'POST') return send(res, 404, { ok: false });
        u.content = raw;
        u.uploaded = true;
        calls.push({ method: 'upload', args: { id: u.id, bytes: Buffer.byteLength(raw) }, at: Date.now() });
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(`OK - ${Buffer.byteLength(raw)}`);
      }
      if (url.pathname.startsWith('/respond/')) {
        responses.push({ id: url.pathname.slice('/respond/'.length), body: safeJson(raw) as Record<string, unknown>, at: Date.now() });
        return send(res, 200, { ok: true });
      }
      const m = /^\/api\/([a-zA-Z.]+)$/.exec(url.pathname);
      if (!m || req.method !== 'POST') return send(res, 404, { ok: false, error: 'unknown_method' });
      const method = m[1]!;
      const auth = req.headers.authorization?.replace(/^Bearer\s+/i, '');
      const args = parseArgs(raw, req.headers['content-type']);
      const token = auth ?? (typeof args.token === 'string' ? args.token : undefined);
      calls.push({ method, args, ...(token ? { token } : {}), at: Date.now() });
      const failure = failures.get(method);
      if (failure && failure.count > 0) {
        failure.count--;
        return send(res, failure.status, { ok: false, error: 'internal_error' });
      }
      const next = refusalsNext.get(method);
      if (next && next.count > 0) {
        next.count--;
        return send(res, 200, { ok: false, error: next.error });
      }
      const refusal = refusals.find(
        (r) => r.method === method && Date.now() < r.until && (r.channel === undefined || r.channel === String(args.channel ?? '')),
      );
      if (refusal) return send(res, 200, { ok: false, error: refusal.error });
      const limit = limits.get(method);
      if (limit && limit.count > 0) {
        limit.count--;
        return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(limit.retryAfter) });
      }
      if (options.enforceLimits) {
        const channel = typeof args.channel === 'string' ? args.channel : undefined;
        const wait = take(method, channel);
        if (wait > 0) {
          throttled.push({ method, ...(channel ? { channel } : {}), at: Date.now() });
          return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(wait) });
        }
      }
      if (!token) return send(res, 200, { ok: false, error: 'not_authed' });
      const answer = api(method, args);
      const slow = late.get(method);
      if (slow && slow.count > 0) {
        slow.count--;
        await new Promise((r) => setTimeout(r, slow.ms));
      }
      return send(res, 200, answer);
    })().catch((err: unknown) => send(res, 500, { ok: false, error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Socket Mode: one WebSocket per app connection; envelopes out, acks (envelope_id) back.
  const wss = new WebSocketServer({ server, path: '/socket' });
  const sockets = new Set<WebSocket>();
  const waitingAcks = new Map<string, (ack: { envelope_id: string; payload?: unknown; at: number }) => void>();
  let onConnected: (() => void) | undefined;
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data) => {
      const ack = safeJson(String(data)) as { envelope_id?: string; payload?: unknown };
      if (ack?.envelope_id) waitingAcks.get(ack.envelope_id)?.({ envelope_id: ack.envelope_id, payload: ack.payload, at: Date.now() });
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: sockets.size,
        connection_info: { app_id: 'A0FAKE' },
        debug_info: { host: 'fake', approximate_connection_time: 18060 },
      }),
    );
    onConnected?.();
  });
  const socket: FakeSocket = {
    connected: () => connected,
    get connections() {
      return sockets.size;
    },
    send(type, payload) {
      const ws = [...sockets][0];
      if (!ws) return Promise.reject(new Error('fake slack: no Socket Mode connection'));
      const envelopeId = `env-${++seq}`;
      const acked = new Promise<{ envelope_id: string; payload?: unknown; at: number }>((resolve) => waitingAcks.set(envelopeId, resolve));
      ws.send(JSON.stringify({ envelope_id: envelopeId, type, payload, accepts_response_payload: type !== 'events_api', retry_attempt: 0, retry_reason: '' }));
      return acked;
    },
  };

  return {
    url,
    apiUrl: `${url}/api/`,
    calls,
    messages,
    ephemerals,
    files,
    responses,
    rejected,
    throttled,
    callsByMethod: () => {
      const out: Record<string, number> = {};
      for (const c of calls) out[c.method] = (out[c.method] ?? 0) + 1;
      return out;
    },
    rateLimit(method, count, retryAfterSeconds) {
      limits.set(method, { count, retryAfter: retryAfterSeconds });
    },
    fail(method, count, status = 503) {
      failures.set(method, { count, status });
    },
    answerLate(method, count, ms) {
      late.set(method, { count, ms });
    },
    refuseNext(method, count, error) {
      refusalsNext.set(method, { count, error });
    },
    refuse(method, error, forMs, channel) {
      refusals.push({ method, error, until: Date.now() + forMs, ...(channel ? { channel } : {}) });
    },
    thread: (channel, ts) => messages.filter((m) => m.channel === channel && m.thread_ts === ts),
    roots: (channel) => messages.filter((m) => !m.thread_ts && (channel === undefined || m.channel === channel)),
    message: find,
    async waitFor(check, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = check();
        if (v) return v;
        if (Date.now() > deadline)
          throw new Error(
            `fake slack: condition not met within ${timeoutMs} ms (${calls.length} calls: ${calls
              .slice(-8)
              .map((c) => c.method)
              .join(', ')})`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---- signed requests to the bot, as Slack sends them ----

/** `X-Slack-Signature` / `X-Slack-Request-Timestamp` for `body` (HMAC-SHA256 of `v0:<ts>:<body>`). */
export function slackSignature(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const sig = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-signature': `v0=${sig}`, 'x-slack-request-timestamp': String(timestamp) };
}

export interface SlashCommandInput {
  text: string;
  user?: string;
  channel?: string;
  command?: string;
  responseUrl?: string;
  triggerId?: string;
}

/** A slash command's form body. */
export function slashCommandBody(input: SlashCommandInput): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0FAKE',
    team_domain: 'fake',
    channel_id: input.channel ?? 'C0TEST',
    channel_name: 'incidents',
    user_id: input.user ?? 'U0ALICE',
    user_name: 'alice',
    command: input.command ?? '/pod-doctor',
    text: input.text,
    api_app_id: 'A0FAKE',
    is_enterprise_install: 'false',
    response_url: input.responseUrl ?? 'http://127.0.0.1:9/respond/none',
    trigger_id: input.triggerId ?? '123.456.abc',
  }).toString();
}

/** A button click's form body (`payload=<block_actions JSON>`). */
export function blockActionBody(input: {
  actionId: string;
  value: string;
  user: string;
  channel: string;
  messageTs: string;
  threadTs?: string;
  triggerId?: string;
}): string {
  const payload = {
    type: 'block_actions',
    team: { id: 'T0FAKE', domain: 'fake' },
    user: { id: input.user, username: input.user.toLowerCase(), team_id: 'T0FAKE' },
    api_app_id: 'A0FAKE',
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: input.messageTs,
      channel_id: input.channel,
      is_ephemeral: false,
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
    },
    trigger_id: input.triggerId ?? '123.456.def',
    channel: { id: input.channel, name: 'incidents' },
    message: { type: 'message', ts: input.messageTs, text: '' },
    response_url: 'http://127.0.0.1:9/respond/none',
    actions: [
      {
        type: 'button',
        action_id: input.actionId,
        block_id: 'pd0',
        value: input.value,
        text: { type: 'plain_text', text: 'x' },
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A modal submission's form body. */
export function viewSubmissionBody(input: {
  callbackId: string;
  privateMetadata: string;
  user: string;
  values: Record<string, Record<string, { type: string; value: string }>>;
}): string {
  const payload = {
    type: 'view_submission',
    team: { id: 'T0FAKE', domain: 'fake' },
    user: { id: input.user, username: input.user.toLowerCase(), team_id: 'T0FAKE' },
    api_app_id: 'A0FAKE',
    token: 'legacy-verification-token',
    trigger_id: '123.456.ghi',
    view: {
      id: 'V1',
      type: 'modal',
      callback_id: input.callbackId,
      private_metadata: input.privateMetadata,
      state: { values: input.values },
      hash: 'h',
      title: { type: 'plain_text', text: 't' },
      blocks: [],
    },
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** POST a form body to the bot's /slack/events, signed with `secret` (or with `headers` as given). */
export async function postSigned(
  botUrl: string,
  body: string,
  secret: string,
  options: { timestamp?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${botUrl}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(options.headers ?? slackSignature(secret, body, options.timestamp)) },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text, ms: performance.now() - started };
}
