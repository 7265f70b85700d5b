// Transient is not permanent, and every reply is retried until delivered or expired: results go
// through the real Slack adapter to a fake Web API that refuses for a while (invalid_auth for
// 10 s, channel_not_found right after a working post, 503s, a Redis error in the reply's
// budget). Nothing is lost; only an error that cannot change (is_archived) drops a result, and
// the person is told by direct message.
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import { createSlackWebClient } from '../../src/chat/adapters/slack/web-client.js';
import type { ChatContext } from '../../src/chat/context.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import { type ChatMetrics, createChatMetrics } from '../../src/chat/metrics.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { testFinding as finding, testChat } from '../helpers/chat.js';
import { type FakeSlack, messageText, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

function result(jobId: string, channel: string, patch: Partial<DiagnoseResult> = {}): DiagnoseResult {
  const target = { kind: 'pod' as const, namespace: 'shop', name: jobId };
  const diagnosis: Diagnosis = {
    target,
    cluster: 'c1',
    findings: [finding({ subject: `pod/shop/${jobId}` })],
    skipped: [],
    ruleErrors: [],
    at: new Date().toISOString(),
  };
  return {
    job: { v: 1, cluster: 'c1', target, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    status: 'diagnosed',
    diagnosis,
    requesters: [{ kind: 'slack', user: 'U0ALICE', channel }],
    ...patch,
  };
}

/** An ephemeral budget whose Redis fails the first `failures` times (a blip while replying). */
class FlakyLimiter extends ChatLimiter {
  failures = 0;
  override async acquire(channel: string): Promise<number> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('Command timed out');
    }
    return super.acquire(channel);
  }
}

