// Workload alerts: the worker finds the workload's unhealthy pods and queues one diagnosis
// each, with the alert as requester; the thread hears which pods (targets-expanded).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expansionJobId, pickUnhealthyPods, type RunningExpansionWorker, selectorOf, startExpansionWorker, unhealthyReason } from '../../src/alerts/expand.js';
import { readAlertGroupEvents } from '../../src/alerts/group-events.js';
import { AlertIntake } from '../../src/alerts/intake.js';
import { parseWebhookPayload } from '../../src/alerts/schema.js';
import type { FactSource } from '../../src/collect/source.js';
import type { KubeObject, Pod } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { MemorySink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { amAlert, payload } from '../helpers/alerts.js';
import { crashedPod, NOW, node, pod, waitingPod } from '../helpers/factories.js';
import { cleanup, connect, eventually, memorySource, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const rsOwner = (name: string) => ({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: 'u', controller: true }] } });
const withOwner = (p: Pod, rs: string): Pod => ({ ...p, metadata: { ...p.metadata, ...rsOwner(rs).metadata } });

function deployment(name: string, matchLabels: Record<string, string>): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'shop' }, spec: { replicas: 3, selector: { matchLabels } } };
}

/** memorySource plus equality label selectors (what the expansion sends). */
function selectingSource(objects: KubeObject[]): FactSource {
  const inner = memorySource(objects);
  return {
    ...inner,
    listPods: async (q) => {
      const pods = await inner.listPods(q);
      const reqs = (q.labelSelector ?? '')
        .split(',')
        .filter(Boolean)
        .map((r) => r.split('=') as [string, string]);
      return pods.filter((p) => reqs.every(([k, v]) => p.metadata?.labels?.[k] === v));
    },
  };
}

describe('workload expansion helpers', () => {
  it.each([
    ['matchLabels', { matchLabels: { app: 'web', tier: 'fe' } }, 'app=web,tier=fe'],
    [
      'expressions',
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'track', operator: 'In', values: ['stable', 'canary'] },
          { key: 'legacy', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists' },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
        ],
      },
      'app=web,track in (stable,canary),!legacy,zone,env notin (dev)',
    ],
    ['an empty selector (would match everything)', {}, null],
    ['no selector', undefined, null],
  ])('selectorOf: %s', (_n, selector, expected) => {
    expect(selectorOf({ kind: 'Deployment', spec: selector === undefined ? {} : { selector } })).toBe(expected);
  });

  it.each([
    ['running and ready', pod(), null],
    ['CrashLoopBackOff', crashedPod({ exitCode: 1 }), 'CrashLoopBackOff'],
    ['ImagePullBackOff', waitingPod('ImagePullBackOff'), 'ImagePullBackOff'],
    ['Terminating', pod({ metadata: { deletionTimestamp: NOW } }), 'Terminating'],
    ['Succeeded (a finished Job pod)', pod({ status: { phase: 'Succeeded' } }), null],
    ['Failed, evicted', pod({ status: { phase: 'Failed', reason: 'Evicted' } }), 'Failed (Evicted)'],
    ['Pending without a reason', pod({ status: { phase: 'Pending', containerStatuses: [] } }), 'Pending'],
    ['running, not ready', pod({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }), 'NotReady'],
  ])('unhealthyReason: %s', (_n, p, expected) => {
    expect(unhealthyReason(p)).toBe(expected);
  });

  it('picks the worst pods of the workload first, bounded, and only its own', () => {
    const pods = [
      withOwner(pod({ metadata: { name: 'web-abc-1' } }), 'web-abc'),
      withOwner(pod({ metadata: { name: 'web-abc-2' }, status: { conditions: [{ type: 'Ready', status: 'False' }] } }), 'web-abc'),
      withOwner(crashedPod({ exitCode: 1, restarts: 3 }, { metadata: { name: 'web-abc-3' } }), 'web-abc'),
      withOwner(crashedPod({ exitCode: 1, restarts: 9 }, { metadata: { name: 'web-abc-4' } }), 'web-abc'),
      withOwner(crashedPod({ exitCode: 1 }, { metadata: { name: 'webhook-x-1' } }), 'webhook-x'), // another Deployment whose name starts alike
    ];
    const r = pickUnhealthyPods(pods, { kind: 'Deployment', namespace: 'shop', name: 'web' }, 2);
    expect(r.picked.map((p) => [p.pod.metadata?.name, p.reason])).toEqual([
      ['web-abc-4', 'CrashLoopBackOff'],
      ['web-abc-3', 'CrashLoopBackOff'],
    ]);
    expect(r.unhealthy).toBe(3);
    expect(r.total).toBe(4);
  });
});

