// The chat message model as Block Kit. Long parts are split into several blocks, blocks into
// several messages; beyond a bound, content is cut with a visible notice. Whatever the input,
// each message this returns passes `checkSlackMessage`.
import type { ActionKind, Button, ChatMessage, MessageRef, Part, Tone } from '../../../types.js';
import { splitUserRefs } from '../../../types.js';
import { slackIds } from '../ids.js';
import { clip, LIMITS, type SlackBlock, type SlackMessage, truncateVisibly } from './limits.js';

export type { SlackBlock, SlackMessage } from './limits.js';

/** Button action ids: Bolt listeners match these. */
export const ACTION_IDS = {
  approve: 'pd_approve',
  deny: 'pd_deny',
  rerun: 'pd_rerun',
  writeup: 'pd_writeup',
  'not-a-problem': 'pd_notaproblem',
  'silence-1h': 'pd_silence1h',
  'silence-4h': 'pd_silence4h',
  'silence-24h': 'pd_silence24h',
  unsilence: 'pd_unsilence',
  mute: 'pd_mute',
  unmute: 'pd_unmute',
} as const satisfies Record<ActionKind, string>;

/** The action ids of `kinds`, with the `_<n>` a repeated button gets: one Bolt listener per set of kinds. */
export function actionIdPattern(kinds: readonly ActionKind[]): RegExp {
  return new RegExp(`^(${kinds.map((k) => ACTION_IDS[k]).join('|')})(_\\d+)?$`);
}

/** The kind of a button's action id (`pd_silence4h_2` → `silence-4h`); undefined for ids not ours. */
export function actionOf(actionId: string): ActionKind | undefined {
  const id = actionId.replace(/_\d+$/, '');
  return (Object.keys(ACTION_IDS) as ActionKind[]).find((k) => ACTION_IDS[k] === id);
}

/** Block text packed per message, below Slack's ~13,000 so edits and margins never tip it over. */
const MESSAGE_TEXT_BUDGET = 11_500;
/** A post never becomes more than this many messages; the rest is summarised. */
export const MAX_MESSAGES_PER_POST = 6;
/** One quoted piece of evidence never takes more than this (the rest is cut visibly). */
const QUOTE_MAX = 1500;
/** Section text per block, with room for the label and icon. */
const SECTION_CHUNK = LIMITS.sectionText - 100;

const ICON: Record<Tone, string> = {
  critical: ':red_circle:',
  error: ':large_orange_circle:',
  warning: ':warning:',
  info: ':large_blue_circle:',
  ok: ':white_check_mark:',
  pending: ':hourglass_flowing_sand:',
  neutral: '',
};

/** Escape text for mrkdwn; user references become mentions (Slack ids) or names (console). */
export function mrkdwn(text: string): string {
  return splitUserRefs(text)
    .map((p) =>
      'user' in p
        ? slackIds.isUser(p.user)
          ? `<@${p.user}>`
          : `@${escapeMrkdwn(p.user)}`
        : 'thread' in p
          ? `<${threadUrl(p.thread)}|thread>`
          : escapeMrkdwn(p.text),
    )
    .join('');
}

/** A thread's address: Slack resolves it in the reader's workspace (channel and ts are checked by the reference's pattern). */
export function threadUrl(ref: MessageRef): string {
  return `https://slack.com/archives/${ref.channel}/p${ref.ts.replace('.', '')}`;
}

function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text for plain_text objects and fallbacks: user refs as `@id`. */
export function plain(text: string): string {
  return splitUserRefs(text)
    .map((p) => ('user' in p ? `@${p.user}` : 'thread' in p ? threadUrl(p.thread) : p.text))
    .join('');
}

/** Split text into chunks of at most `max` characters, at line ends where possible. */
export function chunkText(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = max;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  if (rest.length > 0 || out.length === 0) out.push(rest);
  return out;
}

const section = (text: string): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

function labelled(label: string | undefined, tone: Tone | undefined, body: string): string[] {
  const icon = tone ? ICON[tone] : '';
  const head = `${icon ? `${icon} ` : ''}${label ? `*${escapeMrkdwn(clip(label, 80))}*` : ''}`;
  const chunks = chunkText(body, SECTION_CHUNK);
  return chunks.map((c, i) => (i === 0 && head ? (label ? `${head}\n${c}` : `${head}${c}`) : c)).map((t) => t || ' ');
}

