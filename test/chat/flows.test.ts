// The chat flows on real Redis with a recording adapter: threads created once under races,
// results posted once however often they are delivered, incidents as one thread per root
// cause; and the Slack adapter riding out a 429 by pausing the channel for everyone.

import { WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { ChatLimiter } from '../../src/chat/adapters/slack/limiter.js';
import type { ChatContext } from '../../src/chat/context.js';
import { deliver } from '../../src/chat/flows/delivery.js';
import { rerun } from '../../src/chat/flows/requests.js';
import { DeliveryLog, ThreadStore } from '../../src/chat/store/threads.js';
import { userRef } from '../../src/chat/types.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult, Incident } from '../../src/jobs/schemas.js';
import { keys } from '../../src/redis/keys.js';
import { testFinding as finding, RecordingAdapter, testChat } from '../helpers/chat.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

function result(jobId: string, patch: Partial<DiagnoseResult> = {}, name = 'web-1'): DiagnoseResult {
  const target = { kind: 'pod' as const, namespace: 'shop', name };
  const diagnosis: Diagnosis = {
    target,
    cluster: 'c1',
    findings: [finding({ subject: `pod/shop/${name}` })],
    skipped: [],
    ruleErrors: [],
    at: new Date().toISOString(),
  };
  return {
    job: { v: 1, cluster: 'c1', target, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    status: 'diagnosed',
    diagnosis,
    requesters: [{ kind: 'slack', user: 'U0ALICE', channel: 'C1' }],
    ...patch,
  };
}

describe('chat flows', () => {
  const redis = connect();
  let prefix: string;
  let queues: JobQueues;
  let adapter: RecordingAdapter;
  let chat: ChatContext;

  beforeEach(() => {
    prefix = testPrefix('chat-flows');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    adapter = new RecordingAdapter();
    chat = testChat({ adapter, redis, queues }, { incidentChannel: 'C0INC' });
  });
  afterEach(async () => {
    await queues.close();
    await cleanup(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  it('creates a thread parent once when many callers race for it (two stores: two processes)', async () => {
    const second = connect();
    try {
      const stores = [new ThreadStore<{ n: number }>(redis, prefix), new ThreadStore<{ n: number }>(second, prefix)];
      let created = 0;
      const outs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          stores[i % 2]!.ensure('C1', 'job:c1:j1', async () => {
            created++;
            await new Promise((r) => setTimeout(r, 50));
            return { ref: { channel: 'C1', ts: '1.0' }, state: { n: i } };
          }),
        ),
      );
      expect(created).toBe(1);
      expect(outs.filter((o) => o.created)).toHaveLength(1);
      expect(new Set(outs.map((o) => o.thread.id)).size).toBe(1);
      expect(new Set(outs.map((o) => o.thread.ts))).toEqual(new Set(['1.0']));
    } finally {
      second.disconnect();
    }
  });

  it('lets the next caller create the parent after a failed creation, and after the thread itself expired', async () => {
    const store = new ThreadStore<{ n: number }>(redis, prefix);
    await expect(store.ensure('C2', 'job:c1:j2', async () => Promise.reject(new Error('slack down')))).rejects.toThrow('slack down');
    const first = await store.ensure('C2', 'job:c1:j2', async () => ({ ref: { channel: 'C2', ts: '2.0' }, state: { n: 1 } }));
    expect(first.created).toBe(true);
    expect((await store.ensure('C2', 'job:c1:j2', async () => ({ ref: { channel: 'C2', ts: '9.9' }, state: { n: 9 } }))).thread).toEqual(first.thread);
    // The thread hash is gone but the scope still points at it: a new parent, not a hang.
    await redis.del(`{${prefix}}:chat:thread:${first.thread.id}`);
    const again = await store.ensure('C2', 'job:c1:j2', async () => ({ ref: { channel: 'C2', ts: '3.0' }, state: { n: 2 } }));
    expect(again.created).toBe(true);
    expect(again.thread.ts).toBe('3.0');
    expect(await store.byTs('C2', '3.0')).toEqual(again.thread);
  });

  it('posts once per delivery id, and again after a failed attempt', async () => {
    const log = new DeliveryLog(redis, prefix);
    let posts = 0;
    const outs = await Promise.all(Array.from({ length: 10 }, () => log.once('j1', async () => void posts++)));
    expect(posts).toBe(1);
    expect(outs.filter((o) => o === 'posted')).toHaveLength(1);
    await expect(log.once('j2', async () => Promise.reject(new Error('slack down')))).rejects.toThrow('slack down');
    expect(await log.once('j2', async () => void posts++)).toBe('posted');
    expect(posts).toBe(2);
  });

  it('posts a result once however often it is delivered (at-least-once delivery)', async () => {
    adapter.delayMs = 10;
    const r = result('job-1');
    await Promise.all([deliver(chat, r), deliver(chat, r), deliver(chat, r)]);
    await deliver(chat, r);
    expect(adapter.of('root')).toHaveLength(1);
    const findings = adapter.of('thread').filter((p) => p.message.text.includes('Image pull unauthorized'));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.parent).toBe(adapter.of('root')[0]!.ts);
    // The result came before a placeholder: the parent shows the outcome from its first post.
    const root = adapter.of('root')[0]!;
    expect(root.message.text).toBe('[c1] shop/web-1: ERROR Image pull unauthorized: ghcr.io/acme/private:2.1');
    await chat.parents.settle();
    expect(adapter.of('update')).toHaveLength(0);
  });

  it('updates a placeholder parent in the background: the findings never wait for it', async () => {
    const thread = await chat.threads.ensure('C1', 'job:c1:job-1b', async () => ({
      ref: await adapter.postRoot('C1', { text: 'diagnosing', parts: [] }),
      state: {
        kind: 'diagnosis',
        cluster: 'c1',
        target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
        status: 'diagnosing',
        origin: 'slash',
        requestedBy: ['U0ALICE'],
        updatedAt: new Date().toISOString(),
      },
    }));
    // Slack's update budget is spent: an update would take 10 s.
    const update = adapter.update.bind(adapter);
    adapter.update = async (ref, message) => {
      await new Promise((r) => setTimeout(r, 10_000));
      return update(ref, message);
    };
    const started = Date.now();
    await deliver(chat, result('job-1b'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(adapter.of('thread').filter((p) => p.parent === thread.thread.ts)).toHaveLength(1);
    adapter.update = update;
  });

  it('answers every requester: one thread per channel, each user named', async () => {
    const r = result('job-2', {
      requesters: [
        { kind: 'slack', user: 'U0ALICE', channel: 'C1' },
        { kind: 'slack', user: 'U0BOB', channel: 'C1' },
        { kind: 'slack', user: 'U0CAROL', channel: 'C2' },
      ],
    });
    await deliver(chat, r);
    expect(
      adapter
        .of('root')
        .map((p) => p.channel)
        .sort(),
    ).toEqual(['C1', 'C2']);
    expect(adapter.of('thread').filter((p) => p.message.text.includes('Image pull'))).toHaveLength(2);
    const c1root = adapter.of('root').find((p) => p.channel === 'C1')!;
    const c1 = { message: adapter.shown('C1', c1root.ts)! };
    expect(JSON.stringify(c1.message.parts)).toContain(JSON.stringify(`asked by ${userRef('U0ALICE')}, ${userRef('U0BOB')}`).slice(1, -1));
  });

  it('tells requesters privately when the target does not exist', async () => {
    await deliver(chat, result('job-3', { status: 'not-found', message: 'pod shop/web-1 not found', diagnosis: undefined }));
    const eph = adapter.of('ephemeral');
    expect(eph).toHaveLength(1);
    expect(eph[0]).toMatchObject({ user: 'U0ALICE', channel: 'C1' });
    expect(eph[0]!.message.text).toContain('shop/web-1 was not found on cluster c1');
    expect(adapter.shown('C1', adapter.of('root')[0]!.ts)!.text).toContain('not found');
  });

  it('opens one thread per incident and keeps its pod list current', async () => {
    const base: Omit<Incident, 'count' | 'subjects' | 'created'> = {
      id: 'c1|image.auth|image/ghcr.io/acme/private:auth',
      cluster: 'c1',
      rule: 'image.auth',
      causeKey: 'image/ghcr.io/acme/private:auth',
      firstJobId: 'a-1',
      createdAt: new Date().toISOString(),
    };
    const alert = {
      kind: 'alert' as const,
      groupKey: '{}:{alertname="KubePodNotReady"}',
      fingerprint: 'abc',
      status: 'firing' as const,
      startsAt: '2026-11-21T09:58:00Z',
      receiver: 'pod-doctor',
    };
    const subjects = Array.from({ length: 12 }, (_, i) => `pod/shop/web-${i + 1}`);
    for (let i = 1; i <= 12; i++) {
      await deliver(
        chat,
        result(`a-${i}`, { requesters: [alert], incident: { ...base, created: i === 1, count: i, subjects: subjects.slice(0, Math.min(i, 5)) } }, `web-${i}`),
      );
    }
    const roots = adapter.of('root');
    expect(roots).toHaveLength(1);
    expect(roots[0]!.channel).toBe('C0INC');
    expect(adapter.of('thread').filter((p) => p.message.text.includes('Image pull'))).toHaveLength(1);
    // Updates go out in the background, coalesced: the last state is the one shown.
    await chat.parents.settle();
    expect(adapter.shown('C0INC', roots[0]!.ts)!.text).toContain('12 pods: shop/web-1, shop/web-2, shop/web-3 and 9 more');
  });

  it('re-runs a diagnosis from a thread: a rerun job whose requester points at that thread', async () => {
    await deliver(chat, result('job-4'));
    const buttons = adapter.of('thread')[0]!.message.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons : []));
    const threadId = buttons.find((b) => b.action === 'rerun')?.value ?? '';
    await rerun(chat, threadId, 'U0BOB', 'C1');
    const jobs = await queues.diagnose('c1').getJobs(['waiting']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).toMatchObject({ reason: 'rerun', requester: { kind: 'slack', user: 'U0BOB', channel: 'C1', threadTs: adapter.of('root')[0]!.ts } });
    // Unknown thread ids are refused privately.
    await rerun(chat, 'nope', 'U0BOB', 'C1');
    expect(adapter.of('ephemeral').at(-1)!.message.text).toMatch(/too old/);
  });
});

describe('SlackAdapter against the fake Web API', () => {
  const redis = connect();
  const prefix = testPrefix('chat-slack');
  let slack: FakeSlack;

  beforeEach(async () => {
    slack = await startFakeSlack();
  });
  afterEach(async () => {
    await slack.close();
  });
  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const adapterFor = (limiter?: ChatLimiter) =>
    new SlackAdapter({
      client: new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } }),
      logger: silent,
      ...(limiter ? { limiter } : {}),
    });

  it('on 429 pauses the channel for Retry-After (for every process) and posts again', async () => {
    const limiter = new ChatLimiter(redis, prefix, { ratePerSecond: 100, burst: 100 });
    const adapter = adapterFor(limiter);
    slack.rateLimit('chat.postMessage', 1, 1);
    const started = Date.now();
    const ref = await adapter.postRoot('C0RATE', { text: '[c1] hello', parts: [{ kind: 'section', text: 'hello' }] });
    const waited = Date.now() - started;
    expect(ref.ts).toMatch(/^\d+\.\d{6}$/);
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(2);
    expect(slack.messages).toHaveLength(1);
    // Another channel was never paused.
    expect(await redis.exists(keys.chatPause(prefix, 'C0OTHER'))).toBe(0);
  });

  it('waits out a 429 on updates too', async () => {
    const adapter = adapterFor(new ChatLimiter(redis, prefix, { ratePerSecond: 100, burst: 100 }));
    const ref = await adapter.postRoot('C0UPD', { text: '[c1] v1', parts: [{ kind: 'section', text: 'v1' }] });
    slack.rateLimit('chat.update', 1, 1);
    const started = Date.now();
    await adapter.update(ref, { text: '[c1] v2', parts: [{ kind: 'section', text: 'v2' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(slack.message('C0UPD', ref.ts)?.text).toBe('[c1] v2');
  });

  it("budgets chat.update apart from posts: an update's 429 never holds back a message to the channel", async () => {
    const posts = new ChatLimiter(redis, prefix, { ratePerSecond: 100, burst: 100 });
    const updates = new ChatLimiter(redis, `${prefix}-updates`, { ratePerSecond: 100, burst: 100 });
    const adapter = new SlackAdapter({
      client: new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } }),
      limiter: posts,
      updateLimiter: updates,
      logger: silent,
    });
    const ref = await adapter.postRoot('C0ISO', { text: '[c1] v1', parts: [{ kind: 'section', text: 'v1' }] });
    slack.rateLimit('chat.update', 1, 2);
    const updating = adapter.update(ref, { text: '[c1] v2', parts: [{ kind: 'section', text: 'v2' }] });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await adapter.postRoot('C0ISO', { text: '[c1] another incident', parts: [{ kind: 'section', text: 'x' }] });
    expect(Date.now() - started).toBeLessThan(500);
    await updating;
    expect(slack.message('C0ISO', ref.ts)?.text).toBe('[c1] v2');
  });

  it('joins notes for one thread still queued into one message; findings and edited notes stay apart', async () => {
    const adapter = adapterFor(new ChatLimiter(redis, `${prefix}-join`, { ratePerSecond: 2, burst: 1 }));
    const root = await adapter.postRoot('C0JOIN', { text: '[c1] root', parts: [{ kind: 'section', text: 'root' }] });
    const note = (t: string) => ({ text: `[c1] ${t}`, parts: [{ kind: 'section' as const, text: t }] });
    // The root took the burst: everything below waits for the channel's next turns.
    const [a, b, c, f, e] = await Promise.all([
      adapter.postInThread(root, note('alpha')),
      adapter.postInThread(root, note('beta')),
      adapter.postInThread(root, note('gamma')),
      adapter.postInThread(root, note('findings'), { priority: 'answer' }),
      adapter.postInThread(root, note('alert list'), { editedLater: true }),
    ]);
    const thread = slack.thread('C0JOIN', root.ts);
    // alpha was on its way (waiting for its token) when the others came; beta and gamma waited together.
    expect(thread.map((m) => m.text)).toEqual(['[c1] alpha', '[c1] findings', '[c1] beta\n[c1] gamma', '[c1] alert list']);
    expect(b![0]!.ts).toBe(c![0]!.ts);
    expect(new Set([a![0]!.ts, b![0]!.ts, f![0]!.ts, e![0]!.ts]).size).toBe(4);
    expect(slack.rejected).toEqual([]);
  });

  it('splits long thread posts into several messages, all accepted', async () => {
    const adapter = adapterFor();
    const root = await adapter.postRoot('C1', { text: '[c1] root', parts: [{ kind: 'section', text: 'root' }] });
    const refs = await adapter.postInThread(root, {
      text: '[c1] long',
      parts: Array.from({ length: 120 }, (_, i) => ({ kind: 'section' as const, text: `paragraph ${i} ${'x'.repeat(400)}` })),
    });
    expect(refs.length).toBeGreaterThan(1);
    expect(slack.thread('C1', root.ts)).toHaveLength(refs.length);
    expect(slack.rejected).toEqual([]);
  });
});
