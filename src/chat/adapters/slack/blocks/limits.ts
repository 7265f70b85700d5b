// Slack's limits on messages (https://docs.slack.dev/reference/block-kit/blocks). A message
// that breaks one is rejected as a whole (`invalid_blocks`, `msg_too_long`), so the renderer
// splits or truncates visibly before sending, and `checkSlackMessage` proves it did.

export type SlackBlock = Record<string, unknown> & { type: string; block_id?: string };

/** One chat.postMessage / chat.update body. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

export const LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  headerText: 150,
  buttonText: 75,
  actionId: 255,
  blockId: 255,
  buttonValue: 2000,
  /** Slack documents none, but rejects messages with much more than ~13,000 characters of block text. */
  messageBlockText: 13_000,
  /** chat.postMessage truncates `text` beyond 40,000; keep notifications short. */
  fallbackText: 3000,
  fieldsPerSection: 10,
  fieldText: 2000,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
} as const;

/** Cut `text` to `max` characters, saying how much was left out. */
export function truncateVisibly(text: string, max: number): string {
  if (text.length <= max) return text;
  // The notice itself takes room; size it for the largest count it could show.
  const notice = (n: number) => `… (truncated, ${n} more characters)`;
  const keep = Math.max(0, max - notice(text.length).length);
  return `${text.slice(0, keep)}${notice(text.length - keep)}`;
}

/** Cut short labels (buttons, headers) with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

interface TextObj {
  type?: string;
  text?: string;
}

/** Characters of text a block carries (what counts toward the per-message budget). */
export function blockTextLength(block: Record<string, unknown>): number {
  let n = 0;
  const add = (t: unknown) => {
    if (t && typeof t === 'object' && typeof (t as TextObj).text === 'string') n += (t as TextObj).text!.length;
  };
  add(block.text);
  for (const f of (block.fields as unknown[] | undefined) ?? []) add(f);
  for (const e of (block.elements as Record<string, unknown>[] | undefined) ?? []) {
    if (e.type === 'mrkdwn' || e.type === 'plain_text') add(e);
    else add(e.text);
  }
  return n;
}

/** Every way `msg` breaks Slack's limits; empty when Slack will take it. */
export function checkSlackMessage(msg: SlackMessage): string[] {
  const problems: string[] = [];
  const p = (s: string) => problems.push(s);
  if (!msg.text || msg.text.trim() === '') p('no plain-text fallback');
  if (msg.text.length > LIMITS.fallbackText) p(`fallback text has ${msg.text.length} characters (max ${LIMITS.fallbackText})`);
  const blocks = msg.blocks ?? [];
  if (blocks.length > LIMITS.blocksPerMessage) p(`${blocks.length} blocks (max ${LIMITS.blocksPerMessage})`);
  const blockIds = new Set<string>();
  let total = 0;
  blocks.forEach((b, i) => {
    const at = `block ${i} (${String(b.type)})`;
    total += blockTextLength(b);
    const id = b.block_id as string | undefined;
    if (id !== undefined) {
      if (id.length > LIMITS.blockId) p(`${at}: block_id of ${id.length} characters`);
      if (blockIds.has(id)) p(`${at}: duplicate block_id ${id}`);
      blockIds.add(id);
    }
    const text = b.text as TextObj | undefined;
    switch (b.type) {
      case 'header':
        if (!text?.text) p(`${at}: empty header`);
        else if (text.text.length > LIMITS.headerText) p(`${at}: header of ${text.text.length} characters (max ${LIMITS.headerText})`);
        if (text?.type !== 'plain_text') p(`${at}: header text must be plain_text`);
        break;
      case 'section': {
        const fields = (b.fields as TextObj[] | undefined) ?? [];
        if (!text?.text && fields.length === 0) p(`${at}: section without text or fields`);
        if (text?.text !== undefined && (text.text.length === 0 || text.text.length > LIMITS.sectionText))
          p(`${at}: section text of ${text.text.length} characters (1..${LIMITS.sectionText})`);
        if (fields.length > LIMITS.fieldsPerSection) p(`${at}: ${fields.length} fields (max ${LIMITS.fieldsPerSection})`);
        fields.forEach((f, j) => {
          if (!f.text || f.text.length > LIMITS.fieldText) p(`${at}: field ${j} of ${f.text?.length ?? 0} characters (1..${LIMITS.fieldText})`);
        });
        break;
      }
      case 'context': {
        const els = (b.elements as TextObj[] | undefined) ?? [];
        if (els.length === 0 || els.length > LIMITS.contextElements) p(`${at}: ${els.length} context elements (1..${LIMITS.contextElements})`);
        els.forEach((e, j) => {
          if (!e.text || e.text.length > LIMITS.contextText) p(`${at}: context element ${j} of ${e.text?.length ?? 0} characters (1..${LIMITS.contextText})`);
        });
        break;
      }
      case 'actions': {
        const els = (b.elements as Record<string, unknown>[] | undefined) ?? [];
        if (els.length === 0 || els.length > LIMITS.actionsElements) p(`${at}: ${els.length} elements (1..${LIMITS.actionsElements})`);
        const actionIds = new Set<string>();
        els.forEach((e, j) => {
          const label = (e.text as TextObj | undefined)?.text ?? '';
          if (!label || label.length > LIMITS.buttonText) p(`${at}: button ${j} text of ${label.length} characters (1..${LIMITS.buttonText})`);
          const actionId = String(e.action_id ?? '');
          if (!actionId || actionId.length > LIMITS.actionId) p(`${at}: button ${j} action_id of ${actionId.length} characters (1..${LIMITS.actionId})`);
          if (actionIds.has(actionId)) p(`${at}: duplicate action_id ${actionId}`);
          actionIds.add(actionId);
          const value = e.value as string | undefined;
          if (value !== undefined && value.length > LIMITS.buttonValue) p(`${at}: button ${j} value of ${value.length} characters (max ${LIMITS.buttonValue})`);
          const confirm = e.confirm as Record<string, TextObj> | undefined;
          if (confirm) {
            if ((confirm.title?.text ?? '').length > LIMITS.confirmTitle) p(`${at}: confirm title too long`);
            if ((confirm.text?.text ?? '').length > LIMITS.confirmText) p(`${at}: confirm text too long`);
            if ((confirm.confirm?.text ?? '').length > LIMITS.confirmButton || (confirm.deny?.text ?? '').length > LIMITS.confirmButton)
              p(`${at}: confirm button text too long`);
          }
        });
        break;
      }
      case 'divider':
        break;
      default:
        p(`${at}: unexpected block type`);
    }
  });
  if (total > LIMITS.messageBlockText) p(`${total} characters of block text (max about ${LIMITS.messageBlockText})`);
  return problems;
}
