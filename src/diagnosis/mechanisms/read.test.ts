// The reader and the variants: which line decides, and what the pod's own spec, node and the
// collector's follow-up reads (snapshot.access, snapshot.dependencies) make of it.
import { describe, expect, it } from 'vitest';
import { node, pod, snapshot } from '../../../test/helpers/factories.js';
import type { Container, Pod, Snapshot } from '../types.js';
import { readTexts } from './index.js';

function scopeOf(container: Partial<Container>, podPatch: Parameters<typeof pod>[0] = {}, more: Partial<Snapshot> = {}) {
  const p: Pod = pod({ ...podPatch, spec: { ...podPatch.spec, containers: [{ name: 'app', image: 'registry.example.com/shop/app:1', ...container }] } });
  const s = snapshot(p, more);
  return { snapshot: s, pod: p, container: p.spec!.containers[0]!, init: false, ...(s.node ? { node: s.node } : {}) };
}
const read = (lines: string[], scope: ReturnType<typeof scopeOf>) => readTexts([{ lines, source: 'logs app' }], scope);

describe('which line decides', () => {
  it('a server sentence beats a bare errno; a fatal line beats a warning whatever its family', () => {
    const scope = scopeOf({});
    expect(
      read(['max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]', 'open /data/x: permission denied'], scope)
        ?.mechanism,
    ).toBe('max-map-count');
    expect(
      read(['[WARN ] memory locking requested for elasticsearch process but memory is not locked', 'FATAL: open /data/x: permission denied'], scope)?.mechanism,
    ).toBe('fs-permission');
  });
  it('finds the decisive line anywhere, not only at the end', () => {
    const r = read(
      ['starting', 'dial tcp 10.96.4.4:5432: connect: connection refused', ...Array.from({ length: 50 }, (_, i) => `shutting down ${i}`)],
      scopeOf({}),
    );
    expect(r?.mechanism).toBe('dependency-refused');
  });
  it("reads Python's bare PermissionError as a bind only when the frame above binds a socket", () => {
    const bind = read(
      ['  File "server.py", line 9', '    self.socket.bind(self.server_address)', 'PermissionError: [Errno 13] Permission denied'],
      scopeOf({}),
    );
    const file = read(['  File "app.py", line 3', "    with open('/data/x', 'w') as f:", 'PermissionError: [Errno 13] Permission denied'], scopeOf({}));
    expect([bind?.mechanism, file?.mechanism]).toEqual(['privileged-port', 'fs-permission']);
  });
});

describe('variants from the spec', () => {
  const EROFS = "sed: can't create temp file '/etc/nginx/conf.d/default.confXXXXXX': Read-only file system";
  it.each([
    [
      'a ConfigMap volume',
      { volumeMounts: [{ name: 'conf', mountPath: '/etc/nginx/conf.d' }] },
      { volumes: [{ name: 'conf', configMap: { name: 'nginx' } }] },
      'configmap-volume',
    ],
    [
      'a readOnly mount',
      { volumeMounts: [{ name: 'conf', mountPath: '/etc/nginx/conf.d', readOnly: true }] },
      { volumes: [{ name: 'conf', emptyDir: {} }] },
      'read-only-mount',
    ],
    ['the image under readOnlyRootFilesystem', { securityContext: { readOnlyRootFilesystem: true } }, {}, 'root-filesystem'],
    ['nothing in the spec', {}, {}, 'storage'],
  ])('EROFS on %s', (_name, container, spec, variant) => {
    const r = read([EROFS], scopeOf(container as Partial<Container>, { spec: spec as NonNullable<Pod['spec']> }));
    expect(r?.mechanism).toBe('fs-read-only');
    expect(r?.variant).toBe(variant);
    expect(r?.data.path ?? '').not.toMatch(/XXXXXX/);
  });
  it('a host-network pod with ClusterFirst does not use cluster DNS', () => {
    const r = read(['dial tcp: lookup db.shop.svc.cluster.local on 169.254.169.253:53: no such host'], scopeOf({}, { spec: { hostNetwork: true } }));
    expect([r?.variant, r?.knobPaths]).toEqual(['host-network', ['spec.dnsPolicy']]);
  });
  it('the open-files limit of a containerd 2 node', () => {
    const scope = scopeOf({}, {}, { node: node({ status: { nodeInfo: { containerRuntimeVersion: 'containerd://2.0.2' } } }) });
    const r = read(['http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 1s'], scope);
    expect(r?.mechanism).toBe('fd-limit');
    expect(r?.explanation).toMatch(/1024/);
  });
});

