import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../types.js';
import { threadRef, userRef } from '../../types.js';
import { actionMac, escapeMarkdown, MAX_MESSAGE, MAX_POSTS, markdown, referencedUsers, renderPost, renderPosts, verifyActionMac } from './render.js';

const ALICE = 'k5z1w9mfhtgyxe7ay3b8suqkro';
const POST = 'p1z1w9mfhtgyxe7ay3b8suqkro';
const ctx = {
  usernames: { [ALICE]: 'alice' },
  actionsUrl: 'https://bot.example/mattermost/actions',
  actionSecret: 's'.repeat(32),
  serverUrl: 'https://mm.example',
};

/** What Mattermost shows of escaped Markdown: backslash escapes and the zero-width spaces gone. */
const shown = (md: string) => md.replace(/\\(.)/g, '$1').replace(/\u200B/g, '');

describe('Mattermost rendering', () => {
  it('shows untrusted text as written, never as a mention, a channel link, a Markdown link or an image', () => {
    const hostile =
      '@channel @all ~town-square [click](https://evil.example) ![img](https://evil.example/x.png) <https://evil.example> **bold** `code` # head | t';
    const md = markdown(hostile, ctx);
    expect(md).not.toMatch(/@(channel|all)\b/);
    expect(md).not.toMatch(/~town/);
    expect(md).not.toMatch(/(^|[^\\])\[click/);
    expect(md).not.toMatch(/(^|[^\\])!\[img/);
    expect(md).not.toMatch(/(^|[^\\])<https/);
    expect(shown(md)).toBe(hostile);
    // A forged reference (without the start-up key) stays text.
    expect(shown(markdown(`\uE000forged@${ALICE}\uE001`, ctx))).toBe(`forged@${ALICE}`);
  });

  it("makes pod-doctor's own user references mentions by username and thread references links", () => {
    expect(markdown(`asked by ${userRef(ALICE)}`, ctx)).toBe('asked by @alice');
    // A user without a known username is named by id, as text.
    expect(shown(markdown(userRef('u0unknown'), ctx))).toBe('@u0unknown');
    expect(markdown(`see ${threadRef({ channel: 'c1z1w9mfhtgyxe7ay3b8suqkro', ts: POST })}`, ctx)).toBe(
      `see [thread](https://mm.example/_redirect/pl/${POST})`,
    );
    expect(referencedUsers({ text: userRef(ALICE), parts: [{ kind: 'list', items: [userRef('u2')] }] })).toEqual([ALICE, 'u2']);
  });

  it('puts buttons in an attachment whose integration context carries a MAC of action and value', () => {
    const m: ChatMessage = {
      text: 'fix?',
      parts: [
        { kind: 'section', text: 'Dry run' },
        {
          kind: 'actions',
          buttons: [
            { action: 'approve', label: 'Approve', value: 'pl_1', style: 'primary' },
            { action: 'deny', label: 'Deny', value: 'pl_1' },
          ],
        },
      ],
    };
    const post = renderPost(m, ctx);
    const [approve, deny] = post.props.attachments![0]!.actions;
    expect(approve).toMatchObject({
      id: 'pdapprove',
      name: 'Approve',
      style: 'primary',
      integration: { url: ctx.actionsUrl, context: { action: 'approve', value: 'pl_1' } },
    });
    expect(deny!.id).toBe('pddeny');
    expect(verifyActionMac(ctx.actionSecret, 'approve', 'pl_1', approve!.integration.context.mac)).toBe(true);
    expect(verifyActionMac(ctx.actionSecret, 'approve', 'pl_2', approve!.integration.context.mac)).toBe(false);
    expect(verifyActionMac(ctx.actionSecret, 'deny', 'pl_1', approve!.integration.context.mac)).toBe(false);
    expect(verifyActionMac('x'.repeat(32), 'approve', 'pl_1', actionMac(ctx.actionSecret, 'approve', 'pl_1'))).toBe(false);
    expect(escapeMarkdown('a_b')).toBe('a\\_b');
  });

  it("splits a long message under Mattermost's post limit, buttons on the last post, at most MAX_POSTS posts", () => {
    const line = 'x'.repeat(99);
    const long = (n: number): ChatMessage => ({
      text: 'long',
      parts: [
        ...Array.from({ length: n }, () => ({ kind: 'code' as const, lines: Array.from({ length: 60 }, () => line) })),
        { kind: 'actions', buttons: [{ action: 'rerun', label: 'Re-run', value: 't1' }] },
      ],
    });
    const posts = renderPosts(long(5), ctx);
    expect(posts.length).toBeGreaterThan(1);
    for (const p of posts) expect(p.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    expect(posts.map((p) => p.props.attachments?.length ?? 0)).toEqual([...posts.slice(1).map(() => 0), 1]);
    const many = renderPosts(long(200), ctx);
    expect(many).toHaveLength(MAX_POSTS);
    expect(many.at(-1)!.message).toMatch(/truncated: \d+ more parts not shown/);
    for (const p of many) expect(p.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    const single = renderPost(long(200), ctx);
    expect(single.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    expect(single.props.attachments![0]!.actions[0]!.id).toBe('pdrerun');
  });
});
