// Thread parents under faults: the parent is the only place some outcomes appear (a pod that is
// gone, a diagnosis that failed), so its final state must reach Slack however Redis and Slack
// fail in turn; and, at Slack's real limits, findings go out at the channel's pace with no 429.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { slackIds } from '../../src/chat/adapters/slack/ids.js';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import { createSlackWebClient } from '../../src/chat/adapters/slack/web-client.js';
import type { ThreadState } from '../../src/chat/context.js';
import { type ChatContext, createChatContext } from '../../src/chat/context.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import { renderParent } from '../../src/chat/flows/parents.js';
import { startDiagnosis } from '../../src/chat/flows/requests.js';
import { ApproverPolicy } from '../../src/chat/store/approvals.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { type FakeSlack, messageText, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, eventually, freePort, redisUp, sleep, startAofRedis, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const TARGET = { kind: 'pod' as const, namespace: 'shop', name: 'web-gone' };

function notFound(jobId: string, channel = 'C1'): DiagnoseResult {
  return {
    job: { v: 1, cluster: 'c1', target: TARGET, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    status: 'not-found',
    message: 'pod shop/web-gone not found',
    requesters: [{ kind: 'slack', user: 'U0ALICE', channel }],
  };
}

function diagnosed(jobId: string, name: string, channel: string): DiagnoseResult {
  const target = { kind: 'pod' as const, namespace: 'shop', name };
  return {
    job: { v: 1, cluster: 'c1', target, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    status: 'diagnosed',
    diagnosis: { target, cluster: 'c1', findings: [], skipped: [], ruleErrors: [], at: new Date().toISOString() },
    requesters: [{ kind: 'slack', user: 'U0ALICE', channel }],
  };
}

interface Bot {
  chat: ChatContext;
  stopSweeping: () => void;
}

function bot(redis: RedisClient, prefix: string, slack: FakeSlack, limits = false, placeholderMs = 2000): Bot {
  const adapter = new SlackAdapter({
    client: createSlackWebClient('xoxb-test', { slackApiUrl: slack.apiUrl, logger: silent }),
    logger: silent,
    ...(limits
      ? {
          limiter: new ChatLimiter(redis, prefix, { ratePerSecond: 1, burst: 3 }),
          updateLimiter: new ChatLimiter(redis, prefix, { ratePerSecond: 45 / 60, burst: 10 }),
          ephemeralLimiter: new ChatLimiter(redis, prefix, { ratePerSecond: 100 / 60, burst: 20 }),
        }
      : {}),
  });
  const chat = createChatContext({
    adapter,
    redis,
    queues: new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix }),
    cluster: 'c1',
    logger: silent,
    approvers: new ApproverPolicy({ approvers: [], ids: slackIds }),
    rootUpdateIntervalMs: 0,
    placeholderMs,
    parentUpdates: { backoffMs: 100, maxBackoffMs: 400, sweepMs: 500, staleMs: 300 },
  });
  return { chat, stopSweeping: chat.parents.start(chat.redis) };
}

/** A "diagnosing…" parent, as a slow diagnosis gets one. */
async function placeholder(chat: ChatContext, jobId: string, channel = 'C1') {
  const { thread } = await chat.threads.ensure(channel, `job:c1:${jobId}`, async () => {
    const state: ThreadState = {
      kind: 'diagnosis',
      cluster: 'c1',
      target: TARGET,
      status: 'diagnosing',
      origin: 'slash',
      requestedBy: ['U0ALICE'],
      updatedAt: new Date().toISOString(),
    };
    return { ref: await chat.adapter.postRoot(channel, renderParent(state)), state };
  });
  return thread;
}

