// A local stand-in for a Mattermost server, written from the REST API v4 reference for the calls
// pod-doctor makes (POST /posts, POST /posts/ephemeral, PUT /posts/{id}/patch, GET /users/me,
// POST /users/ids, GET /users?in_group=), with bearer-token auth, Mattermost's error shape
// `{id, message, status_code}` (401, 403, 404, 400), its per-token rate limit (X-Ratelimit-*
// headers, 429 with Retry-After) and its 30-second pending_post_id dedup. It records posts (with
// their patches) and ephemerals, and plays a person: a slash command (the form Mattermost posts
// to the command's URL) and a button click (the integration's context POSTed to its URL, and
// the answer's `update` and `ephemeral_text` applied as Mattermost does).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 26 lowercase letters and digits, as Mattermost's ids. */
export function mattermostId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(26)].map((b) => alphabet[b % 36]).join('');
}

export interface FakeAction {
  id: string;
  name: string;
  style?: string;
  integration: { url: string; context: Record<string, unknown> };
}

export interface FakePost {
  id: string;
  channel_id: string;
  root_id: string;
  user_id: string;
  message: string;
  props: { attachments?: { actions?: FakeAction[] }[] } & Record<string, unknown>;
  pending_post_id?: string;
  /** Versions before the latest patch, oldest first. */
  history: { message: string; props: FakePost['props'] }[];
  create_at: number;
}

export interface FakeEphemeralPost {
  user_id: string;
  channel_id: string;
  root_id: string;
  message: string;
  /** Where it came from: the API (POST /posts/ephemeral) or a click's answer (ephemeral_text). */
  via: 'api' | 'action';
  at: number;
}

/** An interactive dialog opened for a person (POST /actions/dialogs/open). */
export interface FakeDialog {
  trigger_id: string;
  url: string;
  dialog: { callback_id: string; state: string; title: string; elements: { name: string }[] };
  at: number;
}

export interface FakeMattermostOptions {
  /** The bot account's access token (default `mm-bot-token-0123456789`). */
  token?: string;
  /** User id → username (POST /users/ids, the people a test plays). */
  users?: Record<string, string>;
  /** Group id → member user ids (GET /users?in_group=). */
  groups?: Record<string, string[]>;
  /** Channels the bot is a member of; a post elsewhere is 403. Unset: every channel. */
  channels?: string[];
  /** How long a pending_post_id answers a repeat with its post (Mattermost: 30 s). */
  pendingPostTtlMs?: number;
  /** The per-token limit (Mattermost's default: 10 a second, bursts of 100). */
  rateLimit?: { perSecond: number; burst: number };
}