describe('chat delivery through transient failures', () => {
  const redis = connect();
  let prefix: string;
  let queues: JobQueues;
  let slack: FakeSlack;
  let chat: ChatContext;
  let metrics: ChatMetrics;
  let ephemerals: FlakyLimiter;

  beforeEach(async () => {
    prefix = testPrefix('chat-retry');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    slack = await startFakeSlack();
    metrics = createChatMetrics(new Registry());
    ephemerals = new FlakyLimiter(redis, `${prefix}-eph`, { ratePerSecond: 100, burst: 100 });
    const adapter = new SlackAdapter({
      client: createSlackWebClient('xoxb-test', { slackApiUrl: slack.apiUrl, logger: silent }),
      limiter: new ChatLimiter(redis, prefix, { ratePerSecond: 100, burst: 100 }),
      ephemeralLimiter: ephemerals,
      logger: silent,
    });
    chat = testChat({ adapter, redis, queues }, { metrics, deliveryRetryMs: 30_000, placeholderMs: 0 });
  });
  afterEach(async () => {
    await slack.close();
    await queues.close();
    await cleanup(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  const findingsIn = (channel: string) => slack.messages.filter((m) => m.channel === channel && m.thread_ts && messageText(m).includes('Image pull'));
  const dropped = async () => (await metrics.deliveriesDropped.get()).values.reduce((n, v) => n + v.value, 0);

  it('loses no findings to 10 s of invalid_auth, nor to channel_not_found right after a working post', { timeout: 30_000 }, async () => {
    // C0WORKS took a post a moment ago: its channel_not_found is a blip.
    await deliver(chat, result('before', 'C0WORKS'));
    expect(findingsIn('C0WORKS')).toHaveLength(1);
    slack.refuse('chat.postMessage', 'channel_not_found', 10_000, 'C0WORKS');
    for (const c of ['C0A', 'C0B', 'C0C']) slack.refuse('chat.postMessage', 'invalid_auth', 10_000, c);
    const started = Date.now();
    await Promise.all([deliver(chat, result('w1', 'C0WORKS')), ...['C0A', 'C0B', 'C0C'].map((c, i) => deliver(chat, result(`a${i}`, c)))]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    for (const c of ['C0WORKS', 'C0A', 'C0B', 'C0C']) expect(findingsIn(c).length, c).toBe(c === 'C0WORKS' ? 2 : 1);
    // Every finding once: the refused attempts posted nothing, the retries posted each once.
    expect(slack.roots().length).toBe(5);
    expect(await dropped()).toBe(0);
  });

  it('drops at once what cannot change (is_archived), counts it and tells the person by direct message', async () => {
    slack.refuse('chat.postMessage', 'is_archived', 60_000, 'C0OLD');
    const started = Date.now();
    await deliver(chat, result('old', 'C0OLD'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === 'C0OLD')).toHaveLength(1);
    expect(await dropped()).toBe(1);
    const dm = slack.messages.filter((m) => m.channel === 'U0ALICE');
    expect(dm).toHaveLength(1);
    expect(messageText(dm[0]!)).toContain('is_archived');
  });

  it('reports a result whose transient errors outlast the retry budget', { timeout: 15_000 }, async () => {
    chat = testChat({ adapter: chat.adapter, redis, queues }, { metrics, deliveryRetryMs: 2000, placeholderMs: 0 });
    slack.refuse('chat.postMessage', 'invalid_auth', 60_000, 'C0DOWN');
    await deliver(chat, result('down', 'C0DOWN'));
    expect(findingsIn('C0DOWN')).toHaveLength(0);
    expect((await metrics.deliveriesDropped.get()).values).toEqual([expect.objectContaining({ labels: { reason: 'expired' }, value: 1 })]);
    expect(messageText(slack.messages.find((m) => m.channel === 'U0ALICE')!)).toContain('invalid_auth');
  });

  it('retries a "pod not found" answer through 503s and a Redis error, once per person', { timeout: 20_000 }, async () => {
    const nf = result('missing', 'C0NF', {
      status: 'not-found',
      diagnosis: undefined,
      message: 'pod shop/missing not found',
      requesters: [
        { kind: 'slack', user: 'U0ALICE', channel: 'C0NF' },
        { kind: 'slack', user: 'U0BOB', channel: 'C0NF' },
      ],
    });
    // Alice's reply: two Redis errors in its budget; Bob's: more 503s than the client's own retries.
    ephemerals.failures = 2;
    let bobFailed = false;
    const fail = () => {
      if (!bobFailed && slack.ephemerals.some((e) => e.user === 'U0ALICE')) {
        bobFailed = true;
        slack.fail('chat.postEphemeral', 4, 503);
      }
    };
    const watcher = setInterval(fail, 5);
    try {
      await deliver(chat, nf);
    } finally {
      clearInterval(watcher);
    }
    expect(slack.ephemerals.map((e) => e.user).sort()).toEqual(['U0ALICE', 'U0BOB']);
    expect(slack.ephemerals.every((e) => messageText(e).includes('was not found'))).toBe(true);
    expect(await dropped()).toBe(0);
    // Delivered again (a redelivered stream entry): nobody is told twice.
    await deliver(chat, nf);
    expect(slack.ephemerals).toHaveLength(2);
  });
});

describe('posts retried after a client timeout', () => {
  const redis = connect();
  let prefix: string;
  let queues: JobQueues;
  let slack: FakeSlack;

  beforeEach(async () => {
    prefix = testPrefix('chat-idem');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    slack = await startFakeSlack();
  });
  afterEach(async () => {
    await slack.close();
    await queues.close();
    await cleanup(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  it('never make a second message: the retry finds the first one by its key', { timeout: 15_000 }, async () => {
    const adapter = new SlackAdapter({
      client: createSlackWebClient('xoxb-test', { slackApiUrl: slack.apiUrl, logger: silent, timeoutMs: 300 }),
      logger: silent,
    });
    const chat = testChat({ adapter, redis, queues }, { placeholderMs: 0 });
    // Slack makes each post at once but answers after the client gave up on it.
    slack.answerLate('chat.postMessage', 6, 700);
    await Promise.all(['C0T1', 'C0T2', 'C0T3'].map((c, i) => deliver(chat, result(`slow${i}`, c))));
    for (const c of ['C0T1', 'C0T2', 'C0T3']) {
      expect(slack.roots(c), c).toHaveLength(1);
      const root = slack.roots(c)[0]!;
      expect(slack.thread(c, root.ts), c).toHaveLength(1);
    }
    // Each timed-out post was looked for before it could go again.
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(6);
    expect(slack.calls.filter((c) => c.method.startsWith('conversations.')).length).toBeGreaterThanOrEqual(6);
  });
});
