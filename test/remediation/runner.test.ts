// The runner's guarantees, against real Redis and the simulated cluster: preconditions are
// re-checked against live state before any step (and the run refused with the reason), a plan
// runs once, two runners never run the same plan, a step has a time limit, and a runner that
// died mid-run is resumed without repeating a destructive step.
import { PatchStrategy } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runnerFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { isPodDoctorError } from '../../src/errors.js';
import type { RedisClient } from '../../src/redis/client.js';
import { ACTIONS } from '../../src/remediation/actions/index.js';
import { type ActionDef, defineAction } from '../../src/remediation/actions/types.js';
import { patchAs } from '../../src/remediation/kube.js';
import { type PlaybookInput, playbookSchema } from '../../src/remediation/schema.js';
import { type RunStore, storeKeys } from '../../src/remediation/store.js';
import { diagnoseTarget } from '../../src/usecases/diagnose.js';
import { silent } from '../helpers/logger.js';
import {
  type Cluster,
  cleanup,
  harness,
  lostNodeCluster,
  playbook,
  propose,
  redis,
  redisStore,
  scenarioCluster,
  targetPod,
  testPrefix,
} from '../helpers/remediation.js';

const NOW = '2026-11-21T10:00:00Z';
let client: RedisClient;
let prefix: string;
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
});

function store(name: string): RunStore {
  prefix = testPrefix(name);
  return redisStore(client, prefix);
}

