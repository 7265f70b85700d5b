// The chat adapter for Slack: Block Kit through the Web API (WebClient from ./web-client.ts, which
// retries nothing itself: a post tried again after a timeout could be a second message). Unsure
// failures (a timeout, a reset, a 5xx) are tried again here; before a post goes again, its
// channel or thread is searched for a message carrying the post's key (message metadata), so
// a retried post never makes a second message. Posts draw from the per-channel
// budget every process shares (ChatLimiter); a 429 pauses that channel for Retry-After, for
// every process, and the post is tried again. Within this process a channel's posts leave one
// at a time: the findings of threads already open first, then new threads' parents, then
// follow-ups (prompts, notes). At the channel's limit a thread's findings follow its parent
// closely, and nobody's findings wait behind prompts and notes. Updates and ephemerals
// have budgets of their own and never wait for posts. A message that would break Slack's limits is
// never sent as is: it goes out as its plain-text fallback (and the renderer bug is logged).
// Every message's text is redacted before it is rendered: the last pass before anything leaves.
import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode, type WebAPIRateLimitedError, type WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type KeepField, redactDeep, redactText } from '../../../redact.js';
import { GroupLookupError, type GroupLookupFailure } from '../../errors.js';
import type { ChatAdapter, ChatFile, ChatMessage, MessageRef, PostOptions } from '../../types.js';
import { checkSlackMessage, clip, LIMITS } from './blocks/limits.js';
import { mrkdwn, renderMessages, renderSingle, type SlackBlock, type SlackMessage, withIds } from './blocks/render.js';
import { slackIds } from './ids.js';
import type { ChatLimiter } from './limiter.js';

type ChatMethod = 'chat.postMessage' | 'chat.update' | 'chat.postEphemeral';

export interface SlackAdapterOptions {
  /** Built with rejectRateLimitedCalls (createSlackWebClient): the 429s are this adapter's to wait out. */
  client: WebClient;
  /** chat.postMessage: Slack allows about one message per second per channel. */
  limiter?: ChatLimiter;
  /**
   * chat.update has a budget of its own (Slack's Tier 3, about 50 a minute for the workspace):
   * a burst of updates, or their 429, never holds back new messages to a channel.
   */
  updateLimiter?: ChatLimiter;
  /** chat.postEphemeral: Tier 4, about 100 a minute for the workspace. */
  ephemeralLimiter?: ChatLimiter;
  logger: Logger;
  /** Attempts of one call through 429s (default 5). */
  attempts?: number;
}

function isRateLimited(err: unknown): err is WebAPIRateLimitedError {
  return (err as { code?: string })?.code === ErrorCode.RateLimitedError;
}

/**
 * A failure that says nothing about whether Slack acted: no answer (a timeout, a reset
 * connection) or a 5xx. A post that failed so may have been made.
 */
function isUnsure(err: unknown): boolean {
  const e = err as { code?: string; statusCode?: number };
  return e?.code === ErrorCode.RequestError || (e?.code === ErrorCode.HTTPError && (e.statusCode ?? 0) >= 500);
}

/** Tries after an unsure failure within one call (the client itself does not retry). */
const QUICK_RETRIES = 2;
const QUICK_BACKOFF_MS = 250;
/** The metadata event type that carries a post's idempotency key. */
const POST_EVENT = 'pod_doctor_post';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A post's idempotency key as its message carries it: opaque, short, the same in every process. */
function postKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

const HistoryPage = z.object({
  messages: z
    .array(z.object({ ts: z.string(), metadata: z.object({ event_type: z.string(), event_payload: z.record(z.string(), z.unknown()) }).optional() }))
    .default([]),
});

interface QueuedPost {
  /** 0: findings of an open thread, 1: an approval prompt, 2: a new thread's parent, 3: a note. */
  rank: number;
  /** A parent whose findings come right after it: the channel keeps the next turn for them. */
  replyFollows?: boolean;
  /** A follow-up that waits while this says answers are still expected in the channel. */
  holdWhile?: () => boolean;
  queuedAt: number;
  run: () => Promise<void>;
  /** A note in a thread: notes for the same thread still queued behind it join it (one message). */
  note?: QueuedNote;
}

