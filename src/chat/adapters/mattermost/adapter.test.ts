import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, type FakeMattermost, mattermostId, shownText, startFakeMattermost } from '../../../../test/helpers/fake-mattermost.js';
import { silent } from '../../../../test/helpers/logger.js';
import { isPermanentChatError } from '../../errors.js';
import { userRef } from '../../types.js';
import { MattermostAdapter } from './adapter.js';
import { MattermostApiError, MattermostClient } from './api.js';

const ALICE = mattermostId();
const BOB = mattermostId();
const GROUP = mattermostId();
const CHANNEL = mattermostId();
const CLOSED = mattermostId();

describe('MattermostAdapter against a fake Mattermost', () => {
  let mm: FakeMattermost;
  let adapter: MattermostAdapter;
  const client = (o: Partial<ConstructorParameters<typeof MattermostClient>[0]> = {}) => new MattermostClient({ url: mm.url, token: mm.token, ...o });

  beforeAll(async () => {
    mm = await startFakeMattermost({ users: { [ALICE]: 'alice', [BOB]: 'bob' }, groups: { [GROUP]: [ALICE, BOB] }, channels: [CHANNEL] });
    adapter = new MattermostAdapter({
      client: client(),
      render: { actionsUrl: 'http://bot.example/mattermost/actions', actionSecret: 's'.repeat(32), serverUrl: mm.url },
      logger: silent,
    });
  });
  afterAll(() => mm.close());

  it('opens a thread (root_id), updates a post, answers privately, mentions by username', async () => {
    const root = await adapter.postRoot(CHANNEL, { text: 'web-1 [prod]', parts: [{ kind: 'section', text: `asked by ${userRef(ALICE)}` }] });
    expect(mm.post(root.ts)).toMatchObject({ channel_id: CHANNEL, root_id: '', message: 'asked by @alice' });
    const [reply] = await adapter.postInThread(root, {
      text: 'fix?',
      parts: [
        { kind: 'section', text: 'plan' },
        { kind: 'actions', buttons: [{ action: 'approve', label: 'Approve', value: 'pl_1' }] },
      ],
    });
    expect(mm.post(reply!.ts)!.root_id).toBe(root.ts);
    expect(actionsOf(mm.post(reply!.ts)!).map((a) => a.name)).toEqual(['Approve']);
    await adapter.update(reply!, { text: 'done', parts: [{ kind: 'section', text: 'Approved' }] });
    expect(mm.post(reply!.ts)).toMatchObject({ message: 'Approved', props: { attachments: [] } });
    await adapter.ephemeral(CHANNEL, BOB, { text: 'no', parts: [{ kind: 'section', text: 'You may not approve' }] }, root);
    expect(mm.ephemerals.at(-1)).toMatchObject({ user_id: BOB, channel_id: CHANNEL, root_id: root.ts, message: 'You may not approve' });
    expect(await adapter.userNames([ALICE, BOB, mattermostId()])).toEqual({ [ALICE]: 'alice', [BOB]: 'bob' });
    expect(await adapter.groupMembers(`group:${GROUP}`)).toEqual([ALICE, BOB]);
    // A post "to a user" is a direct message: it lands in the bot's direct channel with them.
    const dm = await adapter.postRoot(BOB, { text: 'dropped', parts: [{ kind: 'section', text: 'could not post' }] });
    expect(dm.channel).toBe(mm.directWith(BOB));
    expect(mm.post(dm.ts)!.message).toBe('could not post');
    await expect(adapter.groupMembers(`group:${mattermostId()}`)).rejects.toMatchObject({ failure: 'http' });
  });

  it('escapes what the cluster says: no @channel mention reaches Mattermost', async () => {
    const root = await adapter.postRoot(CHANNEL, { text: 't', parts: [{ kind: 'quote', source: 'event', text: '@channel [x](https://evil.example)' }] });
    const post = mm.post(root.ts)!;
    expect(post.message).not.toContain('@channel');
    expect(shownText(post)).toContain('@channel [x](https://evil.example)');
  });

  it('retries a 5xx without a second post, says a refused channel is permanent, waits out a 429', async () => {
    const before = mm.posts.length;
    mm.fail('/posts', 1, 503);
    await adapter.postRoot(CHANNEL, { text: 'x', parts: [{ kind: 'section', text: 'after an outage' }] }, { key: 'k1' });
    expect(mm.posts.length).toBe(before + 1);
    const refused = await adapter.postRoot(CLOSED, { text: 'x', parts: [] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MattermostApiError);
    expect(isPermanentChatError(refused)).toBe(true);
    // A server with a tiny budget: calls past it answer 429 and are tried again after X-Ratelimit-Reset.
    const tight = await startFakeMattermost({ rateLimit: { perSecond: 5, burst: 2 } });
    try {
      const c = new MattermostClient({ url: tight.url, token: tight.token });
      const ids = await Promise.all(Array.from({ length: 4 }, () => c.createPost({ channel_id: CHANNEL, message: 'm' })));
      expect(new Set(ids.map((p) => p.id)).size).toBe(4);
      expect(tight.throttled).toBeGreaterThan(0);
      expect(tight.posts).toHaveLength(4);
    } finally {
      await tight.close();
    }
    // A post made whose answer was lost, retried later (past the pending-post dedup): found by its key, not made twice.
    const forgetful = await startFakeMattermost({ pendingPostTtlMs: 0 });
    try {
      const once = new MattermostAdapter({
        client: new MattermostClient({ url: forgetful.url, token: forgetful.token, retries: 0 }),
        render: { actionsUrl: 'http://bot.example/a', actionSecret: 's'.repeat(32), serverUrl: forgetful.url },
        logger: silent,
      });
      const m = { text: 'x', parts: [{ kind: 'section' as const, text: 'findings' }] };
      forgetful.loseAnswers(1);
      await expect(once.postRoot(CHANNEL, m, { key: 'job-1' })).rejects.toBeInstanceOf(MattermostApiError);
      const again = await once.postRoot(CHANNEL, m, { key: 'job-1' });
      expect(forgetful.posts.map((p) => p.id)).toEqual([again.ts]);
      // Another key is another post.
      await once.postRoot(CHANNEL, m, { key: 'job-2' });
      expect(forgetful.posts).toHaveLength(2);
    } finally {
      await forgetful.close();
    }
    await expect(client({ token: 'wrong-token-123' }).me()).rejects.toMatchObject({ status: 401, errorId: 'api.context.session_expired.app_error' });
  });
});
