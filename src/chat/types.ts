// The chat side's vocabulary. Flows (src/chat/flows/) build messages in a renderer-
// independent model; an adapter (Slack Block Kit, a terminal) renders and delivers them. The
// same flows therefore run in Slack and in `npm run demo`.
//
// Text in the model is plain text: adapters escape it for their medium. The only markup is a
// user reference made with `userRef()`, which each adapter renders its own way.
import { randomBytes } from 'node:crypto';

/**
 * Buttons of offered fixes and diagnosis threads (flows/decisions.ts); `writeup` posts the thread's
 * post-incident report; `not-a-problem` (on each finding) keeps that finding quiet for its object.
 */
export type DecisionAction = 'approve' | 'deny' | 'rerun' | 'writeup' | 'not-a-problem';
/** Buttons of an Alertmanager group's thread (flows/silences.ts): its Alertmanager silence and its mute. */
export type GroupAction = 'silence-1h' | 'silence-4h' | 'silence-24h' | 'unsilence' | 'mute' | 'unmute';
/** What a button does; its value is always an opaque server-side id. */
export type ActionKind = DecisionAction | GroupAction;

/** A confirm dialog in front of a dangerous button. */
export interface Confirm {
  title: string;
  text: string;
  confirm: string;
  deny: string;
}

export interface Button {
  action: ActionKind;
  label: string;
  /** Opaque id (a plan id, a thread id): never data the click handler trusts. */
  value: string;
  style?: 'primary' | 'danger';
  confirm?: Confirm;
}

export type Tone = 'critical' | 'error' | 'warning' | 'info' | 'ok' | 'pending' | 'neutral';

/** One visual piece of a message, in order. */
export type Part =
  | { kind: 'header'; text: string }
  /** A paragraph, optionally with a bold label in front. */
  | { kind: 'section'; label?: string; text: string; tone?: Tone }
  /** Short label/value pairs shown side by side. */
  | { kind: 'fields'; fields: { label: string; value: string }[] }
  /** Evidence: a source line and the exact quoted text. */
  | { kind: 'quote'; source: string; text: string }
  | { kind: 'list'; label?: string; items: string[] }
  /** Preformatted lines shown exactly (dry runs). */
  | { kind: 'code'; label?: string; lines: string[] }
  /** Small print: cluster, times, ids. */
  | { kind: 'context'; text: string }
  | { kind: 'divider' }
  | { kind: 'actions'; buttons: Button[] };

export interface ChatMessage {
  /**
   * Plain-text fallback (notifications, screen readers, clients without blocks). Always names
   * the cluster.
   */
  text: string;
  parts: Part[];
}

/** A text file posted in a thread (the post-incident write-up). */
export interface ChatFile {
  filename: string;
  title: string;
  /** The file's content (plain text or Markdown), redacted by the adapter like every post. */
  content: string;
  /** A line posted with the file. */
  comment: string;
}

/** Where a posted message lives: enough to update it or reply in its thread. */
export interface MessageRef {
  channel: string;
  /** The message's id on its surface: Slack's ts (`1700000000.123456`), Mattermost's post id (26 lowercase letters and digits). */
  ts: string;
}

/**
 * Where a post stands in its channel's queue when the channel is at its rate limit, by value: the
 * answer in a thread already open (its findings) first, then approval prompts, then a new
 * thread's parent (`open`, the default of postRoot), then follow-ups (notes, alert lists; the
 * default of postInThread).
 */
export interface PostOptions {
  priority?: 'answer' | 'prompt' | 'open' | 'follow-up';
  /** A parent whose findings are posted right after it (the channel keeps them the next turn). */
  replyFollows?: boolean;
  /** A follow-up that may wait while this says answers are still expected in its channel. */
  holdWhile?: () => boolean;
  /**
   * What this post is for (a thread's scope, a delivery's key): a post retried after a timeout
   * is looked for by it instead of being sent twice. Without it, each call is its own post.
   */
  key?: string;
  /**
   * The message is edited later by its ts (an alert list): never joined with other notes for the
   * same thread still queued (a note is otherwise, to save the channel's turns).
   */
  editedLater?: boolean;
}

const SERVICE_NAMES: Record<ChatAdapter['medium'], string> = { slack: 'Slack', mattermost: 'Mattermost', console: 'console' };

