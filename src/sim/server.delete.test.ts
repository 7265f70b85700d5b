// Deletion semantics through client-node: graceful pod deletion, finalizers, the three patch
// types removing finalizers, preconditions, propagation finalizers, namespace termination.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { type Sim, startSim } from './server.js';
import { rawRequest, type SimClients, simClients, statusOf, testPod } from './testing.js';

const NOW = new Date('2026-11-21T10:00:00Z');
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

let sim: Sim;
let c: SimClients;

beforeAll(async () => {
  sim = await startSim({ objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }], now: () => NOW });
  c = simClients(sim);
});

afterAll(async () => {
  await sim.close();
});

const create = (body: k8s.V1Pod) => c.core.createNamespacedPod({ namespace: 'shop', body });
const read = (name: string) => c.core.readNamespacedPod({ name, namespace: 'shop' });
const gone = async (name: string) => (await read(name).catch((e: k8s.ApiException<unknown>) => e.code)) === 404;

describe('pod deletion', () => {
  it('keeps a bound pod with deletionTimestamp = now + grace until the kubelet (or a force delete) removes it', async () => {
    await create(testPod('bound', 'shop', { nodeName: 'node-1' }));
    const res = await c.core.deleteNamespacedPod({ name: 'bound', namespace: 'shop' });
    expect(res.metadata?.deletionTimestamp).toEqual(new Date('2026-11-21T10:00:30Z'));
    expect(res.metadata?.deletionGracePeriodSeconds).toBe(30);
    // A second delete with no shorter grace changes nothing.
    const again = await c.core.deleteNamespacedPod({ name: 'bound', namespace: 'shop' });
    expect(again.metadata?.resourceVersion).toBe(res.metadata?.resourceVersion);
    expect(await gone('bound')).toBe(false);
    await c.core.deleteNamespacedPod({ name: 'bound', namespace: 'shop', gracePeriodSeconds: 0 });
    expect(await gone('bound')).toBe(true);
  });

  it.each([
    ['an unscheduled pod', testPod('unbound', 'shop'), undefined],
    ['a terminated pod', testPod('done', 'shop', { nodeName: 'node-1' }), 'Succeeded'],
  ])('removes %s at once', async (_name, body, phase) => {
    const name = body.metadata?.name ?? '';
    await create(body);
    if (phase) await c.core.patchNamespacedPodStatus({ name, namespace: 'shop', body: { status: { phase } } }, merge);
    await c.core.deleteNamespacedPod({ name, namespace: 'shop' });
    expect(await gone(name)).toBe(true);
  });

  it('honours gracePeriodSeconds from a DeleteOptions body', async () => {
    await create(testPod('body-grace', 'shop', { nodeName: 'node-1' }));
    const res = await c.core.deleteNamespacedPod({ name: 'body-grace', namespace: 'shop', body: { gracePeriodSeconds: 5 } });
    expect(res.metadata?.deletionGracePeriodSeconds).toBe(5);
  });

  it('answers 409 when preconditions.uid does not match', async () => {
    await create(testPod('precond', 'shop'));
    const err = await c.core.deleteNamespacedPod({ name: 'precond', namespace: 'shop', body: { preconditions: { uid: 'not-it' } } }).catch((e: unknown) => e);
    const pod = await read('precond');
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Operation cannot be fulfilled on Pod "precond": the UID in the precondition (not-it) does not match the UID in record (${pod.metadata?.uid}). The object might have been deleted and then recreated`,
      reason: 'Conflict',
      details: { name: 'precond', kind: 'Pod' },
      code: 409,
    });
  });
});

describe('finalizers', () => {
  const fin = ['example.com/cleanup', 'example.com/other'];

  it('keep a deleted pod with deletionTimestamp set', async () => {
    await create(testPod('held', 'shop', { finalizers: fin }));
    await c.core.deleteNamespacedPod({ name: 'held', namespace: 'shop' });
    const pod = await read('held');
    expect(pod.metadata?.deletionTimestamp).toEqual(NOW);
    expect(pod.metadata?.finalizers).toEqual(fin);
  });

  it.each([
    ['a merge patch setting finalizers: null', { metadata: { finalizers: null } }, merge],
    ['a merge patch setting finalizers: []', { metadata: { finalizers: [] } }, merge],
    ['a strategic $deleteFromPrimitiveList', { metadata: { '$deleteFromPrimitiveList/finalizers': fin } }, strategic],
    ['a strategic finalizers: null', { metadata: { finalizers: null } }, strategic],
    [
      'a JSON patch (client-node default content type)',
      [
        { op: 'test', path: '/metadata/finalizers/0', value: fin[0] },
        { op: 'remove', path: '/metadata/finalizers' },
      ],
      undefined,
    ],
  ])('are removed by %s, which completes the deletion', async (name, body, options) => {
    const pod = `fin-${name
      .replace(/[^a-z]+/g, '-')
      .slice(0, 40)
      .replace(/-$/, '')}`;
    await create(testPod(pod, 'shop', { finalizers: fin }));
    await c.core.deleteNamespacedPod({ name: pod, namespace: 'shop' });
    const patched = await c.core.patchNamespacedPod({ name: pod, namespace: 'shop', body }, options);
    expect(patched.metadata?.finalizers).toBeUndefined();
    expect(await gone(pod)).toBe(true);
  });

  it('are not cleared by a strategic patch with finalizers: [] (a set merge of nothing)', async () => {
    await create(testPod('smp-empty', 'shop', { finalizers: fin }));
    const patched = await c.core.patchNamespacedPod({ name: 'smp-empty', namespace: 'shop', body: { metadata: { finalizers: [] } } }, strategic);
    expect(patched.metadata?.finalizers).toEqual(fin);
  });

  it('answer 422 for a JSON patch removing a path that does not exist, or a failed test', async () => {
    await create(testPod('jp', 'shop'));
    for (const body of [[{ op: 'remove', path: '/metadata/finalizers' }], [{ op: 'test', path: '/metadata/name', value: 'other' }]]) {
      const err = await c.core.patchNamespacedPod({ name: 'jp', namespace: 'shop', body }).catch((e: unknown) => e);
      expect((err as k8s.ApiException<unknown>).code).toBe(422);
      expect(statusOf(err)).toMatchObject({ reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    }
  });

  it('on a bound pod wait for the grace period after the last one goes', async () => {
    await create(testPod('bound-fin', 'shop', { nodeName: 'node-1', finalizers: fin }));
    await c.core.deleteNamespacedPod({ name: 'bound-fin', namespace: 'shop' });
    await c.core.patchNamespacedPod({ name: 'bound-fin', namespace: 'shop', body: { metadata: { finalizers: null } } }, merge);
    expect((await read('bound-fin')).metadata?.deletionGracePeriodSeconds).toBe(30);
    await c.core.deleteNamespacedPod({ name: 'bound-fin', namespace: 'shop', gracePeriodSeconds: 0 });
    expect(await gone('bound-fin')).toBe(true);
  });

  it('keep a force-deleted pod until they are gone', async () => {
    await create(testPod('forced', 'shop', { nodeName: 'node-1', finalizers: ['example.com/x'] }));
    await c.core.deleteNamespacedPod({ name: 'forced', namespace: 'shop', gracePeriodSeconds: 0 });
    expect((await read('forced')).metadata?.deletionGracePeriodSeconds).toBe(0);
    await c.core.patchNamespacedPod({ name: 'forced', namespace: 'shop', body: [{ op: 'remove', path: '/metadata/finalizers/0' }] });
    expect(await gone('forced')).toBe(true);
  });
});

describe('other objects', () => {
  it('are removed at once and answered with a Success Status', async () => {
    const cm = await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'plain' } } });
    const res = await rawRequest(sim, 'DELETE', '/api/v1/namespaces/shop/configmaps/plain');
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'plain', kind: 'configmaps', uid: cm.metadata?.uid },
    });
  });

  it.each([
    ['Foreground', 'foregroundDeletion'],
    ['Orphan', 'orphan'],
  ])('get the %s propagation finalizer and stay', async (policy, finalizer) => {
    const name = `prop-${policy.toLowerCase()}`;
    await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name } } });
    const res = (await rawRequest(sim, 'DELETE', `/api/v1/namespaces/shop/configmaps/${name}?propagationPolicy=${policy}`)).json as KubeObject;
    expect(res.metadata).toMatchObject({ finalizers: [finalizer], deletionGracePeriodSeconds: 0, deletionTimestamp: '2026-11-21T10:00:00Z' });
  });

  it('reject an unknown propagationPolicy with 422', async () => {
    await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'bogus' } } });
    const res = await rawRequest(sim, 'DELETE', '/api/v1/namespaces/shop/configmaps/bogus', { body: { propagationPolicy: 'Bogus' } });
    expect(res.status).toBe(422);
    expect((res.json as { message: string }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });
});

describe('namespace termination', () => {
  it('goes Terminating, forbids new content, and disappears when finalized', async () => {
    await c.core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await c.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'left' } } });
    // client-node types this response as V1Status; the server answers with the namespace.
    const deleted = await rawRequest(sim, 'DELETE', '/api/v1/namespaces/doomed');
    expect(deleted.json).toMatchObject({ kind: 'Namespace', status: { phase: 'Terminating' }, spec: { finalizers: ['kubernetes'] } });
    expect((await c.core.readNamespace({ name: 'doomed' })).metadata?.deletionTimestamp).toEqual(NOW);

    const err = await c.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'new' } } }).catch((e: unknown) => e);
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "new" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      reason: 'Forbidden',
      details: {
        name: 'new',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }],
      },
      code: 403,
    });

    // Deleting again (kubectl delete ns on a stuck namespace) just answers with it.
    expect((await rawRequest(sim, 'DELETE', '/api/v1/namespaces/doomed')).json).toMatchObject({ status: { phase: 'Terminating' } });
    // spec.finalizers only change through the finalize subresource.
    await c.core.patchNamespace({ name: 'doomed', body: { spec: { finalizers: [] } } }, merge);
    expect((await c.core.readNamespace({ name: 'doomed' })).spec?.finalizers).toEqual(['kubernetes']);

    const ns = await c.core.readNamespace({ name: 'doomed' });
    await c.core.replaceNamespaceFinalize({ name: 'doomed', body: { ...ns, spec: { finalizers: [] } } });
    const after = await c.core.readNamespace({ name: 'doomed' }).catch((e: k8s.ApiException<unknown>) => e.code);
    expect(after).toBe(404);
  });
});

describe('namespace controller (opt-in)', () => {
  let ctl: Sim;
  let cc: SimClients;

  beforeAll(async () => {
    ctl = await startSim({ objects: [], now: () => NOW, namespaceController: true });
    cc = simClients(ctl);
  });

  afterAll(async () => {
    await ctl.close();
  });

  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 100; i += 1) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('condition not reached');
  };

  it('deletes content, reports what remains, and finalizes once empty', async () => {
    await cc.core.createNamespace({ body: { metadata: { name: 'team' } } });
    await cc.core.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { name: 'cfg' } } });
    await cc.core.createNamespacedPod({ namespace: 'team', body: testPod('stuck', 'team', { finalizers: ['example.com/hold'] }) });
    await cc.core.deleteNamespace({ name: 'team' });

    const ns = await until(
      () => cc.core.readNamespace({ name: 'team' }),
      (n) => (n.status?.conditions ?? []).some((x) => x.type === 'NamespaceFinalizersRemaining' && x.status === 'True'),
    );
    const byType = Object.fromEntries((ns.status?.conditions ?? []).map((x) => [x.type, x]));
    expect(byType.NamespaceContentRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect((await cc.core.listNamespacedConfigMap({ namespace: 'team' })).items).toHaveLength(0);

    await cc.core.patchNamespacedPod({ name: 'stuck', namespace: 'team', body: { metadata: { finalizers: null } } }, merge);
    const code = await until(
      () =>
        cc.core.readNamespace({ name: 'team' }).then(
          () => 200,
          (e: k8s.ApiException<unknown>) => e.code,
        ),
      (v) => v === 404,
    );
    expect(code).toBe(404);
  });
});
