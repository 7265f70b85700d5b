// The chat adapter for Mattermost: the message model rendered as Markdown posts with signed
// integration buttons (./render.ts), delivered through the REST API v4 (./api.ts). A thread is a
// root post and replies carrying its `root_id`; an update is a patch of the post; a private
// answer is an ephemeral post. Posts to a channel leave one at a time in this process (findings
// first, then prompts, new threads' parents, then notes) and draw from a per-channel budget that
// every process shares; the server's own limit (per token) is the client's budget. A post carries
// a pending_post_id derived from its key: Mattermost answers a retry of it (after a timeout) with
// the post it already made, so a retried post never makes a second one. Every message is
// redacted before it is rendered: the last pass before anything leaves.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { type KeepField, redactDeep } from '../../../redact.js';
import { GroupLookupError, type GroupLookupFailure } from '../../errors.js';
import type { ChatAdapter, ChatMessage, MessageRef, PostOptions } from '../../types.js';
import { type CallBudget, MattermostApiError, type MattermostClient, type NewPost } from './api.js';
import { groupIdOf, mattermostIds } from './ids.js';
import { type MattermostMessage, type RenderContext, referencedUsers, renderPost, renderPosts } from './render.js';

export interface MattermostAdapterOptions {
  client: MattermostClient;
  /** Where buttons post, their MAC key, the server's URL (thread links). */
  render: Omit<RenderContext, 'usernames'>;
  /** Posts per channel, shared by every process (a Redis token bucket: ChatLimiter). */
  limiter?: CallBudget & { charge?(key: string, ms: number): Promise<void> };
  logger: Logger;
}

/** Fields of the message model that are identifiers, not text (a button's value is an opaque id). */
const modelId: KeepField = (key, holder) =>
  key === 'kind' || key === 'tone' || key === 'style' || ((key === 'action' || key === 'value') && 'action' in holder);

const RANK = { answer: 0, prompt: 1, open: 2, 'follow-up': 3 } as const;
/** How long a channel that took a post counts as existing (its 404 is a blip). */
const REACHED_MS = 15 * 60_000;
/** How long a looked-up username is used before it is asked again. */
const NAME_TTL_MS = 3_600_000;
/** The longest a follow-up waits for the answers expected in its channel. */
const MAX_HOLD_MS = 60_000;

interface Queued {
  rank: number;
  holdWhile?: () => boolean;
  queuedAt: number;
  run: () => Promise<void>;
}

/**
 * Mattermost's answer as the chat flows classify errors (chat/errors.ts reads `data.error`): a
 * refused message or a missing permission will not get better by retrying; a missing channel
 * is a blip when the channel took posts lately; 401 comes and goes (a token rotation).
 */
function classified(err: unknown, what: 'post' | 'patch' | 'ephemeral'): unknown {
  if (!(err instanceof MattermostApiError) || err.failure !== 'http') return err;
  const code =
    err.status === 400
      ? 'invalid_blocks'
      : err.status === 403
        ? 'restricted_action'
        : err.status === 404
          ? what === 'patch'
            ? 'message_not_found'
            : 'channel_not_found'
          : err.status === 401
            ? 'invalid_auth'
            : undefined;
  if (code) Object.assign(err, { data: { error: code } });
  return err;
}

/** The post prop that carries a post's key (hashed): a retry finds the post an unsure try made. */
const MARK_PROP = 'pod_doctor_key';

