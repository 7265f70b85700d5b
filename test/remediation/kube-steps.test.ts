// The Kubernetes step kinds one by one against the simulated API through the real client:
// each changes exactly what its dry-run line says, and refuses safely when the object changed.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, Pod } from '../../src/diagnosis/types.js';
import { ACTIONS } from '../../src/remediation/actions/index.js';
import type { ActionDef, StepContext } from '../../src/remediation/actions/types.js';
import { namespaceName, objectName, workloadOf } from '../../src/remediation/kube.js';
import { ago, namespaceObject, node, pod } from '../helpers/factories.js';
import { silent } from '../helpers/logger.js';
import { type Cluster, objectsCluster } from '../helpers/remediation.js';

const NOW = '2026-11-21T10:00:00Z';
let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

function ctx(c: Cluster): StepContext {
  return {
    kube: c.kube,
    target: c.target,
    signal: new AbortController().signal,
    log: silent,
    diagnose: () => Promise.reject(new Error('not used')),
    sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
  };
}

async function run(kind: string, params: Record<string, unknown>) {
  const action = ACTIONS[kind] as ActionDef;
  const parsed = action.params.parse(params);
  return { describe: action.describe(parsed), out: await action.run(ctx(cluster!), parsed).catch((e: unknown) => e as Error) };
}

const RS_UID = '11111111-2222-4333-8444-555555555555';
function workload(): KubeObject[] {
  const labels = { app: 'web' };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', uid: '11111111-2222-4333-8444-000000000001' },
      spec: { replicas: 4, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-7d9f8c6b5',
        namespace: 'shop',
        uid: RS_UID,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '11111111-2222-4333-8444-000000000001', controller: true }],
      },
      spec: { replicas: 4, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop', uid: '11111111-2222-4333-8444-000000000002' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'db:1' }] } },
      },
    },
  ];
}
const owned = (name: string, kind = 'ReplicaSet', owner = 'web-7d9f8c6b5'): Pod =>
  pod({ metadata: { name, namespace: 'shop', ownerReferences: [{ apiVersion: 'apps/v1', kind, name: owner, uid: RS_UID, controller: true }] } });

describe('remove-finalizers', () => {
  const stuck = () =>
    pod({ metadata: { name: 'web-1', deletionTimestamp: ago(600), deletionGracePeriodSeconds: 0, finalizers: ['example.com/a', 'example.com/b'] } });

  it('removes the approved list; the API server then deletes the pod', async () => {
    const p = stuck();
    cluster = await objectsCluster([p as KubeObject], 'shop/web-1', NOW);
    const { describe: text, out } = await run('remove-finalizers', {
      namespace: 'shop',
      pod: 'web-1',
      uid: p.metadata?.uid,
      finalizers: ['example.com/a', 'example.com/b'],
    });
    expect(text).toEqual(['PATCH pod shop/web-1: remove finalizers [example.com/a, example.com/b]']);
    expect(out).toMatchObject({ detail: 'removed finalizers [example.com/a, example.com/b] from pod shop/web-1' });
    expect(await cluster.kube.getPod('shop', 'web-1')).toBeNull();
  });

  it('fails safely when the list changed since approval (the JSON patch test op)', async () => {
    const p = stuck();
    cluster = await objectsCluster([p as KubeObject], 'shop/web-1', NOW);
    const { out } = await run('remove-finalizers', { namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid, finalizers: ['example.com/a'] });
    expect(out).toBeInstanceOf(Error);
    expect((out as Error).message).toMatch(/^the pod changed since approval \(UID or finalizers differ\), nothing was removed: HTTP 422/);
    expect((await cluster.kube.getPod('shop', 'web-1'))?.metadata?.finalizers).toEqual(['example.com/a', 'example.com/b']);
    const action = ACTIONS['remove-finalizers'] as ActionDef;
    expect(
      await action.recheck?.(ctx(cluster), action.params.parse({ namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid, finalizers: ['example.com/a'] })),
    ).toBe('unknown');
    expect(
      await action.recheck?.(
        ctx(cluster),
        action.params.parse({ namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid, finalizers: ['example.com/a', 'example.com/b'] }),
      ),
    ).toBe('not-done');
  });
});

