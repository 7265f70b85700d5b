// Slash commands and the Alertmanager webhook while Redis does not answer: frozen (SIGSTOP, as a
// stuck failover or a paused VM looks to a client: the connection is up, nothing comes back) or
// dead (SIGKILL). Either way the person is told within 2 s, in the acknowledgement, that the
// diagnosis could not be queued and to try again (nothing is promised), and the webhook answers
// 503; once Redis answers again, so does the bot. A real bot (no worker) on a private redis-server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody, startFakeSlack } from '../helpers/fake-slack.js';
import { eventually } from '../helpers/jobs.js';
import { type PrivateRedis, startPrivateRedis } from '../helpers/roles.js';

const SECRET = 'test-signing-secret-0123456789';
/** The bound: the person hears "try again" within this (Slack gives the acknowledgement 3 s). */
const TOLD_WITHIN_MS = 2000;

describe('slash commands and alerts while Redis does not answer', () => {
  let slack: FakeSlack;
  let redis: PrivateRedis | undefined;
  let bot: TestBot | undefined;

  beforeAll(async () => {
    slack = await startFakeSlack();
  });

  afterEach(async () => {
    // A frozen server must run again to die (SIGKILL works on a stopped process, but be tidy).
    redis?.signal('SIGCONT');
    await bot?.stop();
    bot = undefined;
    await redis?.kill();
  });

  afterAll(async () => {
    await slack?.close();
  });

  const start = async () => {
    redis = await startPrivateRedis();
    bot = await startTestBot(
      {
        SLACK_BOT_TOKEN: 'xoxb-test-token',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        REDIS_URL: redis.url,
        POD_DOCTOR_CLUSTER: 'frozen',
        ALERTMANAGER_TOKEN: TOKEN,
        POD_DOCTOR_ALERT_CHANNEL: 'C0ALERTS',
        LOG_LEVEL: 'silent',
      },
      ['--no-worker'],
    );
  };
  const command = async (pod: string) => {
    const res = await postSigned(bot!.url, slashCommandBody({ text: `shop/${pod}`, channel: 'C0OPS', responseUrl: `${slack.url}/respond/${pod}` }), SECRET);
    return { status: res.status, ms: res.ms, text: res.status === 200 ? messageText(JSON.parse(res.body) as Parameters<typeof messageText>[0]) : res.body };
  };
  const alert = async (pod: string) => {
    const started = performance.now();
    const res = await post(`${bot!.url}/alertmanager`, JSON.stringify(payload([podAlert('shop', pod)])), {
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    return { status: res.status, ms: performance.now() - started };
  };
  /** The person is told, in the acknowledgement and quickly, to try again; nothing says "Diagnosing". */
  const toldToRetry = (r: { status: number; ms: number; text: string }, pod: string) => {
    expect(r.status).toBe(200);
    expect(r.text).toMatch(new RegExp(`Can't queue the diagnosis of shop/${pod} right now: .*Try again in a moment\\.`));
    expect(r.text).not.toMatch(/Diagnosing|will be posted/);
    expect(r.ms).toBeLessThan(TOLD_WITHIN_MS);
  };

  it('frozen (SIGSTOP): "try again" within 2 s, the webhook 503, and both work again once it resumes', { timeout: 60_000 }, async () => {
    await start();
    expect((await command('web-before')).text).toMatch(/Diagnosing shop\/web-before/);
    redis!.signal('SIGSTOP');
    const [a, b, hook] = await Promise.all([command('web-frozen-1'), command('web-frozen-2'), alert('web-frozen-3')]);
    console.info(`redis frozen: commands answered in ${Math.round(a.ms)} and ${Math.round(b.ms)} ms, webhook ${hook.status} in ${Math.round(hook.ms)} ms`);
    toldToRetry(a, 'web-frozen-1');
    toldToRetry(b, 'web-frozen-2');
    expect(hook.status).toBe(503);
    expect(hook.ms).toBeLessThan(TOLD_WITHIN_MS);
    // Nothing reached the person through response_url either (the answer was all).
    expect(slack.responses.filter((r) => r.id.startsWith('web-frozen'))).toEqual([]);

    redis!.signal('SIGCONT');
    await eventually(async () => /Diagnosing shop\/web-after/.test((await command('web-after')).text), 10_000, 200);
    expect((await alert('web-after-alert')).status).toBe(200);
  });

  it('dead (SIGKILL): the same quick "try again" and 503', { timeout: 60_000 }, async () => {
    await start();
    await redis!.kill();
    const [a, hook] = await Promise.all([command('web-dead-1'), alert('web-dead-2')]);
    console.info(`redis dead: command answered in ${Math.round(a.ms)} ms, webhook ${hook.status} in ${Math.round(hook.ms)} ms`);
    toldToRetry(a, 'web-dead-1');
    expect(hook.status).toBe(503);
    expect(hook.ms).toBeLessThan(TOLD_WITHIN_MS);
  });
});
