// The chat adapter for a terminal (`npm run demo`): messages print as text, threads are
// numbered, and each message with buttons gets a number the user types (`approve 3`). Every
// message is redacted before it is printed, as in Slack.

import { type KeepField, redactDeep, redactText } from '../../../redact.js';
import { type Button, type ChatAdapter, type ChatFile, type ChatMessage, type MessageRef, type Part, splitUserRefs, type Tone } from '../../types.js';
import { paint } from './style.js';

export interface ConsoleAdapterOptions {
  out: NodeJS.WritableStream;
  color?: boolean;
  /** Console user names mentioned as `@name`; Slack ids as they are. */
  width?: number;
}

export interface ConsoleButton extends Button {
  /** The message the button sits on. */
  ref: MessageRef;
}

const TONE_WORD: Partial<Record<Tone, string>> = { ok: '✔', pending: '…', warning: '!', error: '✖' };

/** Identifiers of the message model (a button's value is the id `approve n` presses), left as they are; as in Slack. */
const modelId: KeepField = (key, holder) =>
  key === 'kind' || key === 'tone' || key === 'style' || ((key === 'action' || key === 'value') && 'action' in holder);

export class ConsoleAdapter implements ChatAdapter {
  readonly medium = 'console' as const;
  private seq = 0;
  /** Action number → buttons of that message. */
  private readonly actions = new Map<number, ConsoleButton[]>();
  /** Message ts → its action number. */
  private readonly numbers = new Map<string, number>();
  private nextAction = 1;
  /** Thread parent ts → thread number shown to the user. */
  private readonly threadNumbers = new Map<string, number>();
  private nextThread = 1;

  constructor(private readonly options: ConsoleAdapterOptions) {}

  private c(tone: Tone | 'bold' | 'dim', s: string): string {
    return paint(tone, s, Boolean(this.options.color));
  }

  private write(lines: string[]): void {
    this.options.out.write(`${lines.join('\n')}\n`);
  }

  private text(s: string): string {
    return splitUserRefs(s)
      .map((p) => ('user' in p ? `@${p.user}` : 'thread' in p ? `thread ${p.thread.channel}/${p.thread.ts}` : p.text))
      .join('');
  }

  private renderPart(p: Part, n: number | undefined): string[] {
    switch (p.kind) {
      case 'header':
        return [this.c('bold', this.text(p.text))];
      case 'section': {
        const mark = p.tone && TONE_WORD[p.tone] ? `${TONE_WORD[p.tone]} ` : '';
        const body = `${mark}${p.label ? `${this.c('bold', `${p.label}:`)} ` : ''}${this.text(p.text)}`;
        return [p.tone && p.tone !== 'neutral' ? this.c(p.tone, body) : body];
      }
      case 'fields':
        return [p.fields.map((f) => `${this.c('bold', `${f.label}:`)} ${this.text(f.value)}`).join('   ')];
      case 'quote':
        return [`  ${this.c('dim', `${p.source}:`)}`, ...p.text.split('\n').map((l) => `    > ${l}`)];
      case 'list':
        return [...(p.label ? [this.c('bold', `${p.label}:`)] : []), ...p.items.map((i) => `  - ${this.text(i)}`)];
      case 'code':
        return [...(p.label ? [this.c('bold', `${p.label}:`)] : []), ...p.lines.map((l) => `    ${l}`)];
      case 'context':
        return [this.c('dim', this.text(p.text))];
      case 'divider':
        return [''];
      case 'actions':
        return [p.buttons.map((b) => `[${b.action} ${n ?? '?'}] ${this.text(b.label)}`).join('   ')];
    }
  }

  private register(ref: MessageRef, message: ChatMessage): number | undefined {
    const buttons = message.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons : []));
    let n = this.numbers.get(ref.ts);
    if (buttons.length === 0) {
      if (n !== undefined) this.actions.delete(n);
      return undefined;
    }
    if (n === undefined) {
      n = this.nextAction++;
      this.numbers.set(ref.ts, n);
    }
    this.actions.set(
      n,
      buttons.map((b) => ({ ...b, ref })),
    );
    return n;
  }

  private block(prefix: string, message: ChatMessage, n: number | undefined): string[] {
    return message.parts
      .flatMap((p) => this.renderPart(p, n))
      .flatMap((l) => l.split('\n'))
      .map((l) => `${prefix}${l}`);
  }

  async postRoot(channel: string, raw: ChatMessage): Promise<MessageRef> {
    const message = redactDeep(raw, modelId);
    const ref = { channel, ts: String(++this.seq) };
    const t = this.nextThread++;
    this.threadNumbers.set(ref.ts, t);
    const n = this.register(ref, message);
    this.write(['', this.c('bold', `── thread ${t} ${'─'.repeat(60)}`), ...this.block('', message, n)]);
    return ref;
  }

  async postInThread(parent: MessageRef, raw: ChatMessage): Promise<MessageRef[]> {
    const message = redactDeep(raw, modelId);
    const ref = { channel: parent.channel, ts: String(++this.seq) };
    const n = this.register(ref, message);
    const t = this.threadNumbers.get(parent.ts) ?? '?';
    this.write(['', this.c('dim', `  ┌ thread ${t}`), ...this.block('  │ ', message, n)]);
    return [ref];
  }

  /** A file in a thread: its name and its content, printed as they are (redacted). */
  async postFile(parent: MessageRef, file: ChatFile): Promise<void> {
    const t = this.threadNumbers.get(parent.ts) ?? '?';
    ++this.seq;
    const body = redactText(file.content).split('\n');
    this.write(['', this.c('dim', `  ┌ thread ${t} · file ${file.filename}`), `  │ ${this.text(redactText(file.comment))}`, ...body.map((l) => `  │ ${l}`)]);
  }

  async update(ref: MessageRef, raw: ChatMessage): Promise<void> {
    const message = redactDeep(raw, modelId);
    const n = this.register(ref, message) ?? this.numbers.get(ref.ts);
    const t = this.threadNumbers.get(ref.ts);
    const where = t !== undefined ? `thread ${t}` : n !== undefined ? `#${n}` : 'message';
    const names = message.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons.map((b) => `${b.action} ${n}`) : []));
    const buttons = names.length > 0 ? `  (${names.join(', ')})` : '';
    this.write([this.c('dim', `  ↻ ${where} updated: `) + this.text(message.text) + buttons]);
  }

  async ephemeral(_channel: string, user: string, raw: ChatMessage): Promise<void> {
    const message = redactDeep(raw, modelId);
    this.write([
      '',
      this.c('dim', `  (only @${user} sees this)`),
      ...this.block('  ', message, this.register({ channel: _channel, ts: String(++this.seq) }, message)),
    ]);
  }

  /** The buttons of action number `n` (what `approve n` / `deny n` / `rerun n` press). */
  buttons(n: number): ConsoleButton[] {
    return this.actions.get(n) ?? [];
  }

  /** Print a line outside any thread (the REPL's own messages). */
  say(line: string): void {
    this.write([redactText(line)]);
  }
}
