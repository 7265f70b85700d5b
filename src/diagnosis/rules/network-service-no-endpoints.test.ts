import { describe, expect, it } from 'vitest';
import { ago, containerStatus, crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { DependencyFact, Pod } from '../types.js';
import { RULES } from './index.js';
import { rule } from './network-service-no-endpoints.js';

const MYSQL_LINE = "ERROR 2003 (HY000): Can't connect to MySQL server on 'nacosdb-mysql-leader' (111)";

/** A pod whose init container `initmysql` crash-loops before the app container `k8snacos` can start. */
function initCrashPod(): Pod {
  return pod({
    metadata: { name: 'nacos-0' },
    spec: {
      initContainers: [
        { name: 'initmysql', image: 'codewisdom/mysqlclient:0.1', command: ['sh', '-c', 'mysql -h nacosdb-mysql-leader -u nacos nacos < /sql/x.sql'] },
      ],
      containers: [{ name: 'k8snacos', image: 'codewisdom/nacos-server:2.0.1' }],
    },
    status: {
      phase: 'Pending',
      conditions: [
        { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [initmysql]' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [k8snacos]' },
      ],
      initContainerStatuses: [
        containerStatus({
          name: 'initmysql',
          ready: false,
          started: false,
          restartCount: 9,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=initmysql pod=nacos-0_shop(x)' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(131), finishedAt: ago(130) } },
        }),
      ],
      containerStatuses: [containerStatus({ name: 'k8snacos', ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })],
    },
  });
}

/** A pod whose init container has been running (retrying) for `seconds`. */
function initWaitingPod(seconds: number): Pod {
  return pod({
    spec: {
      initContainers: [{ name: 'wait-redis', image: 'redis:7', command: ['sh', '-c', 'until redis-cli -h redis ping; do sleep 2; done'] }],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [wait-redis]' }],
      initContainerStatuses: [
        containerStatus({ name: 'wait-redis', ready: false, started: true, restartCount: 0, state: { running: { startedAt: ago(seconds) } } }),
      ],
      containerStatuses: [containerStatus({ ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })],
    },
  });
}

/** An app container that runs but is not Ready, for `seconds`. */
function unreadyPod(seconds: number): Pod {
  return pod({
    status: {
      conditions: [
        { type: 'ContainersReady', status: 'False' },
        { type: 'Ready', status: 'False' },
      ],
      containerStatuses: [containerStatus({ ready: false, started: true, state: { running: { startedAt: ago(seconds) } } })],
    },
  });
}

const clusterIP = (ports: number[] = [3306]) => ({ ports: ports.map((port) => ({ port })), headless: false });

function dep(patch: Partial<DependencyFact> & Pick<DependencyFact, 'host' | 'name'>): DependencyFact {
  return { namespace: 'shop', service: clusterIP(), endpoints: { ready: 0, notReady: 0 }, ...patch };
}

const leader = dep({
  host: 'nacosdb-mysql-leader',
  name: 'nacosdb-mysql-leader',
  selector: { app: 'nacosdb-mysql', release: 'nacosdb', role: 'leader' },
  pods: ['nacosdb-mysql-0', 'nacosdb-mysql-1', 'nacosdb-mysql-2'].map((name) => ({
    name,
    ready: true,
    phase: 'Running',
    differs: { key: 'role', want: 'leader', have: 'follower' },
  })),
});

const mysqlLogs = [logTail('initmysql', ['mysql: [Warning] Using a password on the command line interface can be insecure.', MYSQL_LINE])];

const redisLine = 'dial tcp 10.96.12.7:6379: connect: connection refused';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(), { dependencies: [leader] }) },
    {
      name: 'the Service has ready endpoints: a refusal means a wrong port, not this class',
      snapshot: snapshot(initCrashPod(), { logs: mysqlLogs, dependencies: [{ ...leader, endpoints: { ready: 1, notReady: 0 }, pods: undefined }] }),
    },
    {
      name: 'the host is not a Service (nothing collected for it)',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        logs: [logTail('web', ['dial tcp 203.0.113.9:443: connect: connection refused'])],
        dependencies: [leader],
      }),
    },
    {
      name: 'the Service does not exist',
      snapshot: snapshot(initCrashPod(), {
        logs: mysqlLogs,
        dependencies: [{ host: 'nacosdb-mysql-leader', name: 'nacosdb-mysql-leader', namespace: 'shop', service: null }],
      }),
    },
    {
      name: 'its Endpoints could not be read',
      snapshot: snapshot(initCrashPod(), {
        logs: mysqlLogs,
        dependencies: [{ ...leader, endpoints: null, pods: undefined }],
        gaps: [{ check: 'endpoints shop/nacosdb-mysql-leader', reason: 'forbidden', kind: 'forbidden', origin: 'api' }],
      }),
    },
    {
      name: 'a ClusterIP Service without endpoints, but the line is a name that does not resolve',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        logs: [logTail('web', ['dial tcp: lookup nacosdb-mysql-leader on 10.96.0.10:53: no such host'])],
        dependencies: [leader],
      }),
    },
    {
      name: 'an app container not Ready for 30 s (starting up)',
      snapshot: snapshot(unreadyPod(30), { logs: [logTail('web', [redisLine], false)], dependencies: [dep({ host: '10.96.12.7', name: 'redis' })] }),
    },
    {
      name: 'the refused host is another Service, which has ready endpoints',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        logs: [logTail('web', ['Could not connect to Redis at cache:6379: Connection refused'])],
        dependencies: [leader, dep({ host: 'cache', name: 'cache', endpoints: { ready: 2, notReady: 0 } })],
      }),
    },
  ],
  invalid: [
    {
      name: 'MySQL init container, selector role=leader, every MySQL pod role=follower',
      snapshot: snapshot(initCrashPod(), { logs: mysqlLogs, dependencies: [leader] }),
      expect: {
        severity: 'error',
        causeKey: 'service/shop/nacosdb-mysql-leader:no-endpoints',
        params: { container: 'initmysql', service: 'shop/nacosdb-mysql-leader', reason: 'labels-differ', label: 'role', want: 'leader' },
        said: [
          { id: 'title', data: { kind: 'Init container', host: 'nacosdb-mysql-leader' } },
          'isService',
          { id: 'nearly', data: { key: 'role', want: 'leader', have: 'they carry role=follower', pods: /nacosdb-mysql-0/ } },
          { id: 'fixLabels', data: { key: 'role' } },
          { id: 'restarts', data: { restarts: 9 } },
        ],
        quotes: [/Can't connect to MySQL server on 'nacosdb-mysql-leader'/, /selector app=nacosdb-mysql,release=nacosdb,role=leader/, /role=follower/],
      },
    },
    {
      name: 'Go app dials the ClusterIP, the pod behind it is not Ready',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        logs: [logTail('web', ['starting', `redis: ${redisLine}`])],
        dependencies: [
          dep({
            host: '10.96.12.7',
            name: 'redis',
            endpoints: { ready: 0, notReady: 1 },
            selector: { app: 'redis' },
            pods: [{ name: 'redis-0', ready: false, phase: 'Running' }],
          }),
        ],
      }),
      expect: {
        params: { reason: 'not-ready', host: '10.96.12.7' },
        said: ['isClusterIP', { id: 'notReady', data: { pods: 'redis-0 (Running, not Ready)' } }, { id: 'fixReadiness', data: { pod: 'redis-0' } }],
      },
    },
    {
      name: 'an init container waiting on redis-cli for 10 minutes, its addresses not ready (pods not read)',
      snapshot: snapshot(initWaitingPod(600), {
        logs: [
          logTail(
            'wait-redis',
            ['Could not connect to Redis at redis:6379: Connection refused', 'Could not connect to Redis at redis:6379: Connection refused'],
            false,
          ),
        ],
        dependencies: [dep({ host: 'redis', name: 'redis', endpoints: { ready: 0, notReady: 2 }, selector: { app: 'redis' } })],
      }),
      expect: {
        params: { container: 'wait-redis', reason: 'not-ready' },
        said: [
          { id: 'notReadyCount', data: { notReady: 2 } },
          { id: 'waiting', data: { running: '10m' } },
        ],
      },
    },
    {
      name: 'IPVS: a connection to the ClusterIP times out, the selector matches no pod',
      snapshot: snapshot(unreadyPod(900), {
        logs: [logTail('web', ['failed to connect to database: dial tcp 10.96.0.5:5432: i/o timeout'], false)],
        dependencies: [dep({ host: '10.96.0.5', name: 'postgres', selector: { app: 'postgres', tier: 'db' }, pods: [] })],
      }),
      expect: { params: { reason: 'no-match', host: '10.96.0.5' }, said: [{ id: 'noMatch', data: { selector: 'app=postgres,tier=db' } }, 'fixSelector'] },
    },
    {
      name: 'psql names the host on the line after the refusal; the Service has no selector and no Endpoints',
      snapshot: snapshot(crashedPod({ exitCode: 2, container: 'migrate' }), {
        logs: [
          logTail('migrate', [
            'psql: could not connect to server: Connection refused',
            '\tIs the server running on host "pg-external" (10.96.33.4) and accepting',
            '\tTCP/IP connections on port 5432?',
          ]),
        ],
        dependencies: [dep({ host: 'pg-external', name: 'pg-external', endpoints: null })],
      }),
      expect: { params: { reason: 'no-selector', container: 'migrate' }, said: ['noSelector', 'fixManual'] },
    },
    {
      name: 'a headless Service without ready addresses: its name does not resolve',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        logs: [logTail('web', ['dial tcp: lookup kafka-headless on 10.96.0.10:53: no such host'])],
        dependencies: [
          dep({
            host: 'kafka-headless',
            name: 'kafka-headless',
            service: { ports: [{ port: 9092 }], headless: true },
            endpoints: { ready: 0, notReady: 3 },
            selector: { app: 'kafka' },
            pods: ['kafka-0', 'kafka-1', 'kafka-2'].map((name) => ({ name, ready: false, phase: 'Running' })),
          }),
        ],
      }),
      expect: { params: { reason: 'not-ready' }, said: ['isHeadless', { id: 'notReady', data: { pods: /kafka-0 \(Running, not Ready\)/ } }] },
    },
    {
      name: 'curl (7) in a termination message, the selector matches no pod (pods not read)',
      snapshot: snapshot(crashedPod({ exitCode: 7, message: 'curl: (7) Failed to connect to api port 8080 after 2 ms: Connection refused' }), {
        dependencies: [dep({ host: 'api', name: 'api', selector: { app: 'api' } })],
      }),
      expect: { params: { reason: 'no-address' }, said: [{ id: 'noAddress', data: { selector: 'app=api' } }] },
    },
  ],
});

describe('network.service-no-endpoints in the full registry', () => {
  it('ranks first over crash.app-exit and folds it in', () => {
    const d = diagnose(snapshot(initCrashPod(), { logs: mysqlLogs, dependencies: [leader] }), { rules: RULES });
    expect(d.findings[0]).toMatchObject({ rule: 'network.service-no-endpoints' });
    expect(d.findings[0]!.merged).toContain('crash.app-exit');
    expect(d.findings.map((f) => f.rule)).not.toContain('crash.app-exit');
  });
  it('ranks first over init.waiting-dependency for an init container that waits', () => {
    const d = diagnose(
      snapshot(initWaitingPod(900), {
        logs: [logTail('wait-redis', ['Could not connect to Redis at redis:6379: Connection refused'], false)],
        dependencies: [dep({ host: 'redis', name: 'redis', selector: { app: 'redis' }, pods: [] })],
      }),
      { rules: RULES },
    );
    expect(d.findings[0]).toMatchObject({ rule: 'network.service-no-endpoints', merged: expect.arrayContaining(['init.waiting-dependency']) });
  });
});
