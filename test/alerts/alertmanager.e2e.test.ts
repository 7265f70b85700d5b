// The real Alertmanager (Debian package prometheus-alertmanager, installed by .ci/run) on
// loopback, configured like deploy/alertmanager/alertmanager.yml: alerts posted to its v2 API
// reach our handler with the bearer token, are queued and diagnosed against the simulated
// cluster (KubeSource over startSim), their results carry the alert requester, and resolving
// them produces alerts-resolved and group-resolved events. (The Slack thread on top of these
// events is the chat side's end-to-end test.)
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningExpansionWorker, startExpansionWorker } from '../../src/alerts/expand.js';
import { type AlertGroupEvent, readAlertGroupEvents } from '../../src/alerts/group-events.js';
import { type AlertmanagerHandler, type AlertmanagerServer, createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import { KubeSource } from '../../src/collect/kube-source.js';
import type { KubeObject, Pod } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { RedisStreamSink } from '../../src/jobs/sink.js';
import { type RunningWorkers, startWorkers } from '../../src/jobs/worker.js';
import type { RedisClient } from '../../src/redis/client.js';
import { keys } from '../../src/redis/keys.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { TOKEN } from '../helpers/alerts.js';
import { crashedPod, NOW, node, pod } from '../helpers/factories.js';
import { cleanup, connect, eventually, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { ALERTMANAGER_BIN, HAVE_ALERTMANAGER, type RealAlertmanager, startRealAlertmanager } from './real-alertmanager.js';

if (!HAVE_ALERTMANAGER) {
  console.warn(`alertmanager end-to-end test skipped: ${ALERTMANAGER_BIN} is missing (apt-get install prometheus-alertmanager, as .ci/run does)`);
}

const owned = (p: Pod, rs: string): Pod => ({
  ...p,
  metadata: { ...p.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: 'rs-uid', controller: true }] },
});

function simObjects(): KubeObject[] {
  return [
    node({ metadata: { name: 'node-1' } }),
    crashedPod({ exitCode: 137, reason: 'OOMKilled' }, { metadata: { name: 'api-7d9f8c6b5-x2k4q', labels: { app: 'api' } } }),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', uid: 'dep-uid', creationTimestamp: '2026-11-20T10:00:00Z' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2' }] } },
      },
      status: { replicas: 2, availableReplicas: 1 },
    },
    owned(pod({ metadata: { name: 'web-5f6b7c8d9-aaaaa', labels: { app: 'web' } } }), 'web-5f6b7c8d9'),
    owned(crashedPod({ exitCode: 137, reason: 'OOMKilled' }, { metadata: { name: 'web-5f6b7c8d9-bbbbb', labels: { app: 'web' } } }), 'web-5f6b7c8d9'),
  ] as KubeObject[];
}