/** A post's key as its post carries it: opaque, short, the same in every process. */
function postMark(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

/** A post's pending_post_id: the same for every try of one post (key and first try), shaped as Mattermost's clients make it. */
function pendingPostId(key: string | undefined, at: number): string {
  const id = createHash('sha256')
    .update(key ?? `${at}:${Math.random()}`)
    .digest('hex')
    .slice(0, 26);
  return `${id}:${at}`;
}

export class MattermostAdapter implements ChatAdapter {
  readonly medium = 'mattermost' as const;
  private readonly lanes = new Map<string, { queue: Queued[]; running: boolean }>();
  private readonly reached = new Map<string, number>();
  private readonly names = new Map<string, { username: string; display: string; at: number }>();
  /** Direct channels with users (a post "to a user" goes there), by user id. */
  private readonly directs = new Map<string, string>();
  private botUserId: Promise<string> | undefined;
  /** pending_post_ids of keyed posts whose last try may have posted, with when it was first tried. */
  private readonly pending = new Map<string, number>();

  constructor(private readonly options: MattermostAdapterOptions) {}

  get client(): MattermostClient {
    return this.options.client;
  }

  /** Run `fn` when it is this post's turn in its channel: one at a time, by rank, then in order. */
  private inTurn<T>(channel: string, rank: number, fn: () => Promise<T>, holdWhile?: () => boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const item: Queued = { rank, queuedAt: Date.now(), run: () => fn().then(resolve, reject), ...(holdWhile ? { holdWhile } : {}) };
      let lane = this.lanes.get(channel);
      const fresh = !lane;
      if (!lane) this.lanes.set(channel, (lane = { queue: [], running: false }));
      const at = lane.queue.findIndex((q, i) => (i > 0 || !lane.running) && q.rank > rank);
      if (at < 0) lane.queue.push(item);
      else lane.queue.splice(at, 0, item);
      if (fresh) void this.drain(channel, lane);
    });
  }

  private async drain(channel: string, lane: { queue: Queued[]; running: boolean }): Promise<void> {
    while (lane.queue.length > 0) {
      // A follow-up held while answers are expected lets the posts behind it go first.
      const now = Date.now();
      const next = lane.queue.findIndex((q) => !(q.holdWhile?.() === true && now - q.queuedAt < MAX_HOLD_MS));
      if (next < 0) {
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      const [head] = lane.queue.splice(next, 1);
      lane.running = true;
      await head!.run();
      lane.running = false;
    }
    this.lanes.delete(channel);
  }

  private noteReached(channel: string): void {
    this.reached.delete(channel);
    this.reached.set(channel, Date.now());
    if (this.reached.size > 10_000) this.reached.delete(this.reached.keys().next().value ?? '');
  }

  postedTo(channel: string): boolean {
    const at = this.reached.get(channel);
    return at !== undefined && Date.now() - at < REACHED_MS;
  }

  /** The render context with the usernames of the users `message` mentions (best effort: unknown ids stay text). */
  private async context(message: ChatMessage): Promise<RenderContext> {
    const ids = referencedUsers(message).filter((id) => mattermostIds.isUser(id));
    await this.lookUp(ids);
    const usernames: Record<string, string> = {};
    for (const id of ids) {
      const known = this.names.get(id);
      if (known) usernames[id] = known.username;
    }
    return { ...this.options.render, usernames };
  }

  /** Users not known (or known too long) looked up in one call; a failure leaves them unnamed. */
  private async lookUp(ids: readonly string[]): Promise<void> {
    const now = Date.now();
    const missing = [...new Set(ids)].filter((id) => mattermostIds.isUser(id) && !((this.names.get(id)?.at ?? 0) > now - NAME_TTL_MS));
    if (missing.length === 0) return;
    try {
      for (const u of await this.options.client.usersByIds(missing)) {
        const full = [u.first_name, u.last_name].filter((n) => n?.trim()).join(' ');
        // A profile name is the person's own text: one short line, no control characters.
        const display = (u.nickname?.trim() || full || u.username).replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, 80);
        if (/^[a-z0-9._-]{1,64}$/i.test(u.username)) this.names.set(u.id, { username: u.username, display, at: now });
      }
      while (this.names.size > 10_000) this.names.delete(this.names.keys().next().value ?? '');
    } catch (err) {
      this.options.logger.debug({ err }, 'mattermost users lookup failed; ids are shown');
    }
  }

  private async render(message: ChatMessage): Promise<{ ctx: RenderContext; redacted: ChatMessage }> {
    const redacted = redactDeep(message, modelId);
    return { ctx: await this.context(redacted), redacted };
  }

  /** A message as one redacted post body (a slash command's answer). */
  async renderOne(message: ChatMessage): Promise<MattermostMessage> {
    const { ctx, redacted } = await this.render(message);
    return renderPost(redacted, ctx);
  }

  /** One post in its channel's turn and budget; tried again (same pending_post_id) by the client after an unsure failure. */
  private async post(channel: string, m: MattermostMessage, rootId: string | undefined, rank: number, key: string | undefined, holdWhile?: () => boolean) {
    const first = key === undefined ? undefined : this.pending.get(key);
    const at = first ?? Date.now();
    const mark = key === undefined ? undefined : postMark(key);
    const body: NewPost = {
      channel_id: channel,
      message: m.message,
      props: { ...m.props, ...(mark ? { [MARK_PROP]: mark } : {}) },
      pending_post_id: pendingPostId(key, at),
      ...(rootId ? { root_id: rootId } : {}),
    };
    return this.inTurn(
      channel,
      rank,
      async () => {
        // An earlier try that may have posted (past Mattermost's 30 s pending-post dedup): look for it first.
        const found = first !== undefined && mark ? await this.findPosted(channel, rootId, mark, first) : undefined;
        if (found) {
          if (key !== undefined) this.pending.delete(key);
          this.options.logger.info({ channel, post: found }, 'post had arrived after all; not sent again');
          return { channel, ts: found } satisfies MessageRef;
        }
        const { limiter } = this.options;
        await limiter?.acquire(channel);
        const sent = Date.now();
        try {
          const post = await this.options.client.createPost(body);
          if (key !== undefined) this.pending.delete(key);
          this.noteReached(channel);
          return { channel: post.channel_id || channel, ts: post.id } satisfies MessageRef;
        } catch (err) {
          // No answer or a 5xx: it may have posted. A later retry of the same post (the delivery's) looks for it.
          const unsure = !(err instanceof MattermostApiError) || err.failure === 'network' || (err.failure === 'http' && err.status >= 500);
          if (key !== undefined && unsure && first === undefined) {
            this.pending.set(key, at);
            if (this.pending.size > 10_000) this.pending.delete(this.pending.keys().next().value ?? '');
          }
          throw classified(err, 'post');
        } finally {
          await limiter?.charge?.(channel, Date.now() - sent).catch(() => undefined);
        }
      },
      holdWhile,
    );
  }

  /**
   * The id of a post carrying `mark` made since `since` (ms) in the channel (in the thread of
   * `rootId`); undefined when there is none or it cannot be read (then the post goes again: a
   * message twice is better than none).
   */
  private async findPosted(channel: string, rootId: string | undefined, mark: string, since: number): Promise<string | undefined> {
    try {
      const posts = await this.options.client.postsSince(channel, since - 10_000);
      return posts.find((p) => p.props?.[MARK_PROP] === mark && (p.root_id || undefined) === rootId)?.id;
    } catch (err) {
      this.options.logger.warn({ err, channel }, 'could not look for an earlier post; posting again');
      return undefined;
    }
  }

  /**
   * A new post in a channel; `channel` may be a user's id (a direct message, as Slack takes one):
   * a post refused there is sent to the direct channel with that user when the id is a user's.
   */
  async postRoot(channel: string, message: ChatMessage, options: PostOptions = {}): Promise<MessageRef> {
    const { ctx, redacted } = await this.render(message);
    const send = (to: string) =>
      this.post(to, renderPost(redacted, ctx), undefined, RANK[options.priority ?? 'open'], options.key === undefined ? undefined : `${to}|${options.key}`);
    const direct = this.directs.get(channel);
    if (direct) return send(direct);
    try {
      return await send(channel);
    } catch (err) {
      const refused = err instanceof MattermostApiError && err.failure === 'http' && [400, 403, 404].includes(err.status);
      const dm = refused ? await this.directChannelWith(channel) : undefined;
      if (!dm) throw err;
      return send(dm);
    }
  }

  /** The direct channel between the bot and `user`; undefined when `user` is no user's id (or it cannot be made). */
  private async directChannelWith(user: string): Promise<string | undefined> {
    try {
      if (!(await this.options.client.usersByIds([user])).some((u) => u.id === user)) return undefined;
      this.botUserId ??= this.options.client.me().then((me) => me.id);
      const bot = await this.botUserId.catch((err: unknown) => {
        this.botUserId = undefined;
        throw err;
      });
      const { id } = await this.options.client.directChannel(bot, user);
      this.directs.set(user, id);
      if (this.directs.size > 10_000) this.directs.delete(this.directs.keys().next().value ?? '');
      return id;
    } catch (err) {
      this.options.logger.warn({ err, user }, 'no direct channel with the user');
      return undefined;
    }
  }

  async postInThread(parent: MessageRef, message: ChatMessage, options: PostOptions = {}): Promise<MessageRef[]> {
    const { ctx, redacted } = await this.render(message);
    const out: MessageRef[] = [];
    for (const [i, m] of renderPosts(redacted, ctx).entries()) {
      const key = options.key === undefined ? undefined : `${parent.channel}|${parent.ts}|${options.key}|${i}`;
      out.push(await this.post(parent.channel, m, parent.ts, RANK[options.priority ?? 'follow-up'], key, options.holdWhile));
    }
    return out;
  }

  async update(ref: MessageRef, message: ChatMessage): Promise<void> {
    const { ctx, redacted } = await this.render(message);
    const m = renderPost(redacted, ctx);
    try {
      // Props replaced whole: buttons of a decided prompt are gone.
      await this.options.client.patchPost(ref.ts, { message: m.message, props: { attachments: m.props.attachments ?? [] } });
      this.noteReached(ref.channel);
    } catch (err) {
      throw classified(err, 'patch');
    }
  }

  async ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void> {
    const { ctx, redacted } = await this.render(message);
    const m = renderPost(redacted, ctx);
    try {
      await this.options.client.createEphemeral(user, { channel_id: channel, message: m.message, props: m.props, ...(thread ? { root_id: thread.ts } : {}) });
    } catch (err) {
      throw classified(err, 'ephemeral');
    }
  }

  /** Display names (nickname, else first and last name, else username) by POST /users/ids; unknown ids are left out. */
  async userNames(ids: readonly string[]): Promise<Record<string, string>> {
    await this.lookUp(ids);
    const out: Record<string, string> = {};
    for (const id of ids) {
      const known = this.names.get(id);
      if (known) out[id] = known.display;
    }
    return out;
  }

  /** Members of an approver group (`group:<id>`), by GET /users?in_group=. A failure is a GroupLookupError. */
  async groupMembers(group: string): Promise<string[]> {
    const id = groupIdOf(group);
    if (!id) throw new GroupLookupError(group, 'unknown', 'not a Mattermost group (group:<id>)');
    try {
      return await this.options.client.groupMembers(id);
    } catch (err) {
      const e = err instanceof MattermostApiError ? err : undefined;
      const failure: GroupLookupFailure =
        e?.failure === 'http' ? 'http' : e?.failure === 'rate-limited' ? 'rate-limited' : e?.failure === 'network' ? 'network' : 'unknown';
      throw new GroupLookupError(group, failure, e ? `HTTP ${e.status}${e.errorId ? ` ${e.errorId}` : ''}` : String(err), { cause: err });
    }
  }
}
