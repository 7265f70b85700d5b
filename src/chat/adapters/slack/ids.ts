// Slack's ids, the one place their formats are written (test/architecture.test.ts checks it):
// channels C… (public), G… (private), D… (direct); users U…, W… (Enterprise Grid); user groups S….
import type { ChatIds } from '../../../access/ids.js';
import type { MessageRef } from '../../types.js';

const CHANNEL = /^[CGD][A-Z0-9]{2,20}$/;
const USER = /^[UW][A-Z0-9]{2,20}$/;
const GROUP = /^S[A-Z0-9]{2,20}$/;

export const slackIds: ChatIds = {
  surface: 'Slack',
  isChannel: (id) => CHANNEL.test(id),
  isUser: (id) => USER.test(id),
  isGroup: (id) => GROUP.test(id),
  describe: {
    channel: 'a Slack channel id (C…, G…, D…)',
    group: 'a Slack user-group id (S…)',
    approver: 'a Slack user id (U…, W…) or user-group id (S…)',
  },
};

/** A Slack message link (its thread when it is a reply): `https://x.slack.com/archives/C…/p1700000000123456?thread_ts=…`. */
export function parseMessageLink(text: string): MessageRef | undefined {
  const link = /^https:\/\/[A-Za-z0-9.-]+\/archives\/([CGD][A-Z0-9]{2,20})\/p(\d{10})(\d{6})(?:\?(.*))?$/.exec(text);
  if (!link) return undefined;
  const thread = new URLSearchParams(link[4] ?? '').get('thread_ts');
  return { channel: link[1]!, ts: thread && /^\d{10}\.\d{6}$/.test(thread) ? thread : `${link[2]}.${link[3]}` };
}