/** An inline playbook for the lost-node pod with the given steps. */
function testPlaybook(steps: PlaybookInput['steps']) {
  return playbookSchema.parse({
    id: 'test-playbook',
    title: 'A playbook for runner tests',
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

/** A store whose process "dies" on kill(): every later call hangs, nothing more is written. */
function killable(inner: RunStore): RunStore & { kill(): void } {
  let dead = false;
  const never = new Promise<never>(() => undefined);
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> =>
      dead ? never : fn(...a);
  return {
    kill: () => void (dead = true),
    savePlan: wrap(inner.savePlan.bind(inner)),
    loadPlan: wrap(inner.loadPlan.bind(inner)),
    acquireLock: wrap(inner.acquireLock.bind(inner)),
    renewLock: wrap(inner.renewLock.bind(inner)),
    releaseLock: wrap(inner.releaseLock.bind(inner)),
    readRun: wrap(inner.readRun.bind(inner)),
    startRun: wrap(inner.startRun.bind(inner)),
    setStep: wrap(inner.setStep.bind(inner)),
    finishRun: wrap(inner.finishRun.bind(inner)),
  };
}

const params = z.object({ namespace: z.string(), pod: z.string(), uid: z.string() });

describe('preconditions are re-checked against live state before any step', () => {
  it("proposes against the diagnosis' own reads when told when it was asked for: the pod it just read is not read again", async () => {
    cluster = await scenarioCluster('seed-003-finalizers');
    const h = harness(cluster, { store: store('since') });
    const asked = Date.now();
    const diagnosis = await diagnoseTarget(cluster.kube.sharing(asked), cluster.target, { cluster: 'test', now: cluster.now });
    const finding = diagnosis.findings.find((f) => f.rule === 'terminating.finalizers')!;
    const before = { ...cluster.kube.readStats };
    await h.runner.proposePlan(finding, diagnosis, playbook('remove-finalizers'), { since: asked });
    const shared = cluster.kube.readStats.shared - before.shared;
    expect(shared).toBeGreaterThanOrEqual(1);
    expect(cluster.kube.readStats.fetched - before.fetched).toBe(0);
    // Without `since` the live state is read afresh, past the shared reads.
    const after = { ...cluster.kube.readStats };
    await h.runner.proposePlan(finding, diagnosis, playbook('remove-finalizers'));
    expect(cluster.kube.readStats).toEqual(after);
  });

  it('pod recreated with a new UID: refused with the reason, nothing touched', async () => {
    cluster = await scenarioCluster('seed-003-finalizers');
    const h = harness(cluster, { store: store('uid') });
    const { plan } = await propose(h, 'terminating.finalizers', 'remove-finalizers');
    // Replace the pod under the same name (a StatefulSet would): new UID, same finalizers.
    const p = targetPod(cluster);
    const def = cluster.sim.store.table.lookup('', 'v1', 'pods')!;
    cluster.sim.store.remove(def, p.metadata?.namespace, p.metadata?.name ?? '');
    const fresh = structuredClone(p) as KubeObject;
    fresh.metadata = {
      ...fresh.metadata,
      uid: undefined,
      resourceVersion: undefined,
      deletionTimestamp: undefined,
      deletionGracePeriodSeconds: undefined,
      creationTimestamp: undefined,
    };
    const created = await cluster.kube.core.createNamespacedPod({ namespace: p.metadata?.namespace ?? '', body: fresh as never });
    expect(created.metadata?.uid).not.toBe(p.metadata?.uid);

    const result = await h.runner.runPlan(plan.id);
    expect(result.status).toBe('refused');
    expect(result.reason).toBe(
      `precondition no longer holds: pod ${p.metadata?.namespace}/${p.metadata?.name} was recreated: its UID is now ${created.metadata?.uid}, the plan was made for ${p.metadata?.uid}`,
    );
    expect(h.events.map((e) => e.type)).toEqual(['refused', 'run-finished']);
    expect(h.events[0]).toMatchObject({ type: 'refused', check: 'pod-uid-is' });
    expect((await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? ''))?.metadata?.finalizers).toEqual(p.metadata?.finalizers);
    // The refusal is recorded: the same plan is never run later.
    const again = await h.runner.runPlan(plan.id);
    expect(again).toMatchObject({ status: 'refused', alreadyRan: true });
  });

  it('node back Ready: force delete refused, the pod stays', async () => {
    cluster = await scenarioCluster('node-lost-statefulset');
    const h = harness(cluster, { store: store('ready') });
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    const p = targetPod(cluster);
    const node = p.spec?.nodeName ?? '';
    const live = await cluster.kube.getNode(node);
    const i = live?.status?.conditions?.findIndex((c) => c.type === 'Ready') ?? -1;
    await cluster.kube.core.patchNodeStatus(
      {
        name: node,
        body: [
          {
            op: 'replace',
            path: `/status/conditions/${i}`,
            value: {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: NOW,
              lastTransitionTime: NOW,
            },
          },
        ],
      },
      patchAs(PatchStrategy.JsonPatch),
    );
    const result = await h.runner.runPlan(plan.id);
    expect(result.status).toBe('refused');
    expect(result.reason).toMatch(new RegExp(`^precondition no longer holds: node ${node} is Ready again`));
    expect(h.events.some((e) => e.type === 'step-started')).toBe(false);
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).not.toBeNull();
  });

  it('a precondition that already fails refuses the proposal (no button that would be refused)', async () => {
    cluster = await lostNodeCluster();
    const h = harness(cluster);
    const diagnosis = await h.diagnose();
    const finding = diagnosis.findings.find((f) => f.rule === 'terminating.node-lost')!;
    await expect(h.runner.proposePlan(finding, diagnosis, playbook('remove-finalizers'))).rejects.toThrow(/does not remediate terminating.node-lost/);
    const withReady = testPlaybook([{ action: 'force-delete' }]);
    withReady.preconditions = [{ check: 'node-ready', node: 'node-9' }];
    const err = await h.runner.proposePlan(finding, diagnosis, withReady).catch((e: unknown) => e);
    expect(isPodDoctorError(err, 'PRECONDITION_FAILED')).toBe(true);
    expect(String(err)).toMatch(/node node-9 is NotReady/);
  });
});

describe('a plan runs once', () => {
  it('a second run reports the first result and does nothing', async () => {
    cluster = await lostNodeCluster();
    const h = harness(cluster, { store: store('once') });
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    const first = await h.runner.runPlan(plan.id);
    expect(first.status).toBe('completed');
    const n = h.events.length;
    const second = await h.runner.runPlan(plan.id);
    expect(second).toMatchObject({ status: 'completed', alreadyRan: true, verification: { outcome: 'fixed' } });
    expect(h.events.length).toBe(n);
  });

  it('while another runner holds the run lock, a second one is refused as busy', async () => {
    cluster = await lostNodeCluster();
    const s = store('busy');
    const h = harness(cluster, { store: s });
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    expect(await s.acquireLock(plan.id, 'someone-else', 10_000)).toBe(true);
    const result = await h.runner.runPlan(plan.id);
    expect(result).toMatchObject({ status: 'busy' });
    expect(await cluster.kube.getPod('shop', 'web-1')).not.toBeNull();
    expect(await client.hlen(storeKeys.run(prefix, 'test', plan.id))).toBe(0);
  });

  it('unknown or expired plans are not run', async () => {
    cluster = await lostNodeCluster();
    let clock = Date.parse(NOW);
    const h = harness(cluster, { store: store('expiry'), deps: { now: () => new Date(clock), planTtlSeconds: 60 } });
    expect(await h.runner.runPlan('pl_doesnotexist12345')).toMatchObject({ status: 'not-found' });
    expect(await h.runner.runPlan('../../etc')).toMatchObject({ status: 'not-found' });
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    clock += 61_000;
    const result = await h.runner.runPlan(plan.id);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'refused' });
    expect(result.reason).toMatch(/expired/);
    expect(await cluster.kube.getPod('shop', 'web-1')).not.toBeNull();
  });

  it('a runner that lost its lock stops writing', async () => {
    cluster = await lostNodeCluster();
    const s = store('lost');
    const thief = defineAction({
      kind: 'steal-lock',
      summary: 'test',
      params,
      destructive: false,
      timeoutMs: 5000,
      describe: () => ['steal the run lock'],
      async run(ctx) {
        await client.set(storeKeys.lock(prefix, 'test', runId), 'thief');
        await ctx.sleep(10);
        return { detail: 'stolen' };
      },
    });
    let runId = '';
    const h = harness(cluster, { store: s, deps: { actions: { ...ACTIONS, 'steal-lock': thief } } });
    const diagnosis = await h.diagnose();
    const plan = await h.runner.proposePlan(diagnosis.findings[0]!, diagnosis, testPlaybook([{ action: 'steal-lock' }, { action: 'force-delete' }]));
    runId = plan.id;
    const result = await h.runner.runPlan(plan.id);
    expect(result.status).toBe('busy');
    expect(result.reason).toMatch(/lost the run lock/);
    const record = await s.readRun(plan.id);
    expect(record?.steps.map((x) => x.state)).toEqual(['running', 'pending']);
    expect(await cluster.kube.getPod('shop', 'web-1')).not.toBeNull();
  });
});