interface QueuedNote {
  threadTs: string;
  /** The call's arguments: a joining note adds its text and blocks here before it leaves. */
  args: { text: string; blocks: SlackBlock[] };
  done?: Promise<{ channel?: unknown; ts?: unknown }>;
}

/** Within a channel's budget, by value: findings, then approval prompts, then new threads' parents, then notes. */
const RANK = { answer: 0, prompt: 1, open: 2, 'follow-up': 3 } as const;

/** Fields of the message model that are identifiers, not text: a button's value is the opaque id the click handler looks up. */
const modelId: KeepField = (key, holder) =>
  key === 'kind' || key === 'tone' || key === 'style' || ((key === 'action' || key === 'value') && 'action' in holder);

/**
 * The message with credentials redacted in every text (fallback, headers, sections, fields, quotes,
 * lists, code, context, labels): the collector redacts the logs it keeps, this catches the rest
 * (event messages, alert annotations, anything quoted later). Before rendering, so the renderer
 * still sizes the result to Slack's limits.
 */
export function redactMessage(message: ChatMessage): ChatMessage {
  return redactDeep(message, modelId);
}

/** The longest a follow-up waits for the answers expected in its channel. */
const MAX_HOLD_MS = 60_000;
/** How long the turn after a parent is kept for its findings (they are rendered meanwhile). */
const HOLD_FOR_REPLY_MS = 500;

/** How long a channel that took a post counts as existing (its `channel_not_found` is a blip). */
const REACHED_MS = 15 * 60_000;

/** One channel's posts in this process. */
interface Lane {
  queue: QueuedPost[];
  /** The head is on its way. */
  running: boolean;
  /** Wakes a held post when an answer arrives. */
  wake?: () => void;
  /** Until when the next turn is kept for the findings of the parent just posted. */
  replyUntil: number;
}

export class SlackAdapter implements ChatAdapter {
  readonly medium = 'slack' as const;
  private readonly attempts: number;
  /** Posts waiting for their channel, per channel; a channel is in the map while it has work. */
  private readonly channels = new Map<string, Lane>();
  /** Keys of posts whose last try may have posted, with when that try left (ms). */
  private readonly unsure = new Map<string, number>();
  /** When a post or update last reached each channel (oldest first). */
  private readonly reached = new Map<string, number>();
  /** Display names looked up for write-ups (users.info), with when. */
  private readonly names = new Map<string, { name: string; at: number }>();

  constructor(private readonly options: SlackAdapterOptions) {
    this.attempts = options.attempts ?? 5;
  }

  get client(): WebClient {
    return this.options.client;
  }

  /** Never hand Slack a message it would reject. */
  private safe(m: SlackMessage, what: string): SlackMessage {
    const problems = checkSlackMessage(m);
    if (problems.length === 0) return m;
    this.options.logger.error({ problems, what }, 'rendered message breaks Slack limits; sending the plain-text fallback');
    const text = clip(m.text || 'pod-doctor', LIMITS.fallbackText);
    return { text, blocks: [{ type: 'section', text: { type: 'plain_text', text: clip(text, LIMITS.sectionText) } }] };
  }

