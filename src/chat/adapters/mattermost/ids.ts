// Mattermost's ids, the one place their formats are written: users, channels, posts, teams and
// groups all have 26 lowercase letters and digits. A user and a group cannot be told apart by
// their id, so a group is written `group:<id>` wherever an approver or the policy names one.
// Slack's ids are uppercase (C…, U…, S…): a bot serving both surfaces tells them apart by format.
import type { ChatIds } from '../../../access/ids.js';

const ID = /^[a-z0-9]{26}$/;
const GROUP = /^group:([a-z0-9]{26})$/;

export const mattermostIds: ChatIds = {
  surface: 'Mattermost',
  isChannel: (id) => ID.test(id),
  isUser: (id) => ID.test(id),
  isGroup: (id) => GROUP.test(id),
  describe: {
    channel: 'a Mattermost channel id (26 lowercase letters and digits)',
    group: 'a Mattermost group as group:<group id>',
    approver: 'a Mattermost user id (26 lowercase letters and digits) or group:<group id>',
  },
};

/** A post id: what a Mattermost MessageRef holds in `ts`. */
export const isPostId = (id: string): boolean => ID.test(id);

/** The group id of an approver written `group:<id>`; undefined for anything else. */
export function groupIdOf(approver: string): string | undefined {
  return GROUP.exec(approver)?.[1];
}