describe('wiring from the config schema', () => {
  it('runnerFromConfig keeps plans and runs under {<prefix>:<cluster>}:plan|run:<id>; concurrent runs execute once', async () => {
    cluster = await lostNodeCluster();
    prefix = testPrefix('config');
    const config = loadConfig({ POD_DOCTOR_REDIS_PREFIX: prefix, POD_DOCTOR_CLUSTER: 'prod-eu', POD_DOCTOR_PLAN_TTL_SECONDS: '120' });
    const events: string[] = [];
    const { runner, playbooks } = await runnerFromConfig({
      config,
      kube: cluster.kube,
      redis: client,
      logger: silent,
      onEvent: (e) => void events.push(e.type),
    });
    expect(playbooks).toHaveLength(12);
    const h = harness(cluster);
    const diagnosis = await h.diagnose();
    const plan = await runner.proposePlan(diagnosis.findings[0]!, diagnosis, playbooks.find((p) => p.id === 'force-delete-pod')!);
    expect(await client.ttl(`{${prefix}:prod-eu}:plan:${plan.id}`)).toBeGreaterThan(100);
    const [a, b] = await Promise.all([runner.runPlan(plan.id), runner.runPlan(plan.id)]);
    expect([a.status, b.status].sort()).toEqual(['busy', 'completed']);
    expect(events.filter((t) => t === 'step-started')).toHaveLength(2);
    expect(await client.hget(`{${prefix}:prod-eu}:run:${plan.id}`, '0')).toBe('done');
    expect(await client.ttl(`{${prefix}:prod-eu}:run:${plan.id}`)).toBeGreaterThan(7 * 86_400 - 60);
  });
});

describe('steps have a time limit', () => {
  it('a step that does not finish in time fails the run and says it may still take effect', async () => {
    cluster = await lostNodeCluster();
    const hang = defineAction({
      kind: 'hang',
      summary: 'test',
      params,
      destructive: true,
      timeoutMs: 60_000,
      describe: () => ['hang'],
      run: () => new Promise(() => undefined),
    });
    const h = harness(cluster, { store: store('timeout'), deps: { actions: { ...ACTIONS, hang } } });
    const diagnosis = await h.diagnose();
    const plan = await h.runner.proposePlan(
      diagnosis.findings[0]!,
      diagnosis,
      testPlaybook([{ action: 'hang', timeoutSeconds: 0.3 }, { action: 'force-delete' }]),
    );
    const started = Date.now();
    const result = await h.runner.runPlan(plan.id);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.status).toBe('failed');
    expect(result.steps[0]).toMatchObject({ state: 'failed', error: 'did not finish within 0.3s; it may still take effect' });
    expect(result.steps[1]?.state).toBe('pending');
    expect(await cluster.kube.getPod('shop', 'web-1')).not.toBeNull();
  });
});

