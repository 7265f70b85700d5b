// Mattermost's REST API v4, directly with fetch: the handful of calls pod-doctor makes (posts,
// ephemeral posts, patches, a channel's recent posts, direct channels, the bot's own user, users by
// id, group members). The official @mattermost/client is written for the web app (it peer-depends
// on TypeScript and the types package, retries nothing and hides Retry-After); these calls are
// simpler to own, each answer checked with zod. Every call has a deadline; a network failure or a
// 5xx is tried again with backoff (a post carries a pending_post_id, which Mattermost uses to
// answer a repeat with the post it already made); a 429 waits for X-Ratelimit-Reset or
// Retry-After, in the shared budget when one is given (every process then waits), and is tried again.
import { z } from 'zod';

/** Mattermost's error body: `{id, message, status_code}`. */
const ErrorBody = z.object({ id: z.string(), message: z.string(), status_code: z.number().optional() });

/** Why a call failed: an HTTP answer (with Mattermost's error id), 429 past our tries, no answer, or an answer we cannot read. */
export type MattermostFailure = 'http' | 'rate-limited' | 'network' | 'bad-answer';

export class MattermostApiError extends Error {
  constructor(
    readonly failure: MattermostFailure,
    readonly path: string,
    /** The HTTP status (0 without an answer). */
    readonly status: number,
    /** Mattermost's error id (`api.context.404.app_error`), when it sent one. */
    readonly errorId?: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(`Mattermost ${path}: ${failure}${status ? ` (HTTP ${status}${errorId ? `, ${errorId}` : ''})` : ''}`, options);
    this.name = 'MattermostApiError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number | undefined;
}

/** A shared call budget (a Redis token bucket: ChatLimiter), keyed; a 429 pauses a key for everyone. */
export interface CallBudget {
  acquire(key: string): Promise<unknown>;
  pause(key: string, seconds: number): Promise<void>;
}

export interface MattermostClientOptions {
  /** The server's base URL (https://mattermost.example.com). */
  url: string;
  /** The bot account's access token. */
  token: string;
  /** Per attempt (default 5000 ms). */
  timeoutMs?: number;
  /** Tries after a network failure or a 5xx (default 2). */
  retries?: number;
  /** Tries through 429s (default 4). */
  rateLimitedTries?: number;
  /** The server's per-token limit (10 requests a second by default), shared by every process. */
  budget?: CallBudget;
  /** Counts each HTTP call by path template and status. */
  onCall?: (call: { method: string; route: string; status: string }) => void;
}

export const Post = z.object({
  id: z.string(),
  channel_id: z.string(),
  root_id: z.string().default(''),
  message: z.string().default(''),
  user_id: z.string().default(''),
  props: z.record(z.string(), z.unknown()).nullish(),
});
export type Post = z.infer<typeof Post>;

const User = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  delete_at: z.number().optional(),
});
export type MattermostUser = z.infer<typeof User>;

/** What a new post carries. */
export interface NewPost {
  channel_id: string;
  message: string;
  root_id?: string;
  props?: Record<string, unknown>;
  /** Mattermost answers a repeat of this id (a retry after a timeout) with the post it already made. */
  pending_post_id?: string;
}

const BACKOFF_MS = 250;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The wait a 429 asks for: X-Ratelimit-Reset (seconds until the bucket refills), else Retry-After, else one second. */
export function retryAfterOf(headers: Headers): number {
  for (const name of ['x-ratelimit-reset', 'retry-after']) {
    const v = Number(headers.get(name));
    if (Number.isFinite(v) && v > 0) return Math.min(v, 60);
  }
  return 1;
}

/** The budget key of all calls of one token (Mattermost limits per token, not per channel). */
const TOKEN_KEY = 'mattermost-api';

