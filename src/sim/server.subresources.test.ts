// Subresources through client-node: status, scale, eviction, log.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { type Sim, startSim } from './server.js';
import { rawRequest, type SimClients, simClients, statusOf, testPod } from './testing.js';

const NOW = new Date('2026-11-21T10:00:00Z');
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

const running = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  ...testPod(name, 'shop', { nodeName: 'node-1', labels }),
  status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: {} } }] },
});

const fixtures: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
  running('web-1', { app: 'web' }),
  running('guarded', { app: 'guarded' }),
  running('fresh-pdb', { app: 'fresh' }),
  {
    ...testPod('crashy', 'shop', { nodeName: 'node-1' }),
    spec: {
      nodeName: 'node-1',
      containers: [
        { name: 'app', image: 'x' },
        { name: 'sidecar', image: 'y' },
      ],
      initContainers: [{ name: 'init', image: 'z' }],
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          restartCount: 3,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1, containerID: 'containerd://abc' } },
        },
        { name: 'sidecar', restartCount: 0, state: { running: {} } },
      ],
    },
  },
  { ...testPod('undefaulted', 'shop', { nodeName: 'node-1' }), status: { phase: 'Pending' } },
  {
    ...testPod('pulling', 'shop', { nodeName: 'node-1' }),
    status: { phase: 'Pending', containerStatuses: [{ name: 'app', state: { waiting: { reason: 'ImagePullBackOff' } } }] },
  },
  {
    apiVersion: 'pod-doctor.dev/v1',
    kind: 'PodLog',
    metadata: { namespace: 'shop', name: 'crashy' },
    container: 'app',
    previous: true,
    lines: ['starting', 'loading config', 'panic: boom', 'exit 1'],
  },
  { apiVersion: 'pod-doctor.dev/v1', kind: 'PodLog', metadata: { namespace: 'shop', name: 'crashy' }, container: 'app', lines: ['starting'] },
  { apiVersion: 'pod-doctor.dev/v1', kind: 'PodLog', metadata: { namespace: 'shop', name: 'web-1' }, lines: ['GET / 200', 'GET /health 200'] },
  {
    apiVersion: 'policy/v1beta1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'guarded', namespace: 'shop', generation: 1 },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', generation: 4 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'x' }] } },
    },
    status: { replicas: 3, readyReplicas: 3 },
  },
];

let sim: Sim;
let c: SimClients;

beforeAll(async () => {
  sim = await startSim({ objects: fixtures, now: () => NOW });
  c = simClients(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('status subresource', () => {
  it('ignores status in main-resource writes', async () => {
    const pod = await c.core.patchNamespacedPod(
      { name: 'web-1', namespace: 'shop', body: { metadata: { labels: { x: 'y' } }, status: { phase: 'Failed' } } },
      merge,
    );
    expect(pod.metadata?.labels).toMatchObject({ x: 'y' });
    expect(pod.status?.phase).toBe('Running');
  });

  it('ignores spec in status writes and merges conditions by type', async () => {
    await c.core.patchNamespacedPodStatus(
      {
        name: 'web-1',
        namespace: 'shop',
        body: { spec: { containers: [{ name: 'app', image: 'evil' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      },
      strategic,
    );
    const pod = await c.core.patchNamespacedPodStatus(
      {
        name: 'web-1',
        namespace: 'shop',
        body: {
          status: {
            conditions: [
              { type: 'Ready', status: 'False' },
              { type: 'PodScheduled', status: 'True' },
            ],
          },
        },
      },
      strategic,
    );
    expect(pod.spec?.containers[0]?.image).toBe('registry.example.com/app:1.0');
    expect(pod.status?.conditions?.map((x) => `${x.type}=${x.status}`)).toEqual(['Ready=False', 'PodScheduled=True']);
  });

  it('accepts a status patch of a fixture pod stored without API defaults', async () => {
    // Fixtures are loaded as written (no imagePullPolicy, terminationMessagePath...); a status
    // write keeps that spec and must not be refused as a spec change.
    const patched = await c.core.patchNamespacedPodStatus(
      {
        name: 'undefaulted',
        namespace: 'shop',
        body: {
          status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: {} } }] },
        },
      },
      merge,
    );
    expect(patched.status?.phase).toBe('Running');
    expect(patched.spec?.containers[0]?.imagePullPolicy).toBeUndefined();
  });

  it('replaces status with PUT on nodes and keeps it on a main PUT', async () => {
    const node = await c.core.readNode({ name: 'node-1' });
    const updated = await c.core.replaceNodeStatus({
      name: 'node-1',
      body: { ...node, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
    });
    expect(updated.spec?.unschedulable).toBeUndefined();
    expect(updated.status?.conditions?.[0]?.status).toBe('False');
    const main = await c.core.replaceNode({ name: 'node-1', body: { ...updated, spec: { unschedulable: true }, status: { conditions: [] } } });
    expect(main.spec?.unschedulable).toBe(true);
    expect(main.status?.conditions?.[0]?.status).toBe('False');
  });
});

describe('scale subresource', () => {
  it('reads an autoscaling/v1 Scale', async () => {
    const scale = await c.apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'shop' });
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { replicas: 3, selector: 'app=web' } });
  });

  it('patches and replaces replicas only, bumping generation', async () => {
    const patched = await c.apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'shop', body: { spec: { replicas: 5 } } }, merge);
    expect(patched.spec?.replicas).toBe(5);
    const dep = await c.apps.readNamespacedDeployment({ name: 'web', namespace: 'shop' });
    expect(dep.spec?.replicas).toBe(5);
    expect(dep.metadata?.generation).toBe(5);
    const replaced = await c.apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace: 'shop',
      body: { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 0 } },
    });
    expect(replaced.spec?.replicas).toBeUndefined(); // omitempty in autoscaling/v1
    expect((await c.apps.readNamespacedDeployment({ name: 'web', namespace: 'shop' })).spec?.replicas).toBe(0);
  });

  it.each([
    ['a stale resourceVersion', { metadata: { name: 'web', namespace: 'shop', resourceVersion: '1' }, spec: { replicas: 2 } }, 409],
    ['negative replicas', { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: -1 } }, 422],
  ])('rejects %s', async (_name, body, code) => {
    const err = await c.apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'shop', body }).catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(code);
    if (code === 422)
      expect(statusOf(err).message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });
});

