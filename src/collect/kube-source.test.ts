// KubeSource's transport: client-node 1.x would open a new connection per request; ours reuse
// one keep-alive agent, with the TLS options client-node computed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeSource } from './kube-source.js';

describe('KubeSource connections', () => {
  let server: http.Server;
  let connections = 0;
  let requests = 0;
  let kc: k8s.KubeConfig;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', creationTimestamp: '2026-11-21T10:00:00Z' } }));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reuses connections across requests', async () => {
    const source = new KubeSource(kc);
    for (let i = 0; i < 20; i++) expect(await source.getPod('shop', 'web')).toMatchObject({ metadata: { name: 'web', creationTimestamp: '2026-11-21T10:00:00Z' } });
    expect(requests).toBe(20);
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('(client-node on its own opens one connection per request)', async () => {
    const before = connections;
    const core = kc.makeApiClient(k8s.CoreV1Api);
    for (let i = 0; i < 5; i++) await core.readNamespacedPod({ name: 'web', namespace: 'shop' });
    expect(connections - before).toBe(5);
  });
});
