// Slack down while the bot starts: the bot token's auth.test fails (after WebClient's retries).
// Bolt's own authorization for a `token` keeps that rejection unhandled, and the process exits;
// the bot (the real process, as Kubernetes runs it) stays up, and the next click asks Slack
// again and is handled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { testBotEnv } from '../helpers/bot.js';
import { blockActionBody, type FakeSlack, postSigned, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, freePort, testPrefix } from '../helpers/jobs.js';
import { type RoleProcess, spawnRole } from '../helpers/roles.js';

const SECRET = 'test-signing-secret-0123456789';

describe('bot start with Slack not answering auth.test', () => {
  const redis = connect();
  const prefix = testPrefix('slack-auth');
  let slack: FakeSlack;
  let bot: RoleProcess | undefined;
  let url: string;

  beforeAll(async () => {
    slack = await startFakeSlack();
    // The first try and both of WebClient's retries.
    slack.fail('auth.test', 3, 503);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = testBotEnv(
      { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: '/nonexistent/kubeconfig', cluster: 'auth' },
      { POD_DOCTOR_REDIS_PREFIX: prefix, PORT: String(port), LOG_LEVEL: 'warn' },
    );
    bot = spawnRole(['bot', '--no-worker'], env);
    await bot.line(/pod-doctor bot: /);
  }, 30_000);

  afterAll(async () => {
    await bot?.kill();
    await slack?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('stays up, and asks again with the next click, which is then handled', async () => {
    await slack.waitFor(() => (slack.callsByMethod()['auth.test'] ?? 0) >= 3);
    await bot!.line(/Slack did not confirm the bot token/);
    await new Promise((r) => setTimeout(r, 500));
    expect(bot!.child.exitCode).toBeNull();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const res = await postSigned(
      url,
      blockActionBody({ actionId: ACTION_IDS.approve, value: 'pl_doesnotexist0000', user: 'U0ALICE', channel: 'C0AUTH', messageTs: '1.000001' }),
      SECRET,
    );
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0ALICE'));
    expect(slack.callsByMethod()['auth.test']).toBe(4);
  });
});