describe('a runner that died mid-run is resumed safely', () => {
  /** A destructive step that counts its runs; `die` makes the "process" die while it runs. */
  function counted(opts: { die?: () => void; recheck?: 'done' | 'not-done' | 'unknown' }) {
    const runs: number[] = [];
    const action = defineAction({
      kind: 'destroy',
      summary: 'test',
      params,
      destructive: true,
      timeoutMs: 60_000,
      describe: (p) => [`destroy ${p.namespace}/${p.pod}`],
      async run() {
        runs.push(Date.now());
        if (opts.die && runs.length === 1) {
          opts.die();
          return new Promise(() => undefined); // the process is gone
        }
        return { detail: 'destroyed' };
      },
      ...(opts.recheck ? { recheck: async () => opts.recheck! } : {}),
    });
    return { runs, action };
  }

  async function setup(name: string, steps: PlaybookInput['steps'], extra: Record<string, ActionDef>) {
    cluster = await lostNodeCluster();
    const inner = store(name);
    const dying = killable(inner);
    const deps = { actions: { ...ACTIONS, ...extra }, lockMs: 300 };
    const first = harness(cluster, { store: dying, deps });
    const diagnosis = await first.diagnose();
    const plan = await first.runner.proposePlan(diagnosis.findings[0]!, diagnosis, testPlaybook(steps));
    return { first, dying, plan, second: () => harness(cluster!, { store: inner, deps }) };
  }

  async function resume(h: ReturnType<typeof harness>, planId: string) {
    // The dead runner's lease lapses after lockMs.
    for (let i = 0; i < 40; i++) {
      const r = await h.runner.runPlan(planId);
      if (r.status !== 'busy') return r;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('lock never lapsed');
  }

  it('killed between two steps: the finished destructive step is not repeated', async () => {
    const c = counted({});
    const { first, dying, plan, second } = await setup('between', [{ action: 'destroy' }, { action: 'force-delete' }], { destroy: c.action });
    // Die right after step 1 is recorded done: the runner never gets to write step 2.
    const events = first.events;
    void first.runner.runPlan(plan.id, { onEvent: (e) => (e.type === 'step-finished' && e.index === 0 ? dying.kill() : undefined) });
    await expect.poll(() => events.some((e) => e.type === 'step-finished' && e.index === 0), { timeout: 5000 }).toBe(true);
    expect(c.runs).toHaveLength(1);
    expect((await redisStore(client, prefix).readRun(plan.id))?.steps.map((x) => x.state)).toEqual(['done', 'pending']);

    const h2 = second();
    const result = await resume(h2, plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(c.runs).toHaveLength(1);
    expect(h2.events[0]).toMatchObject({ type: 'run-started', resumed: true });
    expect(h2.events.filter((e) => e.type === 'step-started').map((e) => (e as { index: number }).index)).toEqual([1]);
    expect(await cluster!.kube.getPod('shop', 'web-1')).toBeNull();
  });

  it('killed during a destructive step without a re-check: stops with "may have run; check manually"', async () => {
    let kill: () => void = () => {};
    const c = counted({ die: () => kill() });
    const { dying, first, plan, second } = await setup('during', [{ action: 'destroy' }, { action: 'force-delete' }], { destroy: c.action });
    kill = dying.kill;
    void first.runner.runPlan(plan.id);
    await expect.poll(() => c.runs.length, { timeout: 5000 }).toBe(1);

    const h2 = second();
    const result = await resume(h2, plan.id);
    expect(result.status).toBe('stopped');
    expect(result.reason).toBe('step 1 (destroy) may have run before the runner stopped; check manually');
    expect(c.runs).toHaveLength(1);
    expect(h2.events.map((e) => e.type)).toEqual(['run-started', 'stopped', 'run-finished']);
    // Step 2 never ran: the pod is still there.
    expect(await cluster!.kube.getPod('shop', 'web-1')).not.toBeNull();
    expect(await h2.runner.runPlan(plan.id)).toMatchObject({ status: 'stopped', alreadyRan: true });
  });

  it.each([
    ['done', 1, 'skipped'],
    ['not-done', 2, 'done'],
  ] as const)('killed during a destructive step whose re-check says %s: runs it %i time(s) in all', async (verdict, total, state) => {
    let kill: () => void = () => {};
    const c = counted({ die: () => kill(), recheck: verdict });
    const { dying, first, plan, second } = await setup(`recheck-${verdict}`, [{ action: 'destroy' }, { action: 'force-delete' }], { destroy: c.action });
    kill = dying.kill;
    void first.runner.runPlan(plan.id);
    await expect.poll(() => c.runs.length, { timeout: 5000 }).toBe(1);
    const h2 = second();
    const result = await resume(h2, plan.id);
    expect(result.status).toBe('completed');
    expect(c.runs).toHaveLength(total);
    expect(h2.events.find((e) => e.type === 'step-finished' && e.index === 0)).toMatchObject({ state });
  });
});
