// KubeSource's transport: reads go to the REST API directly, over one keep-alive agent (client-node
// alone opens a new connection per request), with client-node's auth; answers keep their
// wire form; statuses become what the collector expects (null, an ApiException with the code).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiStatus, contextNamespace, KubeSource, loadKubeConfig } from './kube-source.js';

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });

describe('KubeSource reads', () => {
  let server: http.Server;
  let connections = 0;
  const seen: { url: string; accept?: string; auth?: string }[] = [];
  let kc: k8s.KubeConfig;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', accept: req.headers.accept, auth: req.headers.authorization });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const reply = (code: number, body: unknown) => {
        res.writeHead(code, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (path === '/api/v1/namespaces/shop/pods/web')
        return reply(200, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web', namespace: 'shop', creationTimestamp: '2026-11-21T10:00:00Z' },
          spec: { extra: { kept: true } },
        });
      if (path === '/api/v1/namespaces/shop/events')
        return reply(200, {
          kind: 'EventList',
          items: [{ reason: 'Failed', eventTime: '2026-11-21T09:37:12.000000Z', involvedObject: { kind: 'Pod', name: 'web' } }],
        });
      if (path === '/api/v1/namespaces/shop/configmaps/app-config') return reply(200, { kind: 'PartialObjectMetadata', metadata: { name: 'app-config' } });
      if (path === '/api/v1/namespaces/shop/serviceaccounts/web')
        return reply(200, {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name: 'web', namespace: 'shop', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/web' } },
        });
      if (path === '/api/v1/namespaces/shop/pods/web/log')
        return reply(400, status(400, 'BadRequest', 'previous terminated container "web" in pod "web" not found'));
      if (path === '/api/v1/nodes') return reply(403, status(403, 'Forbidden', 'nodes is forbidden: User "pod-doctor" cannot list resource "nodes"'));
      if (path.startsWith('/apis/crd.projectcalico.org/')) return reply(404, '404 page not found\n');
      if (path === '/api/v1/pods') return reply(500, 'etcdserver: request timed out');
      return reply(404, status(404, 'NotFound', `not found: ${path}`));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't0ken' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reuses connections across requests and sends the kubeconfig token', async () => {
    const source = new KubeSource(kc);
    const before = connections;
    for (let i = 0; i < 20; i++)
      expect(await source.getPod('shop', 'web')).toMatchObject({ metadata: { name: 'web', creationTimestamp: '2026-11-21T10:00:00Z' } });
    expect(connections - before).toBeLessThanOrEqual(2);
    expect(seen.at(-1)?.auth).toBe('Bearer t0ken');
  });

  it('computes auth and TLS once a second, not per read, and follows a new token after that', async () => {
    const own = new k8s.KubeConfig();
    own.loadFromOptions({ clusters: kc.clusters, users: [{ name: 'u', token: 'first' }], contexts: kc.contexts, currentContext: 'x' });
    let computed = 0;
    const apply = own.applyToHTTPSOptions.bind(own);
    own.applyToHTTPSOptions = async (opts) => {
      computed++;
      return apply(opts);
    };
    const source = new KubeSource(own);
    const before = seen.length;
    await Promise.all(Array.from({ length: 10 }, () => source.getPod('shop', 'web')));
    expect(seen.length - before).toBe(10);
    expect(computed).toBe(1);
    expect(seen.at(-1)?.auth).toBe('Bearer first');
    own.loadFromOptions({ clusters: kc.clusters, users: [{ name: 'u', token: 'rotated' }], contexts: kc.contexts, currentContext: 'x' });
    await new Promise((r) => setTimeout(r, 1_050));
    await source.getPod('shop', 'web');
    expect(computed).toBe(2);
    expect(seen.at(-1)?.auth).toBe('Bearer rotated');
  });

  it("reuses connections for the typed clients' requests too (the playbook steps' writes)", async () => {
    const source = new KubeSource(kc);
    const before = connections;
    for (let i = 0; i < 20; i++) await source.core.readNamespacedPod({ name: 'web', namespace: 'shop' });
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it('(client-node on its own opens one connection per request)', async () => {
    const before = connections;
    const core = kc.makeApiClient(k8s.CoreV1Api);
    for (let i = 0; i < 5; i++) await core.readNamespacedPod({ name: 'web', namespace: 'shop' });
    expect(connections - before).toBe(5);
  });

  it('keeps the JSON as it came, with canonical times, and sends selectors as query parameters', async () => {
    const source = new KubeSource(kc);
    expect(await source.getPod('shop', 'web')).toMatchObject({ spec: { extra: { kept: true } } });
    expect(await source.listPodEvents('shop', 'web')).toEqual([
      { reason: 'Failed', eventTime: '2026-11-21T09:37:12Z', involvedObject: { kind: 'Pod', name: 'web' } },
    ]);
    const url = new URL(seen.at(-1)!.url, 'http://x');
    expect(url.searchParams.get('fieldSelector')).toBe('involvedObject.kind=Pod,involvedObject.name=web');
  });

  it('maps statuses: 404 → null for one object, Status bodies into ApiException, 400 log → null', async () => {
    const source = new KubeSource(kc);
    expect(await source.getPod('shop', 'gone')).toBeNull();
    expect(await source.getNode('n1')).toBeNull();
    expect(await source.listWorkloadEndpoints('shop')).toBeNull();
    expect(await source.podLog('shop', 'web', 'web', true, 20)).toBeNull();
    const forbidden = await source.listNodes().catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(k8s.ApiException);
    expect(apiStatus(forbidden)).toBe(403);
    expect((forbidden as k8s.ApiException<{ message: string }>).body.message).toMatch(/cannot list resource "nodes"/);
    const failed = await source.listPods({}).catch((e: unknown) => e);
    expect(apiStatus(failed)).toBe(500);
    expect((failed as k8s.ApiException<string>).body).toBe('etcdserver: request timed out');
  });

  it('asks for metadata only when checking that a ConfigMap or Secret exists', async () => {
    const source = new KubeSource(kc);
    expect(await source.configMapExists('shop', 'app-config')).toBe(true);
    expect(seen.at(-1)?.accept).toMatch(/^application\/json;as=PartialObjectMetadata;g=meta\.k8s\.io;v=v1/);
    expect(await source.secretExists('shop', 'db')).toBe(false);
    expect(seen.at(-1)?.accept).toMatch(/as=PartialObjectMetadata;/);
  });

  it("reads a ServiceAccount's metadata only, as a ServiceAccount with its annotations; null when it does not exist", async () => {
    const source = new KubeSource(kc);
    expect(await source.serviceAccountMetadata('shop', 'web')).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'web', namespace: 'shop', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/web' } },
    });
    expect(seen.at(-1)?.accept).toMatch(/as=PartialObjectMetadata;/);
    expect(await source.serviceAccountMetadata('shop', 'gone')).toBeNull();
  });

  it('shares identical reads between diagnosis views only when they started after the diagnosis was asked for', async () => {
    const source = new KubeSource(kc);
    const count = () => seen.filter((r) => r.url === '/api/v1/namespaces/shop/pods/web').length;
    const asked = Date.now();
    const before = count();
    const [a, b] = await Promise.all([source.sharing(asked).getPod('shop', 'web'), source.sharing(asked).getPod('shop', 'web')]);
    expect(count() - before).toBe(1);
    // One parsed answer, frozen all the way down: a write by one diagnosis throws instead of
    // showing up in another's snapshot.
    expect(a).toBe(b);
    expect(Object.isFrozen(a?.metadata)).toBe(true);
    expect(() => {
      (a as { metadata: { name: string } }).metadata.name = 'other';
    }).toThrow(TypeError);
    // Finished reads are reused too, by a diagnosis asked for before they started...
    await source.sharing(asked).getPod('shop', 'web');
    expect(count() - before).toBe(1);
    // ...but not by one asked for after: it must see the cluster as of its request.
    await source.sharing(Date.now() + 1).getPod('shop', 'web');
    expect(count() - before).toBe(2);
    // The source itself (playbook checks, verification) never reuses a read, and its answers
    // are the caller's own.
    expect(Object.isFrozen(await source.getPod('shop', 'web'))).toBe(false);
    expect(count() - before).toBe(3);
    expect(source.readStats).toEqual({ shared: 2, fetched: 2 });
  });

  it('does not keep failed reads', async () => {
    const source = new KubeSource(kc).sharing(Date.now());
    const before = seen.filter((r) => r.url === '/api/v1/pods').length;
    for (let i = 0; i < 2; i++) expect(apiStatus(await source.listPods({}).catch((e: unknown) => e))).toBe(500);
    expect(seen.filter((r) => r.url === '/api/v1/pods').length - before).toBe(2);
  });

  it('spends the API budget only on reads sent to the server', async () => {
    let taken = 0;
    const source = new KubeSource(kc).throttled(async () => void taken++);
    const before = seen.length;
    await source.getNode('n1');
    await source.getPod('shop', 'web');
    expect(taken).toBe(2);
    const asked = Date.now();
    await Promise.all([source.sharing(asked).getNamespace('shop'), source.sharing(asked).getNamespace('shop'), source.sharing(asked).getNamespace('shop')]);
    expect(taken).toBe(3);
    expect(seen.length - before).toBe(3);
  });

  it('reports a refused connection as a network error the collector treats as unreachable', async () => {
    const dead = new k8s.KubeConfig();
    dead.loadFromOptions({
      clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const err = await new KubeSource(dead).getPod('shop', 'web').catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });
});

