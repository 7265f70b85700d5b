// A cluster-sized fixture: 5,000 pods on 200 nodes with their events. Node and
// involved-object lookups must go through the store's indexes, not scan every pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { type Sim, startSim } from './server.js';
import { type SimClients, simClients, testPod } from './testing.js';

const NODES = 200;
const PODS = 5_000;

function fixtures(): KubeObject[] {
  const out: KubeObject[] = [];
  for (let n = 0; n < NODES; n += 1) out.push({ apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n}` } });
  for (let p = 0; p < PODS; p += 1) {
    const ns = `team-${p % 10}`;
    const pod = testPod(`pod-${p}`, ns, { nodeName: `node-${p % NODES}`, labels: { app: `app-${p % 50}` } });
    out.push({ ...pod, metadata: { ...pod.metadata, uid: `uid-${p}` } });
    out.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `pod-${p}.1`, namespace: ns },
      involvedObject: { kind: 'Pod', name: `pod-${p}`, namespace: ns, uid: `uid-${p}` },
      reason: 'Scheduled',
    });
  }
  return out;
}

let sim: Sim;
let c: SimClients;

beforeAll(async () => {
  sim = await startSim({ objects: fixtures() });
  c = simClients(sim);
});

afterAll(async () => {
  await sim.close();
});

describe('a 5,000-pod cluster', () => {
  it('lists one node’s pods by field selector through the spec.nodeName index', async () => {
    const list = await c.core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=node-7' });
    expect(list.items).toHaveLength(PODS / NODES);
    expect(list.items.every((p) => p.spec?.nodeName === 'node-7')).toBe(true);
    const pods = sim.store.table.lookup('', 'v1', 'pods');
    expect(pods && sim.store.scanSize(pods, { equals: [{ field: 'spec.nodeName', value: 'node-7' }] })).toBe(PODS / NODES);
  });

  it('finds a pod’s events through the involvedObject.uid index', async () => {
    const list = await c.core.listNamespacedEvent({ namespace: 'team-3', fieldSelector: 'involvedObject.uid=uid-4243' });
    expect(list.items.map((e) => e.metadata?.name)).toEqual(['pod-4243.1']);
    const events = sim.store.table.lookup('', 'v1', 'events');
    expect(events && sim.store.scanSize(events, { namespace: 'team-3', equals: [{ field: 'involvedObject.uid', value: 'uid-4243' }] })).toBe(1);
  });

  it('still answers whole-cluster lists', async () => {
    const list = await c.core.listPodForAllNamespaces({ labelSelector: 'app=app-7' });
    expect(list.items).toHaveLength(PODS / 50);
  });
});
