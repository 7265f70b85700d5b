// A storm: hundreds of KubePodNotReady alerts in one Alertmanager group because a node was
// lost. One group (one thread), a summary by alertname and namespace, and the diagnoses
// collapse into one incident by root cause (src/jobs/incidents.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAlertGroupEvents } from '../../src/alerts/group-events.js';
import { AlertIntake } from '../../src/alerts/intake.js';
import { parseWebhookPayload } from '../../src/alerts/schema.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { payload, podAlert } from '../helpers/alerts.js';
import { lostNode, NOW, pod } from '../helpers/factories.js';
import { cleanup, connect, memorySource, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const PODS = 240;

describe('alert storm', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let intake: AlertIntake;
  let workers: RunningWorkers | undefined;

  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('alerts-storm');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    intake = new AlertIntake({ queues, cluster: 'c1', logger: silent, defaultChannel: 'C0ALERTS' });
  });

  afterEach(async () => {
    await workers?.close();
    workers = undefined;
    await intake.close();
    await queues.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('makes one group whose diagnoses share one incident', { timeout: 60_000 }, async () => {
    const namespaces = ['shop', 'pay', 'search'];
    const stuck = Array.from({ length: PODS }, (_, i) =>
      pod({ metadata: { name: `app-${i}`, namespace: namespaces[i % 3], deletionTimestamp: '2026-11-21T09:40:00Z' }, spec: { nodeName: 'node-2' } }),
    );
    const objects = [...stuck, lostNode('node-2')] as KubeObject[];
    const alerts = stuck.map((p) =>
      podAlert(p.metadata!.namespace!, p.metadata!.name!, { alertname: 'KubePodNotReady', labels: { container: '', reason: '' } }),
    );
    const parsed = parseWebhookPayload(payload(alerts, { groupKey: '{}:{alertname="KubePodNotReady"}', groupLabels: { alertname: 'KubePodNotReady' } }));
    if (!parsed.ok) throw new Error(parsed.reason);

    const r = await intake.accept(parsed.payload);
    expect(r).toMatchObject({ added: PODS, jobs: PODS });
    const events = (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event);
    expect(events.map((e) => e.type)).toEqual(['group-opened', 'alerts-added']);
    const opened = events[0]!;
    expect(opened.type === 'group-opened' && opened.summary).toMatchObject({
      firing: PODS,
      byAlertname: { KubePodNotReady: PODS },
      byNamespace: { shop: PODS / 3, pay: PODS / 3, search: PODS / 3 },
    });

    const sink = new MemorySink();
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source: memorySource(objects),
      sink,
      logger: silent,
      prefix,
      handleSignals: false,
      concurrency: 16,
      diagnose: { now: () => new Date(NOW) },
    });
    const results = await sink.waitFor((rs) => rs.length >= PODS, 45_000);
    expect(results.every((x) => x.diagnosis?.findings[0]?.rule === 'terminating.node-lost')).toBe(true);
    expect(new Set(results.map((x) => x.incident?.id))).toEqual(new Set(['c1|terminating.node-lost|node/node-2']));
    expect(results.filter((x) => x.incident?.created)).toHaveLength(1);
    // Every result names the group thread it belongs to.
    expect(new Set(results.map((x) => x.requesters[0]?.kind === 'alert' && x.requesters[0].groupId))).toEqual(new Set([opened.groupId]));
  });
});
