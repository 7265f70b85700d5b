// Smoke test of the envtest harness: the real 1.20 control plane produces the behaviour the
// integration suite relies on. Messages are printed so the exact 1.20 wording is on record.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../src/collect/kube-source.js';
import { type ControlPlane, findBinaries, KubeClient, type KubeObject, sleep, startControlPlane } from './harness.js';
import { KubeletStandIn, podPath } from './kubelet-standin.js';

const bins = findBinaries();
const missing = 'missing' in bins ? bins.missing : undefined;
if (missing) console.warn(`[envtest] SKIPPED: control-plane binaries absent (${missing})`);

const NS = 'smoke';
const log = (label: string, value: unknown) => console.log(`[envtest] ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

function pod(name: string, extra: { spec?: Record<string, unknown>; metadata?: Record<string, unknown> } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...extra.metadata },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], terminationGracePeriodSeconds: 30, ...extra.spec },
  };
}

async function eventsFor(client: KubeClient, namespace: string, name: string, kind = 'Pod'): Promise<KubeObject[]> {
  const list = await client.list(`/api/v1/namespaces/${namespace}/events`, {
    fieldSelector: `involvedObject.name=${name},involvedObject.kind=${kind}`,
  });
  return list.items;
}

async function waitEvent(
  client: KubeClient,
  namespace: string,
  name: string,
  match: (e: KubeObject) => boolean,
  kind = 'Pod',
  timeoutMs = 30_000,
): Promise<KubeObject> {
  const events = await client.waitFor(
    `event for ${kind} ${namespace}/${name}`,
    () => eventsFor(client, namespace, name, kind),
    (es) => es.some(match),
    {
      timeoutMs,
      intervalMs: 300,
    },
  );
  return events.find(match)!;
}

describe.skipIf(missing !== undefined)('envtest smoke: real kube-apiserver, scheduler and controller-manager', () => {
  let cp: ControlPlane;
  let kubelet: KubeletStandIn;

  beforeAll(async () => {
    cp = await startControlPlane({ users: [{ name: 'no-bindings' }], serviceAccounts: [{ namespace: 'pod-doctor', name: 'diagnose' }] });
    log('control plane started in ms', cp.startMs);
    log('start-up phases (ms)', cp.timings);
    kubelet = KubeletStandIn.for(cp);
    await cp.createNamespace(NS);
  });

  afterAll(async () => {
    if (kubelet?.errors.length) log('kubelet stand-in background errors', kubelet.errors);
    await cp?.stop();
  });

  it('serves Kubernetes v1.20 and the admin kubeconfig works with the product client', async () => {
    const version = await cp.client.get('/version');
    log('server version', version.gitVersion);
    expect(version.gitVersion).toMatch(/^v1\.20\./);
    const core = loadKubeConfig({ kubeconfig: cp.kubeconfigPath }).makeApiClient(k8s.CoreV1Api);
    const namespaces = await core.listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain(NS);
  });

  it('authenticates tokens and enforces RBAC for users and service-account-shaped users', async () => {
    expect((await cp.client.request('GET', '/api/v1/pods')).status).toBe(200);
    expect(await statusAs(cp, 'not-a-token')).toBe(401);
    const denied = await cp.clientFor('no-bindings').request('GET', '/api/v1/pods');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    log('Forbidden message', denied.body.message);
    // The product's client with a per-user kubeconfig: forbidden until RBAC grants it.
    const sa = 'system:serviceaccount:pod-doctor:diagnose';
    const core = loadKubeConfig({ kubeconfig: cp.kubeconfigFor(sa) }).makeApiClient(k8s.CoreV1Api);
    await expect(core.listPodForAllNamespaces()).rejects.toMatchObject({ code: 403 });
    await cp.client.create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'diagnose-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', namespace: 'pod-doctor', name: 'diagnose' }],
    });
    await cp.client.waitFor(
      'RBAC binding effective',
      () => core.listPodForAllNamespaces().then(() => true),
      (ok) => ok,
      { timeoutMs: 10_000 },
    );
  });

  it('handles server-side apply (the patched vendored reflect2 does not crash)', async () => {
    const cm = await cp.client.patch(
      `/api/v1/namespaces/${NS}/configmaps/applied`,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: NS }, data: { a: '1' } },
      'apply',
      { fieldManager: 'envtest' },
    );
    expect(cm.data).toEqual({ a: '1' });
    expect(cm.metadata?.managedFields?.[0]?.manager).toBe('envtest');
  });

  it('the scheduler writes FailedScheduling when there are no nodes', async () => {
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, pod('nowhere', { spec: { nodeSelector: { 'pod-doctor.test/pool': 'nobody-has-this' } } }));
    const ev = await waitEvent(cp.client, NS, 'nowhere', (e) => e.reason === 'FailedScheduling');
    log('FailedScheduling (no nodes)', ev.message);
    log('FailedScheduling event source', {
      source: ev.source,
      reportingComponent: ev.reportingComponent,
      reportingInstance: ev.reportingInstance,
      type: ev.type,
    });
    expect(ev.type).toBe('Warning');
    // The scheduler records the event and updates the pod condition separately: either may land first.
    const p = await cp.client.waitFor(
      'pod nowhere PodScheduled condition',
      () => cp.client.get(podPath(NS, 'nowhere')),
      (x) => (x.status?.conditions ?? []).some((c: any) => c.type === 'PodScheduled'),
    );
    const cond = p.status.conditions.find((c: any) => c.type === 'PodScheduled');
    log('PodScheduled condition (no nodes)', cond);
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable' });
  });

  it('the controller-manager turns a Deployment into a ReplicaSet and Pods', async () => {
    await cp.client.create(`/apis/apps/v1/namespaces/${NS}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: NS },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
      },
    });
    const rsList = await cp.client.waitFor(
      'ReplicaSet owned by deployment web',
      () => cp.client.list(`/apis/apps/v1/namespaces/${NS}/replicasets`, { labelSelector: 'app=web' }),
      (l) => l.items.length === 1,
    );
    const rs = rsList.items[0]!;
    expect(rs.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true });
    const pods = await cp.client.waitFor(
      'two pods owned by the ReplicaSet',
      () => cp.client.list(`/api/v1/namespaces/${NS}/pods`, { labelSelector: 'app=web' }),
      (l) => l.items.length === 2,
    );
    for (const p of pods.items) expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs.metadata?.name });
    log('owner chain', `Deployment web -> ReplicaSet ${rs.metadata?.name} -> Pods ${pods.items.map((p) => p.metadata?.name).join(', ')}`);
  });

  it('stand-in nodes register, lose the not-ready taint, and get pods scheduled', async () => {
    const a = await kubelet.registerNode({ name: 'node-a', labels: { 'pod-doctor.test/pool': 'a' } });
    await kubelet.registerNode({ name: 'node-b', labels: { 'pod-doctor.test/pool': 'b' } });
    expect(a.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');
    const pods = await cp.client.waitFor(
      'deployment pods bound to nodes',
      () => cp.client.list(`/api/v1/namespaces/${NS}/pods`, { labelSelector: 'app=web' }),
      (l) => l.items.length === 2 && l.items.every((p) => p.spec?.nodeName),
    );
    const first = pods.items[0]!;
    const scheduled = await waitEvent(cp.client, NS, first.metadata?.name, (e) => e.reason === 'Scheduled');
    log('Scheduled', scheduled.message);
    expect(scheduled.message).toContain(`${NS}/${first.metadata?.name} to node-`);
  });

  it('the scheduler explains a nodeSelector nobody matches', async () => {
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, pod('unmatched', { spec: { nodeSelector: { 'pod-doctor.test/pool': 'nobody-has-this' } } }));
    const ev = await waitEvent(cp.client, NS, 'unmatched', (e) => e.reason === 'FailedScheduling');
    log('FailedScheduling (nodeSelector, 2 nodes)', ev.message);
    expect(ev.message).toMatch(/^0\/2 nodes are available: 2 node\(s\) didn't match/);
    // 1.20's events.k8s.io recorder keys a series on (action, reason, controller, object), not the
    // note: the older pod's retry bumps the first event's series and keeps its old message, while
    // the PodScheduled condition carries the current reason.
    const nowhere = await cp.client.waitFor(
      'pod nowhere PodScheduled condition updated',
      () => cp.client.get(podPath(NS, 'nowhere')),
      (p) => /^0\/2 nodes/.test(p.status.conditions.find((c: any) => c.type === 'PodScheduled')?.message ?? ''),
      { timeoutMs: 70_000, intervalMs: 500 },
    );
    log(
      'PodScheduled condition (retried pod)',
      nowhere.status.conditions.find((c: any) => c.type === 'PodScheduled'),
    );
    const events = (await eventsFor(cp.client, NS, 'nowhere')).filter((e) => e.reason === 'FailedScheduling');
    log(
      'FailedScheduling events of the retried pod',
      events.map((e) => ({ message: e.message, series: e.series })),
    );
  });

  it('the kubelet stand-in writes Running, ImagePullBackOff and CrashLoopBackOff(OOMKilled) with events', async () => {
    const onA = { nodeSelector: { 'pod-doctor.test/pool': 'a' } };
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, pod('running', { spec: onA }));
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, pod('pull', { spec: { ...onA, containers: [{ name: 'api', image: 'ghcr.io/acme/api:v9' }] } }));
    await cp.client.create(`/api/v1/namespaces/${NS}/pods`, pod('oom', { spec: { ...onA, containers: [{ name: 'api', image: 'acme/api:1.0' }] } }));

    const running = await kubelet.podRunning(NS, 'running');
    expect(running.status.phase).toBe('Running');
    expect(running.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');

    const pull = await kubelet.podImagePullBackOff(NS, 'pull');
    const waiting = pull.status.containerStatuses[0].state.waiting;
    log('ImagePullBackOff waiting', waiting);
    expect(waiting.reason).toBe('ImagePullBackOff');
    expect(waiting.message).toContain('Back-off pulling image "ghcr.io/acme/api:v9"');
    const pullEvents = await eventsFor(cp.client, NS, 'pull');
    expect(pullEvents.map((e) => `${e.reason}: ${e.message}`)).toContain('Failed: Error: ImagePullBackOff');
    const kubeletEvents = pullEvents.filter((e) => e.reason !== 'Scheduled');
    expect(kubeletEvents.map((e) => e.reason)).toEqual(['Pulling', 'Failed', 'Failed', 'BackOff', 'Failed']);
    expect(kubeletEvents.every((e) => e.source?.component === 'kubelet' && e.source?.host === 'node-a')).toBe(true);

    const oom = await kubelet.podCrashLoopOOMKilled(NS, 'oom', { restartCount: 6 });
    const cs = oom.status.containerStatuses[0];
    log('CrashLoopBackOff status', { state: cs.state, lastState: cs.lastState, restartCount: cs.restartCount });
    expect(cs.state.waiting.reason).toBe('CrashLoopBackOff');
    expect(cs.state.waiting.message).toMatch(/^back-off 5m0s restarting failed container=api pod=oom_smoke\(/);
    expect(cs.lastState.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    const backoff = (await eventsFor(cp.client, NS, 'oom')).find((e) => e.reason === 'BackOff');
    expect(backoff).toMatchObject({ type: 'Warning', count: 18, involvedObject: { fieldPath: 'spec.containers{api}' } });
  });

  it('a node whose heartbeat stops goes Unknown, gets the unreachable taints, and its tolerating pod is evicted but stays Terminating', async () => {
    await cp.client.create(
      `/api/v1/namespaces/${NS}/pods`,
      pod('lost', {
        spec: {
          nodeSelector: { 'pod-doctor.test/pool': 'b' },
          tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }],
        },
      }),
    );
    await kubelet.podRunning(NS, 'lost');
    const stoppedAt = Date.now();
    kubelet.stopHeartbeat('node-b');

    const node = await cp.client.waitFor(
      'node-b Ready=Unknown with unreachable taints',
      () => cp.client.get('/api/v1/nodes/node-b'),
      (n) =>
        n.status.conditions.find((c: any) => c.type === 'Ready')?.status === 'Unknown' &&
        ['NoSchedule', 'NoExecute'].every((eff) => (n.spec.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/unreachable' && t.effect === eff)),
      { timeoutMs: 40_000, intervalMs: 500 },
    );
    log('seconds from last heartbeat to unreachable taints', ((Date.now() - stoppedAt) / 1000).toFixed(1));
    log(
      'node-b conditions',
      node.status.conditions.map((c: any) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message })),
    );
    log('node-b taints', node.spec.taints);
    for (const c of node.status.conditions)
      expect(c).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });

    const evicted = await cp.client.waitFor(
      'pod lost marked for deletion',
      () => cp.client.get(podPath(NS, 'lost')),
      (p) => Boolean(p.metadata?.deletionTimestamp),
      {
        timeoutMs: 40_000,
        intervalMs: 500,
      },
    );
    const podEvents = await eventsFor(cp.client, NS, 'lost');
    log(
      'events on pod lost',
      podEvents.map((e) => `${e.type} ${e.reason} [${e.source?.component ?? ''}] ${e.message}`),
    );
    const nodeEvents = await eventsFor(cp.client, 'default', 'node-b', 'Node');
    log(
      'events on node-b',
      nodeEvents.map((e) => `${e.type} ${e.reason} [${e.source?.component ?? ''}] ${e.message}`),
    );
    log(
      'pod lost Ready condition',
      evicted.status.conditions.find((c: any) => c.type === 'Ready'),
    );
    await sleep(3000);
    const still = await cp.client.get(podPath(NS, 'lost'));
    expect(still.metadata.deletionTimestamp).toBeTruthy();
    expect(podEvents.some((e) => e.reason === 'TaintManagerEviction')).toBe(true);
  });

  it('a pod with a finalizer stays with a deletionTimestamp after delete', async () => {
    await cp.client.create(
      `/api/v1/namespaces/${NS}/pods`,
      pod('held', { metadata: { finalizers: ['pod-doctor.test/hold'] }, spec: { nodeSelector: { 'pod-doctor.test/pool': 'a' } } }),
    );
    await kubelet.podRunning(NS, 'held');
    await cp.client.delete(podPath(NS, 'held'));
    await sleep(4000); // two stand-in ticks: the kubelet has confirmed the deletion by now
    const held = await cp.client.get(podPath(NS, 'held'));
    log('held pod metadata', {
      deletionTimestamp: held.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: held.metadata.deletionGracePeriodSeconds,
      finalizers: held.metadata.finalizers,
    });
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    expect(held.metadata.finalizers).toEqual(['pod-doctor.test/hold']);
  });

  it('deleting the namespace leaves it Terminating while content remains', async () => {
    await cp.client.delete(`/api/v1/namespaces/${NS}`);
    const ns = await cp.client.waitFor(
      'namespace Terminating with conditions',
      () => cp.client.get(`/api/v1/namespaces/${NS}`),
      (n) => n.status?.phase === 'Terminating' && (n.status?.conditions ?? []).some((c: any) => c.status === 'True'),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    log('namespace status', ns.status);
    expect(ns.metadata.deletionTimestamp).toBeTruthy();
    // Pods on the live node are gone (the stand-in confirms deletions); the finalizer-held one
    // and the one on the lost node stay.
    await sleep(5000);
    const left = await cp.client.list(`/api/v1/namespaces/${NS}/pods`);
    log(
      'pods left in the Terminating namespace',
      left.items.map((p) => ({
        name: p.metadata?.name,
        node: p.spec?.nodeName,
        phase: p.status?.phase,
        deletionTimestamp: p.metadata?.deletionTimestamp,
        finalizers: p.metadata?.finalizers,
      })),
    );
    expect(left.items.map((p) => p.metadata?.name)).toEqual(expect.arrayContaining(['held', 'lost']));
    expect(left.items.every((p) => p.metadata?.deletionTimestamp && (p.spec?.nodeName === 'node-b' || p.metadata?.finalizers?.length))).toBe(true);
  });
});

async function statusAs(cp: ControlPlane, token: string): Promise<number> {
  const c = new KubeClient(cp.url, token, cp.caPem);
  try {
    return (await c.request('GET', '/api/v1/pods')).status;
  } finally {
    c.close();
  }
}
