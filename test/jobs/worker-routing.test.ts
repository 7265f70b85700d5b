import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentLookup } from '../../src/collect/snapshot.js';
import { rule as terminatingMountBusy } from '../../src/diagnosis/rules/terminating-mount-busy.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { enqueueDiagnosis, enqueueRemediation } from '../../src/jobs/dedup.js';
import type { JobQueues } from '../../src/jobs/queues.js';
import { waitForResult } from '../../src/jobs/results.js';
import type { RemediateJob } from '../../src/jobs/schemas.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { agentGap, lostNode, NOW, node, pod } from '../helpers/factories.js';
import { closeJobsEnv, eventually, openJobsEnv, scriptedSource } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

describe('worker routing', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let workers: RunningWorkers | undefined;

  beforeEach(() => {
    ({ redis, prefix, queues } = openJobsEnv('routing', { attempts: 4, backoffMs: 20 }));
  });

  afterEach(async () => {
    await closeJobsEnv({ redis, prefix, queues }, workers);
    workers = undefined;
  });

  it('routes remediation jobs to the injected runner, once per proposal, and refuses bad payloads', async () => {
    const ran: RemediateJob[] = [];
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source: scriptedSource([]),
      sink: new MemorySink(),
      remediate: async (job) => {
        ran.push(job);
        return { ok: true };
      },
      logger: silent,
      prefix,
      handleSignals: false,
    });
    await Promise.all([enqueueRemediation(queues, { cluster: 'c1', proposalId: 'p-1' }), enqueueRemediation(queues, { cluster: 'c1', proposalId: 'p-1' })]);
    await eventually(async () => (await queues.remediate('c1').getJobState('p-1')) === 'completed');
    expect(ran).toEqual([{ v: 1, cluster: 'c1', proposalId: 'p-1' }]);
    expect((await queues.remediate('c1').getJob('p-1'))?.returnvalue).toEqual({ ok: true });

    const bad = await queues.remediate('c1').add('remediate', { v: 1, cluster: 'c1', proposalId: '../etc' });
    await eventually(async () => (await queues.remediate('c1').getJobState(bad.id!)) === 'failed');
    expect((await queues.remediate('c1').getJob(bad.id!))?.attemptsMade).toBe(1);
    expect(ran).toHaveLength(1);
  });

  it("retries when a Ready node's agent did not answer, but not for a lost node whose agent is expected to be silent", async () => {
    const stuck = (name: string, nodeName: string) => pod({ metadata: { name, deletionTimestamp: '2026-11-21T09:40:00Z' }, spec: { nodeName } });
    const objects = [stuck('on-ready', 'node-1'), stuck('on-lost', 'node-2'), node({ metadata: { name: 'node-1' } }), lostNode('node-2')] as KubeObject[];
    const asked: string[] = [];
    const agent: AgentLookup = {
      async fetch({ node: n }) {
        asked.push(n.metadata?.name ?? '');
        return { gaps: [agentGap(n.metadata?.name ?? '', 'http://10.0.0.1:9477 unreachable: ECONNREFUSED', 'unreachable')] };
      },
    };
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source: scriptedSource(objects),
      agent,
      sink: new MemorySink(),
      logger: silent,
      prefix,
      handleSignals: false,
      gapRetries: 2,
      diagnose: { rules: [terminatingMountBusy], now: () => new Date(NOW) },
    });

    const ready = await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'on-ready' }, reason: 'cli' });
    const lost = await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'on-lost' }, reason: 'cli' });
    const [r1, r2] = await Promise.all([waitForResult(queues, 'c1', ready.jobId), waitForResult(queues, 'c1', lost.jobId)]);
    // Two retries spent on the Ready node, then the answer shows the gap; none on the lost node.
    expect(asked.filter((n) => n === 'node-1')).toHaveLength(3);
    expect(asked.filter((n) => n === 'node-2')).toHaveLength(1);
    expect(r1.status).toBe('diagnosed');
    expect(r1.diagnosis?.skipped.some((g) => /ECONNREFUSED/.test(g.reason))).toBe(true);
    expect(r2.status).toBe('diagnosed');
  });
});
