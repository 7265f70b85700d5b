// The chat adapter for Slack: Block Kit through the Web API. Posts draw from the per-channel
// budget every process shares (ChatLimiter); a 429 pauses that channel for Retry-After, for
// every process, and the post is tried again. A message that would break Slack's limits is
// never sent as is: it goes out as its plain-text fallback (and the renderer bug is logged).
import { ErrorCode, type WebAPIRateLimitedError, type WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { ChatLimiter } from '../limiter.js';
import type { ChatAdapter, ChatMessage, MessageRef } from '../types.js';
import { checkSlackMessage, clip, LIMITS } from './blocks/limits.js';
import { renderMessages, renderSingle, type SlackMessage } from './blocks/render.js';
import type { SlackApi } from './web-api.js';

type ChatMethod = 'chat.postMessage' | 'chat.update' | 'chat.postEphemeral';

export interface SlackAdapterOptions {
  client: WebClient;
  /** The lean caller for the chat.* methods every diagnosis uses (else `client` makes them). */
  api?: Pick<SlackApi, 'call'>;
  /** chat.postMessage: Slack allows about one message per second per channel. */
  limiter?: ChatLimiter;
  /**
   * chat.update has a budget of its own (Slack's Tier 3, about 50 a minute for the workspace):
   * a burst of updates, or their 429, never holds back new messages to a channel.
   */
  updateLimiter?: ChatLimiter;
  logger: Logger;
  /** Attempts of one call through 429s (default 5). */
  attempts?: number;
}

function isRateLimited(err: unknown): err is WebAPIRateLimitedError {
  return (err as { code?: string })?.code === ErrorCode.RateLimitedError;
}

export class SlackAdapter implements ChatAdapter {
  readonly medium = 'slack' as const;
  private readonly attempts: number;

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
  private async call<T>(channel: string, kind: 'post' | 'update' | 'other', fn: () => Promise<T>): Promise<T> {
    const limiter = kind === 'post' ? this.options.limiter : kind === 'update' ? this.options.updateLimiter : undefined;
    const key = kind === 'update' ? 'chat.update' : channel;
    for (let attempt = 1; ; attempt++) {
      await limiter?.acquire(key);
      try {
        return await fn();
      } catch (err) {
        if (!isRateLimited(err) || attempt >= this.attempts) throw err;
        const retryAfter = Math.max(1, err.retryAfter ?? 1);
        this.options.logger.warn({ channel, kind, retryAfter, attempt }, 'slack rate limited; pausing that budget');
        // Every process waits out the pause in acquire(); without a limiter this call waits here.
        if (limiter) await limiter.pause(key, retryAfter);
        else await new Promise((r) => setTimeout(r, retryAfter * 1000));
      }
    }
  }

  private chat(method: ChatMethod, args: Record<string, unknown>): Promise<{ channel?: unknown; ts?: unknown }> {
    return this.options.api ? this.options.api.call(method, args) : (this.options.client.apiCall(method, args) as Promise<{ channel?: unknown; ts?: unknown }>);
  }

  private async post(channel: string, m: SlackMessage, threadTs?: string): Promise<MessageRef> {
    const msg = this.safe(m, 'chat.postMessage');
    const res = await this.call(channel, 'post', () =>
      this.chat('chat.postMessage', {
        channel,
        text: msg.text,
        blocks: msg.blocks,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
    return { channel: typeof res.channel === 'string' ? res.channel : channel, ts: typeof res.ts === 'string' ? res.ts : '' };
  }

  async postRoot(channel: string, message: ChatMessage): Promise<MessageRef> {
    return this.post(channel, renderSingle(message));
  }

  async postInThread(parent: MessageRef, message: ChatMessage): Promise<MessageRef[]> {
    const out: MessageRef[] = [];
    for (const m of renderMessages(message)) out.push(await this.post(parent.channel, m, parent.ts));
    return out;
  }

  async update(ref: MessageRef, message: ChatMessage): Promise<void> {
    const msg = this.safe(renderSingle(message), 'chat.update');
    await this.call(ref.channel, 'update', () => this.chat('chat.update', { channel: ref.channel, ts: ref.ts, text: msg.text, blocks: msg.blocks }));
  }

  async ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void> {
    const msg = this.safe(renderSingle(message), 'chat.postEphemeral');
    await this.call(channel, 'other', () =>
      this.chat('chat.postEphemeral', { channel, user, text: msg.text, blocks: msg.blocks, ...(thread ? { thread_ts: thread.ts } : {}) }),
    );
  }

  /** Members of a user group (approver lists name groups by id). */
  async groupMembers(usergroup: string): Promise<string[]> {
    const res = await this.call('usergroups', 'other', () => this.options.client.usergroups.users.list({ usergroup }));
    return res.users ?? [];
  }
}
