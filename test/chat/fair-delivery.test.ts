// Fair delivery: 400 "pod not found" answers (paced by the workspace's private replies and their
// channel) and 5 findings for other channels come through the results stream as the bot reads it
// (its concurrency and lanes), into the real Slack adapter under Slack's documented limits. The
// findings do not wait for the private replies' slots: each lane waits only for its own budget.
import { afterAll, describe, expect, it } from 'vitest';
import { bounded } from '../../src/bounded.js';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import { createSlackWebClient } from '../../src/chat/adapters/slack/web-client.js';
import { DELIVERY_CONCURRENCY, deliver, deliveryLane } from '../../src/chat/flows/delivery.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { consumeResults, RedisStreamSink } from '../../src/jobs/sink.js';
import { streamIdTime } from '../../src/redis/streams.js';
import { testFinding as finding, testChat } from '../helpers/chat.js';
import { messageText, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

function result(jobId: string, name: string, channel: string, user: string, found: boolean): DiagnoseResult {
  const target = { kind: 'pod' as const, namespace: 'shop', name };
  return {
    job: { v: 1, cluster: 'c1', target, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    requesters: [{ kind: 'slack', user, channel }],
    ...(found
      ? {
          status: 'diagnosed' as const,
          diagnosis: { target, cluster: 'c1', findings: [finding({ subject: `pod/shop/${name}` })], skipped: [], ruleErrors: [], at: new Date().toISOString() },
        }
      : { status: 'not-found' as const, message: `pod shop/${name} not found` }),
  };
}

describe('fair delivery', () => {
  const redis = connect();
  const reader = connect();
  const prefix = testPrefix('fair');
  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
    reader.disconnect();
  });

  it('400 private replies for missing pods do not hold back 5 findings in other channels (≤ 2 s)', { timeout: 30_000 }, async () => {
    const slack = await startFakeSlack({ enforceLimits: true });
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    const adapter = new SlackAdapter({
      client: createSlackWebClient('xoxb-test', { slackApiUrl: slack.apiUrl, logger: silent }),
      limiter: new ChatLimiter(redis, prefix, { ratePerSecond: 1, burst: 3 }),
      updateLimiter: new ChatLimiter(redis, `${prefix}-u`, { ratePerSecond: 45 / 60, burst: 10 }),
      ephemeralLimiter: new ChatLimiter(redis, `${prefix}-e`, { ratePerSecond: 100 / 60, burst: 20 }),
      logger: silent,
    });
    // A short retry budget: what is still paced when the test ends gives up quickly.
    const chat = testChat({ adapter, redis, queues }, { deliveryRetryMs: 3000 });
    const sink = new RedisStreamSink(redis, prefix);
    const consumer = consumeResults({
      redis: reader,
      prefix,
      cluster: 'c1',
      group: 'chat',
      consumer: 'bot-1',
      logger: silent,
      blockMs: 100,
      handler: (r, id) => deliver(chat, r, { since: streamIdTime(id) ?? Date.now() }),
      ...DELIVERY_CONCURRENCY,
      lane: deliveryLane,
    });
    try {
      for (let i = 0; i < 400; i++) await sink.deliver(result(`missing-${i}`, `gone-${i}`, 'C0MISS', `U${String(i).padStart(4, '0')}`, false));
      // Let the consumer take the flood first, as it would in a storm.
      await slack.waitFor(() => slack.ephemerals.length >= 5, 10_000);
      const sent = Date.now();
      for (let i = 0; i < 5; i++) await sink.deliver(result(`found-${i}`, `web-${i}`, `C0F${i}`, 'U0ALICE', true));
      const findings = () => slack.messages.filter((m) => m.channel.startsWith('C0F') && m.thread_ts && messageText(m).includes('Image pull'));
      await slack.waitFor(() => findings().length >= 5, 10_000);
      const last = Math.max(...findings().map((m) => m.postedAt)) - sent;
      expect(last).toBeLessThanOrEqual(2000);
      // The flood is still being answered at its own pace.
      expect(slack.ephemerals.length).toBeLessThan(400);
      expect(slack.throttled).toEqual([]);
    } finally {
      await bounded(5000, () => consumer.stop());
      await slack.close();
      await queues.close();
    }
  });
});