describe('force-delete and delete', () => {
  it('force-delete with another UID is refused by the API server (the pod was recreated)', async () => {
    cluster = await objectsCluster(
      [pod({ metadata: { name: 'web-1', deletionTimestamp: ago(600), deletionGracePeriodSeconds: 30 } }) as KubeObject],
      'shop/web-1',
      NOW,
    );
    const { out } = await run('force-delete', { namespace: 'shop', pod: 'web-1', uid: '00000000-0000-4000-8000-0000000000ff' });
    expect((out as Error).message).toMatch(/^pod shop\/web-1 was recreated \(UID changed\), not deleted: HTTP 409/);
    expect(await cluster.kube.getPod('shop', 'web-1')).not.toBeNull();
  });

  it('delete is graceful: the pod is Terminating, waiting for its kubelet', async () => {
    const p = owned('web-1');
    cluster = await objectsCluster([p as KubeObject], 'shop/web-1', NOW);
    const { describe: text, out } = await run('delete', { namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid });
    expect(text).toEqual([`DELETE pod shop/web-1 (its own grace period), precondition uid=${p.metadata?.uid}`]);
    expect(out).toMatchObject({ detail: 'pod shop/web-1 deleted (graceful)' });
    expect((await cluster.kube.getPod('shop', 'web-1'))?.metadata?.deletionGracePeriodSeconds).toBe(30);
  });
});