describe('eviction', () => {
  const evict = (name: string) =>
    c.core.createNamespacedPodEviction({
      name,
      namespace: 'shop',
      body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace: 'shop' } },
    });

  it('deletes gracefully and answers 201 Success', async () => {
    const res = await rawRequest(sim, 'POST', '/api/v1/namespaces/shop/pods/web-1/eviction', {
      body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'web-1', namespace: 'shop' } },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = await c.core.readNamespacedPod({ name: 'web-1', namespace: 'shop' });
    expect(pod.metadata?.deletionTimestamp).toEqual(new Date('2026-11-21T10:00:30Z'));
  });

  it('is refused with 429 when the PodDisruptionBudget allows no disruption', async () => {
    const err = await evict('guarded').catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(429);
    expect(statusOf(err)).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget guarded needs 1 healthy pods and has 1 currently' }] },
    });
  });

  it('consumes an allowed disruption', async () => {
    const pdb = await rawRequest(sim, 'GET', '/apis/policy/v1/namespaces/shop/poddisruptionbudgets/guarded');
    await rawRequest(sim, 'PUT', '/apis/policy/v1/namespaces/shop/poddisruptionbudgets/guarded/status', {
      body: { ...(pdb.json as KubeObject), status: { ...((pdb.json as KubeObject).status ?? {}), disruptionsAllowed: 1 } },
    });
    await evict('guarded');
    const after = (await rawRequest(sim, 'GET', '/apis/policy/v1beta1/namespaces/shop/poddisruptionbudgets/guarded')).json as KubeObject;
    expect(after).toMatchObject({ apiVersion: 'policy/v1beta1', status: { disruptionsAllowed: 0, disruptedPods: { guarded: '2026-11-21T10:00:00Z' } } });
  });

  it('is refused while a new PodDisruptionBudget has not been processed', async () => {
    await rawRequest(sim, 'POST', '/apis/policy/v1/namespaces/shop/poddisruptionbudgets', {
      body: { metadata: { name: 'fresh' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'fresh' } } } },
    });
    const err = await evict('fresh-pdb').catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({
      code: 429,
      details: { causes: [{ message: 'The disruption budget fresh is still being processed by the server.' }] },
    });
  });

  it('refuses a policy/v1 Eviction as kube-apiserver 1.20 does (policy/v1 came in 1.22)', async () => {
    const res = await rawRequest(sim, 'POST', '/api/v1/namespaces/shop/pods/crashy/eviction', {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'crashy' } },
    });
    expect(res.json).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'Eviction in version "v1" cannot be handled as a Eviction: no kind "Eviction" is registered for version "policy/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    });
  });

  it('answers 400 when the body names another pod', async () => {
    const res = await rawRequest(sim, 'POST', '/api/v1/namespaces/shop/pods/crashy/eviction', {
      body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'other' } },
    });
    expect(res.json).toMatchObject({ code: 400, message: 'name in URL does not match name in Eviction object' });
  });
});

describe('log subresource', () => {
  const log = (req: { name: string; container?: string; previous?: boolean; tailLines?: number }) => c.core.readNamespacedPodLog({ namespace: 'shop', ...req });

  it('serves the previous container log with tailLines', async () => {
    expect(await log({ name: 'crashy', container: 'app', previous: true, tailLines: 2 })).toBe('panic: boom\nexit 1\n');
    expect(await log({ name: 'crashy', container: 'app' })).toBe('starting\n');
  });

  it('defaults to the only container', async () => {
    expect(await log({ name: 'web-1' })).toBe('GET / 200\nGET /health 200\n');
  });

  it.each([
    [{ name: 'crashy', container: 'nope' }, 'container nope is not valid for pod crashy'],
    [{ name: 'crashy' }, 'a container name must be specified for pod crashy, choose one of: [app sidecar] or one of the init containers: [init]'],
    [{ name: 'crashy', container: 'sidecar', previous: true }, 'previous terminated container "sidecar" in pod "crashy" not found'],
    [{ name: 'pulling', container: 'app' }, 'container "app" in pod "pulling" is waiting to start: trying and failing to pull image'],
  ])('answers 400 like the apiserver/kubelet for %j', async (req, message) => {
    const err = await log(req).catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(400);
    expect(statusOf(err)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
  });

  it('answers 204 for a pod that is not scheduled', async () => {
    await c.core.createNamespacedPod({ namespace: 'shop', body: testPod('unscheduled', 'shop') });
    const res = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/pods/unscheduled/log');
    expect(res.status).toBe(204);
  });

  it('does not serve PodLog documents as API objects', async () => {
    const res = await rawRequest(sim, 'GET', '/apis/pod-doctor.dev/v1');
    expect(res.status).toBe(404);
  });
});