  /**
   * Run a Web API call under its budget; on 429 pause that budget for everyone (a channel for
   * posts, the chat.update budget for updates), then try again. Ephemerals wait only themselves.
   */
  private async call<T>(
    channel: string,
    kind: 'post' | 'update' | 'ephemeral' | 'other',
    fn: () => Promise<T>,
    retry: { attempts?: number; maxWaitSeconds?: number } = {},
  ): Promise<T> {
    const limiter =
      kind === 'post'
        ? this.options.limiter
        : kind === 'update'
          ? this.options.updateLimiter
          : kind === 'ephemeral'
            ? this.options.ephemeralLimiter
            : undefined;
    const key = kind === 'update' ? 'chat.update' : kind === 'ephemeral' ? 'chat.postEphemeral' : channel;
    for (let attempt = 1; ; attempt++) {
      await limiter?.acquire(key);
      const sent = Date.now();
      try {
        const out = await fn();
        if (kind === 'post' || kind === 'update') this.noteReached(channel);
        return out;
      } catch (err) {
        // The client does not retry by itself: a repeated post could be a second message.
        // Updates and private replies are safe to send again (lookups have deadlines of their own).
        if ((kind === 'update' || kind === 'ephemeral') && isUnsure(err) && attempt <= QUICK_RETRIES) {
          await sleep(QUICK_BACKOFF_MS * 2 ** (attempt - 1));
          continue;
        }
        if (!isRateLimited(err) || attempt >= (retry.attempts ?? this.attempts)) throw err;
        const retryAfter = Math.max(1, err.retryAfter ?? 1);
        if (retryAfter > (retry.maxWaitSeconds ?? Number.POSITIVE_INFINITY)) throw err;
        this.options.logger.warn({ channel, kind, retryAfter, attempt }, 'slack rate limited; pausing that budget');
        // Every process waits out the pause in acquire(); without a limiter this call waits here.
        if (limiter) await limiter.pause(key, retryAfter);
        else await new Promise((r) => setTimeout(r, retryAfter * 1000));
      } finally {
        // Before the channel's next post asks for its token (posts to a channel leave one by one).
        await limiter?.charge(key, Date.now() - sent).catch(() => undefined);
      }
    }
  }

  private noteReached(channel: string): void {
    this.reached.delete(channel);
    this.reached.set(channel, Date.now());
    if (this.reached.size > 10_000) this.reached.delete(this.reached.keys().next().value ?? '');
  }

  /** A post or update reached `channel` within the last 15 minutes. */
  postedTo(channel: string): boolean {
    const at = this.reached.get(channel);
    return at !== undefined && Date.now() - at < REACHED_MS;
  }

  private chat(method: ChatMethod, args: Record<string, unknown>): Promise<{ channel?: unknown; ts?: unknown }> {
    return this.options.client.apiCall(method, args) as Promise<{ channel?: unknown; ts?: unknown }>;
  }

  /** Run `fn` when it is this post's turn in its channel (one at a time, by rank, then in order). */
  private inTurn<T>(channel: string, rank: number, fn: () => Promise<T>, extra: Pick<QueuedPost, 'replyFollows' | 'holdWhile' | 'note'> = {}): Promise<T> {
    const turn = new Promise<T>((resolve, reject) => {
      const item: QueuedPost = { rank, ...extra, queuedAt: Date.now(), run: () => fn().then(resolve, reject) };
      let lane = this.channels.get(channel);
      const fresh = !lane;
      if (!lane) this.channels.set(channel, (lane = { queue: [], running: false, replyUntil: 0 }));
      // Behind its own rank, ahead of lower ones (a head already on its way keeps its place).
      const at = lane.queue.findIndex((q, i) => (i > 0 || !lane.running) && q.rank > rank);
      if (at < 0) lane.queue.push(item);
      else lane.queue.splice(at, 0, item);
      lane.wake?.();
      // A lane is drained from its creation until it is empty (then it is dropped).
      if (fresh) void this.drain(channel, lane);
    });
    if (extra.note) extra.note.done = turn as Promise<{ channel?: unknown; ts?: unknown }>;
    return turn;
  }