describe.skipIf(!HAVE_ALERTMANAGER)('real Alertmanager → webhook → diagnosis', () => {
  let dir: string;
  let am: RealAlertmanager | undefined;
  let sim: Sim;
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let handler: AlertmanagerHandler;
  let server: AlertmanagerServer;
  let workers: RunningWorkers;
  let expander: RunningExpansionWorker;
  const seen: { authorization: string | undefined; userAgent: string | undefined; status: number }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pod-doctor-am-'));
    sim = await startSim({ objects: simObjects() });
    redis = connect();
    prefix = testPrefix('alerts-am');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    handler = createAlertmanagerHandler({ queues, cluster: 'c1', token: TOKEN, logger: silent, defaultChannel: 'C0ALERTS' });
    // Record what Alertmanager sends, then hand the request to the real handler.
    const recording = Object.assign(
      async (req: IncomingMessage, res: ServerResponse) => {
        res.on('finish', () => seen.push({ authorization: req.headers.authorization, userAgent: req.headers['user-agent'], status: res.statusCode }));
        await handler(req, res);
      },
      { path: handler.path, intake: handler.intake, close: handler.close },
    );
    server = await startAlertmanagerServer({ handler: recording });

    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const source = new KubeSource(kc);
    workers = await startWorkers({
      connection: redis,
      cluster: 'c1',
      source,
      sink: new RedisStreamSink(redis, prefix),
      logger: silent,
      prefix,
      handleSignals: false,
      diagnose: { now: () => new Date(NOW) },
    });
    expander = startExpansionWorker({ connection: redis, cluster: 'c1', source, queues, logger: silent });

    am = await startRealAlertmanager({ dir, webhookUrl: `${server.url}/alertmanager`, token: TOKEN, maxAlerts: 500 });
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
    await expander?.close();
    await workers?.close();
    await server?.close();
    await handler?.close();
    await queues?.close();
    if (redis) {
      await cleanup(redis, prefix);
      redis.disconnect();
    }
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const startsAt = new Date(Date.now() - 60_000).toISOString();
  const alerts = (endsAt?: string) =>
    [
      {
        alertname: 'KubePodCrashLooping',
        namespace: 'shop',
        pod: 'api-7d9f8c6b5-x2k4q',
        container: 'web',
        reason: 'CrashLoopBackOff',
        severity: 'warning',
        job: 'kube-state-metrics',
      },
      { alertname: 'KubeDeploymentReplicasMismatch', namespace: 'shop', deployment: 'web', severity: 'warning', job: 'kube-state-metrics' },
      { alertname: 'KubeCPUOvercommit', severity: 'warning', resource: 'cpu' },
    ].map((labels) => ({
      labels,
      annotations: { summary: `${labels.alertname} (test)`, description: 'posted by the pod-doctor end-to-end test' },
      startsAt,
      ...(endsAt ? { endsAt } : {}),
      generatorURL: 'http://prometheus-k8s-0:9090/graph?g0.expr=up&g0.tab=1',
    }));

  async function postAlerts(body: unknown): Promise<void> {
    const res = await am!.postAlerts(body);
    expect(res.status, await res.text()).toBe(200);
  }

  const events = async (): Promise<AlertGroupEvent[]> => (await readAlertGroupEvents(redis, { prefix, cluster: 'c1' })).map((e) => e.event);
  const results = async (): Promise<DiagnoseResult[]> =>
    ((await redis.xrange(keys.results(prefix, 'c1'), '-', '+')) as [string, string[]][]).map(
      ([, fields]) => JSON.parse(fields[fields.indexOf('result') + 1]!) as DiagnoseResult,
    );

  it('diagnoses what the alerts point at, then resolves their groups', { timeout: 90_000 }, async () => {
    await postAlerts(alerts());

    // Diagnoses of the crash-looping pod and of the Deployment's unhealthy pod arrive on the results stream.
    const done = await eventually(
      async () => {
        const rs = await results();
        const names = rs.map((r) => (r.job.target.kind === 'pod' ? r.job.target.name : ''));
        return names.includes('api-7d9f8c6b5-x2k4q') && names.includes('web-5f6b7c8d9-bbbbb') ? rs : undefined;
      },
      45_000,
      200,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; webhook calls: ${JSON.stringify(seen)}\n${am?.log().slice(-3000) ?? ''}`);
    });
    expect(done).toHaveLength(2);
    for (const r of done) {
      expect(r.status).toBe('diagnosed');
      expect(r.diagnosis?.findings[0]?.rule).toBe('crash.oomkilled');
      expect(r.requesters).toHaveLength(1);
      expect(r.requesters[0]).toMatchObject({
        kind: 'alert',
        status: 'firing',
        receiver: 'pod-doctor',
        channel: 'C0ALERTS',
        startsAt: expect.stringMatching(/^\d{4}-/),
      });
    }
    const api = done.find((r) => r.job.target.kind === 'pod' && r.job.target.name === 'api-7d9f8c6b5-x2k4q')!;
    expect(api.requesters[0]).toMatchObject({ alertname: 'KubePodCrashLooping', groupKey: '{}:{alertname="KubePodCrashLooping", namespace="shop"}' });
    const web = done.find((r) => r.job.target.kind === 'pod' && r.job.target.name === 'web-5f6b7c8d9-bbbbb')!;
    expect(web.requesters[0]).toMatchObject({ alertname: 'KubeDeploymentReplicasMismatch', workload: 'deployment/shop/web' });

    // Every webhook call came from Alertmanager with our bearer token.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const s of seen) {
      expect(s.authorization).toBe(`Bearer ${TOKEN}`);
      expect(s.userAgent).toMatch(/^Alertmanager\//);
      expect(s.status).toBe(200);
    }

    // One group per (alertname, namespace); the alert without a target is listed as such.
    let list = await events();
    const opened = list.filter((e) => e.type === 'group-opened');
    expect(opened.map((e) => e.groupKey).sort()).toEqual([
      '{}:{alertname="KubeCPUOvercommit"}',
      '{}:{alertname="KubeDeploymentReplicasMismatch", namespace="shop"}',
      '{}:{alertname="KubePodCrashLooping", namespace="shop"}',
    ]);
    const crashAdded = list.find((e) => e.type === 'alerts-added' && e.alerts.some((a) => a.alertname === 'KubePodCrashLooping'));
    expect(crashAdded?.groupId).toBe(api.requesters[0]?.kind === 'alert' ? api.requesters[0].groupId : 'missing');
    expect(crashAdded?.type === 'alerts-added' && crashAdded.alerts[0]).toMatchObject({
      target: { kind: 'pod', namespace: 'shop', name: 'api-7d9f8c6b5-x2k4q' },
      jobIds: [api.jobId],
    });
    const overcommit = list.find((e) => e.type === 'alerts-added' && e.notDiagnosable.length > 0);
    expect(overcommit?.type === 'alerts-added' && overcommit.notDiagnosable[0]).toMatchObject({
      alertname: 'KubeCPUOvercommit',
      reason: expect.stringMatching(/no target labels/),
    });
    expect(list.find((e) => e.type === 'targets-expanded')).toMatchObject({
      workload: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      unhealthy: 1,
      total: 2,
    });

    // Resolve: the same alerts again, ended a second ago.
    await postAlerts(alerts(new Date(Date.now() - 1000).toISOString()));
    list = await eventually(
      async () => {
        const l = await events();
        return l.filter((e) => e.type === 'group-resolved').length === 3 ? l : undefined;
      },
      30_000,
      200,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; webhook calls: ${JSON.stringify(seen)}\n${am?.log().slice(-3000) ?? ''}`);
    });
    const resolved = list.filter((e) => e.type === 'alerts-resolved');
    expect(resolved.flatMap((e) => (e.type === 'alerts-resolved' ? e.alerts.map((a) => a.alertname) : [])).sort()).toEqual([
      'KubeCPUOvercommit',
      'KubeDeploymentReplicasMismatch',
      'KubePodCrashLooping',
    ]);
    for (const e of resolved) if (e.type === 'alerts-resolved') expect(e.alerts.every((a) => a.status === 'resolved' && a.endsAt !== null)).toBe(true);
    expect(list.filter((e) => e.type === 'group-resolved').every((e) => e.summary.firing === 0)).toBe(true);
  });
});
