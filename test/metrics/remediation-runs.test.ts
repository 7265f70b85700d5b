// pod_doctor_remediation_runs_total{playbook,outcome}: runs against the simulated cluster with
// plans and runs in real Redis, each counted once, under its playbook, by how it ended; a run
// asked again (already ran) is not counted twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runnerFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import { createMetrics, type JobMetrics } from '../../src/metrics/metrics.js';
import type { RedisClient } from '../../src/redis/client.js';
import { ACTIONS } from '../../src/remediation/actions/index.js';
import { defineAction, StepError } from '../../src/remediation/actions/types.js';
import { RUN_ENDINGS } from '../../src/remediation/index.js';
import { type PlaybookInput, playbookSchema } from '../../src/remediation/schema.js';
import { silent } from '../helpers/logger.js';
import { type Cluster, cleanup, harness, lostNodeCluster, propose, redis, redisStore, testPrefix } from '../helpers/remediation.js';
import { metricValue } from './scrape.js';

const NOW = '2026-11-21T10:00:00Z';
let client: RedisClient;
let prefix: string | undefined;
let cluster: Cluster | undefined;

beforeAll(() => {
  client = redis();
});
afterAll(async () => {
  await client.quit();
});
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
  if (prefix) await cleanup(client, prefix);
  prefix = undefined;
});

const params = z.object({ namespace: z.string(), pod: z.string(), uid: z.string() });
/** Steps that succeed without changing anything (the finding stays), or fail. */
const noop = defineAction({
  kind: 'noop',
  summary: 'test',
  params,
  destructive: false,
  timeoutMs: 5000,
  describe: () => ['nothing'],
  run: async () => ({ detail: 'did nothing' }),
});
const broken = defineAction({
  kind: 'broken',
  summary: 'test',
  params,
  destructive: false,
  timeoutMs: 5000,
  describe: () => ['fail'],
  run: async () => {
    throw new StepError('the API said no');
  },
});

function inlinePlaybook(id: string, steps: PlaybookInput['steps']) {
  return playbookSchema.parse({
    id,
    title: 'A playbook for metrics tests',
    summary: 'Test steps on pod {namespace}/{pod}.',
    matches: ['terminating.node-lost'],
    risk: 'low',
    approvals: 1,
    params: {
      namespace: { type: 'string', from: 'target', field: 'namespace' },
      pod: { type: 'string', from: 'target', field: 'name' },
      uid: { type: 'string', from: 'live', value: 'pod.uid' },
    },
    preconditions: [{ check: 'pod-uid-is' }],
    steps,
    verify: ['terminating.node-lost'],
  });
}

const runs = async (metrics: JobMetrics, playbook: string, outcome: string) =>
  metricValue(await metrics.registry.metrics(), 'pod_doctor_remediation_runs_total', { playbook, outcome });

describe('pod_doctor_remediation_runs_total', () => {
  it('counts a verified fix once as succeeded, with every loaded playbook’s series from 0 (runnerFromConfig, as the worker wires it)', async () => {
    cluster = await lostNodeCluster();
    prefix = testPrefix('metrics-runs');
    const metrics = createMetrics();
    const { runner, playbooks } = await runnerFromConfig({
      config: loadConfig({ POD_DOCTOR_REDIS_PREFIX: prefix, POD_DOCTOR_CLUSTER: 'test' }),
      kube: cluster.kube,
      redis: client,
      logger: silent,
      runs: metrics.remediationRuns,
    });
    for (const outcome of RUN_ENDINGS) expect(await runs(metrics, 'remove-finalizers', outcome)).toBe(0);

    const diagnosis = await harness(cluster).diagnose();
    const finding = diagnosis.findings.find((f) => f.rule === 'terminating.node-lost')!;
    const plan = await runner.proposePlan(finding, diagnosis, playbooks.find((p) => p.id === 'force-delete-pod')!);
    expect(await runner.runPlan(plan.id)).toMatchObject({ status: 'completed', verification: { outcome: 'fixed' } });
    // Asked again, it reports the first result: nothing ran, nothing more is counted.
    expect(await runner.runPlan(plan.id)).toMatchObject({ alreadyRan: true });

    expect(await runs(metrics, 'force-delete-pod', 'succeeded')).toBe(1);
    for (const outcome of RUN_ENDINGS.filter((o) => o !== 'succeeded')) expect(await runs(metrics, 'force-delete-pod', outcome)).toBe(0);
  });

  it('counts steps that ran without fixing it as verify_failed, and a failed step as failed, each under its playbook', async () => {
    cluster = await lostNodeCluster();
    prefix = testPrefix('metrics-runs');
    const metrics = createMetrics();
    const h = harness(cluster, { store: redisStore(client, prefix), deps: { actions: { ...ACTIONS, noop, broken }, runs: metrics.remediationRuns } });
    const diagnosis = await h.diagnose();
    const finding = diagnosis.findings.find((f) => f.rule === 'terminating.node-lost')!;

    const idle = await h.runner.proposePlan(finding, diagnosis, inlinePlaybook('noop-fix', [{ action: 'noop' }]));
    expect(await h.runner.runPlan(idle.id)).toMatchObject({ status: 'completed', verification: { outcome: 'not-fixed' } });
    const failing = await h.runner.proposePlan(finding, diagnosis, inlinePlaybook('broken-fix', [{ action: 'broken' }]));
    expect(await h.runner.runPlan(failing.id)).toMatchObject({ status: 'failed' });

    expect(await runs(metrics, 'noop-fix', 'verify_failed')).toBe(1);
    expect(await runs(metrics, 'noop-fix', 'succeeded')).toBeUndefined();
    expect(await runs(metrics, 'broken-fix', 'failed')).toBe(1);
    expect(await runs(metrics, 'broken-fix', 'verify_failed')).toBeUndefined();
  });

  it('tells a precondition that no longer holds (precondition_failed) from an expired plan (refused)', async () => {
    cluster = await lostNodeCluster();
    prefix = testPrefix('metrics-runs');
    const metrics = createMetrics();
    let clock = Date.parse(NOW);
    const h = harness(cluster, { store: redisStore(client, prefix), deps: { runs: metrics.remediationRuns, now: () => new Date(clock) } });

    const { plan: stale } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    const { plan: gone } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    // The pod is gone by the time the second plan runs: its pod-uid-is check fails.
    const def = cluster.sim.store.table.lookup('', 'v1', 'pods')!;
    cluster.sim.store.remove(def, 'shop', 'web-1');
    expect(await h.runner.runPlan(gone.id)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^precondition no longer holds/) });
    // Two hours on, the first plan has expired (plans live one hour by default).
    clock += 2 * 3_600_000;
    expect(await h.runner.runPlan(stale.id)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^the plan expired/) });

    expect(await runs(metrics, 'force-delete-pod', 'precondition_failed')).toBe(1);
    expect(await runs(metrics, 'force-delete-pod', 'refused')).toBe(1);
  });
});