function buttonBlock(b: Button, nth: number): Record<string, unknown> {
  if (b.value.length > LIMITS.buttonValue) throw new Error(`button value of ${b.value.length} characters: buttons carry opaque ids only`);
  return {
    type: 'button',
    action_id: nth > 1 ? `${ACTION_IDS[b.action]}_${nth}` : ACTION_IDS[b.action],
    text: { type: 'plain_text', text: clip(plain(b.label), LIMITS.buttonText), emoji: true },
    value: b.value,
    ...(b.style ? { style: b.style } : {}),
    ...(b.confirm
      ? {
          confirm: {
            title: { type: 'plain_text', text: clip(b.confirm.title, LIMITS.confirmTitle) },
            text: { type: 'mrkdwn', text: clip(mrkdwn(b.confirm.text), LIMITS.confirmText) },
            confirm: { type: 'plain_text', text: clip(b.confirm.confirm, LIMITS.confirmButton) },
            deny: { type: 'plain_text', text: clip(b.confirm.deny, LIMITS.confirmButton) },
            ...(b.style === 'danger' ? { style: 'danger' } : {}),
          },
        }
      : {}),
  };
}

/** One part as blocks (several when its text is long). */
export function partBlocks(part: Part): SlackBlock[] {
  switch (part.kind) {
    case 'header':
      return [{ type: 'header', text: { type: 'plain_text', text: clip(plain(part.text), LIMITS.headerText) || ' ', emoji: true } }];
    case 'section':
      return labelled(part.label, part.tone, mrkdwn(part.text)).map(section);
    case 'fields': {
      // Fields share one block: keep the block's text within one section's worth.
      const shown = part.fields.slice(0, LIMITS.fieldsPerSection);
      const each = Math.min(LIMITS.fieldText, Math.floor(LIMITS.sectionText / Math.max(1, shown.length)));
      const fields = shown.map((f) => ({ type: 'mrkdwn', text: truncateVisibly(`*${escapeMrkdwn(clip(f.label, 80))}*\n${mrkdwn(f.value)}`, each) }));
      return [{ type: 'section', fields }];
    }
    case 'quote': {
      const body = truncateVisibly(part.text, QUOTE_MAX);
      const quoted = escapeMrkdwn(body)
        .split('\n')
        .map((l) => `>${l || ' '}`)
        .join('\n');
      return chunkText(`_${escapeMrkdwn(part.source)}_\n${quoted}`, SECTION_CHUNK).map((c, i) => section(i === 0 ? c : c.startsWith('>') ? c : `>${c}`));
    }
    case 'list': {
      const body = part.items.map((i) => `• ${mrkdwn(i)}`).join('\n');
      return labelled(part.label, undefined, body).map(section);
    }
    case 'code': {
      const body = part.lines.map((l) => escapeMrkdwn(l.replace(/```/g, "'''"))).join('\n');
      const chunks = chunkText(body, SECTION_CHUNK - 20);
      return chunks.map((c, i) => section(`${i === 0 && part.label ? `*${escapeMrkdwn(part.label)}*\n` : ''}\`\`\`${c || ' '}\`\`\``));
    }
    case 'context':
      return [{ type: 'context', elements: [{ type: 'mrkdwn', text: truncateVisibly(mrkdwn(part.text), LIMITS.contextText) || ' ' }] }];
    case 'divider':
      return [{ type: 'divider' }];
    case 'actions': {
      const seen = new Map<string, number>();
      const elements = part.buttons.slice(0, LIMITS.actionsElements).map((b) => {
        const nth = (seen.get(b.action) ?? 0) + 1;
        seen.set(b.action, nth);
        return buttonBlock(b, nth);
      });
      return elements.length === 0 ? [] : [{ type: 'actions', elements }];
    }
  }
}

function textLength(b: SlackBlock): number {
  let n = 0;
  const t = b.text as { text?: string } | undefined;
  if (t?.text) n += t.text.length;
  for (const f of (b.fields as { text: string }[] | undefined) ?? []) n += f.text.length;
  for (const e of (b.elements as Record<string, unknown>[] | undefined) ?? []) {
    if (typeof e.text === 'string') n += e.text.length;
    else if (e.text && typeof (e.text as { text?: unknown }).text === 'string') n += (e.text as { text: string }).text.length;
  }
  return n;
}

/**
 * The top-level `text` (notifications, screen readers): Slack parses it as mrkdwn like a
 * section, so it is escaped the same way; pod-doctor's own user references become names.
 */
export function fallbackText(text: string): string {
  return splitUserRefs(text)
    .map((p) => ('user' in p ? `@${escapeMrkdwn(p.user)}` : 'thread' in p ? 'thread' : escapeMrkdwn(p.text)))
    .join('');
}

function fallback(text: string, suffix = ''): string {
  return `${clip(fallbackText(text), LIMITS.fallbackText - suffix.length)}${suffix}`;
}

/** Give every block of one message a unique, short block_id. */
export function withIds(blocks: SlackBlock[]): SlackBlock[] {
  return blocks.map((b, i) => ({ ...b, block_id: `pd${i}` }));
}

function notice(text: string): SlackBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.contextText) }] };
}

