// The simulated API through the real @kubernetes/client-node: reads, lists, selectors,
// writes, Status bodies, discovery, authentication and metadata-only reads.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { type Sim, startSim } from './server.js';
import { rawRequest, type SimClients, simClients, statusOf, testPod } from './testing.js';

const NOW = new Date('2026-11-21T10:00:00Z');
let sim: Sim;
let c: SimClients;

const fixtures: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', uid: 'ns-shop' } },
  { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: { unschedulable: true } },
  { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' } },
  { ...testPod('web-1', 'shop', { labels: { app: 'web', tier: 'front' }, nodeName: 'node-1' }), status: { phase: 'Running' } },
  { ...testPod('web-2', 'shop', { labels: { app: 'web', tier: 'back' }, nodeName: 'node-2' }), status: { phase: 'Running' } },
  {
    ...testPod('db-1', 'shop', { labels: { app: 'db' }, nodeName: 'node-1' }),
    metadata: { name: 'db-1', namespace: 'shop', uid: 'uid-db-1', labels: { app: 'db' } },
    status: { phase: 'Pending' },
  },
  { ...testPod('job-1', 'batch', { nodeName: 'node-2' }), status: { phase: 'Succeeded' } },
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'db-1.1', namespace: 'shop' },
    involvedObject: { kind: 'Pod', name: 'db-1', namespace: 'shop', uid: 'uid-db-1' },
    reason: 'FailedScheduling',
    type: 'Warning',
  },
  {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-1.1', namespace: 'shop' },
    involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'other' },
    reason: 'Pulled',
    type: 'Normal',
  },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-password', namespace: 'shop' }, type: 'Opaque', data: { password: 'aHVudGVyMg==' } },
  {
    apiVersion: 'crd.projectcalico.org/v1',
    kind: 'WorkloadEndpoint',
    metadata: { name: 'node--1-k8s-web--1-eth0', namespace: 'shop' },
    spec: { pod: 'web-1', node: 'node-1' },
  },
];

