// What the pod depends on that its own log names (issue 32): the ServiceAccount's bindings when the
// API server refused it, and the Services it cannot resolve or reach; read only when a line asks.
import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, snapshot } from '../../test/helpers/factories.js';
import { scriptedSource } from '../../test/helpers/jobs.js';
import type { KubeObject, Snapshot } from '../diagnosis/types.js';
import { collectAccess, collectDependencies, collectServiceAccount, serviceOfHost } from './access.js';
import { makeGuard } from './guard.js';
import { ObjectsSource } from './objects-source.js';

const rbac = 'rbac.authorization.k8s.io/v1';
const objects: KubeObject[] = [
  { apiVersion: rbac, kind: 'Role', metadata: { name: 'reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'view' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
  {
    apiVersion: rbac,
    kind: 'RoleBinding',
    metadata: { name: 'operator-reader', namespace: 'shop' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: 'shop' }],
  },
  {
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'everyone-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'Group', name: 'system:serviceaccounts:shop' }],
  },
  {
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'someone-else' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', name: 'other', namespace: 'shop' }],
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'postgres', namespace: 'db' },
    spec: { clusterIP: '10.96.4.4', ports: [{ port: 5432, targetPort: 5432 }] },
  },
  {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'postgres', namespace: 'db' },
    subsets: [{ notReadyAddresses: [{ ip: '10.244.2.9' }], ports: [{ port: 5432 }] }],
  },
];

const forbidden = (verb: string, resource: string) =>
  `E1121 09:00:02.000000       1 reflector.go:147] failed to list: ${resource} is forbidden: User "system:serviceaccount:shop:operator" cannot ${verb} resource "${resource}" in API group "" in the namespace "shop"`;

function withLog(lines: string[]): Snapshot {
  return snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', lines)] });
}

describe('collectAccess', () => {
  it('reads the bindings that name the ServiceAccount or its groups, and whether their roles grant the refused call', async () => {
    const source = scriptedSource(objects);
    const facts = await collectAccess(source, withLog(['starting', forbidden('list', 'configmaps'), forbidden('get', 'pods')]), makeGuard([], 5000));
    expect(facts).toEqual([
      {
        user: 'system:serviceaccount:shop:operator',
        verb: 'get',
        resource: 'pods',
        group: '',
        namespace: 'shop',
        bindings: [
          { kind: 'ClusterRoleBinding', name: 'everyone-view', role: 'ClusterRole view', grants: true },
          { kind: 'RoleBinding', name: 'operator-reader', namespace: 'shop', role: 'Role reader', grants: false },
        ],
      },
      expect.objectContaining({
        verb: 'list',
        resource: 'configmaps',
        bindings: [expect.objectContaining({ name: 'everyone-view', grants: false }), expect.objectContaining({ name: 'operator-reader', grants: false })],
      }),
    ]);
  });
  it('reads nothing when no line is a refusal', async () => {
    const source = scriptedSource(objects);
    expect(await collectAccess(source, withLog(['all good', 'permission denied']), makeGuard([], 5000))).toBeUndefined();
    expect(source.calls).toEqual([]);
  });
});

