import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis, enqueueRemediation } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { waitForResult } from '../../src/jobs/results.js';
import type { AlertRequester, Requester } from '../../src/jobs/schemas.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { node, pod } from '../helpers/factories.js';
import { closeJobsEnv, eventually, openJobsEnv, scriptedSource } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const target = { kind: 'pod', namespace: 'shop', name: 'web-1' } as const;
const objects = [pod({ metadata: { name: 'web-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];

const slack = (user: string): Requester => ({ kind: 'slack', user, channel: 'C1' });
const alert = (fingerprint: string, extra: Partial<AlertRequester> = {}): AlertRequester => ({
  kind: 'alert',
  groupKey: '{}:{alertname="KubePodNotReady"}',
  fingerprint,
  status: 'firing',
  startsAt: '2026-11-21T09:58:00Z',
  receiver: 'pod-doctor',
  ...extra,
});

describe('enqueueDiagnosis', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let workers: RunningWorkers | undefined;

  beforeEach(() => {
    ({ redis, prefix, queues } = openJobsEnv('dedup', { backoffMs: 20 }));
  });

  afterEach(async () => {
    await closeJobsEnv({ redis, prefix, queues }, workers);
    workers = undefined;
  });

  const start = async (sink: MemorySink, gate?: Promise<void>) => {
    const source = scriptedSource(objects, async (call) => {
      if (call === 'getPod' && gate) await gate;
    });
    workers = await startWorkers({ connection: redis, cluster: 'c1', source, sink, logger: silent, prefix, handleSignals: false });
    return source;
  };

  it('shares one job between two requests for the same target and answers both', async () => {
    const a = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U1') });
    const b = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U2') });
    expect(a.deduplicated).toBe(false);
    expect(b).toEqual({ jobId: a.jobId, deduplicated: true });

    const sink = new MemorySink();
    await start(sink);
    const result = await waitForResult(queues, 'c1', a.jobId, { timeoutMs: 15_000 });
    expect(result.status).toBe('diagnosed');
    await sink.waitFor((r) => r.length >= 1);
    expect(sink.results).toHaveLength(1);
    expect(sink.results[0]!.requesters).toEqual([slack('U1'), slack('U2')]);
    expect(await queues.diagnose('c1').getJobCounts('completed', 'waiting', 'active')).toEqual({ completed: 1, waiting: 0, active: 0 });
  });

  it('keeps different targets and clusters apart', async () => {
    const a = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U1') });
    const b = await enqueueDiagnosis(queues, { cluster: 'c1', target: { ...target, name: 'web-2' }, reason: 'slash', requester: slack('U1') });
    const c = await enqueueDiagnosis(queues, { cluster: 'c2', target, reason: 'slash', requester: slack('U1') });
    const d = await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'node', name: 'web-1' }, reason: 'slash' });
    expect(new Set([a.jobId, b.jobId, c.jobId, d.jobId]).size).toBe(4);
    expect([a, b, c, d].map((r) => r.deduplicated)).toEqual([false, false, false, false]);
  });

  it('recognises Alertmanager HA duplicates by fingerprint, status and startsAt: one job, one requester', async () => {
    const sent = await Promise.all([1, 2, 3].map(() => enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('a1b2c3') })));
    expect(new Set(sent.map((s) => s.jobId)).size).toBe(1);
    expect(sent.filter((s) => !s.deduplicated)).toHaveLength(1);
    // Another alert about the same pod is a new requester of the same job.
    const other = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('ffff0001') });
    expect(other).toEqual({ jobId: sent[0]!.jobId, deduplicated: true });
    expect(await queues.diagnose('c1').count()).toBe(1);

    const sink = new MemorySink();
    await start(sink);
    await sink.waitFor((r) => r.length >= 1);
    expect(sink.results[0]!.requesters).toEqual([alert('a1b2c3'), alert('ffff0001')]);

    await workers!.close();
    workers = undefined;
    // A repeat of an answered notification (group re-send) enqueues nothing...
    const repeat = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('a1b2c3') });
    expect(repeat).toEqual({ jobId: sent[0]!.jobId, deduplicated: true });
    // ...but the same alert resolved, or firing again with a new start, is news.
    const resolved = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('a1b2c3', { status: 'resolved' }) });
    const refired = await enqueueDiagnosis(queues, {
      cluster: 'c1',
      target,
      reason: 'alert',
      requester: alert('a1b2c3', { startsAt: '2026-11-21T11:00:00Z' }),
    });
    expect(resolved.deduplicated).toBe(false);
    expect(refired).toEqual({ jobId: resolved.jobId, deduplicated: true });
  });

  it('answers a slash command that arrives while an alert diagnosis of the same pod runs with that diagnosis', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sink = new MemorySink();
    const source = await start(sink, gate);
    const first = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('0a0a') });
    await eventually(async () => source.calls.includes('getPod'));
    expect(await queues.diagnose('c1').getJobState(first.jobId)).toBe('active');

    const joined = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U9') });
    // A verify request must not take facts collected before it: it opens its own job.
    const verify = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'verify', requester: slack('U7') });
    expect(joined).toEqual({ jobId: first.jobId, deduplicated: true });
    expect(verify.jobId).not.toBe(first.jobId);
    expect(verify.deduplicated).toBe(false);

    release();
    await sink.waitFor((r) => r.length >= 2);
    const byJob = Object.fromEntries(sink.results.map((r) => [r.jobId, r.requesters]));
    expect(byJob[first.jobId]).toEqual([alert('0a0a'), slack('U9')]);
    expect(byJob[verify.jobId]).toEqual([slack('U7')]);
  });

  it('opens a new job once the previous one has delivered', async () => {
    const sink = new MemorySink();
    await start(sink);
    const a = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U1') });
    await sink.waitFor((r) => r.length >= 1);
    const b = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U2') });
    expect(b.jobId).not.toBe(a.jobId);
    expect(b.deduplicated).toBe(false);
    await sink.waitFor((r) => r.length >= 2);
    expect(sink.results.map((r) => r.requesters)).toEqual([[slack('U1')], [slack('U2')]]);
  });

  it('opens a new job after the window even while the old one still waits', async () => {
    const short = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix, dedupWindowMs: 100 });
    try {
      const a = await enqueueDiagnosis(short, { cluster: 'c1', target, reason: 'slash', requester: slack('U1') });
      await new Promise((r) => setTimeout(r, 150));
      const b = await enqueueDiagnosis(short, { cluster: 'c1', target, reason: 'slash', requester: slack('U2') });
      expect(b.jobId).not.toBe(a.jobId);
      const sink = new MemorySink();
      await start(sink);
      await sink.waitFor((r) => r.length >= 2);
      expect(Object.fromEntries(sink.results.map((r) => [r.jobId, r.requesters]))).toEqual({ [a.jobId]: [slack('U1')], [b.jobId]: [slack('U2')] });
    } finally {
      await short.close();
    }
  });

  it('does not lose a request when the process that opened the job died before adding it', async () => {
    // The opener's admission is recorded, then its add fails (crash, connection lost).
    class Crashing extends JobQueues {
      override diagnose(cluster: string) {
        const q = super.diagnose(cluster);
        return Object.assign(Object.create(q) as typeof q, { add: async () => Promise.reject(new Error('connection lost')) });
      }
    }
    const crashing = new Crashing(redis, queues.settings);
    await expect(enqueueDiagnosis(crashing, { cluster: 'c1', target, reason: 'alert', requester: alert('dead01') })).rejects.toThrow('connection lost');
    expect(await queues.diagnose('c1').count()).toBe(0);

    // Alertmanager retries the failed notification: recognised as a repeat, and still queued.
    const retried = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('dead01') });
    // A slash command for the same pod joins that job.
    const joined = await enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'slash', requester: slack('U3') });
    expect(joined.jobId).toBe(retried.jobId);
    expect(await queues.diagnose('c1').count()).toBe(1);

    const sink = new MemorySink();
    await start(sink);
    await sink.waitFor((r) => r.length >= 1);
    expect(sink.results.map((r) => [r.jobId, r.requesters])).toEqual([[retried.jobId, [alert('dead01'), slack('U3')]]]);
    await crashing.close();
  });

  it('adds the job to BullMQ once: joiners and HA repeats whose job is queued do not add it again', async () => {
    const adds: string[] = [];
    class Counting extends JobQueues {
      override diagnose(cluster: string) {
        const q = super.diagnose(cluster);
        return Object.assign(Object.create(q) as typeof q, {
          add: (...args: Parameters<typeof q.add>) => {
            adds.push(args[2]?.jobId ?? '');
            return q.add(...args);
          },
        });
      }
    }
    const counting = new Counting(redis, queues.settings);
    try {
      const first = await enqueueDiagnosis(counting, { cluster: 'c1', target, reason: 'alert', requester: alert('aa01') });
      const repeat = await enqueueDiagnosis(counting, { cluster: 'c1', target, reason: 'alert', requester: alert('aa01') });
      const joined = await enqueueDiagnosis(counting, { cluster: 'c1', target, reason: 'alert', requester: alert('aa02') });
      const slash = await enqueueDiagnosis(counting, { cluster: 'c1', target, reason: 'slash', requester: slack('U9') });
      expect([repeat, joined, slash].map((r) => r.jobId)).toEqual([first.jobId, first.jobId, first.jobId]);
      expect(adds).toEqual([first.jobId]);
      expect(await queues.diagnose('c1').count()).toBe(1);

      // The job left BullMQ while its admission is still open (removed by hand here): the next
      // joiner puts it back instead of trusting the dedup record.
      await queues.diagnose('c1').remove(first.jobId);
      const again = await enqueueDiagnosis(counting, { cluster: 'c1', target, reason: 'slash', requester: slack('U10') });
      expect(again.jobId).toBe(first.jobId);
      expect(adds).toEqual([first.jobId, first.jobId]);
      expect(await queues.diagnose('c1').count()).toBe(1);
    } finally {
      await counting.close();
    }
  });

  it('rejects invalid requests before anything is queued', async () => {
    await expect(enqueueDiagnosis(queues, { cluster: 'C1', target, reason: 'slash' })).rejects.toThrow();
    await expect(enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'a b' }, reason: 'slash' })).rejects.toThrow();
    await expect(enqueueDiagnosis(queues, { cluster: 'c1', target, reason: 'alert', requester: alert('not hex!') })).rejects.toThrow();
    expect(await queues.diagnose('c1').count()).toBe(0);
  });

  it('enqueues a remediation once per proposal, however often it is approved', async () => {
    const results = await Promise.all([1, 2, 3].map(() => enqueueRemediation(queues, { cluster: 'c1', proposalId: 'p-123' })));
    expect(new Set(results.map((r) => r.jobId))).toEqual(new Set(['p-123']));
    expect(await queues.remediate('c1').count()).toBe(1);
  });
});
