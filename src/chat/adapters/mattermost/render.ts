// The chat message model as Mattermost posts: Markdown in `message`, buttons as interactive
// message attachments whose integration posts back to the bot (/mattermost/actions) with a
// context pod-doctor signed. Text from alerts and the cluster is escaped: Markdown punctuation is
// backslash-escaped, and a zero-width space after `@` and `~` keeps `@channel`, `@someone` and
// `~town-square` from becoming mentions (which would notify people) or channel links. Only a
// `userRef()` becomes a mention, by the username the adapter looked up. A post longer than
// Mattermost's 16,383 characters is split (at most MAX_POSTS, the rest summarised).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ActionKind, Button, ChatMessage, MessageRef, Part, Tone } from '../../types.js';
import { splitUserRefs } from '../../types.js';
import { isPostId } from './ids.js';

/** Mattermost refuses a post whose message has more characters than this. */
export const MAX_MESSAGE = 16_383;
/** Text packed per post, below the limit so edits and the notice never tip it over. */
const POST_BUDGET = 15_000;
/** A post never becomes more than this many posts; the rest is summarised. */
export const MAX_POSTS = 6;
/** One quoted piece of evidence never takes more than this. */
const QUOTE_MAX = 1500;
const LABEL_MAX = 80;
const BUTTON_MAX = 75;

const ICON: Record<Tone, string> = {
  critical: ':red_circle:',
  error: ':large_orange_circle:',
  warning: ':warning:',
  info: ':large_blue_circle:',
  ok: ':white_check_mark:',
  pending: ':hourglass_flowing_sand:',
  neutral: '',
};

/** What a renderer needs from its adapter: usernames for mentions, addresses for buttons and threads. */
export interface RenderContext {
  /** Mattermost user id → username (mentions); an id without one is shown as text. */
  usernames: Readonly<Record<string, string>>;
  /** <publicUrl>/mattermost/actions: where buttons post their context. */
  actionsUrl: string;
  /** The key of each button context's MAC. */
  actionSecret: string;
  /** The Mattermost server's base URL (thread links: /_redirect/pl/<post id>). */
  serverUrl: string;
}

/** One Mattermost post body: its Markdown and its attachments (the buttons). */
export interface MattermostMessage {
  message: string;
  props: { attachments?: Attachment[] };
}

export interface Attachment {
  fallback?: string;
  text?: string;
  actions: ActionButton[];
}

export interface ActionButton {
  id: string;
  name: string;
  type: 'button';
  style?: 'primary' | 'danger' | 'default';
  integration: { url: string; context: ActionContext };
}

/** What Mattermost posts back when a button is clicked: the action, the opaque value and their MAC. */
export interface ActionContext {
  action: ActionKind;
  value: string;
  mac: string;
}

/** The MAC of a button's context: HMAC-SHA256 over action and value, so only contexts pod-doctor made are accepted. */
export function actionMac(secret: string, action: string, value: string): string {
  return createHmac('sha256', secret).update(`${action}\n${value}`).digest('base64url');
}

export function verifyActionMac(secret: string, action: string, value: string, mac: string): boolean {
  const want = Buffer.from(actionMac(secret, action, value));
  const got = Buffer.from(mac);
  return got.length === want.length && timingSafeEqual(got, want);
}

const ZWSP = '\u200B';

/**
 * Untrusted text as Markdown that shows it as written: punctuation that makes links, images,
 * emphasis, code, tables, headings or quotes is backslash-escaped; `@` and `~` get a zero-width
 * space after them (no mention, no channel link, no notification).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|&]/g, '\\$&').replace(/([@~])/g, `$1${ZWSP}`);
}

/** A thread's address on the server: a permalink that opens the post in its team. */
export function threadUrl(serverUrl: string, ref: MessageRef): string {
  return `${serverUrl.replace(/\/+$/, '')}/_redirect/pl/${ref.ts}`;
}

/** Model text as Markdown: plain runs escaped, user references as mentions, thread references as links. */
export function markdown(text: string, ctx: Pick<RenderContext, 'usernames' | 'serverUrl'>): string {
  return splitUserRefs(text)
    .map((p) => {
      if ('user' in p) {
        const name = ctx.usernames[p.user];
        return name ? `@${name}` : escapeMarkdown(`@${p.user}`);
      }
      if ('thread' in p) return isPostId(p.thread.ts) ? `[thread](${threadUrl(ctx.serverUrl, p.thread)})` : 'thread';
      return escapeMarkdown(p.text);
    })
    .join('');
}