  /**
   * A note for a thread that already has a note waiting in the channel's queue (not yet on its
   * way) joins that one: one message instead of two turns of the channel's budget. Undefined
   * when there is none, or when together they would break Slack's limits.
   */
  private joinQueuedNote(channel: string, threadTs: string, m: SlackMessage): Promise<{ channel?: unknown; ts?: unknown }> | undefined {
    const lane = this.channels.get(channel);
    const waiting = lane?.queue.find((q, i) => (i > 0 || !lane.running) && q.note?.threadTs === threadTs && q.note.done)?.note;
    if (!waiting?.done) return undefined;
    // Block ids only need to be unique within a message: numbered again.
    const joined: SlackMessage = { text: `${waiting.args.text}\n${m.text}`, blocks: withIds([...waiting.args.blocks, { type: 'divider' }, ...m.blocks]) };
    if (checkSlackMessage(joined).length > 0) return undefined;
    waiting.args.text = joined.text;
    waiting.args.blocks = joined.blocks;
    return waiting.done;
  }

  private async drain(channel: string, lane: Lane): Promise<void> {
    while (lane.queue.length > 0) {
      // The first post by rank that may go: a prompt waits while findings are still expected in
      // the channel (posted now, it would cost a later thread its turn at the limit), and the
      // posts behind it go meanwhile. A parent's findings come next: another post slipping in
      // first would cost them a turn (a second at the limit).
      for (;;) {
        const now = Date.now();
        const waitReply = lane.replyUntil - now;
        const next = lane.queue.findIndex((q) => !(q.holdWhile?.() === true && now - q.queuedAt < MAX_HOLD_MS) && (q.rank === RANK.answer || waitReply <= 0));
        if (next >= 0) {
          if (next > 0) lane.queue.unshift(...lane.queue.splice(next, 1));
          break;
        }
        const wait = waitReply > 0 ? Math.min(waitReply, 250) : 250;
        await new Promise<void>((r) => {
          const t = setTimeout(r, wait);
          lane.wake = () => {
            clearTimeout(t);
            r();
          };
        });
        lane.wake = undefined;
      }
      lane.running = true;
      const head = lane.queue[0]!;
      await head.run();
      lane.running = false;
      lane.replyUntil = head.replyFollows ? Date.now() + HOLD_FOR_REPLY_MS : 0;
      lane.queue.shift();
    }
    this.channels.delete(channel);
  }

