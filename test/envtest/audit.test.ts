// The audit trail on a real kube-apiserver with its audit log on: a remediation approved in chat
// by a named person runs as the remediation worker's service account under the deployed RBAC, and
// the API server's own audit log shows that person in the userAgent of the change; the worker's
// audit reader writes the approval and the run as Events on the pod (events `create` granted by
// deploy/base/rbac-remediate.yaml), and the reads stay plain `pod-doctor/<version>`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EVENTS_GROUP, startAuditEvents } from '../../src/audit/consumer.js';
import { readAudit, recordDecision } from '../../src/audit/stream.js';
import { ApprovalStore } from '../../src/chat/store/approvals.js';
import { KubeSource, loadKubeConfig, USER_AGENT } from '../../src/collect/kube-source.js';
import type { Target } from '../../src/diagnosis/types.js';
import type { RedisClient } from '../../src/redis/client.js';
import type { StreamConsumer } from '../../src/redis/streams.js';
import { planSubject, redisRunAudit } from '../../src/remediation/audit.js';
import { loadPlaybooks } from '../../src/remediation/load.js';
import { createRunner } from '../../src/remediation/runner.js';
import { RedisRunStore } from '../../src/remediation/store.js';
import { diagnoseTarget } from '../../src/usecases/diagnose.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { applyRbac, PRODUCT_ACCOUNTS, PRODUCT_SERVICE_ACCOUNTS } from './backends.js';
import { type ControlPlane, findBinaries, type KubeObject, sleep, startControlPlane } from './harness.js';

const bins = findBinaries();
const missing = 'missing' in bins ? bins.missing : undefined;
if (missing) console.warn(`[envtest] SKIPPED: control-plane binaries absent (${missing})`);