/** Blocks of the trailing actions parts (kept when cutting). */
function trailing(message: ChatMessage): SlackBlock[] {
  const out: SlackBlock[] = [];
  for (let i = message.parts.length - 1; i >= 0; i--) {
    const p = message.parts[i]!;
    if (p.kind === 'actions') out.unshift(...partBlocks(p));
    else break;
  }
  return out;
}

function fits(blocks: SlackBlock[]): boolean {
  return blocks.length <= LIMITS.blocksPerMessage && blocks.reduce((n, b) => n + textLength(b), 0) <= MESSAGE_TEXT_BUDGET;
}

/**
 * Cut `blocks` so that they plus a notice and `keep` fit one message.
 * Returns the blocks kept and how many were dropped.
 */
function cutToFit(blocks: SlackBlock[], keep: SlackBlock[], say: (dropped: number) => string, alreadyDropped = 0): SlackBlock[] {
  const kept = [...blocks];
  let dropped = alreadyDropped;
  if (dropped === 0 && fits([...kept, ...keep])) return [...kept, ...keep];
  while (kept.length > 0 && !fits([...kept, notice(say(dropped + 1)), ...keep])) {
    kept.pop();
    dropped++;
  }
  return [...kept, notice(say(Math.max(1, dropped))), ...keep];
}

/** One model message as one Slack message, cut visibly if needed (updates, approval prompts). */
export function renderSingle(message: ChatMessage): SlackMessage {
  const keep = trailing(message);
  const body = message.parts.slice(0, message.parts.length - countTrailingActions(message)).flatMap(partBlocks);
  const blocks = cutToFit(body, keep, (n) => `… (truncated: ${n} more blocks not shown; \`pod-doctor diagnose\` prints everything)`);
  return { text: fallback(message.text), blocks: withIds(blocks) };
}

function countTrailingActions(message: ChatMessage): number {
  let n = 0;
  for (let i = message.parts.length - 1; i >= 0 && message.parts[i]!.kind === 'actions'; i--) n++;
  return n;
}

/**
 * One model message as Slack messages: split where blocks or text would not fit one, at most
 * MAX_MESSAGES_PER_POST of them, the rest summarised by a notice. Trailing buttons always come
 * last, in the last message.
 */
export function renderMessages(message: ChatMessage): SlackMessage[] {
  const keep = trailing(message);
  const body = message.parts.slice(0, message.parts.length - countTrailingActions(message)).flatMap(partBlocks);
  const pages: SlackBlock[][] = [];
  let page: SlackBlock[] = [];
  for (const b of body) {
    if (page.length > 0 && !fits([...page, b])) {
      pages.push(page);
      page = [];
    }
    page.push(b);
  }
  if (page.length > 0 || pages.length === 0) pages.push(page);

  // Buttons go with the last page when they fit, else on a page of their own.
  if (keep.length > 0) {
    const last = pages[pages.length - 1]!;
    if (fits([...last, ...keep])) last.push(...keep);
    else pages.push([...keep]);
  }

  if (pages.length > MAX_MESSAGES_PER_POST) {
    const shown = pages.slice(0, MAX_MESSAGES_PER_POST);
    const hidden = pages
      .slice(MAX_MESSAGES_PER_POST)
      .flat()
      .filter((b) => b.type !== 'actions');
    const last = shown[shown.length - 1]!.filter((b) => b.type !== 'actions');
    shown[shown.length - 1] = cutToFit(
      last,
      keep,
      (n) => `… (truncated: ${n} more blocks not shown; \`pod-doctor diagnose\` prints everything)`,
      hidden.length,
    );
    pages.splice(0, pages.length, ...shown);
  }

  return pages.map((blocks, i) => ({
    text: fallback(message.text, pages.length > 1 ? ` (part ${i + 1}/${pages.length})` : ''),
    blocks: withIds(blocks),
  }));
}
