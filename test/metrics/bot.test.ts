// `pod-doctor bot --no-worker` serving two clusters (POD_DOCTOR_CLUSTERS), against a fake Slack
// API and real Redis: its /metrics has its build, its readiness (what /readyz answers) and both
// clusters' queues, each under its cluster, with the age of the oldest job waiting there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseJob } from '../../src/jobs/schemas.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { metricValue } from './scrape.js';

describe('pod-doctor bot /metrics', () => {
  const redis = connect();
  const prefix = testPrefix('metrics-bot');
  let slack: FakeSlack;
  let bot: TestBot | undefined;

  beforeAll(async () => {
    slack = await startFakeSlack();
    const env = testBotEnv(
      { slackApiUrl: slack.apiUrl, secret: 'test-signing-secret-0123456789', kubeconfig: '/nonexistent/kubeconfig', cluster: 'east' },
      { POD_DOCTOR_CLUSTERS: 'east,west', POD_DOCTOR_REDIS_PREFIX: prefix },
    );
    bot = await startTestBot(env, ['--no-worker']);
  }, 30_000);

  afterAll(async () => {
    await bot?.stop();
    await slack?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('says it is ready, which build it runs, and how long the oldest job has waited in each cluster', async () => {
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    try {
      const job: DiagnoseJob = {
        v: 1,
        cluster: 'west',
        target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
        reason: 'cli',
        requestedAt: new Date().toISOString(),
      };
      await queues.diagnose('west').add('diagnose', job, { timestamp: Date.now() - 90_000 });
    } finally {
      await queues.close();
    }
    expect((await fetch(`${bot!.url}/readyz`)).status).toBe(200);
    const res = await fetch(`${bot!.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(metricValue(text, 'pod_doctor_ready')).toBe(1);
    expect(text.match(/^pod_doctor_build_info\{[^}]*\} 1$/gm)).toHaveLength(1);
    expect(metricValue(text, 'pod_doctor_queue_jobs', { k8s_cluster: 'west', queue: 'diagnose.west', state: 'waiting' })).toBe(1);
    expect(metricValue(text, 'pod_doctor_queue_jobs', { k8s_cluster: 'east', queue: 'diagnose.east', state: 'waiting' })).toBe(0);
    expect(metricValue(text, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: 'west', queue: 'diagnose.west' })).toBeGreaterThanOrEqual(90);
    expect(metricValue(text, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: 'east', queue: 'diagnose.east' })).toBe(0);
  });
});