beforeAll(async () => {
  sim = await startSim({ objects: fixtures, token: 'sekret', now: () => NOW });
  c = simClients(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('reads', () => {
  it('gets a fixture object unchanged, with its own uid', async () => {
    const pod = await c.core.readNamespacedPod({ name: 'db-1', namespace: 'shop' });
    expect(pod.metadata?.uid).toBe('uid-db-1');
    expect(pod.status?.phase).toBe('Pending');
  });

  it('creates the namespaces fixtures reference and the system ones', async () => {
    const names = (await c.core.listNamespace()).items.map((n) => n.metadata?.name);
    expect(names).toEqual(['batch', 'default', 'kube-node-lease', 'kube-public', 'kube-system', 'shop']);
  });

  it('answers 404 with the exact Status body', async () => {
    const err = await c.core.readNamespacedPod({ name: 'x', namespace: 'shop' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(k8s.ApiException);
    expect((err as k8s.ApiException<unknown>).code).toBe(404);
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    });
  });

  it('qualifies grouped resources in NotFound', async () => {
    const err = await c.apps.readNamespacedDeployment({ name: 'x', namespace: 'shop' }).catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({ message: 'deployments.apps "x" not found', details: { name: 'x', group: 'apps', kind: 'deployments' } });
  });
});

describe('lists and selectors', () => {
  const names = (l: { items: { metadata?: { name?: string } }[] }) => l.items.map((i) => i.metadata?.name);

  it.each([
    ['spec.nodeName=node-1', ['db-1', 'web-1']],
    ['status.phase=Running', ['web-1', 'web-2']],
    // Across namespaces the order is etcd's: namespace, then name.
    ['status.phase!=Running', ['job-1', 'db-1']],
    ['metadata.namespace=batch', ['job-1']],
    ['spec.nodeName=node-2,metadata.name=web-2', ['web-2']],
  ])('pods across namespaces with fieldSelector %s', async (fieldSelector, expected) => {
    expect(names(await c.core.listPodForAllNamespaces({ fieldSelector }))).toEqual(expected);
  });

  it.each([
    ['app=web', ['web-1', 'web-2']],
    ['app in (web,db),tier!=back', ['db-1', 'web-1']],
    ['app notin (web)', ['db-1']],
    ['tier', ['web-1', 'web-2']],
    ['!tier', ['db-1']],
  ])('namespaced pods with labelSelector %s', async (labelSelector, expected) => {
    expect(names(await c.core.listNamespacedPod({ namespace: 'shop', labelSelector }))).toEqual(expected);
  });

  it('finds events by involvedObject.uid', async () => {
    const list = await c.core.listNamespacedEvent({ namespace: 'shop', fieldSelector: 'involvedObject.uid=uid-db-1' });
    expect(list.items.map((e) => e.reason)).toEqual(['FailedScheduling']);
  });

  it('supports spec.unschedulable on nodes', async () => {
    expect(names(await c.core.listNode({ fieldSelector: 'spec.unschedulable=true' }))).toEqual(['node-1']);
    expect(names(await c.core.listNode({ fieldSelector: 'spec.unschedulable=false' }))).toEqual(['node-2']);
  });

  it('rejects an unsupported field label with 400 like the real server', async () => {
    const err = await c.core.listNamespacedPod({ namespace: 'shop', fieldSelector: 'spec.foo=bar' }).catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(400);
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'field label not supported: spec.foo',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('pages with limit/continue and reports the list resourceVersion', async () => {
    const first = await c.core.listNamespacedPod({ namespace: 'shop', limit: 2 });
    expect(names(first)).toEqual(['db-1', 'web-1']);
    expect(first.metadata?.remainingItemCount).toBe(1);
    expect(first.metadata?.resourceVersion).toBe(sim.store.resourceVersion);
    const second = await c.core.listNamespacedPod({ namespace: 'shop', limit: 2, _continue: first.metadata?._continue });
    expect(names(second)).toEqual(['web-2']);
    expect(second.metadata?._continue).toBeUndefined();
  });

  it('omits apiVersion/kind from typed list items but keeps them for custom resources', async () => {
    const pods = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/pods');
    expect((pods.json as { items: KubeObject[] }).items[0]?.kind).toBeUndefined();
    const weps = (await c.custom.listNamespacedCustomObject({
      group: 'crd.projectcalico.org',
      version: 'v1',
      namespace: 'shop',
      plural: 'workloadendpoints',
    })) as {
      items: KubeObject[];
    };
    expect(weps.items[0]).toMatchObject({ apiVersion: 'crd.projectcalico.org/v1', kind: 'WorkloadEndpoint', spec: { pod: 'web-1' } });
  });
});

describe('writes', () => {
  it('creates with defaults, generateName and server-owned metadata', async () => {
    const pod = await c.core.createNamespacedPod({
      namespace: 'shop',
      body: { metadata: { generateName: 'gen-', uid: 'ignored' }, spec: { containers: [{ name: 'app', image: 'app:1.0' }] } },
    });
    expect(pod.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod.metadata?.uid).not.toBe('ignored');
    expect(pod.metadata?.creationTimestamp).toEqual(NOW);
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(pod.spec?.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
  });

  it('answers 409 AlreadyExists', async () => {
    const err = await c.core.createNamespacedPod({ namespace: 'shop', body: testPod('web-1', 'shop') }).catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(409);
    expect(statusOf(err)).toMatchObject({ reason: 'AlreadyExists', message: 'pods "web-1" already exists', details: { name: 'web-1', kind: 'pods' } });
  });

  it('answers 422 Invalid for a missing name', async () => {
    const err = await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: {} } }).catch((e: unknown) => e);
    expect((err as k8s.ApiException<unknown>).code).toBe(422);
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      reason: 'Invalid',
      details: {
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }],
      },
      code: 422,
    });
  });

  it('answers 404 for a namespace that does not exist', async () => {
    const err = await c.core.createNamespacedConfigMap({ namespace: 'nope', body: { metadata: { name: 'x' } } }).catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({ code: 404, message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } });
  });

  it('answers 409 Conflict for a stale resourceVersion', async () => {
    const cm = await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'cfg' }, data: { a: '1' } } });
    await c.core.replaceNamespacedConfigMap({ name: 'cfg', namespace: 'shop', body: { ...cm, data: { a: '2' } } });
    const err = await c.core.replaceNamespacedConfigMap({ name: 'cfg', namespace: 'shop', body: { ...cm, data: { a: '3' } } }).catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('rejects changes to a pod spec other than images', async () => {
    const err = await c.core
      .patchNamespacedPod(
        { name: 'web-1', namespace: 'shop', body: { spec: { nodeName: 'node-2' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      )
      .catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(String(statusOf(err).message)).toContain('pod updates may not change fields other than `spec.containers[*].image`');
  });

  it('patches a custom resource with merge patch and refuses strategic merge (415)', async () => {
    const ref = { group: 'crd.projectcalico.org', version: 'v1', namespace: 'shop', plural: 'workloadendpoints', name: 'node--1-k8s-web--1-eth0' };
    const patched = (await c.custom.patchNamespacedCustomObject(
      { ...ref, body: { spec: { interfaceName: 'cali123' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as KubeObject;
    expect(patched.spec).toMatchObject({ pod: 'web-1', interfaceName: 'cali123' });
    expect(patched.metadata?.generation).toBe(2);
    const err = await c.custom
      .patchNamespacedCustomObject({ ...ref, body: { spec: {} } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch))
      .catch((e: unknown) => e);
    expect(statusOf(err)).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
    });
  });

  it('does not persist dryRun=All writes', async () => {
    const res = await rawRequest(sim, 'POST', '/api/v1/namespaces/shop/configmaps?dryRun=All', { body: { metadata: { name: 'dry' } } });
    expect(res.status).toBe(201);
    expect((await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/configmaps/dry')).status).toBe(404);
  });

  it('deletes a selected collection and answers with the objects as they were', async () => {
    for (const n of ['a', 'b'])
      await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: `bulk-${n}`, labels: { bulk: 'yes' } } } });
    const res = await c.core.deleteCollectionNamespacedConfigMap({ namespace: 'shop', labelSelector: 'bulk=yes' });
    expect(res).toBeDefined();
    expect((await c.core.listNamespacedConfigMap({ namespace: 'shop', labelSelector: 'bulk=yes' })).items).toHaveLength(0);
  });

  it('answers 405 for a method the route does not serve', async () => {
    const res = await rawRequest(sim, 'POST', '/api/v1/namespaces/shop/pods/web-1', { body: {} });
    expect(res.status).toBe(405);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });
});

describe('metadata-only reads', () => {
  const accept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

  it('returns PartialObjectMetadata for a secret, never its data', async () => {
    const res = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/secrets/db-password', { accept });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'db-password', namespace: 'shop' } });
    expect(res.text).not.toContain('aHVudGVyMg');
  });

  it('works through the typed client with an Accept header', async () => {
    const secret = await c.core.readNamespacedSecret({ name: 'db-password', namespace: 'shop' }, k8s.setHeaderOptions('Accept', accept));
    expect(secret.metadata?.name).toBe('db-password');
    expect(secret.data).toBeUndefined();
  });

  it('returns PartialObjectMetadataList for lists', async () => {
    const res = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/secrets', { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
    expect(res.json).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      items: [{ kind: 'PartialObjectMetadata', metadata: { name: 'db-password' } }],
    });
    expect(res.text).not.toContain('aHVudGVyMg');
  });

  it.each([
    ['labelSelector', 'a%3D-x', /^unable to parse requirement: invalid label value: "-x": at key: "a"/],
    ['fieldSelector', 'foo', /^invalid selector: 'foo'; can't understand 'foo'$/],
  ])("answers a %s it cannot parse with 400 BadRequest and the server's message", async (param, value, message) => {
    const res = await rawRequest(sim, 'GET', `/api/v1/namespaces/shop/pods?${param}=${value}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: expect.stringMatching(message) });
  });

  it('answers 406 when nothing acceptable is offered', async () => {
    const res = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/secrets/db-password', { accept: 'application/vnd.kubernetes.protobuf' });
    expect(res.status).toBe(406);
    expect(res.json).toMatchObject({ reason: 'NotAcceptable' });
  });
});

describe('server-side printing', () => {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

  it('answers kubectl get with a Table of the pod columns', async () => {
    const res = await rawRequest(sim, 'GET', '/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb', { accept });
    const table = res.json as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: KubeObject }[] };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((col) => col.name).slice(0, 5)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age']);
    expect(table.rows.map((r) => r.cells.slice(0, 4))).toEqual([
      ['web-1', '0/1', 'Running', 0],
      ['web-2', '0/1', 'Running', 0],
    ]);
    expect(table.rows[0]?.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'web-1' } });
  });

  it('marks unschedulable nodes', async () => {
    const res = await rawRequest(sim, 'GET', '/api/v1/nodes/node-1', { accept });
    expect((res.json as { rows: { cells: unknown[] }[] }).rows[0]?.cells.slice(0, 3)).toEqual(['node-1', 'Unknown,SchedulingDisabled', '<none>']);
  });
});

describe('discovery and the generic object API', () => {
  it('serves /version, /api and group discovery', async () => {
    expect((await rawRequest(sim, 'GET', '/version')).json).toMatchObject({ major: '1', minor: '20' });
    expect((await rawRequest(sim, 'GET', '/api')).json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await rawRequest(sim, 'GET', '/apis')).json as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).toEqual([
      'apps',
      'batch',
      'coordination.k8s.io',
      'policy',
      'autoscaling',
      'networking.k8s.io',
      'rbac.authorization.k8s.io',
      'storage.k8s.io',
      'admissionregistration.k8s.io',
      'crd.projectcalico.org',
    ]);
    const core = (await rawRequest(sim, 'GET', '/api/v1')).json as { resources: { name: string; namespaced: boolean; kind: string; verbs: string[] }[] };
    expect(core.resources.find((r) => r.name === 'pods')).toMatchObject({
      namespaced: true,
      kind: 'Pod',
      verbs: expect.arrayContaining(['get', 'list', 'watch']),
    });
    expect(core.resources.find((r) => r.name === 'pods/eviction')).toMatchObject({ kind: 'Eviction', verbs: ['create'] });
    expect(core.resources.find((r) => r.name === 'nodes')).toMatchObject({ namespaced: false });
    const apps = (await rawRequest(sim, 'GET', '/apis/apps/v1')).json as { resources: { name: string; kind: string }[] };
    expect(apps.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({ kind: 'Scale' });
  });

  it('lets KubernetesObjectApi resolve kinds through discovery', async () => {
    const node = await c.objects.read({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' } });
    expect(node.metadata?.name).toBe('node-2');
    const list = await c.objects.list('crd.projectcalico.org/v1', 'WorkloadEndpoint', 'shop');
    expect(list.items).toHaveLength(1);
  });
});

describe('authentication', () => {
  it.each([
    ['a missing token', null],
    ['a wrong token', 'nope'],
  ])('answers 401 Unauthorized for %s', async (_name, token) => {
    const res = await rawRequest(sim, 'GET', '/api/v1/pods', { token });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('writes a kubeconfig kubectl and client-node accept', async () => {
    expect(sim.kubeconfig()).toContain(`server: ${sim.url}`);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    expect(kc.getCurrentUser()?.token).toBe('sekret');
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('default');
  });
});