describe('collectServiceAccount', () => {
  const account = (annotations: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default', namespace: 'shop', annotations },
  });
  it("reads the pod's ServiceAccount when a cloud SDK found no credentials, keeping only its identity annotations", async () => {
    const source = scriptedSource([
      account({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/web', 'kubectl.kubernetes.io/last-applied-configuration': '{}' }),
    ]);
    const sa = await collectServiceAccount(source, withLog(['botocore.exceptions.NoCredentialsError: Unable to locate credentials']), makeGuard([], 5000));
    expect(sa).toEqual({ name: 'default', exists: true, annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/web' } });
  });
  it('says when the account is gone, and reads nothing for a log without a cloud identity failure', async () => {
    const gone = scriptedSource([]);
    const sa = await collectServiceAccount(gone, withLog(['NoCredentialProviders: no valid providers in chain. Deprecated.']), makeGuard([], 5000));
    expect(sa).toEqual({ name: 'default', exists: false, annotations: {} });
    const quiet = scriptedSource([account({})]);
    expect(await collectServiceAccount(quiet, withLog(['all good', forbidden('get', 'pods')]), makeGuard([], 5000))).toBeUndefined();
    expect(quiet.calls).toEqual([]);
  });
});

describe('collectDependencies', () => {
  it('reads the Service a failed lookup or connection names, with its endpoints', async () => {
    const source = scriptedSource(objects);
    const facts = await collectDependencies(
      source,
      withLog([
        'dial tcp 10.96.4.4:5432: connect: connection refused',
        'dial tcp: lookup postgres.db.svc.cluster.local on 10.96.0.10:53: no such host',
        'getaddrinfo ENOTFOUND redis-master',
      ]),
      makeGuard([], 5000),
    );
    expect(facts).toEqual([
      { host: 'redis-master', name: 'redis-master', namespace: 'shop', service: null },
      {
        host: 'postgres.db.svc.cluster.local',
        name: 'postgres',
        namespace: 'db',
        service: { ports: [{ port: 5432, targetPort: 5432 }], headless: false },
        endpoints: { ready: 0, notReady: 1 },
      },
    ]);
  });
  it('maps a ClusterIP to its Service and, with no ready address, reads the pods its selector matches or nearly matches', async () => {
    const labelled = (name: string, labels: Record<string, string>, ready: boolean): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'shop', labels },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
    // The saved-objects source (diagnose --from) answers label selectors as the API server does.
    const source = new ObjectsSource([
      ...objects,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'redis', namespace: 'shop' },
        spec: { clusterIP: '10.96.12.7', selector: { app: 'redis', role: 'master' }, ports: [{ port: 6379 }] },
      },
      { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'redis', namespace: 'shop' }, subsets: [] },
      labelled('redis-0', { app: 'redis', role: 'replica' }, true),
      labelled('redis-1', { app: 'redis' }, true),
      labelled('redis-2', { app: 'redis', role: 'master' }, false),
      labelled('web-1', { app: 'web', role: 'frontend' }, true),
    ]);
    const facts = await collectDependencies(
      source,
      withLog(['dial tcp 10.96.12.7:6379: connect: connection refused', 'dial tcp 127.0.0.1:9000: connect: connection refused']),
      makeGuard([], 5000),
    );
    expect(facts).toEqual([
      {
        host: '10.96.12.7',
        port: 6379,
        name: 'redis',
        namespace: 'shop',
        service: { ports: [{ port: 6379 }], headless: false },
        endpoints: { ready: 0, notReady: 0 },
        selector: { app: 'redis', role: 'master' },
        pods: [
          { name: 'redis-2', ready: false, phase: 'Running' },
          { name: 'redis-0', ready: true, phase: 'Running', differs: { key: 'role', want: 'master', have: 'replica' } },
          { name: 'redis-1', ready: true, phase: 'Running', differs: { key: 'role', want: 'master' } },
        ],
      },
    ]);
  });
  it("reads MySQL's, curl's and libpq's refusals for the host they name", async () => {
    const facts = await collectDependencies(
      scriptedSource(objects),
      withLog([
        "ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-primary:3306' (111)",
        'curl: (7) Failed to connect to api.shop port 8080 after 3 ms: Connection refused',
        'psql: could not connect to server: Connection refused',
        '\tIs the server running on host "postgres.db" (10.96.4.4) and accepting',
      ]),
      makeGuard([], 5000),
    );
    expect(facts?.map((f) => [f.host, f.port, f.name, f.namespace])).toEqual([
      ['postgres.db', undefined, 'postgres', 'db'],
      ['api.shop', 8080, 'api', 'shop'],
      ['mysql-primary', 3306, 'mysql-primary', 'shop'],
    ]);
  });
  it("reads redis-py's refusal for the host it names", async () => {
    const facts = await collectDependencies(
      scriptedSource(objects),
      withLog(['redis.exceptions.ConnectionError: Error 111 connecting to redis-master:6379. Connection refused.']),
      makeGuard([], 5000),
    );
    expect(facts?.map((f) => [f.host, f.port, f.name, f.namespace])).toEqual([['redis-master', 6379, 'redis-master', 'shop']]);
  });
  it.each([
    ['postgres', 'shop', { name: 'postgres', namespace: 'shop' }],
    ['postgres.db', 'shop', { name: 'postgres', namespace: 'db' }],
    ['postgres.db.svc', 'shop', { name: 'postgres', namespace: 'db' }],
    ['kafka-0.kafka.streaming.svc.cluster.local', 'shop', undefined],
    ['api.example.com', 'shop', undefined],
    ['10.96.0.1', 'shop', undefined],
  ])('serviceOfHost(%s)', (host, ns, want) => {
    expect(serviceOfHost(host, ns)).toEqual(want);
  });
});