describe('evict', () => {
  const pdb = (allowed: number): KubeObject => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'shop', generation: 1 },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { observedGeneration: 1, disruptionsAllowed: allowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
  });

  it('is refused (429) when the PodDisruptionBudget allows no disruption', async () => {
    const p = pod({ metadata: { name: 'web-1' } });
    cluster = await objectsCluster([p as KubeObject, pdb(0)], 'shop/web-1', NOW);
    const { out } = await run('evict', { namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid });
    expect((out as Error).message).toMatch(/^a PodDisruptionBudget does not allow evicting shop\/web-1 now: HTTP 429/);
    expect((await cluster.kube.getPod('shop', 'web-1'))?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('evicts when the budget allows it', async () => {
    const p = pod({ metadata: { name: 'web-1' } });
    cluster = await objectsCluster([p as KubeObject, pdb(1)], 'shop/web-1', NOW);
    const { out } = await run('evict', { namespace: 'shop', pod: 'web-1', uid: p.metadata?.uid });
    expect(out).toMatchObject({ detail: 'pod shop/web-1 evicted' });
    expect((await cluster.kube.getPod('shop', 'web-1'))?.metadata?.deletionTimestamp).toBeDefined();
  });
});

describe('cordon and scale', () => {
  it('cordons every listed node', async () => {
    cluster = await objectsCluster([node({ metadata: { name: 'n1' } }), node({ metadata: { name: 'n2' } })] as KubeObject[], 'node/n1', NOW);
    const { out } = await run('cordon', { nodes: ['n1', 'n2'] });
    expect(out).toMatchObject({ detail: 'cordoned n1, n2' });
    for (const n of ['n1', 'n2']) expect((await cluster.kube.getNode(n))?.spec?.unschedulable).toBe(true);
  });

  it("finds the pod's workload through the owner chain and scales it through the scale subresource", async () => {
    const p = owned('web-7d9f8c6b5-x2k4q');
    const s = owned('db-0', 'StatefulSet', 'db');
    cluster = await objectsCluster([...workload(), p, s] as KubeObject[], 'shop/web-7d9f8c6b5-x2k4q', NOW);
    expect(await workloadOf(cluster.kube, p)).toEqual({ kind: 'Deployment', name: 'web' });
    expect(await workloadOf(cluster.kube, s)).toEqual({ kind: 'StatefulSet', name: 'db' });
    expect((await run('scale', { namespace: 'shop', kind: 'Deployment', name: 'web', replicas: 0 })).out).toMatchObject({
      detail: 'Deployment shop/web scaled from 4 to 0 replicas',
    });
    expect((await run('scale', { namespace: 'shop', kind: 'StatefulSet', name: 'db', replicas: 1 })).out).toMatchObject({
      detail: 'StatefulSet shop/db scaled from 3 to 1 replicas',
    });
    expect((await cluster.kube.getOwner('shop', 'Deployment', 'web'))?.spec?.replicas).toBe(0);
    expect((await cluster.kube.getOwner('shop', 'StatefulSet', 'db'))?.spec?.replicas).toBe(1);
    expect((await run('scale', { namespace: 'shop', kind: 'Deployment', name: 'nope', replicas: 0 })).out).toBeInstanceOf(Error);
  });
});

describe('rollback', () => {
  const template = (image: string) => ({ metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image }] } });
  const revision = (n: number, hash: string, image: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `db-${hash}`,
      namespace: 'shop',
      labels: { app: 'db', 'controller.kubernetes.io/hash': hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-db-uid', controller: true }],
    },
    revision: n,
    data: { spec: { template: { ...template(image), $patch: 'replace' } } },
  });
  const statefulSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop', uid: 'sts-db-uid' },
    spec: { serviceName: 'db', replicas: 1, selector: { matchLabels: { app: 'db' } }, template: template('postgres:17.0') },
  };

  it("puts a StatefulSet's ControllerRevision template back, once: then it is done", async () => {
    cluster = await objectsCluster([statefulSet, revision(1, '4c5b6a7d8', 'postgres:16.3'), revision(2, '5f6d7c8b9', 'postgres:17.0')], 'ns/shop', NOW);
    const { describe: dryRun, out } = await run('rollback', { namespace: 'shop', kind: 'StatefulSet', name: 'db', revision: 1 });
    expect(dryRun[0]).toContain("PATCH StatefulSet shop/db: spec.template := revision 1's");
    expect(out).toMatchObject({ detail: 'StatefulSet shop/db rolled back to revision 1 (db-4c5b6a7d8)' });
    const sts = await cluster.kube.getOwner('shop', 'StatefulSet', 'db');
    expect(sts?.spec?.template).toMatchObject(template('postgres:16.3'));
    expect(JSON.stringify(sts?.spec?.template)).not.toContain('17.0');
    const action = ACTIONS.rollback as ActionDef;
    expect(await action.recheck?.(ctx(cluster), action.params.parse({ namespace: 'shop', kind: 'StatefulSet', name: 'db', revision: 1 }))).toBe('done');
    expect(await action.recheck?.(ctx(cluster), action.params.parse({ namespace: 'shop', kind: 'StatefulSet', name: 'db', revision: 2 }))).toBe('not-done');
  });

  it('says so when the revision is gone from the history', async () => {
    cluster = await objectsCluster([statefulSet, revision(2, '5f6d7c8b9', 'postgres:17.0')], 'ns/shop', NOW);
    const { out } = await run('rollback', { namespace: 'shop', kind: 'StatefulSet', name: 'db', revision: 1 });
    expect(out).toBeInstanceOf(Error);
    expect((out as Error).message).toBe('StatefulSet shop/db no longer has revision 1');
  });
});

describe('clear-namespace-finalizers', () => {
  it('refuses a namespace that is not being deleted', async () => {
    cluster = await objectsCluster([namespaceObject('team-a')] as KubeObject[], 'ns/team-a', NOW);
    const { out } = await run('clear-namespace-finalizers', { namespace: 'team-a' });
    expect((out as Error).message).toBe('namespace team-a is not being deleted; refusing to clear its finalizers');
    expect(await cluster.kube.getNamespace('team-a')).not.toBeNull();
  });
});

describe('step parameter names', () => {
  it('are checked as Kubernetes checks them: every dot-separated label must be valid', () => {
    for (const name of ['a..b', 'a.-b', 'a-.b', 'Web', 'a'.repeat(254)]) expect(objectName.safeParse(name).success).toBe(false);
    expect(objectName.safeParse('ip-10-0-1-23.ec2.internal').success).toBe(true);
    expect(namespaceName.safeParse('a.b').success).toBe(false);
    expect(objectName.safeParse('a..b').error?.issues[0]?.message).toBe('expected a DNS-1123 name');
  });
});