/** Model text as plain words (button labels): references as names. */
function plain(text: string, ctx: Pick<RenderContext, 'usernames'>): string {
  return splitUserRefs(text)
    .map((p) => ('user' in p ? `@${ctx.usernames[p.user] ?? p.user}` : 'thread' in p ? 'thread' : p.text))
    .join('');
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`);

function truncateVisibly(text: string, max: number): string {
  if (text.length <= max) return text;
  const notice = (n: number) => `… (truncated, ${n} more characters)`;
  const keep = Math.max(0, max - notice(text.length).length);
  return `${text.slice(0, keep)}${notice(text.length - keep)}`;
}

/** Split text into chunks of at most `max` characters, at line ends where possible. */
function chunkText(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = max;
    // Never cut after an escaping backslash (it would escape the next chunk's first character).
    while (cut > 1 && rest[cut - 1] === '\\') cut--;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  if (rest.length > 0 || out.length === 0) out.push(rest);
  return out;
}

function labelled(label: string | undefined, tone: Tone | undefined, body: string): string {
  const icon = tone ? ICON[tone] : '';
  const head = `${icon ? `${icon} ` : ''}${label ? `**${escapeMarkdown(clip(label, LABEL_MAX))}**` : ''}`;
  return head ? (label ? `${head}\n${body}` : `${head}${body}`) : body;
}

/** One part as Markdown blocks (several when its text is long, so pages can break between them). */
export function partMarkdown(part: Exclude<Part, { kind: 'actions' }>, ctx: RenderContext): string[] {
  const md = (t: string) => markdown(t, ctx);
  switch (part.kind) {
    case 'header':
      return [`#### ${escapeMarkdown(clip(plain(part.text, ctx), 150)) || ' '}`];
    case 'section':
      return chunkText(labelled(part.label, part.tone, md(part.text)), POST_BUDGET / 2);
    case 'fields':
      return [part.fields.map((f) => `**${escapeMarkdown(clip(f.label, LABEL_MAX))}:** ${truncateVisibly(md(f.value), 2000)}`).join('\n')];
    case 'quote': {
      const quoted = escapeMarkdown(truncateVisibly(part.text, QUOTE_MAX))
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
      return [`_${escapeMarkdown(part.source)}_\n${quoted}`];
    }
    case 'list':
      return chunkText(labelled(part.label, undefined, part.items.map((i) => `- ${md(i)}`).join('\n')), POST_BUDGET / 2);
    case 'code': {
      // Inside a fence nothing is interpreted (no mention, no link); only a fence could end it.
      const body = part.lines.map((l) => l.replace(/```/g, "'''")).join('\n');
      const head = part.label ? `**${escapeMarkdown(part.label)}**\n` : '';
      return chunkText(body, POST_BUDGET / 2 - 20).map((c, i) => `${i === 0 ? head : ''}\`\`\`\n${c}\n\`\`\``);
    }
    case 'context':
      return [truncateVisibly(md(part.text), 3000)];
    case 'divider':
      return ['---'];
  }
}

/** Button ids: letters and digits only (Mattermost's action ids), unique within a post. */
const BUTTON_IDS: Record<ActionKind, string> = {
  approve: 'pdapprove',
  deny: 'pddeny',
  rerun: 'pdrerun',
  writeup: 'pdwriteup',
  'not-a-problem': 'pdnotaproblem',
  'silence-1h': 'pdsilence1h',
  'silence-4h': 'pdsilence4h',
  'silence-24h': 'pdsilence24h',
  unsilence: 'pdunsilence',
  mute: 'pdmute',
  unmute: 'pdunmute',
};

function button(b: Button, nth: number, ctx: RenderContext): ActionButton {
  if (b.value.length > 2000) throw new Error(`button value of ${b.value.length} characters: buttons carry opaque ids only`);
  return {
    id: nth > 1 ? `${BUTTON_IDS[b.action]}${nth}` : BUTTON_IDS[b.action],
    name: clip(plain(b.label, ctx), BUTTON_MAX),
    type: 'button',
    style: b.style ?? 'default',
    integration: { url: ctx.actionsUrl, context: { action: b.action, value: b.value, mac: actionMac(ctx.actionSecret, b.action, b.value) } },
  };
}

