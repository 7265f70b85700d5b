// Rules' words are data: each rule keeps its titles, causes and advice as templates in
// `meta.messages` (typescript-eslint's `meta.messages`), and its check returns message ids with
// the values for their `{{placeholders}}`. The engine renders them here, once per finding.
import type { MessageData, Prose, ProseList, Said } from './types.js';

/** `{{name}}` or `{{ name }}`, as in typescript-eslint's message templates. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;

/** A message reference: `msg('missingSecret', { name })`. The id is checked against the rule's messages. */
export function msg<const M extends string>(messageId: M, data?: MessageData): Said<M> {
  return data ? { messageId, data } : { messageId };
}

/** Thrown for a message id the rule does not define (its types prevent it): the engine reports it as a rule error. */
export class MessageError extends Error {}

function renderSaid(messages: Readonly<Record<string, string>>, said: Said): string {
  const template = Object.hasOwn(messages, said.messageId) ? messages[said.messageId] : undefined;
  if (template === undefined) throw new MessageError(`no message "${said.messageId}" in meta.messages`);
  // A value missing at run time (a field the API left out) keeps its placeholder, as in
  // typescript-eslint: the finding still reaches the on-call engineer; the rule tester fails on it.
  return fill(template, said.data);
}

/** Fills a template's placeholders from `data`; a missing value keeps its placeholder (as the engine does). */
export function fill(template: string, data: MessageData | undefined): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = data?.[name];
    return value === undefined ? whole : String(value);
  });
}

/** One text: a message, or sentences joined by a space with the absent ones left out. */
export function renderProse(messages: Readonly<Record<string, string>>, prose: Prose): string {
  if (!Array.isArray(prose)) return renderSaid(messages, prose as Said);
  return (prose as readonly (Said | false | null | undefined)[])
    .filter((p): p is Said => Boolean(p))
    .map((p) => renderSaid(messages, p))
    .join(' ');
}

export function renderList(messages: Readonly<Record<string, string>>, list: ProseList | undefined): string[] {
  return (list ?? []).filter((p): p is Prose => Boolean(p)).map((p) => renderProse(messages, p));
}

/** The placeholder names a template uses (for the registry's contract test). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}