describe('thread parents under faults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-parents-'));
  let port: number;
  let server: ChildProcess | undefined;
  let redis: RedisClient;
  let slack: FakeSlack;
  const prefix = testPrefix('parents');

  beforeEach(async () => {
    port = await freePort();
    server = startAofRedis(port, dir);
    await redisUp(port);
    redis = redisFromUrl(`redis://127.0.0.1:${port}`, {}, { role: 'producer' });
    redis.on('error', () => undefined);
    slack = await startFakeSlack();
  });
  afterEach(async () => {
    redis.disconnect();
    server?.kill('SIGKILL');
    await slack.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the final state of a parent through a Slack outage and then a Redis crash', async () => {
    const a = bot(redis, prefix, slack);
    const thread = await placeholder(a.chat, 'gone-1');
    // Slack answers 503 to every update for a while (more than the caller's own retries).
    slack.fail('chat.update', 12, 503);
    await deliver(a.chat, notFound('gone-1'));
    // The person who asked is told privately at once; the parent still says "diagnosing".
    expect(slack.ephemerals.map((e) => e.text).join('\n')).toContain('was not found');
    await eventually(async () => slack.calls.filter((c) => c.method === 'chat.update').length >= 4, 5000);
    // Then Redis dies (kill -9) while the update is waiting for its next try, and comes back.
    server?.kill('SIGKILL');
    await sleep(800);
    server = startAofRedis(port, dir);
    await redisUp(port);
    const shown = await eventually(async () => {
      const m = slack.message('C1', thread.ts);
      return m && /not found/i.test(messageText(m)) ? m : undefined;
    }, 20_000);
    expect(messageText(shown)).toContain('shop/web-gone');
    // Done: nothing is left to write.
    await eventually(async () => (await a.chat.threads.dirty(Date.now(), 10)).length === 0, 5000);
    a.stopSweeping();
  });

  it('a parent left dirty by a process that died is written by the next one at start-up', async () => {
    const a = bot(redis, prefix, slack);
    const thread = await placeholder(a.chat, 'gone-2');
    slack.fail('chat.update', 1000, 500);
    await deliver(a.chat, notFound('gone-2'));
    await eventually(async () => slack.calls.some((c) => c.method === 'chat.update'), 5000);
    // This process goes away without writing it.
    await a.chat.parents.settle(50);
    a.stopSweeping();
    slack.fail('chat.update', 0);
    expect(messageText(slack.message('C1', thread.ts)!)).not.toMatch(/not found/i);
    expect(await a.chat.threads.dirty(Date.now(), 10)).toEqual([thread.id]);

    const b = bot(redis, prefix, slack);
    await eventually(async () => /not found/i.test(messageText(slack.message('C1', thread.ts)!)), 10_000);
    b.stopSweeping();
  });

  it('a state saved while Redis is down is retried until Redis is back (never marked done unsaved)', async () => {
    const a = bot(redis, prefix, slack);
    const thread = await placeholder(a.chat, 'gone-3');
    server?.kill('SIGKILL');
    await sleep(200);
    let settled = false;
    const delivering = deliver(a.chat, notFound('gone-3')).finally(() => (settled = true));
    await sleep(1500);
    expect(settled).toBe(false);
    server = startAofRedis(port, dir);
    await redisUp(port);
    await delivering;
    await eventually(async () => /not found/i.test(messageText(slack.message('C1', thread.ts)!)), 10_000);
    a.stopSweeping();
  });
});

describe("delivery at Slack's limits", () => {
  const redis = connect('redis://127.0.0.1:6379', 'producer');
  let slack: FakeSlack;
  let prefix: string;

  beforeEach(async () => {
    prefix = testPrefix('limits');
    slack = await startFakeSlack({ enforceLimits: true });
  });
  afterEach(async () => {
    await cleanup(redis, prefix);
    await slack.close();
  });
  afterAll(() => redis.disconnect());

  it('posts every thread of a burst at the channel pace, each parent with its findings close behind, and no 429', async () => {
    const b = bot(redis, prefix, slack, true);
    const started = Date.now();
    // Six commands answered at once in one channel: 12 posts at 1/s after a burst of 3.
    await Promise.all(Array.from({ length: 6 }, (_, i) => deliver(b.chat, diagnosed(`burst-${i}`, `web-${i}`, 'C2'))));
    const elapsed = Date.now() - started;
    expect(slack.throttled).toEqual([]);
    const posts = slack.messages.filter((m) => m.channel === 'C2');
    expect(posts).toHaveLength(12);
    // 12 posts with a burst of 3 take at least 9 s, and the bot takes little more.
    expect(elapsed).toBeGreaterThanOrEqual(8_500);
    expect(elapsed).toBeLessThan(11_000);
    // A thread's findings follow its parent within one other post (a parent already on its way).
    const roots = posts.filter((m) => !m.thread_ts);
    for (const root of roots) {
      const at = posts.indexOf(root);
      const reply = posts.findIndex((m) => m.thread_ts === root.ts);
      expect(reply - at).toBeLessThanOrEqual(2);
    }
    // Each thread opened with its outcome: no chat.update was needed.
    await b.chat.parents.settle();
    expect(slack.callsByMethod()['chat.update'] ?? 0).toBe(0);
    b.stopSweeping();
  }, 30_000);

  it('a quick answer opens its thread with the outcome (2 posts, no update); a slow one gets a placeholder first', async () => {
    const b = bot(redis, prefix, slack, true, 300);
    const quick = await startDiagnosis(b.chat, { channel: 'C3', user: 'U0ALICE', target: { kind: 'pod', namespace: 'shop', name: 'web-q' } });
    await deliver(b.chat, { ...diagnosed(quick.jobId, 'web-q', 'C3') });
    await sleep(600);
    expect(slack.messages.filter((m) => m.channel === 'C3')).toHaveLength(2);
    expect(slack.callsByMethod()['chat.update'] ?? 0).toBe(0);

    const slow = await startDiagnosis(b.chat, { channel: 'C4', user: 'U0ALICE', target: { kind: 'pod', namespace: 'shop', name: 'web-s' } });
    const root = await slack.waitFor(() => slack.roots('C4')[0], 3000);
    expect(messageText(root)).toMatch(/diagnosing/i);
    await deliver(b.chat, { ...diagnosed(slow.jobId, 'web-s', 'C4') });
    await b.chat.parents.settle();
    expect(slack.callsByMethod()['chat.update']).toBe(1);
    expect(messageText(slack.message('C4', root.ts)!)).not.toMatch(/diagnosing/i);
    expect(slack.thread('C4', root.ts)).toHaveLength(1);
    b.stopSweeping();
  }, 20_000);
});