  private async post(
    channel: string,
    m: SlackMessage,
    threadTs: string | undefined,
    rank: number,
    extra: Pick<QueuedPost, 'replyFollows' | 'holdWhile'> = {},
    key: string = randomUUID(),
    alone = false,
  ): Promise<MessageRef> {
    const msg = this.safe(m, 'chat.postMessage');
    const idem = postKey(key);
    const args = {
      channel,
      text: msg.text,
      blocks: msg.blocks,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: POST_EVENT, event_payload: { key: idem } },
    };
    const isNote = rank === RANK['follow-up'] && threadTs !== undefined && !alone;
    const joined = isNote ? this.joinQueuedNote(channel, threadTs, msg) : undefined;
    const note: QueuedNote | undefined = isNote && !joined ? { threadTs, args } : undefined;
    const res = await (joined ?? this.inTurn(channel, rank, () => this.postOnce(channel, threadTs, idem, args), { ...extra, ...(note ? { note } : {}) }));
    return { channel: typeof res.channel === 'string' ? res.channel : channel, ts: typeof res.ts === 'string' ? res.ts : '' };
  }

  /**
   * chat.postMessage that never makes a second message: after a failure that may have posted (a
   * timeout, a 5xx), the channel (or thread) is searched for a message carrying this post's key
   * before it is sent again, here or when the caller retries the same post later.
   */
  private async postOnce(
    channel: string,
    threadTs: string | undefined,
    key: string,
    args: Record<string, unknown>,
  ): Promise<{ channel?: unknown; ts?: unknown }> {
    for (let attempt = 1; ; attempt++) {
      const since = this.unsure.get(key);
      if (since !== undefined) {
        const found = await this.findPosted(channel, threadTs, key, since);
        if (found) {
          this.unsure.delete(key);
          this.options.logger.info({ channel, ts: found }, 'post had arrived after all; not sent again');
          return { channel, ts: found };
        }
      }
      const sent = Date.now();
      try {
        const res = await this.call(channel, 'post', () => this.chat('chat.postMessage', args));
        this.unsure.delete(key);
        return res;
      } catch (err) {
        if (!isUnsure(err)) throw err;
        if (since === undefined) this.noteUnsure(key, sent);
        if (attempt > QUICK_RETRIES) throw err;
        await sleep(QUICK_BACKOFF_MS * 2 ** (attempt - 1));
      }
    }
  }

  private noteUnsure(key: string, at: number): void {
    this.unsure.set(key, at);
    if (this.unsure.size > 10_000) this.unsure.delete(this.unsure.keys().next().value ?? '');
  }

  /**
   * The ts of a message carrying `key` posted since `since` (ms) in the channel or thread;
   * undefined when there is none or it cannot be read (then the post goes again: a message twice
   * is better than none).
   */
  private async findPosted(channel: string, threadTs: string | undefined, key: string, since: number): Promise<string | undefined> {
    const oldest = ((since - 10_000) / 1000).toFixed(6);
    const args = { channel, oldest, inclusive: true, limit: 200, include_all_metadata: true };
    try {
      const page = HistoryPage.parse(
        await this.call(channel, 'other', () =>
          threadTs
            ? this.options.client.apiCall('conversations.replies', { ...args, ts: threadTs })
            : this.options.client.apiCall('conversations.history', args),
        ),
      );
      return page.messages.find((m) => m.metadata?.event_type === POST_EVENT && m.metadata.event_payload.key === key)?.ts;
    } catch (err) {
      this.options.logger.warn({ err, channel, code: (err as { data?: { error?: string } }).data?.error }, 'could not look for an earlier post; posting again');
      return undefined;
    }
  }

  async postRoot(channel: string, message: ChatMessage, options: PostOptions = {}): Promise<MessageRef> {
    return this.post(
      channel,
      renderSingle(redactMessage(message)),
      undefined,
      RANK[options.priority ?? 'open'],
      options.replyFollows ? { replyFollows: true } : {},
      options.key === undefined ? undefined : `${channel}|${options.key}`,
    );
  }

  async postInThread(parent: MessageRef, message: ChatMessage, options: PostOptions = {}): Promise<MessageRef[]> {
    const out: MessageRef[] = [];
    const extra = options.holdWhile ? { holdWhile: options.holdWhile } : {};
    const parts = renderMessages(redactMessage(message));
    for (const [i, m] of parts.entries()) {
      const key = options.key === undefined ? undefined : `${parent.channel}|${parent.ts}|${options.key}|${i}`;
      out.push(
        await this.post(parent.channel, m, parent.ts, RANK[options.priority ?? 'follow-up'], extra, key, options.editedLater === true || parts.length > 1),
      );
    }
    return out;
  }

  /**
   * A file in the thread, the way files.uploadV2 does it: files.getUploadURLExternal for an upload
   * URL, the bytes POSTed there, then files.completeUploadExternal shares it in the thread. The
   * content and comment are redacted here, the last pass before anything leaves. Takes the
   * channel's turn like a post (the share is a message in the thread).
   */
  async postFile(parent: MessageRef, file: ChatFile): Promise<void> {
    const content = Buffer.from(redactText(file.content), 'utf8');
    const comment = mrkdwn(redactText(file.comment));
    await this.inTurn(parent.channel, RANK['follow-up'], () =>
      this.call(parent.channel, 'post', async () => {
        const got = UploadUrl.parse(await this.options.client.apiCall('files.getUploadURLExternal', { filename: file.filename, length: content.length }));
        const res = await fetch(got.upload_url, { method: 'POST', body: content, headers: { 'content-type': 'application/octet-stream' } });
        if (!res.ok) throw new Error(`file upload answered HTTP ${res.status}`);
        await this.options.client.apiCall('files.completeUploadExternal', {
          files: JSON.stringify([{ id: got.file_id, title: file.title }]),
          channel_id: parent.channel,
          thread_ts: parent.ts,
          initial_comment: comment,
        });
      }),
    );
  }

  /**
   * Display names by users.info (`users:read`), remembered for an hour; an id Slack will not
   * name (no scope, a deleted user, an error) is left out: the write-up shows the id instead.
   */
  async userNames(ids: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const id of new Set(ids)) {
      if (!slackIds.isUser(id)) continue;
      const known = this.names.get(id);
      if (known && Date.now() - known.at < NAME_TTL_MS) {
        out[id] = known.name;
        continue;
      }
      try {
        const info = UserInfo.safeParse(
          await this.call('users', 'other', () => this.options.client.apiCall('users.info', { user: id }), { attempts: 2, maxWaitSeconds: 2 }),
        );
        const u = info.success ? info.data.user : undefined;
        const name = [u?.profile?.display_name, u?.profile?.real_name, u?.real_name, u?.name].find((n) => n?.trim())?.trim();
        if (!name) continue;
        // A profile name is the person's own text: one short line, no control characters.
        const clean = name.replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, 80);
        this.names.set(id, { name: clean, at: Date.now() });
        out[id] = clean;
      } catch (err) {
        this.options.logger.debug({ err, user: id }, 'users.info failed; the id is shown');
      }
    }
    return out;
  }

  async update(ref: MessageRef, message: ChatMessage): Promise<void> {
    const msg = this.safe(renderSingle(redactMessage(message)), 'chat.update');
    await this.call(ref.channel, 'update', () => this.chat('chat.update', { channel: ref.channel, ts: ref.ts, text: msg.text, blocks: msg.blocks }));
  }

  async ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void> {
    const msg = this.safe(renderSingle(redactMessage(message)), 'chat.postEphemeral');
    await this.call(channel, 'ephemeral', () =>
      this.chat('chat.postEphemeral', { channel, user, text: msg.text, blocks: msg.blocks, ...(thread ? { thread_ts: thread.ts } : {}) }),
    );
  }

  /**
   * Members of a user group (approver lists and the access policy name groups by id). Someone is
   * waiting on it (a click, a command's acknowledgement): a 429 is retried once, after at most
   * GROUP_LOOKUP_MAX_WAIT_S. A failure is a GroupLookupError saying how it failed.
   */
  async groupMembers(usergroup: string): Promise<string[]> {
    try {
      const res = await this.call('usergroups', 'other', () => this.options.client.usergroups.users.list({ usergroup }), {
        attempts: 2,
        maxWaitSeconds: GROUP_LOOKUP_MAX_WAIT_S,
      });
      return res.users ?? [];
    } catch (err) {
      throw groupLookupError(usergroup, err);
    }
  }
}

