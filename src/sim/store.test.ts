import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import type { KubeObject } from '../diagnosis/types.js';
import { ResourceTable } from './resources.js';
import { ApiError } from './status.js';
import { type Change, ObjectStore } from './store.js';

const table = new ResourceTable();
const pods = table.lookup('', 'v1', 'pods')!;
const deployments = table.lookup('apps', 'v1', 'deployments')!;
const events = table.lookup('', 'v1', 'events')!;

const NOW = new Date('2026-11-21T10:00:00Z');
const newStore = (historyLimit?: number) => new ObjectStore({ now: () => NOW, table, ...(historyLimit ? { historyLimit } : {}) });
const pod = (name: string, nodeName?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop' },
  spec: nodeName ? { nodeName } : {},
});

describe('ObjectStore', () => {
  it('assigns uid, creationTimestamp and a growing global resourceVersion', () => {
    const store = newStore();
    const a = store.create(pods, pod('a'));
    const b = store.create(deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'shop' }, spec: {} });
    expect(a.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata?.creationTimestamp).toBe('2026-11-21T10:00:00Z');
    expect(Number(b.metadata?.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
    expect(store.resourceVersion).toBe(b.metadata?.resourceVersion);
  });

  it('keeps fixture metadata on load and continues after the highest resourceVersion', () => {
    const store = newStore();
    const loaded = store.load(pods, { ...pod('a'), metadata: { name: 'a', namespace: 'shop', uid: 'u-1', resourceVersion: '900' } });
    expect(loaded.metadata).toMatchObject({ uid: 'u-1', resourceVersion: '900' });
    expect(store.create(pods, pod('b')).metadata?.resourceVersion).toBe('901');
  });

  it('derives a stable uid for fixtures without one', () => {
    expect(newStore().load(pods, pod('a')).metadata?.uid).toBe(newStore().load(pods, pod('a')).metadata?.uid);
  });

  it('bumps metadata.generation only when the spec changes', () => {
    const store = newStore();
    const d = store.create(deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'shop' }, spec: { replicas: 1 } });
    expect(d.metadata?.generation).toBe(1);
    const labelled = store.update(deployments, { ...d, metadata: { ...d.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.generation).toBe(1);
    const scaled = store.update(deployments, { ...labelled, spec: { replicas: 3 } });
    expect(scaled.metadata?.generation).toBe(2);
  });

  it('lists in namespace/name order', () => {
    const store = newStore();
    for (const [ns, name] of [
      ['b', 'x'],
      ['a', 'z'],
      ['a', 'y'],
    ] as const)
      store.create(pods, { ...pod(name), metadata: { name, namespace: ns } });
    expect(store.list(pods).map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual(['a/y', 'a/z', 'b/x']);
    expect(store.list(pods, { namespace: 'a' })).toHaveLength(2);
  });

  it('narrows field lookups through the spec.nodeName and involvedObject.uid indexes', () => {
    const store = newStore();
    for (let i = 0; i < 50; i += 1) store.create(pods, pod(`p${i}`, `node-${i % 10}`));
    const q = { equals: [{ field: 'spec.nodeName', value: 'node-3' }] };
    expect(store.scanSize(pods, q)).toBe(5);
    expect(store.list(pods, q).every((p) => p.spec?.nodeName === 'node-3')).toBe(true);
    // Moving a pod to another node moves it between index entries.
    const moved = store.get(pods, 'shop', 'p3')!;
    store.update(pods, { ...moved, spec: { nodeName: 'node-4' } });
    expect(store.scanSize(pods, q)).toBe(4);

    for (let i = 0; i < 20; i += 1) {
      store.create(events, { apiVersion: 'v1', kind: 'Event', metadata: { name: `e${i}`, namespace: 'shop' }, involvedObject: { uid: `u${i % 4}` } });
    }
    expect(store.scanSize(events, { equals: [{ field: 'involvedObject.uid', value: 'u1' }] })).toBe(5);
  });

  it('feeds watchers with replayed and live changes', () => {
    const store = newStore();
    const a = store.create(pods, pod('a'));
    const seen: Change[] = [];
    const stop = store.subscribe(pods, Number(a.metadata?.resourceVersion) - 1, (c) => seen.push(c));
    store.update(pods, { ...a, metadata: { ...a.metadata, labels: { x: 'y' } } });
    store.remove(pods, 'shop', 'a');
    stop();
    store.create(pods, pod('b'));
    expect(seen.map((c) => c.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    // The DELETED event carries the last state at the deletion's resourceVersion.
    expect(seen[2]?.object.metadata?.labels).toEqual({ x: 'y' });
    expect(seen[2]?.rv).toBe(Number(seen[2]?.object.metadata?.resourceVersion));
  });

  it('answers 410 Expired for a resourceVersion older than the retained history', () => {
    const store = newStore(2);
    for (let i = 0; i < 10; i += 1) store.create(pods, pod(`p${i}`));
    const err = catchError(() => store.subscribe(pods, 1, () => undefined)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toMatchObject({ code: 410, reason: 'Expired' });
    expect(err.status.message).toMatch(/^too old resource version: 1 \(\d+\)$/);
  });
});
