// The audit trail end to end on the simulated cluster, with `pod-doctor worker` as deployed in
// the split overlay: a plan approved by a named person in chat (the approval store and the
// decision record the bot's flow writes), run by the worker, whose writes carry the approver in
// their User-Agent (a recording proxy in front of the API sees every request); the approval and
// the run in the audit stream; the worker's audit reader turns both into Events on the pod.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/entry.js';
import { readAudit, recordDecision } from '../../src/audit/stream.js';
import { ApprovalStore } from '../../src/chat/store/approvals.js';
import { jobSettingsFromConfig, runnerFromConfig } from '../../src/cli/wiring.js';
import { workerCommand } from '../../src/cli/worker.js';
import { KubeSource, USER_AGENT } from '../../src/collect/kube-source.js';
import { loadConfig } from '../../src/config/schema.js';
import type { Diagnosis } from '../../src/diagnosis/types.js';
import { enqueueRemediation } from '../../src/jobs/dedup.js';
import { JobQueues } from '../../src/jobs/queues.js';
import { parseTarget } from '../../src/kube/target.js';
import type { RedisClient } from '../../src/redis/client.js';
import { planSubject } from '../../src/remediation/index.js';
import type { Plan } from '../../src/remediation/plan.js';
import type { Runner } from '../../src/remediation/runner.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { diagnoseTarget } from '../../src/usecases/diagnose.js';
import { cleanup, connect, eventually, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const SCENARIO = join(import.meta.dirname, '../fixtures/incidents/seed-003-finalizers');
const TARGET = parseTarget('reports/report-6f7d8-xk2lq');
const CLUSTER = 'trail';

interface Seen {
  method: string;
  path: string;
  userAgent: string;
}

/** Forwards to the simulated API and remembers each request's method, path and User-Agent. */
async function recordingProxy(upstream: string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', userAgent: String(req.headers['user-agent'] ?? '') });
    const up = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe('the audit trail of an approved remediation (worker, simulated cluster)', () => {
  let sim: Sim;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let redis: RedisClient;
  let prefix: string;
  let env: Record<string, string>;
  let stop: () => void;
  let exited: Promise<number>;
  let kube: KubeSource;
  let runner: Runner;
  let queues: JobQueues;
  let approvals: ApprovalStore;

  beforeAll(async () => {
    sim = await startSim({ objects: (await loadScenario(SCENARIO)).objects });
    proxy = await recordingProxy(sim.url);
    const dir = await mkdtemp(join(tmpdir(), 'pd-audit-'));
    await writeFile(join(dir, 'kubeconfig'), sim.kubeconfig().replaceAll(sim.url, proxy.url));
    prefix = testPrefix('audit-trail');
    env = {
      KUBECONFIG: join(dir, 'kubeconfig'),
      POD_DOCTOR_CLUSTER: CLUSTER,
      POD_DOCTOR_REDIS_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      POD_DOCTOR_METRICS_PORT: '0',
    };
    redis = connect();
    const stopSignal = new Promise<string>((resolve) => (stop = () => resolve('test')));
    const out = new PassThrough();
    exited = workerCommand([], { stdout: out, stderr: out, env }, { stopSignal });
    // The bot's side, which proposes nothing itself: the plan comes from a runner as a worker's would.
    const config = loadConfig(env);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    kube = new KubeSource(kc);
    ({ runner } = await runnerFromConfig({ config: { ...config, cluster: CLUSTER }, kube, redis, logger: silent }));
    queues = new JobQueues(redis, jobSettingsFromConfig(config), silent);
    approvals = new ApprovalStore(redis, prefix);
  });

  afterAll(async () => {
    stop?.();
    await exited;
    await queues?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    await proxy?.close();
    await sim?.close();
  });

  async function propose(): Promise<Plan> {
    const diagnosis: Diagnosis = await diagnoseTarget(kube, TARGET, { cluster: CLUSTER });
    const { playbooks } = await runnerFromConfig({ config: { ...loadConfig(env), cluster: CLUSTER }, kube, redis, logger: silent });
    const plan = await runner.proposePlan(diagnosis.findings[0]!, diagnosis, playbooks.find((p) => p.id === 'remove-finalizers')!);
    await approvals.create({ planId: plan.id, cluster: CLUSTER, required: 1, requireDifferent: false, expiresAt: Date.parse(plan.expiresAt) });
    return plan;
  }

  async function trail(): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    for await (const r of readAudit(redis, prefix, CLUSTER, { sinceMs: 0, untilMs: Date.now() + 1000 })) out.push(r.entry);
    return out;
  }

  const podEvents = async () =>
    (await kube.listPodEvents(TARGET.kind === 'pod' ? TARGET.namespace : '', TARGET.name)).filter((e) => e.reason === 'PodDoctorRemediation');

  it('names the approver in the User-Agent of every write of the run, records the approval and the run, and puts both on the pod', async () => {
    const plan = await propose();
    // What the bot's approve flow does on the last approval it needs: record it, then hand the plan over.
    expect((await approvals.approve(plan.id, 'U0ALICE')).kind).toBe('approved');
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'approval', ...planSubject(plan), actors: ['U0ALICE'], outcome: 'approved' });
    await enqueueRemediation(queues, { cluster: CLUSTER, proposalId: plan.id });
    const run = await eventually(async () => {
      const r = await runner.getRun(plan.id);
      return r && r.status !== 'running' ? r : undefined;
    }, 30_000);
    expect(run.status).toBe('completed');
    expect(await kube.getPod('reports', 'report-6f7d8-xk2lq')).toBeNull();

    // The API server saw the run's change as the approver's, and every read as plain pod-doctor.
    const runUa = `${USER_AGENT} (plan=${plan.id}; approvedBy=U0ALICE)`;
    const patch = proxy.seen.filter((s) => s.method === 'PATCH' && s.path.endsWith('/pods/report-6f7d8-xk2lq'));
    expect(patch.map((s) => s.userAgent)).toEqual([runUa]);
    expect(proxy.seen.filter((s) => s.method === 'GET').every((s) => s.userAgent === USER_AGENT)).toBe(true);
    expect(proxy.seen.filter((s) => s.method === 'GET').length).toBeGreaterThan(3);

    // The trail: the approval from chat, then the run with its approver and outcome.
    const entries = await eventually(async () => {
      const e = await trail();
      return e.some((x) => x.kind === 'run') ? e : undefined;
    });
    const uid = planSubject(plan).uid;
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries.map((e) => `${e.kind}/${e.outcome}/${e.actors.join(',')}`)).toEqual(['approval/approved/U0ALICE', 'run/fixed/U0ALICE']);
    expect(entries.every((e) => e.planId === plan.id && e.playbook === 'remove-finalizers' && e.uid === uid)).toBe(true);

    // The worker's audit reader wrote one Event per entry on the (now deleted) pod.
    const events = await eventually(async () => {
      const e = await podEvents();
      return e.length >= 2 ? e : undefined;
    });
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e.message).toContain(plan.id);
      expect(e.message).toContain('remove-finalizers');
      expect(e.message).toContain('U0ALICE');
      expect(e).toMatchObject({ type: 'Normal', source: { component: 'pod-doctor' }, involvedObject: { kind: 'Pod', name: TARGET.name, uid } });
    }
    expect(events.map((e) => e.message).join('\n')).toMatch(/run, approved by U0ALICE: fixed/);
    const posts = proxy.seen.filter((s) => s.method === 'POST' && s.path === '/api/v1/namespaces/reports/events');
    expect(posts.map((s) => s.userAgent)).toEqual([USER_AGENT, USER_AGENT]);
  });

  it('a denial recorded by the bot becomes a Warning Event written by the worker of the cluster', async () => {
    const before = (await podEvents()).length;
    const plan: Pick<Plan, 'id' | 'playbook' | 'target' | 'preconditions'> = {
      id: 'pl_deniedPlan00000',
      playbook: { id: 'recreate-pod', title: 'Delete the pod so its controller recreates it' },
      target: TARGET,
      preconditions: [],
    };
    await recordDecision(redis, prefix, {
      cluster: CLUSTER,
      kind: 'denial',
      ...planSubject(plan),
      actors: ['U0BOB'],
      outcome: 'denied',
      reason: 'change freeze',
    });
    const events = await eventually(async () => {
      const e = await podEvents();
      return e.length > before ? e : undefined;
    });
    const denial = events.find((e) => e.message?.includes('pl_deniedPlan00000'));
    expect(denial).toMatchObject({ type: 'Warning', reason: 'PodDoctorRemediation' });
    expect(denial?.message).toContain('denied by U0BOB: change freeze');
  });
});
