import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rule as terminatingFinalizers } from '../../src/diagnosis/rules/terminating-finalizers.js';
import type { Finding, KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { joinIncident, listIncidents, readIncident } from '../../src/jobs/incidents.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { ago, NOW, node, pod } from '../helpers/factories.js';
import { cleanup, connect, scriptedSource, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const finding = (subject: string, causeKey = 'node/n1:holder/ntpd.service'): Finding => ({
  rule: 'terminating.mount-busy',
  severity: 'error',
  title: 't',
  cause: 'c',
  evidence: [],
  advice: [],
  prevent: [],
  playbook: null,
  subject,
  causeKey,
  fingerprint: `terminating.mount-busy|${subject}|${causeKey}`,
  params: {},
  merged: [],
});

describe('joinIncident', () => {
  let redis: RedisClient;
  let prefix: string;
  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('incident');
  });
  afterEach(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('opens one incident per cause however many workers join at once, and says who opened it', async () => {
    const joins = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        joinIncident(redis, { prefix, ttlSeconds: 60, listed: 10 }, { cluster: 'c1', jobId: `job-${i}`, finding: finding(`pod/shop/p-${i}`) }),
      ),
    );
    expect(joins.filter((j) => j.created)).toHaveLength(1);
    const opener = joins.find((j) => j.created)!;
    expect(new Set(joins.map((j) => j.firstJobId))).toEqual(new Set([opener.firstJobId]));
    expect(opener.id).toBe('c1|terminating.mount-busy|node/n1:holder/ntpd.service');
    const last = joins.reduce((a, b) => (a.count > b.count ? a : b));
    expect(last.count).toBe(40);
    // The displayed list is bounded; the count is not.
    expect(last.subjects).toHaveLength(10);
    expect(await readIncident(redis, prefix, opener.id)).toMatchObject({ count: 40, rule: 'terminating.mount-busy', firstJobId: opener.firstJobId });
  });

  it('is idempotent for a job re-run after a crash', async () => {
    const s = { prefix, ttlSeconds: 60 };
    const first = await joinIncident(redis, s, { cluster: 'c1', jobId: 'job-a', finding: finding('pod/shop/a') });
    await joinIncident(redis, s, { cluster: 'c1', jobId: 'job-b', finding: finding('pod/shop/b') });
    const again = await joinIncident(redis, s, { cluster: 'c1', jobId: 'job-a', finding: finding('pod/shop/a') });
    expect(first).toMatchObject({ created: true, count: 1 });
    expect(again).toMatchObject({ created: true, count: 2, subjects: ['pod/shop/a', 'pod/shop/b'] });
  });

  it('keeps causes and clusters apart', async () => {
    const s = { prefix, ttlSeconds: 60 };
    const a = await joinIncident(redis, s, { cluster: 'c1', jobId: 'j1', finding: finding('pod/shop/a') });
    const b = await joinIncident(redis, s, { cluster: 'c1', jobId: 'j2', finding: finding('pod/shop/b', 'node/n2:holder/ntpd.service') });
    const c = await joinIncident(redis, s, { cluster: 'c2', jobId: 'j3', finding: finding('pod/shop/a') });
    expect([a.created, b.created, c.created]).toEqual([true, true, true]);
    expect(await listIncidents(redis, prefix, 'c1')).toHaveLength(2);
    expect(await listIncidents(redis, prefix, 'c2')).toHaveLength(1);
  });
});

describe('storm grouping', () => {
  const redisA = connect();
  const redisB = connect();
  const prefix = testPrefix('storm');
  const running: RunningWorkers[] = [];

  afterEach(async () => {
    await Promise.all(running.map((w) => w.close()));
    await cleanup(redisA, prefix);
    redisA.disconnect();
    redisB.disconnect();
  });

  it('groups 30 pods with one root cause and 5 with another into 2 incidents listing the right pods', async () => {
    const stuck = (name: string, finalizers: string[]) => pod({ metadata: { name, deletionTimestamp: ago(900), deletionGracePeriodSeconds: 30, finalizers } });
    const cleanupPods = Array.from({ length: 30 }, (_, i) => stuck(`api-${i}`, ['example.com/cleanup']));
    const protectPods = Array.from({ length: 5 }, (_, i) => stuck(`db-${i}`, ['other.io/protect']));
    const objects = [node({ metadata: { name: 'node-1' } }), ...cleanupPods, ...protectPods] as KubeObject[];

    const queues = new JobQueues(redisA, { ...DEFAULT_JOB_SETTINGS, prefix });
    const sink = new MemorySink();
    // Two workers on two connections, as two replicas would run.
    for (const connection of [redisA, redisB]) {
      running.push(
        await startWorkers({
          connection,
          cluster: 'c1',
          concurrency: 8,
          source: scriptedSource(objects),
          sink,
          logger: silent,
          prefix,
          handleSignals: false,
          diagnose: { rules: [terminatingFinalizers], now: () => new Date(NOW) },
        }),
      );
    }
    const pods = [...cleanupPods, ...protectPods];
    await Promise.all(
      pods.map((p, i) =>
        enqueueDiagnosis(queues, {
          cluster: 'c1',
          target: { kind: 'pod', namespace: 'shop', name: p.metadata!.name! },
          reason: 'alert',
          requester: { kind: 'alert', groupKey: 'g1', fingerprint: `f${i}`, status: 'firing', startsAt: '2026-11-21T09:45:00Z', receiver: 'pod-doctor' },
        }),
      ),
    );
    await sink.waitFor((r) => r.length >= 35, 20_000);
    await queues.close();

    const byIncident = new Map<string, string[]>();
    for (const r of sink.results) {
      expect(r.status).toBe('diagnosed');
      expect(r.incident).toBeDefined();
      byIncident.set(r.incident!.id, [...(byIncident.get(r.incident!.id) ?? []), `pod/shop/${r.job.target.name}`]);
    }
    expect([...byIncident.keys()].sort()).toEqual([
      'c1|terminating.finalizers|finalizers:example.com/cleanup',
      'c1|terminating.finalizers|finalizers:other.io/protect',
    ]);
    expect(byIncident.get('c1|terminating.finalizers|finalizers:example.com/cleanup')!.sort()).toEqual(
      cleanupPods.map((p) => `pod/shop/${p.metadata!.name}`).sort(),
    );
    expect(byIncident.get('c1|terminating.finalizers|finalizers:other.io/protect')!.sort()).toEqual(
      protectPods.map((p) => `pod/shop/${p.metadata!.name}`).sort(),
    );
    // One thread per incident: exactly one result per incident says "created".
    expect(
      sink.results
        .filter((r) => r.incident!.created)
        .map((r) => r.incident!.id)
        .sort(),
    ).toEqual([...byIncident.keys()].sort());

    const stored = await Promise.all((await listIncidents(redisA, prefix, 'c1')).map((id) => readIncident(redisA, prefix, id)));
    expect(stored.map((s) => [s!.id, s!.count]).sort()).toEqual([
      ['c1|terminating.finalizers|finalizers:example.com/cleanup', 30],
      ['c1|terminating.finalizers|finalizers:other.io/protect', 5],
    ]);
    expect(new Set(stored.find((s) => s!.count === 5)!.subjects)).toEqual(new Set(protectPods.map((p) => `pod/shop/${p.metadata!.name}`)));
  });
});