describe('variants from what the collector read', () => {
  const REFUSAL = 'pods is forbidden: User "system:serviceaccount:shop:operator" cannot list resource "pods" in API group "" in the namespace "shop"';
  const access = (grants: boolean) => ({
    access: [
      {
        user: 'system:serviceaccount:shop:operator',
        verb: 'list',
        resource: 'pods',
        group: '',
        namespace: 'shop',
        bindings: [{ kind: 'RoleBinding' as const, name: 'operator-reader', namespace: 'shop', role: 'Role reader', grants }],
      },
    ],
  });
  it('names the bindings the ServiceAccount has, none of which grants the call', () => {
    const r = read([REFUSAL], scopeOf({}, { spec: { serviceAccountName: 'operator' } }, access(false)));
    expect(r?.variant).toBe('missing-grant');
    expect(r?.explanation).toMatch(/bound to Role reader \(RoleBinding shop\/operator-reader\), and none of it grants that/);
    expect(r?.evidence.map((e) => e.source)).toContain('RBAC bindings of system:serviceaccount:shop:operator');
  });
  it('says so when a binding grants it now (the refusal is older than the grant)', () => {
    expect(read([REFUSAL], scopeOf({}, { spec: { serviceAccountName: 'operator' } }, access(true)))?.variant).toBe('granted-now');
  });
  const dependency = (service: Snapshot['dependencies']) => ({ dependencies: service });
  it('a lookup of a Service that does not exist', () => {
    const scope = scopeOf({}, {}, dependency([{ host: 'postgres.db.svc.cluster.local', namespace: 'db', name: 'postgres', service: null }]));
    const r = read(['dial tcp: lookup postgres.db.svc.cluster.local on 10.96.0.10:53: no such host'], scope);
    expect([r?.variant, r?.summary]).toEqual(['no-service', 'postgres.db.svc.cluster.local does not resolve: there is no Service postgres in namespace db']);
  });
  it('a refusal by a Service with no ready endpoints, and by one that does not serve the port', () => {
    const svc = (ready: number) =>
      dependency([
        {
          host: 'redis',
          port: 6379,
          namespace: 'shop',
          name: 'redis',
          service: { ports: [{ port: 6379 }], headless: false },
          endpoints: { ready, notReady: 2 },
        },
      ]);
    expect(read(['Error: connect ECONNREFUSED redis:6379'], scopeOf({}, {}, svc(0)))?.variant).toBe('service-without-endpoints');
    expect(read(['Error: connect ECONNREFUSED redis:6380'], scopeOf({}, {}, svc(1)))?.variant).toBe('service-port');
    expect(read(['Error: connect ECONNREFUSED redis:6379'], scopeOf({}, {}, svc(1)))?.variant).toBe('remote');
  });
});

describe('the quote', () => {
  it('keeps the matched part of a long line, cut around it rather than in the middle', () => {
    const refusal = 'User "system:serviceaccount:shop:operator" cannot list resource "pods" in API group "" in the namespace "shop"';
    const line = `E1121 09:00:02.000000 1 reflector.go:147] ${'k'.repeat(600)} ${refusal} ${'z'.repeat(600)}`;
    const r = read([line], scopeOf({}));
    expect(r?.line.length).toBeLessThanOrEqual(400);
    expect(r?.line).toContain('system:serviceaccount:shop:operator');
    expect(r?.line.startsWith('…') && r.line.endsWith('…')).toBe(true);
  });
});
