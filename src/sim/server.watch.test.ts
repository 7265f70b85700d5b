// Watches through client-node's Watch: replay from a resourceVersion, initial state,
// selector transitions, timeouts, expiry, bookmarks and server shutdown.
import { request } from 'node:http';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { type Sim, startSim } from './server.js';
import { type SimClients, simClients, testPod } from './testing.js';

const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

interface Seen {
  type: string;
  name: string | undefined;
  object: KubeObject;
}

/** Starts a watch and collects its events; `done` resolves when the stream ends. */
async function collect(c: SimClients, path: string, params: Record<string, string | number | boolean | undefined>) {
  const events: Seen[] = [];
  let finish: (err: unknown) => void = () => undefined;
  const done = new Promise<unknown>((resolve) => (finish = resolve));
  const ctrl = await c.watch.watch(
    path,
    params,
    (type, object: KubeObject) => events.push({ type, name: object.metadata?.name, object }),
    (err) => finish(err),
  );
  const until = async (n: number): Promise<Seen[]> => {
    for (let i = 0; i < 200 && events.length < n; i += 1) await new Promise((r) => setTimeout(r, 5));
    return events;
  };
  return { events, until, done, stop: () => ctrl.abort() };
}

let sim: Sim;
let c: SimClients;

beforeAll(async () => {
  sim = await startSim({
    objects: [testPod('existing-a', 'shop', { labels: { app: 'web' } }), testPod('existing-b', 'shop', { labels: { app: 'db' } })],
    bookmarkIntervalMs: 20,
    historyLimit: 5,
  });
  c = simClients(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('watch', () => {
  it('delivers ADDED, MODIFIED and DELETED after the list resourceVersion', async () => {
    const list = await c.core.listNamespacedPod({ namespace: 'shop' });
    const w = await collect(c, '/api/v1/namespaces/shop/pods', { resourceVersion: list.metadata?.resourceVersion });
    await c.core.createNamespacedPod({ namespace: 'shop', body: testPod('w1', 'shop') });
    await c.core.patchNamespacedPod({ name: 'w1', namespace: 'shop', body: { metadata: { labels: { v: '2' } } } }, merge);
    await c.core.deleteNamespacedPod({ name: 'w1', namespace: 'shop' });
    const events = await w.until(4);
    w.stop();
    // Deleting an unscheduled pod writes deletionTimestamp (grace 0) and then removes it.
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED w1', 'MODIFIED w1', 'MODIFIED w1', 'DELETED w1']);
    expect(events[1]?.object.metadata?.labels).toEqual({ v: '2' });
    expect(events[2]?.object.metadata?.deletionGracePeriodSeconds).toBe(0);
    const rvs = events.map((e) => Number(e.object.metadata?.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  });

  it('starts with the current state when no resourceVersion is given, honouring label selectors', async () => {
    const w = await collect(c, '/api/v1/namespaces/shop/pods', { labelSelector: 'app=web' });
    const initial = await w.until(1);
    expect(initial.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED existing-a']);
    // Leaving the selection is a DELETED, entering it an ADDED.
    await c.core.patchNamespacedPod({ name: 'existing-a', namespace: 'shop', body: { metadata: { labels: { app: 'api' } } } }, merge);
    await c.core.patchNamespacedPod({ name: 'existing-b', namespace: 'shop', body: { metadata: { labels: { app: 'web' } } } }, merge);
    const events = await w.until(3);
    w.stop();
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED existing-a', 'DELETED existing-a', 'ADDED existing-b']);
  });

  it('filters by field selector (a single object)', async () => {
    const w = await collect(c, '/api/v1/namespaces/shop/pods', { fieldSelector: 'metadata.name=existing-b', resourceVersion: sim.store.resourceVersion });
    await c.core.patchNamespacedPod({ name: 'existing-a', namespace: 'shop', body: { metadata: { annotations: { a: '1' } } } }, merge);
    await c.core.patchNamespacedPod({ name: 'existing-b', namespace: 'shop', body: { metadata: { annotations: { b: '1' } } } }, merge);
    const events = await w.until(1);
    w.stop();
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['MODIFIED existing-b']);
  });

  it('ends after timeoutSeconds', async () => {
    const w = await collect(c, '/api/v1/namespaces/shop/pods', { timeoutSeconds: 1, resourceVersion: sim.store.resourceVersion });
    await expect(w.done).resolves.toBeNull();
  });

  it('reports an expired resourceVersion as an ERROR event with a 410 Status', async () => {
    for (let i = 0; i < 12; i += 1) await c.core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: `churn-${i}` } } });
    const w = await collect(c, '/api/v1/namespaces/shop/configmaps', { resourceVersion: '1' });
    await w.done;
    expect(w.events).toHaveLength(1);
    expect(w.events[0]?.type).toBe('ERROR');
    expect(w.events[0]?.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
  });

  it('sends BOOKMARK events when allowed', async () => {
    const w = await collect(c, '/api/v1/namespaces/shop/pods', { allowWatchBookmarks: true, resourceVersion: sim.store.resourceVersion });
    const events = await w.until(1);
    w.stop();
    expect(events[0]).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: sim.store.resourceVersion } } });
  });

  it('streams PartialObjectMetadata when asked, never secret data', async () => {
    const rv = sim.store.resourceVersion;
    const lines = new Promise<string[]>((resolve, reject) => {
      const req = request(
        new URL(`/api/v1/namespaces/shop/secrets?watch=true&timeoutSeconds=1&resourceVersion=${rv}`, sim.url),
        { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } },
        (res) => {
          let buf = '';
          res.on('data', (chunk: Buffer) => (buf += chunk.toString()));
          res.on('end', () => resolve(buf.split('\n').filter(Boolean)));
        },
      );
      req.on('error', reject);
      req.end();
    });
    await c.core.createNamespacedSecret({ namespace: 'shop', body: { metadata: { name: 'token' }, data: { t: 'c2VjcmV0' } } });
    const events = (await lines).map((l) => JSON.parse(l) as { type: string; object: KubeObject });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'token' } } });
    expect(JSON.stringify(events)).not.toContain('c2VjcmV0');
  });

  it('ends open watches when the server closes', async () => {
    const other = await startSim({ objects: [] });
    const w = await collect(simClients(other), '/api/v1/pods', {});
    await other.close();
    await expect(w.done).resolves.not.toBeUndefined();
  });
});