describe('workload alerts end to end (memory source)', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let intake: AlertIntake;
  let workers: RunningWorkers | undefined;
  let expander: RunningExpansionWorker | undefined;

  beforeEach(() => {
    redis = connect();
    prefix = testPrefix('alerts-expand');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix, backoffMs: 20 });
    intake = new AlertIntake({ queues, cluster: 'c1', logger: silent, defaultChannel: 'C0ALERTS', maxPodsPerWorkload: 5 });
  });

  afterEach(async () => {
    await expander?.close();
    await workers?.close();
    expander = undefined;
    workers = undefined;
    await intake.close();
    await queues.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const objects = (): KubeObject[] => [
    node({ metadata: { name: 'node-1' } }),
    deployment('web', { app: 'web' }),
    withOwner(pod({ metadata: { name: 'web-abc-ok', labels: { app: 'web' } } }), 'web-abc'),
    withOwner(crashedPod({ exitCode: 137, reason: 'OOMKilled' }, { metadata: { name: 'web-abc-oom', labels: { app: 'web' } } }), 'web-abc'),
    withOwner(
      waitingPod('CreateContainerConfigError', 'configmap "web-config" not found', { metadata: { name: 'web-abc-cfg', labels: { app: 'web' } } }),
      'web-abc',
    ),
    crashedPod({ exitCode: 1 }, { metadata: { name: 'other-1', labels: { app: 'other' } } }),
  ];

  const mismatch = amAlert({
    alertname: 'KubeDeploymentReplicasMismatch',
    labels: { namespace: 'shop', deployment: 'web', instance: '10.244.1.12:8443', container: 'kube-rbac-proxy-main' },
  });
  const body = () => {
    const r = parseWebhookPayload(payload([mismatch], { groupKey: '{}:{alertname="KubeDeploymentReplicasMismatch"}' }));
    if (!r.ok) throw new Error(r.reason);
    return r.payload;
  };

  it('diagnoses the unhealthy pods of the Deployment, each answered to the alert', async () => {
    const r = await intake.accept(body());
    expect(r.jobs).toBe(1);
    expect((await queues.diagnose('c1').getJobCounts('waiting')).waiting).toBe(0);

    const sink = new MemorySink();
    const source = selectingSource(objects());
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source,
      sink,
      logger: silent,
      prefix,
      handleSignals: false,
      diagnose: { now: () => new Date(NOW) },
    });
    expander = startExpansionWorker({ connection: redis, cluster: 'c1', source, queues, logger: silent });

    const results = await sink.waitFor((rs) => rs.length >= 2);
    expect(results.map((x) => x.job.target).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { kind: 'pod', namespace: 'shop', name: 'web-abc-cfg' },
      { kind: 'pod', namespace: 'shop', name: 'web-abc-oom' },
    ]);
    const oom = results.find((x) => x.job.target.kind === 'pod' && x.job.target.name === 'web-abc-oom')!;
    expect(oom.diagnosis?.findings[0]?.rule).toBe('crash.oomkilled');
    expect(oom.requesters).toEqual([
      expect.objectContaining({
        kind: 'alert',
        alertFingerprint: mismatch.fingerprint,
        workload: 'deployment/shop/web',
        channel: 'C0ALERTS',
        alertname: 'KubeDeploymentReplicasMismatch',
      }),
    ]);
    expect(new Set(results.map((x) => x.requesters[0]?.kind === 'alert' && x.requesters[0].fingerprint)).size).toBe(2);

    const expanded = await eventually(async () =>
      (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event).find((e) => e.type === 'targets-expanded'),
    );
    expect(expanded).toMatchObject({
      fingerprint: mismatch.fingerprint,
      workload: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      unhealthy: 2,
      total: 3,
      error: null,
      channel: 'C0ALERTS',
      episode: 1,
    });
    if (expanded.type === 'targets-expanded') expect(expanded.pods.map((p) => p.name).sort()).toEqual(['web-abc-cfg', 'web-abc-oom']);
  });

  it('diagnoses the namespace when the workload has no pods at all (admission refuses them)', async () => {
    await intake.accept(body());
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-abc',
        namespace: 'shop',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u', controller: true }],
      },
      spec: { replicas: 3 },
      status: { replicas: 0 },
    };
    const refused = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-abc.1', namespace: 'shop' },
      involvedObject: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', namespace: 'shop' },
      reason: 'FailedCreate',
      type: 'Warning',
      count: 12,
      message:
        'Error creating: pods "web-abc-x7k2p" is forbidden: exceeded quota: compute-resources, requested: requests.cpu=2, used: requests.cpu=8, limited: requests.cpu=8',
      firstTimestamp: '2026-11-21T09:30:00Z',
      lastTimestamp: '2026-11-21T09:59:00Z',
      source: { component: 'replicaset-controller' },
    } satisfies KubeObject;
    const source = selectingSource([
      node(),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' }, status: { phase: 'Active' } },
      deployment('web', { app: 'web' }),
      rs,
      refused,
    ]);
    const sink = new MemorySink();
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source,
      sink,
      logger: silent,
      prefix,
      handleSignals: false,
      diagnose: { now: () => new Date(NOW) },
    });
    expander = startExpansionWorker({ connection: redis, cluster: 'c1', source, queues, logger: silent });
    const [result] = await sink.waitFor((rs) => rs.length >= 1);
    expect(result?.job.target).toEqual({ kind: 'namespace', name: 'shop' });
    expect(result?.diagnosis?.findings[0]).toMatchObject({ rule: 'admission.rejected', params: { policy: 'quota', policyName: 'compute-resources' } });
    const expanded = await eventually(async () =>
      (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event).find((e) => e.type === 'targets-expanded'),
    );
    if (expanded.type === 'targets-expanded') expect(expanded.pods).toEqual([expect.objectContaining({ name: 'ns/shop', reason: '0 of 3 pods exist' })]);
  });

  it('says so when the workload does not exist', async () => {
    await intake.accept(body());
    const source = selectingSource([node()]);
    expander = startExpansionWorker({ connection: redis, cluster: 'c1', source, queues, logger: silent });
    const expanded = await eventually(async () =>
      (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event).find((e) => e.type === 'targets-expanded'),
    );
    expect(expanded).toMatchObject({ error: 'Deployment shop/web not found', pods: [] });
  });

  it('cancels an expansion that has not run when the alert resolves', async () => {
    await intake.accept(body());
    const id = expansionJobId('c1', mismatch.fingerprint, mismatch.startsAt);
    expect(await intake.expansion.queue('c1').getJobState(id)).toBe('waiting');
    const resolved = parseWebhookPayload(
      payload([{ ...mismatch, status: 'resolved', endsAt: '2026-11-21T10:05:00Z' }], { groupKey: '{}:{alertname="KubeDeploymentReplicasMismatch"}' }),
    );
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(await intake.accept(resolved.payload)).toMatchObject({ resolved: 1, cancelled: 1 });
    expect(await intake.expansion.queue('c1').getJob(id)).toBeUndefined();
  });
});
