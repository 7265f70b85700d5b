// "It happened before", on a real Redis: one entry per incident under its fingerprint (cluster,
// rule, workload, node), counted over the last 7 days, kept for the retention.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnosis, Finding } from '../../src/diagnosis/types.js';
import { recordFix, recordRecurrence } from '../../src/jobs/recurrence.js';
import type { Incident } from '../../src/jobs/schemas.js';
import type { RedisClient } from '../../src/redis/client.js';
import { keys } from '../../src/redis/keys.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const DAY = 86_400_000;

const finding: Finding = {
  rule: 'crash.oomkilled',
  severity: 'error',
  title: 't',
  cause: 'c',
  evidence: [],
  advice: [],
  prevent: [],
  playbook: null,
  subject: 'pod/shop/web-7d9f8c6b5-x2k4q',
  causeKey: 'pod/shop/web-7d9f8c6b5-x2k4q',
  fingerprint: 'f',
  params: {},
  merged: [],
};

const diagnosis = (node = 'node-1'): Diagnosis => ({
  target: { kind: 'pod', namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' },
  cluster: 'prod',
  findings: [finding],
  skipped: [],
  ruleErrors: [],
  workload: 'Deployment web',
  node,
  at: new Date().toISOString(),
});

/** An incident that began `daysAgo` days ago, opened by job `job`. */
const incident = (job: string, daysAgo: number): Incident => ({
  id: `prod|crash.oomkilled|${job}`,
  cluster: 'prod',
  rule: 'crash.oomkilled',
  causeKey: 'k',
  created: true,
  firstJobId: job,
  createdAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
  count: 1,
  subjects: [],
});

describe('recordRecurrence', () => {
  let redis: RedisClient;
  let prefix: string;
  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('recur');
  });
  afterEach(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });
  const settings = () => ({ prefix, retentionSeconds: 90 * 86_400, windowDays: 7 });
  const record = (job: string, daysAgo: number, node?: string) =>
    recordRecurrence(redis, settings(), { cluster: 'prod', diagnosis: diagnosis(node), finding, incident: incident(job, daysAgo) });

  it('says nothing the first time, then counts the incidents of the last 7 days, newest first', async () => {
    expect(await record('j-old', 30)).toBeUndefined();
    expect(await record('j-1', 5)).toBeUndefined();
    const second = await record('j-2', 2);
    expect(second).toMatchObject({ fingerprint: 'crash.oomkilled|Deployment web|node-1', count: 2, days: 7 });
    expect(second?.previous.map((p) => p.jobId)).toEqual(['j-1']);
    const third = await record('j-3', 0);
    expect(third?.count).toBe(3);
    expect(third?.previous.map((p) => p.jobId)).toEqual(['j-2', 'j-1']);
  });

  it('counts an incident once however often it is diagnosed again', async () => {
    await record('j-1', 3);
    await record('j-2', 0);
    expect((await record('j-2', 0))?.count).toBe(2);
    expect((await record('j-2', 0))?.count).toBe(2);
  });

  it('keeps another node apart, and the fingerprint for the retention', async () => {
    await record('j-1', 3, 'node-1');
    expect(await record('j-2', 0, 'node-2')).toBeUndefined();
    const ttl = await redis.pttl(keys.recurrence(prefix, 'prod', 'crash.oomkilled|Deployment web|node-1'));
    expect(ttl).toBeGreaterThan(89 * DAY);
    expect(ttl).toBeLessThanOrEqual(90 * DAY);
  });

  it('forgets incidents older than the retention', async () => {
    const short = { prefix, retentionSeconds: 10 * 86_400, windowDays: 30 };
    const at = (job: string, daysAgo: number) =>
      recordRecurrence(redis, short, { cluster: 'prod', diagnosis: diagnosis(), finding, incident: incident(job, daysAgo) });
    await at('j-ancient', 20);
    expect(await at('j-now', 0)).toBeUndefined();
  });

  it('names the last fix run for the fingerprint and how its verification ended', async () => {
    await record('j-1', 3);
    await recordFix(redis, settings(), 'prod', 'crash.oomkilled|Deployment web|node-1', {
      playbook: 'recreate-pod',
      outcome: 'fixed',
      at: '2026-11-25T10:00:00.000Z',
    });
    expect((await record('j-2', 0))?.lastFix).toEqual({ playbook: 'recreate-pod', outcome: 'fixed', at: '2026-11-25T10:00:00.000Z' });
    expect(await redis.pttl(keys.recurrenceFix(prefix, 'prod', 'crash.oomkilled|Deployment web|node-1'))).toBeGreaterThan(89 * DAY);
  });
});
