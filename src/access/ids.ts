// Who is who on a chat surface: the ids of its channels, users and user groups. Their formats
// belong to the surface's adapter (Slack's: src/chat/adapters/slack/ids.ts); the access policy,
// the config and the playbooks take them through a ChatIds, so no format is written twice.
import { z } from 'zod';

/** A chat surface's id parser. */
export interface ChatIds {
  /** The surface's name, for messages: `Slack`. */
  readonly surface: string;
  isChannel(id: string): boolean;
  isUser(id: string): boolean;
  isGroup(id: string): boolean;
  /** How each id looks, for error messages: `a Slack channel id (C…, G…, D…)`. */
  readonly describe: { readonly channel: string; readonly group: string; readonly approver: string };
}

/**
 * Any surface's ids, before the configured surface's parser looks at them: a letter or digit,
 * then letters, digits and `.`, `_`, `:`, `@`, `-` (no spaces, no markup). Schemas parse with it
 * so their types are the surface's; the loaders then check with the surface's own ChatIds.
 */
const ANY_ID = /^[A-Za-z0-9][\w.:@-]{0,127}$/;
export const ANY_IDS: ChatIds = {
  surface: 'chat',
  isChannel: (id) => ANY_ID.test(id),
  isUser: (id) => ANY_ID.test(id),
  isGroup: (id) => ANY_ID.test(id),
  describe: { channel: 'a channel id', group: 'a user-group id', approver: 'a user or user-group id' },
};

/** A channel id, or `*` (every other channel) when `all`. */
export function channelIdSchema(ids: ChatIds, all: boolean) {
  return z.string().refine((s) => (all && s === '*') || ids.isChannel(s), `expected ${ids.describe.channel}${all ? ' or *' : ''}`);
}

export function groupIdSchema(ids: ChatIds) {
  return z.string().refine((s) => ids.isGroup(s), `expected ${ids.describe.group}`);
}

/** Who may approve: a user or a user group. */
export function approverIdSchema(ids: ChatIds) {
  return z.string().refine((s) => ids.isUser(s) || ids.isGroup(s), `expected ${ids.describe.approver}`);
}

/**
 * The ids of a bot serving several surfaces: an id is taken when one surface's parser takes it.
 * Their formats must not overlap (Slack's are uppercase, Mattermost's lowercase), so an id also
 * says which surface it belongs to (`surfaceOf`).
 */
export function combineIds(surfaces: readonly ChatIds[]): ChatIds {
  const [only] = surfaces;
  if (surfaces.length === 1 && only) return only;
  const any = (test: (ids: ChatIds) => boolean) => surfaces.some(test);
  const said = (k: keyof ChatIds['describe']) => surfaces.map((s) => s.describe[k]).join(' or ');
  return {
    surface: surfaces.map((s) => s.surface).join(' or '),
    isChannel: (id) => any((s) => s.isChannel(id)),
    isUser: (id) => any((s) => s.isUser(id)),
    isGroup: (id) => any((s) => s.isGroup(id)),
    describe: { channel: said('channel'), group: said('group'), approver: said('approver') },
  };
}

/** The surface (of `surfaces`) whose channel, user or group `id` is; undefined when none takes it. */
export function surfaceOf<S extends ChatIds>(surfaces: readonly S[], id: string): S | undefined {
  return surfaces.find((s) => s.isChannel(id) || s.isUser(id) || s.isGroup(id));
}
