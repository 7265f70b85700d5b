// Alert-group events handled out of order: the stream consumer handles them in stream order, but
// an event whose handler failed (a Redis or Slack error) stays pending and is claimed again after
// newer ones. Real events from processGroup on real Redis, the chat side with a recording adapter:
// fail an event, resolve the group, replay the event; the parent must stay resolved.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readAlertGroupEvents, type StoredGroupEvent } from '../../src/alerts/group-events.js';
import { type GroupInput, type GroupWork, processGroup } from '../../src/alerts/groups.js';
import type { ChatContext } from '../../src/chat/context.js';
import { alertGroups } from '../../src/chat/flows/alerts.js';
import type { AlertGroupState } from '../../src/chat/messages/messages.js';
import type { MessageRef } from '../../src/chat/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { type AmAlert, podAlert } from '../helpers/alerts.js';
import { RecordingAdapter, testChat } from '../helpers/chat.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const CHANNEL = 'C0ALERTS';

/** The thread post fails once (a Slack or Redis error mid-handler), then works. */
class FailingOnce extends RecordingAdapter {
  failNext = false;
  override async postInThread(parent: MessageRef, message: Parameters<RecordingAdapter['postInThread']>[1]) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connect ECONNRESET');
    }
    return super.postInThread(parent, message);
  }
}

/** Work is queued elsewhere: these tests are about the events. */
const noWork: GroupWork = { start: async () => ({ jobIds: [] }), stop: async () => 0 };

describe('alert group events out of order', () => {
  const redis = connect();
  const prefixes: string[] = [];
  let prefix: string;
  let adapter: FailingOnce;
  let chat: ChatContext;
  let seen: string | undefined;
  let groupId: string;

  beforeEach(() => {
    prefix = testPrefix('alert-order');
    prefixes.push(prefix);
    adapter = new FailingOnce();
    chat = testChat({ adapter, redis, queues: new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix }) }, { incidentChannel: CHANNEL });
    seen = undefined;
  });

  afterAll(async () => {
    for (const p of prefixes) await cleanup(redis, p);
    redis.disconnect();
  });

  const notify = (alerts: AmAlert[]) => {
    const input: GroupInput = {
      cluster: 'c1',
      channel: CHANNEL,
      groupKey: '{}:{alertname="KubePodCrashLooping"}',
      receiver: 'pod-doctor',
      groupLabels: { alertname: 'KubePodCrashLooping' },
      commonLabels: { alertname: 'KubePodCrashLooping' },
      externalURL: 'http://alertmanager:9093',
      truncatedAlerts: 0,
      alerts: alerts.map((alert) => ({
        alert,
        target: { kind: 'pod', target: { kind: 'pod', namespace: alert.labels.namespace ?? '', name: alert.labels.pod ?? '' } },
      })),
    };
    return processGroup(redis, { prefix, ttlMs: 60_000, resolvedKeepMs: 60_000, streamMaxLen: 1000 }, input, noWork);
  };
  /** Events published since the last call, oldest first. */
  const newEvents = async (): Promise<StoredGroupEvent[]> => {
    const events = await readAlertGroupEvents(redis, { prefix, cluster: 'c1', ...(seen ? { after: seen } : {}) });
    seen = events.at(-1)?.id ?? seen;
    return events;
  };
  const handle = (e: StoredGroupEvent) => alertGroups(chat).event(e.event, e.id);
  /** The state behind the first episode's parent. */
  const groupState = async (): Promise<AlertGroupState> => {
    const thread = await chat.threads.byScope(CHANNEL, `alert-group:${groupId}:1`);
    if (thread?.state.kind !== 'alert-group') throw new Error('no group thread');
    return thread.state;
  };
  const parentText = () => adapter.shown(CHANNEL, adapter.of('root')[0]!.ts)!.text;

  const firing = ['web-1', 'web-2', 'web-3'].map((pod) => podAlert('shop', pod, { alertname: 'KubePodCrashLooping' }));
  const resolved = firing.map((a) => ({ ...a, status: 'resolved' as const, endsAt: new Date().toISOString() }));

  it('fail an event, resolve the group, replay the event: the parent stays resolved', async () => {
    groupId = (await notify(firing)).groupId;
    const [opened, added, ...rest] = await newEvents();
    expect([opened?.event.type, added?.event.type, rest.length]).toEqual(['group-opened', 'alerts-added', 0]);
    await handle(opened!);
    // The alerts-added handler fails (its thread note cannot be posted): the entry stays pending.
    adapter.failNext = true;
    await expect(handle(added!)).rejects.toThrow(/ECONNRESET/);

    await notify(resolved);
    const later = await newEvents();
    expect(later.map((e) => e.event.type)).toEqual(['alerts-resolved', 'group-resolved']);
    for (const e of later) await handle(e);
    expect(await groupState()).toMatchObject({ status: 'resolved', firing: 0, resolved: 3 });

    // The consumer claims the failed entry again, after the group resolved.
    await handle(added!);
    expect(await groupState()).toMatchObject({ status: 'resolved', firing: 0, resolved: 3, eventId: later[1]!.id });
    await chat.parents.settle(2000);
    expect(parentText()).toMatch(/^\[c1\] Resolved: KubePodCrashLooping/);
    // What it announced is still told, at its own time, in the thread's note.
    const note = adapter.posts.filter((p) => p.kind === 'thread' || p.kind === 'update').at(-1);
    expect(note?.message.text).toMatch(/Resolved: 3 alerts.*\n[\d:]+ UTC \(delivered late\) 3 alerts firing: KubePodCrashLooping shop\/web-1/);
  });

  it('an event replayed twice, or in order, changes nothing more', async () => {
    groupId = (await notify(firing)).groupId;
    const first = await newEvents();
    for (const e of first) await handle(e);
    expect(await groupState()).toMatchObject({ status: 'firing', firing: 3 });
    await notify(resolved.slice(0, 1));
    const one = await newEvents();
    for (const e of [...one, ...one, ...first]) await handle(e);
    expect(await groupState()).toMatchObject({ status: 'firing', firing: 2, resolved: 1, eventId: one.at(-1)!.id });
  });

  it("a group-opened replayed after the next episode opened keeps results in the new episode's thread", async () => {
    groupId = (await notify(firing)).groupId;
    const episode1 = await newEvents();
    for (const e of episode1) await handle(e);
    await notify(resolved);
    for (const e of await newEvents()) await handle(e);
    // Firing again: a new occurrence (new startsAt), a new episode and thread.
    const again = firing.map((a) => ({ ...a, startsAt: new Date(Date.now() + 1000).toISOString() }));
    expect((await notify(again)).episode).toBe(2);
    for (const e of await newEvents()) await handle(e);
    await handle(episode1[0]!);

    const requester = {
      kind: 'alert' as const,
      groupKey: '{}:{alertname="KubePodCrashLooping"}',
      fingerprint: again[0]!.fingerprint,
      status: 'firing' as const,
      startsAt: again[0]!.startsAt,
      receiver: 'pod-doctor',
      channel: CHANNEL,
      groupId,
      alertname: 'KubePodCrashLooping',
    };
    const result = {
      job: { v: 1, cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'web-1' }, reason: 'alert', requestedAt: new Date().toISOString() },
      jobId: 'job-1',
      status: 'not-found',
      requesters: [requester],
    } as DiagnoseResult;
    await alertGroups(chat).result(result);
    const episode2 = await chat.threads.byScope(CHANNEL, `alert-group:${groupId}:2`);
    expect(episode2?.state).toMatchObject({ kind: 'alert-group', episode: 2, notFound: 1 });
    expect((await groupState()).notFound).toBe(0);
  });
});
