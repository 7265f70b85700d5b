// The bot's Slack clients against the fake Slack Web API (test/helpers/fake-slack.ts): calls go to
// SLACK_API_URL with the bot token, a 429 is waited out and asked again (by the adapter under its
// shared budget, or by WebClient itself for Bolt's client), Slack's own errors surface, and every
// HTTP call is counted in the registry's text as Prometheus would scrape it.
import { ErrorCode, WebClient } from '@slack/web-api';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../../test/helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../../../../test/helpers/jobs.js';
import { silent } from '../../../../test/helpers/logger.js';
import { keys } from '../../../redis/keys.js';
import { chatErrorCode } from '../../errors.js';
import { createChatMetrics } from '../../metrics.js';
import { SlackAdapter } from './adapter.js';
import { ChatLimiter } from './limiter.js';
import { createSlackWebClient, slackClientOptions } from './web-client.js';

const TOKEN = 'xoxb-test-token';
const hello = { text: '[c1] hello', parts: [{ kind: 'section' as const, text: 'hello' }] };

/** The value of one series in the registry's exposition text (undefined: no such series). */
async function sample(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const series = `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}} `;
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(series));
  return line === undefined ? undefined : Number(line.slice(series.length));
}

describe('Slack Web API clients', () => {
  const redis = connect('redis://127.0.0.1:6379', 'producer');
  const prefix = testPrefix('slack-client');
  let slack: FakeSlack;
  let registry: Registry;
  let metrics: ReturnType<typeof createChatMetrics>;

  beforeAll(async () => {
    slack = await startFakeSlack({ closedChannels: ['C0CLOSED'] });
  });
  beforeEach(() => {
    slack.calls.length = 0;
    registry = new Registry();
    metrics = createChatMetrics(registry);
  });
  afterEach(() => cleanup(redis, prefix));
  afterAll(async () => {
    redis.disconnect();
    await slack.close();
  });

  const calls = (labels: { method: string; status: string }) => sample(registry, 'pod_doctor_slack_api_calls_total', labels);
  const errors = (labels: { method: string; error: string }) => sample(registry, 'pod_doctor_slack_api_errors_total', labels);

  it('sends each call to SLACK_API_URL with the bot token and counts it by method and status', async () => {
    // The configured URL without its trailing slash: WebClient and the counter both add it.
    const client = createSlackWebClient(TOKEN, { slackApiUrl: slack.apiUrl.replace(/\/$/, ''), logger: silent, metrics });
    const res = await client.chat.postMessage({ channel: 'C0OPS', text: 'hi' });
    expect(res.ts).toMatch(/^\d+\.\d{6}$/);
    expect(slack.calls).toHaveLength(1);
    expect(slack.calls[0]).toMatchObject({ method: 'chat.postMessage', token: TOKEN, args: { channel: 'C0OPS', text: 'hi' } });
    expect(slack.messages.at(-1)).toMatchObject({ channel: 'C0OPS', text: 'hi' });
    expect(await calls({ method: 'chat.postMessage', status: '200' })).toBe(1);
    expect(await errors({ method: 'chat.postMessage', error: 'not_in_channel' })).toBeUndefined();
  });

  it('waits out a 429 under the channel budget and posts again: the 429 and the 200 are both counted', async () => {
    const limiter = new ChatLimiter(redis, prefix, { ratePerSecond: 100, burst: 100 });
    const adapter = new SlackAdapter({ client: createSlackWebClient(TOKEN, { slackApiUrl: slack.apiUrl, logger: silent, metrics }), limiter, logger: silent });
    slack.rateLimit('chat.postMessage', 1, 1);
    const ref = await adapter.postRoot('C0RATE', hello);
    expect(ref).toMatchObject({ channel: 'C0RATE', ts: expect.stringMatching(/^\d+\.\d{6}$/) });
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.postMessage']);
    expect(slack.messages.filter((m) => m.channel === 'C0RATE')).toHaveLength(1);
    expect(await calls({ method: 'chat.postMessage', status: '429' })).toBe(1);
    expect(await calls({ method: 'chat.postMessage', status: '200' })).toBe(1);
    // The pause (in Redis, for every process) was that channel's only.
    expect(await redis.exists(keys.chatPause(prefix, 'C0OTHER'))).toBe(0);
  });

  it("Bolt's client (WebClient's own 429 wait) asks again after Retry-After and succeeds, both answers counted", async () => {
    const client = new WebClient(TOKEN, slackClientOptions({ slackApiUrl: slack.apiUrl, logger: silent, metrics }));
    slack.rateLimit('views.open', 1, 1);
    const res = await client.views.open({ trigger_id: '1.2.3', view: { type: 'modal', title: { type: 'plain_text', text: 't' }, blocks: [] } });
    expect(res.ok).toBe(true);
    expect(slack.calls.map((c) => c.method)).toEqual(['views.open', 'views.open']);
    expect(await calls({ method: 'views.open', status: '429' })).toBe(1);
    expect(await calls({ method: 'views.open', status: '200' })).toBe(1);
  });

  it("surfaces Slack's own error (ok: false) at once, with its code, counted as a 200 and an error", async () => {
    const adapter = new SlackAdapter({ client: createSlackWebClient(TOKEN, { slackApiUrl: slack.apiUrl, logger: silent, metrics }), logger: silent });
    const err = await adapter.postRoot('C0CLOSED', hello).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: ErrorCode.PlatformError });
    expect(chatErrorCode(err)).toBe('not_in_channel');
    // A permanent error is not retried.
    expect(slack.calls).toHaveLength(1);
    expect(await calls({ method: 'chat.postMessage', status: '200' })).toBe(1);
    expect(await errors({ method: 'chat.postMessage', error: 'not_in_channel' })).toBe(1);
  });

  it('leaves retries to the adapter (a post tried again could be a second message); a 5xx is retried there, a call with no answer counted as "error"', async () => {
    const client = createSlackWebClient(TOKEN, { slackApiUrl: slack.apiUrl, logger: silent, metrics });
    slack.fail('chat.postMessage', 1, 503);
    await expect(client.chat.postMessage({ channel: 'C0DOWN', text: 'during an outage' })).rejects.toMatchObject({ code: ErrorCode.HTTPError });
    expect(slack.roots('C0DOWN')).toHaveLength(0);
    slack.fail('chat.postMessage', 1, 503);
    const adapter = new SlackAdapter({ client, logger: silent });
    await adapter.postRoot('C0DOWN', hello);
    expect(await calls({ method: 'chat.postMessage', status: '503' })).toBe(2);
    expect(await calls({ method: 'chat.postMessage', status: '200' })).toBe(1);
    expect(slack.roots('C0DOWN')).toHaveLength(1);

    // Nothing listens on port 1: every attempt (the first and the adapter's two retries) fails without an answer.
    const nowhere = new SlackAdapter({
      client: createSlackWebClient(TOKEN, { slackApiUrl: 'http://127.0.0.1:1/api/', logger: silent, metrics }),
      logger: silent,
    });
    const err = await nowhere.update({ channel: 'C0OPS', ts: '1.2' }, hello).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: ErrorCode.RequestError });
    expect(await calls({ method: 'chat.update', status: 'error' })).toBe(3);
  });
});
