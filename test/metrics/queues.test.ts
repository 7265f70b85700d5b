// Queue depth and age per cluster, read from real Redis (BullMQ queues) when scraped: every
// served cluster's queues carry their cluster, and the oldest waiting job's age is the oldest
// one's (not the newest's), back to 0 once nothing waits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiagnoseJob } from '../../src/jobs/schemas.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { closeJobsEnv, type JobsEnv, openJobsEnv } from '../helpers/jobs.js';
import { metricValue } from './scrape.js';

const MINUTE = 60_000;

function job(cluster: string, pod: string): DiagnoseJob {
  return { v: 1, cluster, target: { kind: 'pod', namespace: 'shop', name: pod }, reason: 'cli', requestedAt: new Date().toISOString() };
}

describe('pod_doctor_queue_jobs and pod_doctor_queue_oldest_waiting_seconds', () => {
  let env: JobsEnv;
  beforeEach(() => {
    env = openJobsEnv('metrics-queues');
  });
  afterEach(async () => {
    await closeJobsEnv(env, undefined);
  });

  it('reports each cluster’s queues under its own cluster label, with the age of the oldest waiting job', async () => {
    const { queues } = env;
    const metrics = createMetrics();
    metrics.watchQueues(queues, ['prod-eu', 'prod-us']);
    // Added in the past (BullMQ takes the job's timestamp as given): ages without waiting for the clock.
    const now = Date.now();
    await queues.diagnose('prod-eu').add('diagnose', job('prod-eu', 'web-1'), { timestamp: now - 1 * MINUTE });
    await queues.diagnose('prod-us').add('diagnose', job('prod-us', 'web-2'), { timestamp: now - 3 * MINUTE });
    await queues.diagnose('prod-us').add('diagnose', job('prod-us', 'web-3'), { timestamp: now - 2 * MINUTE });
    await queues.diagnose('prod-us').add('diagnose', job('prod-us', 'web-4'), { timestamp: now - 10_000 });

    const text = await metrics.registry.metrics();
    expect(text).toContain('pod_doctor_queue_jobs{k8s_cluster="prod-eu",queue="diagnose.prod-eu",state="waiting"} 1');
    expect(text).toContain('pod_doctor_queue_jobs{k8s_cluster="prod-us",queue="diagnose.prod-us",state="waiting"} 3');
    expect(text).toContain('pod_doctor_queue_jobs{k8s_cluster="prod-us",queue="remediate.prod-us",state="waiting"} 0');
    const age = (cluster: string, queue: string) => metricValue(text, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: cluster, queue });
    expect(age('prod-eu', 'diagnose.prod-eu')).toBeGreaterThanOrEqual(60);
    expect(age('prod-eu', 'diagnose.prod-eu')).toBeLessThan(180);
    // The oldest of three (3 min), not the newest (10 s) nor the middle one.
    expect(age('prod-us', 'diagnose.prod-us')).toBeGreaterThanOrEqual(180);
    // Nothing waits: 0, not absent.
    expect(age('prod-eu', 'remediate.prod-eu')).toBe(0);
    expect(age('prod-us', 'remediate.prod-us')).toBe(0);
  });

  it('says 0 once the waiting jobs are gone', async () => {
    const { queues } = env;
    const metrics = createMetrics();
    metrics.watchQueues(queues, ['c1']);
    await queues.diagnose('c1').add('diagnose', job('c1', 'web-1'), { timestamp: Date.now() - 5 * MINUTE });
    const before = await metrics.registry.metrics();
    expect(metricValue(before, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: 'c1', queue: 'diagnose.c1' })).toBeGreaterThanOrEqual(300);

    await queues.diagnose('c1').drain();
    const after = await metrics.registry.metrics();
    expect(metricValue(after, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: 'c1', queue: 'diagnose.c1' })).toBe(0);
    expect(after).toContain('pod_doctor_queue_jobs{k8s_cluster="c1",queue="diagnose.c1",state="waiting"} 0');
  });

  it('reports no queue series for a registry that watches no queues (the bot’s worker thread)', async () => {
    const text = await createMetrics().registry.metrics();
    expect(text).not.toContain('pod_doctor_queue_jobs{');
    expect(text).not.toContain('pod_doctor_queue_oldest_waiting_seconds{');
  });
});