export interface FakeMattermost {
  url: string;
  token: string;
  botUserId: string;
  posts: FakePost[];
  ephemerals: FakeEphemeralPost[];
  dialogs: FakeDialog[];
  calls: { method: string; path: string; at: number; status: number }[];
  /** Calls answered 429 by the rate limiter. */
  throttled: number;
  /** The direct channel of a user with the bot, when one was made (POST /channels/direct). */
  directWith(user: string): string | undefined;
  /** The next `count` posts (POST /posts) are made, but answered HTTP 503 (the answer lost on the way). */
  loseAnswers(count: number): void;
  /** The next `count` calls whose path starts with `path` answer HTTP `status`. */
  fail(path: string, count: number, status?: number): void;
  roots(channel: string): FakePost[];
  thread(rootId: string): FakePost[];
  post(id: string): FakePost | undefined;
  waitFor<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** A person submits a dialog opened for them (Mattermost POSTs the submission to the dialog's URL). */
  submitDialog(d: FakeDialog, user: string, submission: Record<string, string>): Promise<{ status: number; body: string }>;
  /** A person types `/pod-doctor <text>`: Mattermost's form POST to the bot's command URL. */
  slashCommand(botUrl: string, input: { text: string; user: string; channel: string; token: string }): Promise<{ status: number; body: string }>;
  /**
   * A person clicks a post's button (by its label, or a button seen earlier): Mattermost POSTs the
   * button's integration context to its URL.
   */
  click(post: FakePost, button: string | FakeAction, user: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** The buttons of a post (its attachments' actions). */
export function actionsOf(post: Pick<FakePost, 'props'>): FakeAction[] {
  return (post.props.attachments ?? []).flatMap((a) => a.actions ?? []);
}

/** What a person reads of a post: Markdown escapes and the zero-width spaces that break mentions gone. */
export function shownText(post: { message: string }): string {
  return post.message.replace(/\\(.)/g, '$1').replace(/\u200B/g, '');
}

const MAX_MESSAGE = 16_383;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answered (true), so a handler can `return json(…)`. */
function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  return true;
}

/** Mattermost's AppError as its API answers it. */
function appError(res: ServerResponse, status: number, id: string, message: string, headers: Record<string, string> = {}): true {
  return json(res, status, { id, message, detailed_error: '', request_id: mattermostId(), status_code: status }, headers);
}

export async function startFakeMattermost(options: FakeMattermostOptions = {}): Promise<FakeMattermost> {
  const token = options.token ?? 'mm-bot-token-0123456789';
  const botUserId = mattermostId();
  const users: Record<string, string> = { [botUserId]: 'pod-doctor', ...options.users };
  const posts: FakePost[] = [];
  const byId = new Map<string, FakePost>();
  const ephemerals: FakeEphemeralPost[] = [];
  const dialogs: FakeDialog[] = [];
  /** Trigger ids handed to integrations with a click (valid 3 s), with when. */
  const triggers = new Map<string, number>();
  const calls: FakeMattermost['calls'] = [];
  const failures = new Map<string, { count: number; status: number }>();
  const seenPending = new Map<string, { id: string; at: number }>();
  let lostAnswers = 0;
  /** Direct channels by id: the two users. */
  const directs = new Map<string, [string, string]>();
  const limit = options.rateLimit ?? { perSecond: 10, burst: 100 };
  const bucket = { tokens: limit.burst, at: Date.now() };
  let throttled = 0;

  const take = (): { ok: boolean; remaining: number; reset: number } => {
    const now = Date.now();
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return { ok: false, remaining: 0, reset: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) };
    bucket.tokens -= 1;
    return { ok: true, remaining: Math.floor(bucket.tokens), reset: Math.ceil((limit.burst - bucket.tokens) / limit.perSecond) };
  };

  const userOf = (id: string) => ({ id, username: users[id] ?? id, nickname: '', first_name: '', last_name: '', delete_at: 0 });

  const createPost = (p: Record<string, unknown>, res: ServerResponse): true => {
    const channel = typeof p.channel_id === 'string' ? p.channel_id : '';
    const message = typeof p.message === 'string' ? p.message : '';
    const rootId = typeof p.root_id === 'string' ? p.root_id : '';
    if (!/^[a-z0-9]{26}$/.test(channel))
      return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid or missing channel_id in request body.');
    // A user's id is no channel: Mattermost refuses it like a channel the bot may not post in.
    if ((options.channels && !options.channels.includes(channel) && !directs.has(channel)) || channel in users)
      return appError(res, 403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
    if ([...message].length > MAX_MESSAGE) return appError(res, 400, 'model.post.is_valid.msg.app_error', 'Invalid Message.');
    if (rootId) {
      const root = byId.get(rootId);
      if (!root || root.channel_id !== channel || root.root_id)
        return appError(res, 400, 'api.post.create_post.root_id.app_error', 'Invalid RootId parameter.');
    }
    const pending = typeof p.pending_post_id === 'string' ? p.pending_post_id : undefined;
    const seen = pending ? seenPending.get(pending) : undefined;
    if (seen && Date.now() - seen.at < (options.pendingPostTtlMs ?? 30_000)) return json(res, 201, byId.get(seen.id));
    const post: FakePost = {
      id: mattermostId(),
      channel_id: channel,
      root_id: rootId,
      user_id: botUserId,
      message,
      props: (p.props as FakePost['props'] | undefined) ?? {},
      ...(pending ? { pending_post_id: pending } : {}),
      history: [],
      create_at: Date.now(),
    };
    posts.push(post);
    byId.set(post.id, post);
    if (pending) seenPending.set(pending, { id: post.id, at: Date.now() });
    if (lostAnswers > 0) {
      lostAnswers--;
      return appError(res, 503, 'app.fake.lost', 'Injected failure after the post was made.');
    }
    return json(res, 201, post);
  };

  const api = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<true> => {
    const body = await readBody(req);
    if (req.headers.authorization !== `Bearer ${token}`)
      return appError(res, 401, 'api.context.session_expired.app_error', 'Invalid or expired session, please login again.');
    const limited = take();
    const headers = {
      'X-Ratelimit-Limit': String(limit.perSecond),
      'X-Ratelimit-Remaining': String(limited.remaining),
      'X-Ratelimit-Reset': String(limited.reset),
    };
    if (!limited.ok) {
      throttled++;
      res.writeHead(429, { ...headers, 'Retry-After': String(limited.reset), 'content-type': 'text/plain' }).end('limit exceeded\n');
      return true;
    }
    for (const [prefix, f] of failures) {
      if (path.startsWith(prefix) && f.count > 0) {
        f.count--;
        return appError(res, f.status, 'app.fake.failure', 'Injected failure.', headers);
      }
    }
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid body.');
    }
    const obj = (parsed ?? {}) as Record<string, unknown>;
    const patch = /^\/posts\/([a-z0-9]{26})\/patch$/.exec(path);
    if (req.method === 'POST' && path === '/posts') return createPost(obj, res);
    if (req.method === 'POST' && path === '/posts/ephemeral') {
      const post = (obj.post ?? {}) as Record<string, unknown>;
      if (typeof obj.user_id !== 'string' || typeof post.channel_id !== 'string')
        return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid or missing user_id or post in request body.');
      ephemerals.push({
        user_id: obj.user_id,
        channel_id: post.channel_id,
        root_id: typeof post.root_id === 'string' ? post.root_id : '',
        message: typeof post.message === 'string' ? post.message : '',
        via: 'api',
        at: Date.now(),
      });
      return json(res, 201, { id: mattermostId(), channel_id: post.channel_id, message: post.message, user_id: botUserId, root_id: post.root_id ?? '' });
    }
    if (req.method === 'PUT' && patch) {
      const post = byId.get(patch[1]!);
      if (!post) return appError(res, 404, 'app.post.get.app_error', 'Unable to get the post.');
      if (typeof obj.message === 'string' && [...obj.message].length > MAX_MESSAGE)
        return appError(res, 400, 'model.post.is_valid.msg.app_error', 'Invalid Message.');
      post.history.push({ message: post.message, props: post.props });
      if (typeof obj.message === 'string') post.message = obj.message;
      if (obj.props && typeof obj.props === 'object') post.props = obj.props as FakePost['props'];
      return json(res, 200, post);
    }
    const channelPosts = /^\/channels\/([a-z0-9]{26})\/posts$/.exec(path);
    if (req.method === 'GET' && channelPosts) {
      const since = Number(query.get('since') ?? 0);
      const found = posts.filter((p) => p.channel_id === channelPosts[1] && p.create_at >= since);
      return json(res, 200, { order: found.map((p) => p.id).reverse(), posts: Object.fromEntries(found.map((p) => [p.id, p])) });
    }
    if (req.method === 'POST' && path === '/actions/dialogs/open') {
      const at = triggers.get(String(obj.trigger_id));
      if (at === undefined || Date.now() - at > 3000)
        return appError(res, 400, 'api.dialog.open.trigger_expired', 'Trigger ID for interactive dialog is expired.');
      if (typeof obj.url !== 'string' || !obj.dialog || typeof obj.dialog !== 'object')
        return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid or missing dialog in request body.');
      dialogs.push({ trigger_id: String(obj.trigger_id), url: obj.url, dialog: obj.dialog as FakeDialog['dialog'], at: Date.now() });
      return json(res, 200, { status: 'OK' });
    }
    if (req.method === 'GET' && path === '/users/me') return json(res, 200, userOf(botUserId));
    if (req.method === 'POST' && path === '/channels/direct') {
      const [a, b, ...more] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
      if (typeof a !== 'string' || typeof b !== 'string' || more.length > 0 || !(a in users) || !(b in users))
        return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid or missing user_ids in request body.');
      const found = [...directs].find(([, p]) => p.includes(a) && p.includes(b));
      const id = found?.[0] ?? mattermostId();
      if (!found) directs.set(id, [a, b]);
      return json(res, 201, { id, type: 'D', name: `${a}__${b}` });
    }
    if (req.method === 'POST' && path === '/users/ids') {
      if (!Array.isArray(parsed)) return appError(res, 400, 'api.context.invalid_body_param.app_error', 'Invalid or missing user_ids in request body.');
      return json(res, 200, (parsed as unknown[]).filter((id): id is string => typeof id === 'string' && id in users).map(userOf));
    }
    if (req.method === 'GET' && path === '/users' && query.has('in_group')) {
      const members = options.groups?.[query.get('in_group') ?? ''];
      if (!members) return appError(res, 404, 'app.group.no_rows', 'No group found.');
      const page = Number(query.get('page') ?? 0);
      const per = Number(query.get('per_page') ?? 60);
      return json(res, 200, members.slice(page * per, (page + 1) * per).map(userOf));
    }
    return appError(res, 404, 'api.context.404.app_error', 'Sorry, we could not find the page.');
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const started = calls.length;
    calls.push({ method: req.method ?? '', path, at: Date.now(), status: 0 });
    const end = res.end.bind(res);
    res.end = ((...args: Parameters<typeof end>) => {
      calls[started]!.status = res.statusCode;
      return end(...args);
    }) as typeof res.end;
    if (!url.pathname.startsWith('/api/v4/')) {
      appError(res, 404, 'api.context.404.app_error', 'Sorry, we could not find the page.');
      return;
    }
    void api(req, res, path, url.searchParams).catch(() => appError(res, 500, 'app.fake.error', 'fake failed'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const waitFor = async <T>(check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = check();
      if (v) return v;
      if (Date.now() > until) throw new Error('fake mattermost: condition not met in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  return {
    url,
    token,
    botUserId,
    posts,
    ephemerals,
    dialogs,
    calls,
    get throttled() {
      return throttled;
    },
    fail: (path, count, status = 500) => failures.set(path, { count, status }),
    loseAnswers: (count) => {
      lostAnswers = count;
    },
    directWith: (user) => [...directs].find(([, p]) => p.includes(user) && p.includes(botUserId))?.[0],
    roots: (channel) => posts.filter((p) => p.channel_id === channel && !p.root_id),
    thread: (rootId) => posts.filter((p) => p.root_id === rootId),
    post: (id) => byId.get(id),
    waitFor,
    submitDialog: async (d, user, submission) => {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'dialog_submission',
          callback_id: d.dialog.callback_id,
          state: d.dialog.state,
          user_id: user,
          channel_id: mattermostId(),
          team_id: mattermostId(),
          submission,
          cancelled: false,
        }),
      });
      return { status: res.status, body: await res.text() };
    },
    slashCommand: async (botUrl, input) => {
      const form = new URLSearchParams({
        channel_id: input.channel,
        channel_name: 'incidents',
        command: '/pod-doctor',
        response_url: `${url}/hooks/commands/${mattermostId()}`,
        team_domain: 'sre',
        team_id: mattermostId(),
        text: input.text,
        token: input.token,
        trigger_id: mattermostId(),
        user_id: input.user,
        user_name: users[input.user] ?? 'someone',
      });
      const res = await fetch(`${botUrl}/mattermost/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Token ${input.token}` },
        body: form.toString(),
      });
      return { status: res.status, body: await res.text() };
    },
    click: async (post, button, user) => {
      const action = typeof button === 'string' ? actionsOf(post).find((a) => a.name === button) : button;
      if (!action) throw new Error(`fake mattermost: post ${post.id} has no button "${String(button)}"`);
      const trigger = mattermostId();
      triggers.set(trigger, Date.now());
      const res = await fetch(action.integration.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_id: user,
          user_name: users[user] ?? '',
          channel_id: post.channel_id,
          channel_name: 'incidents',
          team_id: mattermostId(),
          team_domain: 'sre',
          post_id: post.id,
          trigger_id: trigger,
          type: 'button',
          data_source: '',
          context: action.integration.context,
        }),
      });
      const text = await res.text();
      // Mattermost applies the integration's answer: an update of the post, a private line for the clicker.
      if (res.ok && text) {
        const answer = JSON.parse(text) as { update?: { message?: string; props?: FakePost['props'] }; ephemeral_text?: string };
        if (answer.update) {
          post.history.push({ message: post.message, props: post.props });
          if (answer.update.message !== undefined) post.message = answer.update.message;
          if (answer.update.props) post.props = answer.update.props;
        }
        if (answer.ephemeral_text)
          ephemerals.push({ user_id: user, channel_id: post.channel_id, root_id: post.root_id, message: answer.ephemeral_text, via: 'action', at: Date.now() });
      }
      return { status: res.status, body: text };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
