// `pod-doctor worker` as deployed in the split overlay: a separate process (here, the command
// in-process) that takes diagnoses AND approved remediations from Redis, changes the
// simulated cluster, and publishes the run's events for the bot.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSettingsFromConfig, runnerFromConfig } from '../../src/cli/wiring.js';
import { workerCommand } from '../../src/cli/worker.js';
import { KubeSource } from '../../src/collect/kube-source.js';
import { loadConfig } from '../../src/config/schema.js';
import { enqueueDiagnosis, enqueueRemediation } from '../../src/jobs/dedup.js';
import { JobQueues } from '../../src/jobs/queues.js';
import { waitForResult } from '../../src/jobs/results.js';
import { parseTarget } from '../../src/kube/target.js';
import type { RedisClient } from '../../src/redis/client.js';
import { runEventsKey } from '../../src/remediation/run-events.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { diagnoseTarget } from '../../src/usecases/diagnose.js';
import { cleanup, connect, eventually, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const SCENARIO = join(import.meta.dirname, '../fixtures/incidents/seed-003-finalizers');
const TARGET = 'reports/report-6f7d8-xk2lq';

describe('pod-doctor worker (split deployment)', () => {
  let sim: Sim;
  let redis: RedisClient;
  let prefix: string;
  let env: Record<string, string>;
  let stop: () => void;
  let exited: Promise<number>;

  beforeAll(async () => {
    const scenario = await loadScenario(SCENARIO);
    sim = await startSim({ objects: scenario.objects });
    const dir = await mkdtemp(join(tmpdir(), 'pd-worker-'));
    await writeFile(join(dir, 'kubeconfig'), sim.kubeconfig());
    prefix = testPrefix('worker-cmd');
    env = {
      KUBECONFIG: join(dir, 'kubeconfig'),
      POD_DOCTOR_CLUSTER: 'split',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      POD_DOCTOR_METRICS_PORT: '0',
    };
    redis = connect();
    const stopSignal = new Promise<string>((resolve) => (stop = () => resolve('test')));
    const out = new PassThrough();
    exited = workerCommand([], { stdout: out, stderr: out, env }, { stopSignal });
  });

  afterAll(async () => {
    stop?.();
    await exited;
    await cleanup(redis, prefix);
    redis.disconnect();
    await sim?.close();
  });

  it('diagnoses, then runs an approved plan once and publishes its events', async () => {
    const config = loadConfig(env);
    const queues = new JobQueues(redis, jobSettingsFromConfig(config), silent);
    try {
      // The bot's side: enqueue a diagnosis and read the result the worker delivers.
      const { jobId } = await enqueueDiagnosis(queues, { cluster: 'split', target: parseTarget(TARGET), reason: 'cli' });
      const result = await waitForResult(queues, 'split', jobId, { timeoutMs: 20_000 });
      expect(result.status).toBe('diagnosed');
      const finding = result.diagnosis?.findings[0];
      expect(finding?.rule).toBe('terminating.finalizers');

      // A plan proposed and approved on the bot's side, run by the worker process.
      const kc = new k8s.KubeConfig();
      kc.loadFromString(sim.kubeconfig());
      const kube = new KubeSource(kc);
      const { runner, playbooks } = await runnerFromConfig({ config: { ...config, cluster: 'split' }, kube, redis, logger: silent });
      const diagnosis = await diagnoseTarget(kube, parseTarget(TARGET), { cluster: 'split' });
      const plan = await runner.proposePlan(diagnosis.findings[0]!, diagnosis, playbooks.find((p) => p.id === 'remove-finalizers')!);
      await Promise.all([
        enqueueRemediation(queues, { cluster: 'split', proposalId: plan.id }),
        enqueueRemediation(queues, { cluster: 'split', proposalId: plan.id }),
      ]);

      const run = await eventually(async () => {
        const r = await runner.getRun(plan.id);
        return r && r.status !== 'running' ? r : undefined;
      }, 30_000);
      expect(run.status).toBe('completed');
      expect(await kube.getPod('reports', 'report-6f7d8-xk2lq')).toBeNull();
      const events = await redis.xrange(runEventsKey(prefix, 'split'), '-', '+');
      const types = events.map(([, fields]) => (JSON.parse(fields[1]!) as { event: { type: string } }).event.type);
      expect(types[0]).toBe('run-started');
      expect(types).toContain('verified');
      expect(types.filter((t) => t === 'run-finished')).toHaveLength(1);
    } finally {
      await queues.close();
    }
  });
});
