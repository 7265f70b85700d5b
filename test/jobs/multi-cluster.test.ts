import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues, queueName } from '../../src/jobs/queues.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import { node, pod } from '../helpers/factories.js';
import { cleanup, connect, eventually, scriptedSource, sleep, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

describe('multi-cluster', () => {
  const redis = connect();
  const prefix = testPrefix('multi');
  const running: RunningWorkers[] = [];

  afterEach(async () => {
    await Promise.all(running.map((w) => w.close()));
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it("keys queues by cluster: a cluster's workers never take another cluster's jobs", async () => {
    expect([queueName('diagnose', 'east'), queueName('remediate', 'west')]).toEqual(['diagnose.east', 'remediate.west']);
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    const objects = [pod({ metadata: { name: 'web-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];
    const east = scriptedSource(objects);
    const west = scriptedSource(objects);
    const eastSink = new MemorySink();
    const westSink = new MemorySink();
    const target = { kind: 'pod', namespace: 'shop', name: 'web-1' } as const;

    const e = await enqueueDiagnosis(queues, { cluster: 'east', target, reason: 'slash', requester: { kind: 'slack', user: 'U1', channel: 'C1' } });
    const w = await enqueueDiagnosis(queues, { cluster: 'west', target, reason: 'slash', requester: { kind: 'slack', user: 'U2', channel: 'C1' } });
    expect(e.jobId).not.toBe(w.jobId);

    running.push(await startWorkers({ connection: redis, cluster: 'east', source: east, sink: eastSink, logger: silent, prefix, handleSignals: false }));
    await eastSink.waitFor((r) => r.length >= 1);
    await sleep(300);
    expect(eastSink.results.map((r) => [r.job.cluster, r.jobId])).toEqual([['east', e.jobId]]);
    expect(west.calls).toEqual([]);
    expect(await queues.diagnose('west').getJobState(w.jobId)).toBe('waiting');

    running.push(await startWorkers({ connection: redis, cluster: 'west', source: west, sink: westSink, logger: silent, prefix, handleSignals: false }));
    await westSink.waitFor((r) => r.length >= 1);
    expect(westSink.results.map((r) => [r.job.cluster, r.jobId])).toEqual([['west', w.jobId]]);
    expect(eastSink.results).toHaveLength(1);

    // A payload naming another cluster in this cluster's queue is refused, not run against the wrong API.
    const stray = await queues.diagnose('east').add('diagnose', { v: 1, cluster: 'west', target, reason: 'cli', requestedAt: new Date().toISOString() });
    await eventually(async () => (await queues.diagnose('east').getJobState(stray.id!)) === 'failed');
    expect((await queues.diagnose('east').getJob(stray.id!))?.failedReason).toMatch(/cluster "west" on a worker of "east"/);
    expect(east.calls.filter((c) => c === 'getPod')).toHaveLength(1);
    await queues.close();
  });
});