const UserInfo = z.object({
  user: z.object({
    name: z.string().optional(),
    real_name: z.string().optional(),
    profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});
/** How long a looked-up display name is used before it is asked again. */
const NAME_TTL_MS = 3_600_000;

const UploadUrl = z.object({ upload_url: z.string().url(), file_id: z.string().min(1) });

/** The longest Retry-After a user group lookup waits out before it counts as failed. */
export const GROUP_LOOKUP_MAX_WAIT_S = 2;

function groupLookupError(group: string, err: unknown): GroupLookupError {
  const e = err as { code?: string; data?: { error?: string }; statusCode?: number; retryAfter?: number };
  const [failure, detail]: [GroupLookupFailure, string] =
    e?.code === ErrorCode.PlatformError
      ? ['platform', e.data?.error ?? 'ok: false']
      : e?.code === ErrorCode.RateLimitedError
        ? ['rate-limited', `retry after ${e.retryAfter ?? '?'} s`]
        : e?.code === ErrorCode.HTTPError
          ? ['http', `HTTP ${e.statusCode ?? '?'}`]
          : e?.code === ErrorCode.RequestError
            ? ['network', 'no answer']
            : ['unknown', err instanceof Error ? err.message : String(err)];
  return new GroupLookupError(group, failure, detail, { cause: err });
}