/** The chat service a channel is on, by name, for what people read ("Slack did not answer"). */
export function serviceName(adapter: Pick<ChatAdapter, 'medium' | 'mediumOf'>, channel?: string): string {
  return SERVICE_NAMES[(channel === undefined ? undefined : adapter.mediumOf?.(channel)) ?? adapter.medium];
}

/**
 * A chat medium. Post operations may split one model message into several chat messages
 * (size limits); they return every posted message, the first being the one to update.
 */
export interface ChatAdapter {
  readonly medium: 'slack' | 'mattermost' | 'console';
  /** The medium of a channel, for an adapter serving several (by the channel id's format). */
  mediumOf?(channel: string): ChatAdapter['medium'];
  /** A new top-level message in a channel (the parent of a thread). */
  postRoot(channel: string, message: ChatMessage, options?: PostOptions): Promise<MessageRef>;
  /** Messages in the thread under `parent` (follow-ups unless said otherwise). */
  postInThread(parent: MessageRef, message: ChatMessage, options?: PostOptions): Promise<MessageRef[]>;
  /** Replace a message's content (summary lines, approval state). */
  update(ref: MessageRef, message: ChatMessage): Promise<void>;
  /** Only `user` sees it (bad input, refusals). `thread` places it in a thread when given. */
  ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void>;
  /**
   * Post a file in the thread under `parent` (Slack: files.uploadV2's three calls). Absent or
   * failing, the flow posts the content as a code block instead.
   */
  postFile?(parent: MessageRef, file: ChatFile): Promise<void>;
  /**
   * Display names of chat users by id, best effort (the write-up names people; a file resolves no
   * mentions): ids it cannot name are left out, and a failure is an empty answer.
   */
  userNames?(ids: readonly string[]): Promise<Record<string, string>>;
  /**
   * Whether a message reached `channel` lately (in this process): its `channel_not_found` is then
   * a blip to retry, not a channel that does not exist.
   */
  postedTo?(channel: string): boolean;
}

// A user reference is made only by pod-doctor's own flows (the requester, approvers): text from
// alerts or the cluster may contain `<@U123>`, `<!channel>` and the like, which must stay text.
// So a reference is framed by private-use characters around a key drawn at start-up that no
// outside text can know; everything else is plain text that renderers escape.
const REF_KEY = randomBytes(9).toString('base64url');
const USER_REF = new RegExp(`\uE000${REF_KEY}@([A-Za-z0-9._-]{1,64})\uE001`, 'g');

/**
 * A mention of a chat user by id in model text. Renderers turn it into a mention (Slack ids)
 * or a name (console); a `<@id>` written by anyone else is shown as text.
 */
export function userRef(id: string): string {
  return `\uE000${REF_KEY}@${id}\uE001`;
}

/**
 * A thread of pod-doctor's own (an earlier incident's): renderers make it a link (Slack, Mattermost)
 * or name it (console). Its ts is a message id of either surface: Slack's `\d{10}.\d{6}`, or a
 * Mattermost post id (26 letters and digits); nothing that could carry markup.
 */
const THREAD_REF = new RegExp(`\uE000${REF_KEY}#([A-Za-z0-9]{1,64})/(\\d{10}\\.\\d{6}|[a-z0-9]{26})\uE001`, 'g');

export function threadRef(ref: MessageRef): string {
  return `\uE000${REF_KEY}#${ref.channel}/${ref.ts}\uE001`;
}

/** Split model text into plain runs, user references and thread references (for renderers). */
export function splitUserRefs(text: string): ({ text: string } | { user: string } | { thread: MessageRef })[] {
  const out: ({ text: string } | { user: string } | { thread: MessageRef })[] = [];
  let last = 0;
  const refs = [...text.matchAll(USER_REF), ...text.matchAll(THREAD_REF)].sort((a, b) => a.index - b.index);
  for (const m of refs) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push(m[0].includes('#') && m[2] !== undefined ? { thread: { channel: m[1] ?? '', ts: m[2] } } : { user: m[1] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  // A stray frame character (forged or cut) means nothing: drop it rather than show it.
  return out.map((p) => ('text' in p ? { text: p.text.replace(/[\uE000\uE001]/g, '') } : p));
}
