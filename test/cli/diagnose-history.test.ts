// `pod-doctor diagnose` with Redis configured (REDIS_URL set) shows the incidents of the same
// cause the workers recorded ("it happened before"), reading only; without Redis it says why not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { markObject } from '../../src/diagnosis/ignore.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import { markNotAProblem } from '../../src/jobs/not-a-problem.js';
import { recordRecurrence } from '../../src/jobs/recurrence.js';
import type { RedisClient } from '../../src/redis/client.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { cli } from '../helpers/cli.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-diagnose-history-'));
const KUBECONFIG = join(dir, 'kubeconfig');
const scenario = await loadScenario(join(import.meta.dirname, '../fixtures/incidents/crash-liveness-probe'));
let sim: Sim;
let redis: RedisClient;
const prefix = testPrefix('cli-recur');

beforeAll(async () => {
  sim = await startSim({ objects: scenario.objects, now: () => new Date(scenario.meta.now) });
  writeFileSync(KUBECONFIG, sim.kubeconfig());
  redis = connect();
});

afterAll(async () => {
  await cleanup(redis, prefix);
  redis.disconnect();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (env: Record<string, string>, json = true) =>
  cli(['diagnose', scenario.meta.target, '--kubeconfig', KUBECONFIG, '--now', scenario.meta.now, '--cluster', 'prod', ...(json ? ['-o', 'json'] : [])], env);

it('shows the incidents of the same cause the workers recorded, and says why not when Redis does not answer', async () => {
  const env = { REDIS_URL: 'redis://127.0.0.1:6379', POD_DOCTOR_REDIS_PREFIX: prefix };
  const first = await run(env);
  expect(first.code).toBe(0);
  const d = JSON.parse(first.stdout) as Diagnosis & { recurrence?: unknown };
  expect(d.recurrence).toBeUndefined();

  const finding = d.findings[0]!;
  const diagnosis = { ...d, workload: undefined, node: 'worker-2' } as Diagnosis;
  for (const [job, daysAgo] of [
    ['j-1', 5],
    ['j-2', 1],
  ] as const) {
    await recordRecurrence(
      redis,
      { prefix, retentionSeconds: 86_400 * 90, windowDays: 7 },
      {
        cluster: 'prod',
        diagnosis,
        finding,
        incident: {
          id: job,
          cluster: 'prod',
          rule: finding.rule,
          causeKey: finding.causeKey,
          created: true,
          firstJobId: job,
          createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
          count: 1,
          subjects: [],
        },
      },
    );
  }
  const again = JSON.parse((await run(env)).stdout) as { recurrence?: { count: number; previous: { jobId: string }[] } };
  expect(again.recurrence?.count).toBe(2);
  expect(again.recurrence?.previous.map((p) => p.jobId)).toEqual(['j-2', 'j-1']);
  expect((await run(env, false)).stdout).toContain('It happened before: 2 incidents of this cause in the last 7 days');

  const down = await run({ REDIS_URL: 'redis://127.0.0.1:1', POD_DOCTOR_REDIS_PREFIX: prefix });
  expect(down.code).toBe(0);
  expect(JSON.parse(down.stdout)).toHaveProperty('recurrenceError');
});

it('leaves out a finding marked Not a problem in chat for its workload, and says who marked it until when', async () => {
  const env = { REDIS_URL: 'redis://127.0.0.1:6379', POD_DOCTOR_REDIS_PREFIX: prefix };
  const before = JSON.parse((await run(env)).stdout) as Diagnosis;
  const rule = before.findings[0]!.rule;
  const object = markObject(before.target, before.workload);
  expect(object).toBeDefined();
  const mark = await markNotAProblem(redis, prefix, { cluster: 'prod', object: object!, rule, user: 'U0BOB', at: Date.now(), days: 30 });
  const after = JSON.parse((await run(env)).stdout) as Diagnosis;
  expect(after.findings.map((f) => f.rule)).not.toContain(rule);
  expect(after.ignored).toContainEqual({ rule, by: object, mark: { user: 'U0BOB', until: mark.until } });
  expect((await run(env, false)).stdout).toContain(`${rule} on ${object} (marked not a problem by @U0BOB until ${mark.until.slice(0, 10)})`);
  // Another cluster's marks are not this one's.
  const other = JSON.parse(
    (await cli(['diagnose', scenario.meta.target, '--kubeconfig', KUBECONFIG, '--now', scenario.meta.now, '--cluster', 'dev', '-o', 'json'], env)).stdout,
  ) as Diagnosis;
  expect(other.findings.map((f) => f.rule)).toContain(rule);
});