function buttons(parts: Part[], ctx: RenderContext): ActionButton[] {
  const seen = new Map<string, number>();
  return parts
    .flatMap((p) => (p.kind === 'actions' ? p.buttons : []))
    .map((b) => {
      const nth = (seen.get(b.action) ?? 0) + 1;
      seen.set(b.action, nth);
      return button(b, nth, ctx);
    });
}

/** The plain-text fallback as a message (a model message without parts). */
function fallback(text: string, ctx: RenderContext): string {
  return truncateVisibly(markdown(text, ctx), 3000);
}

const TRUNCATED = (n: number) => `_… (truncated: ${n} more parts not shown; \`pod-doctor diagnose\` prints everything)_`;

function withButtons(message: string, actions: ActionButton[], note: string): MattermostMessage {
  return { message, props: actions.length > 0 ? { attachments: [{ fallback: note, actions }] } : {} };
}

/**
 * One model message as Mattermost posts: Markdown blocks packed into pages of at most POST_BUDGET
 * characters, at most MAX_POSTS of them (a notice says what was left out); the buttons go with
 * the last page.
 */
export function renderPosts(message: ChatMessage, ctx: RenderContext): MattermostMessage[] {
  const blocks = message.parts.flatMap((p) => (p.kind === 'actions' ? [] : partMarkdown(p, ctx)));
  const actions = buttons(message.parts, ctx);
  const note = clip(plain(message.text, ctx), 300);
  if (blocks.length === 0) return [withButtons(fallback(message.text, ctx), actions, note)];
  const pages: string[][] = [[]];
  let size = 0;
  for (const b of blocks) {
    const block = truncateVisibly(b, POST_BUDGET);
    const page = pages[pages.length - 1]!;
    if (page.length > 0 && size + block.length + 2 > POST_BUDGET) {
      pages.push([block]);
      size = block.length;
    } else {
      page.push(block);
      size += block.length + 2;
    }
  }
  if (pages.length > MAX_POSTS) {
    const hidden = pages.slice(MAX_POSTS).reduce((n, p) => n + p.length, 0);
    pages.length = MAX_POSTS;
    const last = pages[MAX_POSTS - 1]!;
    let dropped = hidden;
    while (last.length > 1 && last.join('\n\n').length + TRUNCATED(dropped + 1).length + 2 > POST_BUDGET) {
      last.pop();
      dropped++;
    }
    last.push(TRUNCATED(dropped));
  }
  return pages.map((p, i) =>
    withButtons(p.join('\n\n') + (pages.length > 1 ? `\n\n_(part ${i + 1}/${pages.length})_` : ''), i === pages.length - 1 ? actions : [], note),
  );
}

/** One model message as one post (updates, ephemerals): the first page, with a notice when more was cut, and the buttons. */
export function renderPost(message: ChatMessage, ctx: RenderContext): MattermostMessage {
  const posts = renderPosts(message, ctx);
  const first = posts[0]!;
  const actions = posts[posts.length - 1]!.props.attachments?.[0]?.actions ?? [];
  if (posts.length === 1) return first;
  const body = first.message.replace(/\n\n_\(part 1\/\d+\)_$/, '');
  return withButtons(`${body}\n\n${TRUNCATED(posts.length - 1)}`, actions, clip(plain(message.text, ctx), 300));
}

/** Every user id referenced in a message (to look their usernames up before rendering). */
export function referencedUsers(message: ChatMessage): string[] {
  const ids = new Set<string>();
  const scan = (t: string) => {
    for (const p of splitUserRefs(t)) if ('user' in p) ids.add(p.user);
  };
  scan(message.text);
  for (const part of message.parts) {
    const texts: string[] =
      part.kind === 'fields'
        ? part.fields.map((f) => f.value)
        : part.kind === 'list'
          ? part.items
          : part.kind === 'actions'
            ? part.buttons.map((b) => b.label)
            : 'text' in part
              ? [part.text]
              : [];
    for (const t of texts) scan(t);
  }
  return [...ids];
}
