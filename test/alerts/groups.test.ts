// Group state and events against real Redis: dedup of HA repeats, resolve cancelling queued
// work (and only that), not-diagnosable alerts listed once, truncation, storms, reopening.
import { Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AlertGroupEvent, readAlertGroupEvents } from '../../src/alerts/group-events.js';
import { AlertIntake } from '../../src/alerts/intake.js';
import { parseWebhookPayload, type WebhookPayload } from '../../src/alerts/schema.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues, queueName } from '../../src/jobs/queues.js';
import type { RedisClient } from '../../src/redis/client.js';
import { clusterTag, keys } from '../../src/redis/keys.js';
import { type AmAlert, amAlert, payload, podAlert } from '../helpers/alerts.js';
import { cleanup, connect, eventually, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

function parsed(body: unknown): WebhookPayload {
  const r = parseWebhookPayload(body);
  if (!r.ok) throw new Error(r.reason);
  return r.payload;
}

const resolvedCopy = (a: AmAlert): AmAlert => ({ ...a, status: 'resolved', endsAt: '2026-11-21T10:05:00Z' });

describe('alert groups', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let intake: AlertIntake;

  const events = async (): Promise<AlertGroupEvent[]> => (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event);
  const ofType = <T extends AlertGroupEvent['type']>(list: AlertGroupEvent[], type: T) =>
    list.filter((e): e is Extract<AlertGroupEvent, { type: T }> => e.type === type);
  const counts = () => queues.diagnose('c1').getJobCounts('waiting', 'delayed', 'active', 'prioritized');

  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('alerts-groups');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    intake = new AlertIntake({ queues, cluster: 'c1', logger: silent, defaultChannel: 'C0ALERTS' });
  });

  afterEach(async () => {
    await intake.close();
    await queues.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('opens a group, queues one diagnosis per alert with the alert requester, and says so once', async () => {
    const a = podAlert('shop', 'web-1');
    const r = await intake.accept(parsed(payload([a], { notification_reason: 'first notification' })));
    expect(r).toMatchObject({ alerts: 1, added: 1, repeats: 0, jobs: 1 });
    const list = await events();
    expect(list.map((e) => e.type)).toEqual(['group-opened', 'alerts-added']);
    const added = ofType(list, 'alerts-added')[0]!;
    expect(added).toMatchObject({
      cluster: 'c1',
      channel: 'C0ALERTS',
      groupKey: '{}:{namespace="shop"}',
      episode: 1,
      notificationReason: 'first notification',
      receiver: 'pod-doctor',
    });
    expect(added.alerts[0]).toMatchObject({
      fingerprint: a.fingerprint,
      alertname: 'KubePodCrashLooping',
      target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
      endsAt: null,
      severity: 'warning',
    });
    const job = await queues.diagnose('c1').getJob(added.alerts[0]!.jobIds[0]!);
    expect(job?.data).toMatchObject({ reason: 'alert', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } });
    expect(job?.data.requester).toMatchObject({
      kind: 'alert',
      fingerprint: a.fingerprint,
      status: 'firing',
      startsAt: a.startsAt,
      channel: 'C0ALERTS',
      groupId: added.groupId,
      alertname: 'KubePodCrashLooping',
    });
  });

  it('treats HA duplicates (same fingerprint, status, startsAt) as one: one job, events once', async () => {
    const body = payload([podAlert('shop', 'web-1'), podAlert('shop', 'web-2')]);
    const results = await Promise.all(Array.from({ length: 6 }, () => intake.accept(parsed(body))));
    expect(results.reduce((n, r) => n + r.added, 0)).toBe(2);
    expect(results.reduce((n, r) => n + r.repeats, 0)).toBe(10);
    await intake.accept(parsed(body)); // a later repeat_interval resend
    const list = await events();
    expect(list.map((e) => e.type)).toEqual(['group-opened', 'alerts-added']);
    expect((await counts()).waiting).toBe(2);
  });

  it('resolving cancels the waiting job, updates the group and resolves it', async () => {
    const a = podAlert('shop', 'web-1');
    const b = podAlert('shop', 'web-2');
    await intake.accept(parsed(payload([a, b])));
    expect((await counts()).waiting).toBe(2);

    const r1 = await intake.accept(parsed(payload([resolvedCopy(a), b], { notification_reason: 'some alerts resolved' })));
    expect(r1).toMatchObject({ resolved: 1, cancelled: 1 });
    expect((await counts()).waiting).toBe(1);
    let list = await events();
    const resolved = ofType(list, 'alerts-resolved')[0]!;
    expect(resolved.alerts.map((x) => [x.fingerprint, x.status, x.cancelledJobs])).toEqual([[a.fingerprint, 'resolved', 1]]);
    expect(resolved.summary).toMatchObject({ firing: 1, resolved: 1 });
    expect(ofType(list, 'group-resolved')).toHaveLength(0);

    // An HA replica's copy of the same resolved notification changes nothing, nor does a
    // replica's late copy of the firing one.
    expect(await intake.accept(parsed(payload([resolvedCopy(a), b])))).toMatchObject({ resolved: 0, cancelled: 0 });
    expect(await intake.accept(parsed(payload([a, b])))).toMatchObject({ added: 0, repeats: 2, jobs: 0 });

    await intake.accept(parsed(payload([resolvedCopy(b)], { notification_reason: 'all alerts resolved' })));
    list = await events();
    expect(list.map((e) => e.type)).toEqual(['group-opened', 'alerts-added', 'alerts-resolved', 'alerts-resolved', 'group-resolved']);
    expect(ofType(list, 'group-resolved')[0]!.summary).toMatchObject({ firing: 0, resolved: 2 });
    expect((await counts()).waiting).toBe(0);
    // The target is free again: a new request opens a new job instead of joining the removed one.
    const again = await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'web-1' }, reason: 'cli' });
    expect(again.deduplicated).toBe(false);
  });

  it('keeps a job someone else asked for, and one another firing alert still needs', async () => {
    const slack = await enqueueDiagnosis(queues, {
      cluster: 'c1',
      target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
      reason: 'slash',
      requester: { kind: 'slack', user: 'U1', channel: 'C1' },
    });
    const crash = podAlert('shop', 'web-1');
    await intake.accept(parsed(payload([crash])));
    await intake.accept(parsed(payload([resolvedCopy(crash)])));
    expect(await queues.diagnose('c1').getJob(slack.jobId)).toBeDefined();

    // Two alerts of different groups on one pod: the job goes only when both resolved.
    const notReady = podAlert('shop', 'web-2', { alertname: 'KubePodNotReady' });
    const looping = podAlert('shop', 'web-2', { alertname: 'KubePodCrashLooping' });
    const g1 = (alerts: AmAlert[]) => payload(alerts, { groupKey: '{}:{alertname="KubePodNotReady"}' });
    const g2 = (alerts: AmAlert[]) => payload(alerts, { groupKey: '{}:{alertname="KubePodCrashLooping"}' });
    await intake.accept(parsed(g1([notReady])));
    const second = await intake.accept(parsed(g2([looping])));
    expect(second.jobs).toBe(1);
    const jobId = (await events())
      .filter((e) => e.type === 'alerts-added')
      .flatMap((e) => (e.type === 'alerts-added' ? e.alerts : []))
      .find((x) => x.fingerprint === notReady.fingerprint)!.jobIds[0]!;
    expect(await intake.accept(parsed(g1([resolvedCopy(notReady)])))).toMatchObject({ resolved: 1, cancelled: 0 });
    expect(await queues.diagnose('c1').getJob(jobId)).toBeDefined();
    expect(await intake.accept(parsed(g2([resolvedCopy(looping)])))).toMatchObject({ resolved: 1, cancelled: 1 });
    expect(await queues.diagnose('c1').getJob(jobId)).toBeUndefined();
  });

  it('never removes a job a worker is running', async () => {
    let release: () => void = () => undefined;
    const running = new Promise<void>((r) => {
      release = r;
    });
    const worker = new Worker(queueName('diagnose', 'c1'), async () => running, { connection: connect(), prefix: clusterTag(prefix, 'c1') });
    try {
      const a = podAlert('shop', 'web-1');
      const r = await intake.accept(parsed(payload([a])));
      expect(r.jobs).toBe(1);
      await eventually(async () => (await counts()).active === 1);
      expect(await intake.accept(parsed(payload([resolvedCopy(a)])))).toMatchObject({ resolved: 1, cancelled: 0 });
      release();
      await eventually(async () => (await queues.diagnose('c1').getJobCounts('completed')).completed === 1);
    } finally {
      release();
      await worker.close();
      (worker.opts.connection as RedisClient).disconnect();
    }
  });

  it('lists an alert without a target once per group, and queues nothing for it', async () => {
    const watchdog = amAlert({ alertname: 'KubeCPUOvercommit', labels: { resource: 'cpu' } });
    await intake.accept(parsed(payload([watchdog])));
    let list = await events();
    expect(list.map((e) => e.type)).toEqual(['group-opened', 'alerts-added']);
    const added = ofType(list, 'alerts-added')[0]!;
    expect(added.alerts).toEqual([]);
    expect(added.notDiagnosable).toEqual([
      expect.objectContaining({ fingerprint: watchdog.fingerprint, alertname: 'KubeCPUOvercommit', reason: expect.stringMatching(/no target labels/) }),
    ]);
    expect(added.summary).toMatchObject({ firing: 1, diagnosable: 0, notDiagnosable: 1 });
    // Re-fired later (new startsAt) next to a diagnosable alert: not listed again.
    await intake.accept(parsed(payload([{ ...watchdog, startsAt: '2026-11-21T11:00:00Z' }, podAlert('shop', 'web-1')])));
    list = await events();
    const second = ofType(list, 'alerts-added')[1]!;
    expect(second.notDiagnosable).toEqual([]);
    expect(second.alerts).toHaveLength(1);
    expect((await counts()).waiting).toBe(1);
  });

  it('says truncatedAlerts when it changes', async () => {
    const alerts = [podAlert('shop', 'web-1')];
    await intake.accept(parsed(payload(alerts, { truncatedAlerts: 5 })));
    await intake.accept(parsed(payload(alerts, { truncatedAlerts: 5 })));
    await intake.accept(parsed(payload(alerts, { truncatedAlerts: 7 })));
    const truncated = ofType(await events(), 'truncated');
    expect(truncated.map((e) => e.truncatedAlerts)).toEqual([5, 7]);
  });

  it('makes one group of a storm, with a summary by alertname and namespace', async () => {
    const alerts = [
      ...Array.from({ length: 250 }, (_, i) => podAlert(i % 2 ? 'shop' : 'pay', `web-${i}`, { alertname: 'KubePodNotReady' })),
      ...Array.from({ length: 50 }, (_, i) => podAlert('shop', `api-${i}`, { alertname: 'KubePodCrashLooping' })),
    ];
    const r = await intake.accept(parsed(payload(alerts, { groupKey: '{}:{cluster="eu"}', truncatedAlerts: 20 })));
    expect(r).toMatchObject({ added: 300, jobs: 300 });
    const list = await events();
    expect(list.map((e) => e.type)).toEqual(['group-opened', 'alerts-added', 'truncated']);
    expect(new Set(list.map((e) => e.groupId)).size).toBe(1);
    expect(ofType(list, 'alerts-added')[0]!.alerts).toHaveLength(300);
    expect(list[0]!.type === 'group-opened' && list[0]!.summary).toEqual({
      firing: 300,
      resolved: 0,
      diagnosable: 300,
      notDiagnosable: 0,
      truncatedAlerts: 20,
      byAlertname: { KubePodNotReady: 250, KubePodCrashLooping: 50 },
      byNamespace: { shop: 175, pay: 125 },
    });
    expect((await counts()).waiting).toBe(300);
  });

  it('reopens a resolved group as a new episode', async () => {
    const a = podAlert('shop', 'web-1');
    await intake.accept(parsed(payload([a])));
    await intake.accept(parsed(payload([resolvedCopy(a)])));
    await intake.accept(parsed(payload([{ ...a, startsAt: '2026-11-21T12:00:00Z' }])));
    const opened = ofType(await events(), 'group-opened');
    expect(opened.map((e) => [e.episode, e.reopened])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('splits a group by channel route, one state and thread id each', async () => {
    const routed = new AlertIntake({
      queues,
      cluster: 'c1',
      logger: silent,
      routes: [{ matchers: { severity: 'critical' }, channel: 'C0CRIT' }],
      defaultChannel: 'C0ALERTS',
    });
    try {
      await routed.accept(parsed(payload([podAlert('shop', 'web-1', { labels: { severity: 'critical' } }), podAlert('shop', 'web-2')])));
      const opened = ofType(await events(), 'group-opened');
      expect(opened.map((e) => e.channel).sort()).toEqual(['C0ALERTS', 'C0CRIT']);
      expect(new Set(opened.map((e) => e.groupId)).size).toBe(2);
    } finally {
      await routed.close();
    }
  });

  it('leaves the requester list to the job system: the alert is on it', async () => {
    const a = podAlert('shop', 'web-1');
    const r = await intake.accept(parsed(payload([a])));
    const jobId = ofType(await events(), 'alerts-added')[0]!.alerts[0]!.jobIds[0]!;
    expect(r.jobs).toBe(1);
    const requesters = await redis.lrange(keys.requesters(prefix, 'c1', jobId), 0, -1);
    expect(requesters.map((x) => JSON.parse(x).fingerprint)).toEqual([a.fingerprint]);
  });
});
