// A chat context for tests of the flows: real Redis, the given adapter and queues, cluster `c1`,
// no approvers, parents redrawn at once; `extra` adds or overrides options.

import { slackIds } from '../../src/chat/adapters/slack/ids.js';
import { type ChatContext, type ChatOptions, createChatContext } from '../../src/chat/context.js';
import { ApproverPolicy } from '../../src/chat/store/approvals.js';
import type { ChatAdapter, ChatMessage, MessageRef } from '../../src/chat/types.js';
import type { Finding } from '../../src/diagnosis/types.js';
import { silent } from './logger.js';

export function testChat(parts: Pick<ChatOptions, 'adapter' | 'redis' | 'queues'>, extra: Partial<ChatOptions> = {}): ChatContext {
  return createChatContext({
    cluster: 'c1',
    logger: silent,
    approvers: new ApproverPolicy({ approvers: [], ids: slackIds }),
    rootUpdateIntervalMs: 0,
    ...parts,
    ...extra,
  });
}

export interface Post {
  kind: 'root' | 'thread' | 'update' | 'ephemeral';
  channel: string;
  ts: string;
  parent?: string;
  user?: string;
  message: ChatMessage;
}

/** A chat adapter that records every post, update and private reply, in order; `delayMs` slows posts (races). */
export class RecordingAdapter implements ChatAdapter {
  readonly medium = 'console' as const;
  seq = 0;
  posts: Post[] = [];
  delayMs = 0;
  private async wait() {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
  }
  async postRoot(channel: string, message: ChatMessage): Promise<MessageRef> {
    await this.wait();
    const ts = `${++this.seq}.0`;
    this.posts.push({ kind: 'root', channel, ts, message });
    return { channel, ts };
  }
  async postInThread(parent: MessageRef, message: ChatMessage): Promise<MessageRef[]> {
    await this.wait();
    const ts = `${++this.seq}.0`;
    this.posts.push({ kind: 'thread', channel: parent.channel, ts, parent: parent.ts, message });
    return [{ channel: parent.channel, ts }];
  }
  async update(ref: MessageRef, message: ChatMessage): Promise<void> {
    this.posts.push({ kind: 'update', channel: ref.channel, ts: ref.ts, message });
  }
  async ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void> {
    this.posts.push({ kind: 'ephemeral', channel, ts: '', user, message, ...(thread ? { parent: thread.ts } : {}) });
  }
  of(kind: Post['kind']): Post[] {
    return this.posts.filter((p) => p.kind === kind);
  }
  /** What a parent shows now: its last update, else the message as posted. */
  shown(channel: string, ts: string): ChatMessage | undefined {
    return this.posts.filter((p) => (p.kind === 'root' || p.kind === 'update') && p.channel === channel && p.ts === ts).at(-1)?.message;
  }
  /** What `user` was told privately, as text. */
  toldTo(user: string): string[] {
    return this.of('ephemeral')
      .filter((p) => p.user === user)
      .map((p) => p.message.text);
  }
  /** What everyone in `channel` can read: roots and thread posts (not private replies). */
  publicIn(channel: string): string[] {
    return this.posts.filter((p) => (p.kind === 'root' || p.kind === 'thread') && p.channel === channel).map((p) => p.message.text);
  }
}

/** An image.auth finding on `pod/shop/web-1` (a pod elsewhere: `patch` its subject and fingerprint). */
export function testFinding(patch: Partial<Finding> = {}): Finding {
  return {
    rule: 'image.auth',
    severity: 'error',
    title: 'Image pull unauthorized: ghcr.io/acme/private:2.1',
    cause: 'The registry answered 401.',
    evidence: [{ source: 'event Failed', text: 'failed to authorize: 401 Unauthorized' }],
    advice: ['Add an imagePullSecret'],
    prevent: [],
    playbook: null,
    subject: 'pod/shop/web-1',
    causeKey: 'image/ghcr.io/acme/private:auth',
    fingerprint: 'image.auth|pod/shop/web-1|image/ghcr.io/acme/private:auth',
    params: {},
    merged: [],
    ...patch,
  };
}