describe('loadKubeConfig: where it looks, as kubectl does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-kubeconfig-'));
  const config = (context: string, namespace?: string) =>
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: ${context}, cluster: {server: "https://${context}.example:6443"}}]`,
      `users: [{name: ${context}, user: {token: t}}]`,
      `contexts: [{name: ${context}, context: {cluster: ${context}, user: ${context}${namespace ? `, namespace: ${namespace}` : ''}}}]`,
      `current-context: ${context}`,
      '',
    ].join('\n');
  const prod = join(dir, 'prod');
  const staging = join(dir, 'staging');
  writeFileSync(prod, config('prod', 'shop'));
  writeFileSync(staging, config('staging'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the files of KUBECONFIG that exist; the first current-context wins', () => {
    const kc = loadKubeConfig({ env: { KUBECONFIG: [join(dir, 'gone'), prod, staging].join(delimiter), HOME: dir } });
    expect(kc.getContexts().map((c) => c.name)).toEqual(['prod', 'staging']);
    expect(kc.getCurrentContext()).toBe('prod');
    expect(contextNamespace(kc)).toBe('shop');
  });

  it('switches context, whose namespace may be unset', () => {
    const kc = loadKubeConfig({ kubeconfig: [prod, staging].join(delimiter), context: 'staging', env: {} });
    expect(kc.getCurrentCluster()?.server).toBe('https://staging.example:6443');
    expect(contextNamespace(kc)).toBeUndefined();
  });

  // In a pod the service account stands in: this machine must not have one for the refusal.
  it.skipIf(existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token'))('no KUBECONFIG, no ~/.kube/config, no service account: NO_KUBECONFIG', () => {
    expect(() => loadKubeConfig({ env: { HOME: dir } })).toThrow(
      expect.objectContaining({ code: 'NO_KUBECONFIG', message: expect.stringMatching(/KUBECONFIG is not set and ~\/\.kube\/config \(.*\) does not exist/) }),
    );
  });

  it.each([
    [
      'a --kubeconfig that is not there',
      { kubeconfig: join(dir, 'gone'), kubeconfigFrom: '--kubeconfig', env: {} },
      'NO_KUBECONFIG',
      /gone \(--kubeconfig\) does not exist/,
    ],
    [
      'an unknown context',
      { kubeconfig: prod, context: 'prod-us', env: {} },
      'UNKNOWN_CONTEXT',
      /context "prod-us" is not in the kubeconfig .*; its contexts: prod$/,
    ],
  ])('%s: a coded error saying where it looked', (_name, opts, code, message) => {
    let error: unknown;
    try {
      loadKubeConfig(opts);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
  });
});