export class MattermostClient {
  private readonly base: string;
  constructor(private readonly options: MattermostClientOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/api/v4`;
  }

  /**
   * One call: `route` names it for counting (`/posts/{id}/patch`), `path` is the real one. `body`
   * is sent as JSON. Retries as the file header says; the answer is parsed with `schema`.
   */
  async call<T extends z.ZodType>(method: 'GET' | 'POST' | 'PUT', route: string, path: string, body: unknown, schema: T): Promise<z.output<T>> {
    const { budget } = this.options;
    const retries = this.options.retries ?? 2;
    const limited = this.options.rateLimitedTries ?? 4;
    let failures = 0;
    let throttled = 0;
    for (;;) {
      await budget?.acquire(TOKEN_KEY);
      let res: Response;
      try {
        res = await fetch(`${this.base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.options.token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
        });
      } catch (err) {
        this.options.onCall?.({ method, route, status: 'error' });
        if (++failures > retries) throw new MattermostApiError('network', route, 0, undefined, { cause: err });
        await sleep(BACKOFF_MS * 2 ** (failures - 1));
        continue;
      }
      this.options.onCall?.({ method, route, status: String(res.status) });
      if (res.status === 429) {
        await res.arrayBuffer().catch(() => undefined);
        const wait = retryAfterOf(res.headers);
        if (++throttled >= limited) throw new MattermostApiError('rate-limited', route, 429, undefined, { retryAfterSeconds: wait });
        if (budget) await budget.pause(TOKEN_KEY, wait);
        else await sleep(wait * 1000);
        continue;
      }
      const text = await res.text().catch(() => '');
      if (res.status >= 500 && ++failures <= retries) {
        await sleep(BACKOFF_MS * 2 ** (failures - 1));
        continue;
      }
      const json = parseJson(text);
      if (!res.ok) throw new MattermostApiError('http', route, res.status, ErrorBody.safeParse(json).data?.id);
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new MattermostApiError('bad-answer', route, res.status, undefined, { cause: parsed.error });
      return parsed.data;
    }
  }

  /** POST /posts: a post (a thread's reply with `root_id`). */
  createPost(post: NewPost): Promise<Post> {
    return this.call('POST', '/posts', '/posts', post, Post);
  }

  /** POST /posts/ephemeral: a post only `userId` sees (not kept by the server). */
  createEphemeral(userId: string, post: Pick<NewPost, 'channel_id' | 'message' | 'root_id' | 'props'>): Promise<Post> {
    return this.call('POST', '/posts/ephemeral', '/posts/ephemeral', { user_id: userId, post }, Post);
  }

  /** PUT /posts/{id}/patch: new message and props for a post. */
  patchPost(id: string, patch: { message: string; props?: Record<string, unknown> }): Promise<Post> {
    return this.call('PUT', '/posts/{id}/patch', `/posts/${encodeURIComponent(id)}/patch`, patch, Post);
  }

  /** POST /actions/dialogs/open: an interactive dialog for the person whose click gave `triggerId` (valid 3 s). */
  async openDialog(triggerId: string, url: string, dialog: Record<string, unknown>): Promise<void> {
    await this.call('POST', '/actions/dialogs/open', '/actions/dialogs/open', { trigger_id: triggerId, url, dialog }, z.unknown());
  }

  /** GET /channels/{id}/posts?since=: the channel's posts made or changed since `sinceMs`. */
  async postsSince(channelId: string, sinceMs: number): Promise<Post[]> {
    const page = await this.call(
      'GET',
      '/channels/{id}/posts',
      `/channels/${encodeURIComponent(channelId)}/posts?since=${Math.max(0, Math.floor(sinceMs))}`,
      undefined,
      z.object({ order: z.array(z.string()).default([]), posts: z.record(z.string(), Post).nullish() }),
    );
    return Object.values(page.posts ?? {});
  }

  /** POST /channels/direct: the direct channel of two users (made if it does not exist). */
  directChannel(userA: string, userB: string): Promise<{ id: string }> {
    return this.call('POST', '/channels/direct', '/channels/direct', [userA, userB], z.object({ id: z.string() }));
  }

  /** GET /users/me: the bot account (checks the token). */
  me(): Promise<MattermostUser> {
    return this.call('GET', '/users/me', '/users/me', undefined, User);
  }

  /** POST /users/ids: users by id (unknown ids are left out). */
  usersByIds(ids: readonly string[]): Promise<MattermostUser[]> {
    return this.call('POST', '/users/ids', '/users/ids', ids, z.array(User));
  }

  /** GET /users?in_group=: a group's members, every page. */
  async groupMembers(groupId: string): Promise<string[]> {
    const out: string[] = [];
    const PER_PAGE = 200;
    // A group of more than 10,000 members approving fixes is not a real setup: bounded.
    for (let page = 0; page < 50; page++) {
      const users = await this.call(
        'GET',
        '/users?in_group',
        `/users?in_group=${encodeURIComponent(groupId)}&page=${page}&per_page=${PER_PAGE}`,
        undefined,
        z.array(User),
      );
      out.push(...users.filter((u) => !u.delete_at).map((u) => u.id));
      if (users.length < PER_PAGE) break;
    }
    return out;
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