const CLUSTER = 'envtest';
const NS = 'audited';
const TARGET: Target = { kind: 'pod', namespace: NS, name: 'held' };
/** Checks and diagnoses look ten minutes ahead: the pod is then long past its grace period. */
const ahead = () => new Date(Date.now() + 10 * 60_000);
const log = (label: string, value: unknown) => console.log(`[envtest] ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

describe.skipIf(missing !== undefined)('the audit trail on a real control plane (kube-apiserver audit log)', () => {
  let cp: ControlPlane;
  let redis: RedisClient;
  let reader: RedisClient;
  let prefix: string;
  let kube: KubeSource;
  let events: StreamConsumer | undefined;

  beforeAll(async () => {
    cp = await startControlPlane({ controllers: false, serviceAccountAdmission: false, serviceAccounts: PRODUCT_SERVICE_ACCOUNTS, audit: true });
    log('control plane started in ms', cp.startMs);
    expect(await applyRbac(cp)).toContain('deploy/base/rbac-remediate.yaml');
    kube = new KubeSource(loadKubeConfig({ kubeconfig: cp.kubeconfigFor(PRODUCT_ACCOUNTS.remediate) }));
    redis = connect();
    reader = connect();
    prefix = testPrefix('audit-envtest');
    // A pod kept by a finalizer after its deletion, no node: terminating.finalizers, remove-finalizers.
    await cp.createNamespace(NS);
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'held', namespace: NS, finalizers: ['example.com/backup-hook'] },
      spec: { containers: [{ name: 'app', image: 'registry.example.com/shop/app:1.0' }] },
    });
    await cp.client.delete(`/api/v1/namespaces/${NS}/pods/held`);
  });

  afterAll(async () => {
    await events?.stop();
    if (prefix) await cleanup(redis, prefix);
    redis?.disconnect();
    reader?.disconnect();
    await cp?.stop();
  });

  it('the change names its approver in the API server audit log; the approval and the run are Events on the pod', async () => {
    // Requests before this (the set-up's RBAC probes, as the same account) are not the product's.
    await sleep(1100);
    const started = Date.now();
    const runner = createRunner({
      cluster: CLUSTER,
      kube,
      store: new RedisRunStore(redis, CLUSTER, prefix, 3600),
      audit: redisRunAudit(redis, prefix),
      now: ahead,
      logger: silent,
    });
    const diagnosis = await diagnoseTarget(kube, TARGET, { cluster: CLUSTER, now: ahead });
    const finding = diagnosis.findings.find((f) => f.rule === 'terminating.finalizers');
    expect(finding, `findings: ${diagnosis.findings.map((f) => f.rule).join(', ')}`).toBeDefined();
    const playbook = (await loadPlaybooks()).find((p) => p.id === 'remove-finalizers')!;
    const plan = await runner.proposePlan(finding!, diagnosis, playbook);

    // What the bot's approve flow does: the approval state machine, then the decision record.
    const approvals = new ApprovalStore(redis, prefix);
    await approvals.create({ planId: plan.id, cluster: CLUSTER, required: 1, requireDifferent: false, expiresAt: Date.parse(plan.expiresAt) });
    expect((await approvals.approve(plan.id, 'U0ALICE')).kind).toBe('approved');
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'approval', ...planSubject(plan), actors: ['U0ALICE'], outcome: 'approved' });

    // The worker's side: run the plan, and its audit reader turns the trail into Events.
    events = startAuditEvents({ redis: reader, prefix, cluster: CLUSTER, kube, logger: silent, sweepEveryMs: 0, blockMs: 500 });
    const result = await runner.runPlan(plan.id);
    log('run', { status: result.status, outcome: result.verification?.outcome, steps: result.steps.map((s) => `${s.action}:${s.state}`) });
    expect(result.status).toBe('completed');
    expect(await cp.client.find(`/api/v1/namespaces/${NS}/pods/held`)).toBeNull();

    const ours = await cp.client.waitFor(
      'the approval and the run as Events on the pod',
      async () => (await cp.client.list(`/api/v1/namespaces/${NS}/events`)).items.filter((e) => e.reason === 'PodDoctorRemediation'),
      (list) => list.length >= 2,
      { timeoutMs: 20_000 },
    );
    log(
      'events',
      ours.map((e) => `${e.type} ${e.message}`),
    );
    const uid = planSubject(plan).uid;
    expect(ours).toHaveLength(2);
    for (const e of ours) {
      expect(e.message).toContain(plan.id);
      expect(e.message).toContain('U0ALICE');
      expect(e).toMatchObject({ type: 'Normal', source: { component: 'pod-doctor' }, reportingComponent: 'pod-doctor' });
      expect(e.involvedObject).toMatchObject({ kind: 'Pod', namespace: NS, name: 'held', uid });
    }
    expect(ours.map((e) => e.action).sort()).toEqual(['Approve', 'Remediate']);
    const trail = [];
    for await (const r of readAudit(redis, prefix, CLUSTER, { sinceMs: 0, untilMs: Date.now() + 1000 })) trail.push(`${r.entry.kind}/${r.entry.outcome}`);
    expect(trail).toEqual(['approval/approved', 'run/fixed']);
    expect(await redis.xinfo('GROUPS', `{${prefix}:${CLUSTER}}:audit`)).toEqual(expect.arrayContaining([expect.arrayContaining([AUDIT_EVENTS_GROUP])]));

    // The API server's audit log: who changed the pod, and in whose name.
    const remediate = PRODUCT_ACCOUNTS.remediate;
    const audit = await cp.client.waitFor(
      'the event creations in the audit log',
      async () => cp.auditEvents().filter((a) => a.user?.username === remediate && Date.parse(a.requestReceivedTimestamp) >= started),
      (list) => list.filter((a) => a.verb === 'create' && a.objectRef?.resource === 'events').length >= 2,
      { timeoutMs: 20_000 },
    );
    const change = audit.filter((a: KubeObject) => a.verb === 'patch' && a.objectRef?.resource === 'pods' && a.objectRef?.name === 'held');
    log(
      'audit log: the change',
      change.map((a) => ({ user: a.user.username, verb: a.verb, userAgent: a.userAgent, code: a.responseStatus?.code })),
    );
    expect(change.map((a) => a.userAgent)).toEqual([`${USER_AGENT} (plan=${plan.id}; approvedBy=U0ALICE)`]);
    expect(change[0]?.responseStatus?.code).toBe(200);
    const writes = audit.filter((a) => !['get', 'list', 'watch'].includes(a.verb));
    const reads = audit.filter((a) => ['get', 'list'].includes(a.verb));
    expect(reads.length).toBeGreaterThan(3);
    const odd = reads.filter((a) => a.userAgent !== USER_AGENT);
    if (odd.length)
      log(
        'reads with another userAgent',
        odd.map((a) => `${a.verb} ${a.requestURI} ${a.userAgent} ${a.requestReceivedTimestamp}`),
      );
    expect([...new Set(reads.map((a) => a.userAgent))]).toEqual([USER_AGENT]);
    // Besides the change, the worker wrote only its Events, as plain pod-doctor.
    expect(writes.filter((a) => a !== change[0]).map((a) => `${a.verb} ${a.objectRef?.resource} ${a.userAgent} ${a.responseStatus?.code}`)).toEqual([
      `create events ${USER_AGENT} 201`,
      `create events ${USER_AGENT} 201`,
    ]);
  });
});
