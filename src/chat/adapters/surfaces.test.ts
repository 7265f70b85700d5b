import { describe, expect, it } from 'vitest';
import type { ChatAdapter, ChatMessage, MessageRef } from '../types.js';
import { serviceName } from '../types.js';
import { mattermostIds } from './mattermost/ids.js';
import { slackIds } from './slack/ids.js';
import { SurfacesAdapter } from './surfaces.js';

const MM_CHANNEL = 'k5z1w9mfhtgyxe7ay3b8suqkro';
const MM_USER = 'u5z1w9mfhtgyxe7ay3b8suqkro';

/** An adapter that records what reached it. */
function recorder(medium: ChatAdapter['medium'], names: Record<string, string>, files = false) {
  const seen: string[] = [];
  const adapter: ChatAdapter = {
    medium,
    postRoot: async (channel) => {
      seen.push(`root ${channel}`);
      return { channel, ts: '1' };
    },
    postInThread: async (parent) => {
      seen.push(`reply ${parent.channel}`);
      return [{ channel: parent.channel, ts: '2' }];
    },
    update: async (ref) => void seen.push(`update ${ref.channel}`),
    ephemeral: async (channel, user) => void seen.push(`ephemeral ${channel} ${user}`),
    userNames: async (ids) => Object.fromEntries(ids.filter((id) => id in names).map((id) => [id, names[id]!])),
    ...(files ? { postFile: async (parent: MessageRef) => void seen.push(`file ${parent.channel}`) } : {}),
  };
  return { adapter, seen };
}

describe('SurfacesAdapter', () => {
  const m: ChatMessage = { text: 't', parts: [] };
  const slack = recorder('slack', { U0BOB: 'Bob' }, true);
  const mm = recorder('mattermost', { [MM_USER]: 'Mia' });
  const both = new SurfacesAdapter([
    { ids: slackIds, adapter: slack.adapter },
    { ids: mattermostIds, adapter: mm.adapter },
  ]);

  it('sends each call to the surface whose channel id it names', async () => {
    await both.postRoot('C0SHOP', m);
    await both.postRoot(MM_CHANNEL, m);
    await both.postInThread({ channel: MM_CHANNEL, ts: 'p' }, m);
    await both.update({ channel: 'C0SHOP', ts: '1.1' }, m);
    await both.ephemeral(MM_CHANNEL, MM_USER, m);
    expect(slack.seen).toEqual(['root C0SHOP', 'update C0SHOP']);
    expect(mm.seen).toEqual([`root ${MM_CHANNEL}`, `reply ${MM_CHANNEL}`, `ephemeral ${MM_CHANNEL} ${MM_USER}`]);
    expect([both.mediumOf('C0SHOP'), both.mediumOf(MM_CHANNEL)]).toEqual(['slack', 'mattermost']);
    expect([serviceName(both, 'C0SHOP'), serviceName(both, MM_CHANNEL), serviceName(both)]).toEqual(['Slack', 'Mattermost', 'Slack']);
  });

  it('asks each surface for its own users, and says when a surface takes no files', async () => {
    expect(await both.userNames(['U0BOB', MM_USER, 'U0NOBODY'])).toEqual({ U0BOB: 'Bob', [MM_USER]: 'Mia' });
    await both.postFile({ channel: 'C0SHOP', ts: '1.1' }, { filename: 'f', title: 't', content: 'c', comment: 'x' });
    expect(slack.seen.at(-1)).toBe('file C0SHOP');
    await expect(both.postFile({ channel: MM_CHANNEL, ts: 'p' }, { filename: 'f', title: 't', content: 'c', comment: 'x' })).rejects.toThrow(
      /mattermost takes no files/,
    );
  });
});
