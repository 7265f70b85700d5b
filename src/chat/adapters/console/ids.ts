// The console's ids: local names for users, a made-up channel, no user groups.
import { ANY_IDS, type ChatIds } from '../../../access/ids.js';

export const consoleIds: ChatIds = {
  ...ANY_IDS,
  surface: 'console',
  isGroup: () => false,
};
