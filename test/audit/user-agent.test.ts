// Which User-Agent each kind of request carries: reads (KubeSource's own, and the typed clients'
// GETs) the plain `pod-doctor/<version>`, writes through a plan's view the plan and its approvers,
// writes through the plain clients the plain one. A stub API server records the headers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planUserAgent } from '../../src/audit/user-agent.js';
import { KubeSource, USER_AGENT } from '../../src/collect/kube-source.js';

describe('User-Agent of the requests to the API server', () => {
  let server: http.Server;
  const seen: { method: string; path: string; ua: string }[] = [];
  let kube: KubeSource;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', ua: String(req.headers['user-agent'] ?? '') });
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' }, spec: { replicas: 1 } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'stub', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'stub' }],
      contexts: [{ name: 'stub', cluster: 'stub', user: 'stub' }],
      currentContext: 'stub',
    });
    kube = new KubeSource(kc);
  });

  afterAll(async () => {
    await new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  });

  it('reads say pod-doctor/<version>; a plan view writes as the plan and its approvers, and reads as before', async () => {
    const plan = kube.writingAs(planUserAgent('pl_AbCdEfGhIjKlMnOp', ['U0ALICE', 'U0BOB']));
    seen.length = 0;
    await kube.getPod('shop', 'web-0');
    await plan.getPod('shop', 'web-0');
    await plan.apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'shop' });
    await plan.core.deleteNamespacedPod({ name: 'web-0', namespace: 'shop' });
    await plan.apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'shop', body: { spec: { replicas: 0 } } });
    await plan.core.createNamespacedPodEviction({ name: 'web-0', namespace: 'shop', body: { metadata: { name: 'web-0', namespace: 'shop' } } });
    await kube.core.deleteNamespacedPod({ name: 'web-0', namespace: 'shop' });
    const planUa = `${USER_AGENT} (plan=pl_AbCdEfGhIjKlMnOp; approvedBy=U0ALICE,U0BOB)`;
    expect(seen.map((s) => `${s.method} ${s.ua}`)).toEqual([
      `GET ${USER_AGENT}`,
      `GET ${USER_AGENT}`,
      `GET ${USER_AGENT}`,
      `DELETE ${planUa}`,
      `PATCH ${planUa}`,
      `POST ${planUa}`,
      `DELETE ${USER_AGENT}`,
    ]);
  });

  it('two plans at once each keep their own User-Agent (views do not leak into the source or each other)', async () => {
    const a = kube.writingAs(planUserAgent('pl_a', ['U1']));
    const b = kube.writingAs(planUserAgent('pl_b', ['U2']));
    seen.length = 0;
    await Promise.all([a.core.deleteNamespacedPod({ name: 'a', namespace: 'shop' }), b.core.deleteNamespacedPod({ name: 'b', namespace: 'shop' })]);
    await kube.core.deleteNamespacedPod({ name: 'c', namespace: 'shop' });
    const byPath = Object.fromEntries(seen.map((s) => [s.path.split('/').at(-1), s.ua]));
    expect(byPath).toEqual({ a: `${USER_AGENT} (plan=pl_a; approvedBy=U1)`, b: `${USER_AGENT} (plan=pl_b; approvedBy=U2)`, c: USER_AGENT });
  });
});
