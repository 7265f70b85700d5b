import { describe, expect, it } from 'vitest';
import { ago, event, logTail, ownerFact, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Event, KubeObject, Pod, Snapshot } from '../types.js';
import { RULES } from './index.js';
import { rule } from './statefulset-ordered-ready-deadlock.js';

interface StsInit {
  policy?: 'OrderedReady' | 'Parallel';
  replicas?: number;
  created?: number;
  ready?: number;
  service?: string;
}

/** StatefulSet `name` as the API serves it: the policy (unset by default, as an old manifest leaves it), replicas and status. */
function sts(name: string, init: StsInit = {}) {
  return ownerFact('StatefulSet', name, {
    spec: {
      replicas: init.replicas ?? 3,
      serviceName: init.service ?? name,
      ...(init.policy ? { podManagementPolicy: init.policy } : {}),
      selector: { matchLabels: { app: name } },
    },
    status: { replicas: init.created ?? 1, readyReplicas: init.ready ?? 0, currentReplicas: init.created ?? 1, observedGeneration: 1 },
  });
}

/** Pod `<set>-<ordinal>`, Running and not Ready for `notReadyFor` seconds (its container `container`, restarted `restarts` times). */
function member(set: string, ordinal: number, init: { container?: string; notReadyFor?: number; restarts?: number; crashLooping?: boolean } = {}): Pod {
  const container = init.container ?? set;
  const name = `${set}-${ordinal}`;
  return pod({
    metadata: {
      name,
      labels: { app: set, 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(ordinal) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set, uid: 'c690c98f-5031-4064-840b-bb99b81a8817', controller: true }],
    },
    spec: { hostname: name, subdomain: set, containers: [{ name: container, image: `registry.example.com/${set}:1` }] },
    status: {
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: ago(init.notReadyFor ?? 2400) },
        {
          type: 'Ready',
          status: 'False',
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${container}]`,
          lastTransitionTime: ago(init.notReadyFor ?? 2400),
        },
      ],
      containerStatuses: [
        {
          name: container,
          ready: false,
          started: !init.crashLooping,
          restartCount: init.restarts ?? 0,
          image: `registry.example.com/${set}:1`,
          imageID: '',
          state: init.crashLooping
            ? { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${container} pod=${name}_shop(x)` } }
            : { running: { startedAt: ago(600) } },
          ...(init.restarts
            ? {
                lastState: {
                  terminated: {
                    exitCode: init.crashLooping ? 1 : 0,
                    reason: init.crashLooping ? 'Error' : 'Completed',
                    startedAt: ago(1560),
                    finishedAt: ago(610),
                  },
                },
              }
            : {}),
        },
      ],
    },
  });
}

const headless = (name: string, publishNotReady: boolean): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'shop' },
  spec: { clusterIP: 'None', selector: { app: name }, ...(publishNotReady ? { publishNotReadyAddresses: true } : {}) },
});

// NATS JetStream (nats-io/k8s#622): routes to nats-1 and nats-2 do not resolve, the health check wants a meta leader.
const natsLines = [
  '[7] 2026/11/21 09:50:11.000000 [INF] Starting nats-server',
  '[7] 2026/11/21 09:50:11.000000 [INF]   Version:  2.9.10',
  '[7] 2026/11/21 09:50:11.000000 [INF]   Name:     nats-0',
  '[7] 2026/11/21 09:50:11.000000 [INF] Starting JetStream cluster',
  '[7] 2026/11/21 09:50:11.000000 [INF] Server is ready',
  '[7] 2026/11/21 09:58:13.000000 [ERR] Error trying to connect to route (attempt 9): lookup for host "nats-1.nats.shop.svc.cluster.local": ' +
    'lookup nats-1.nats.shop.svc.cluster.local on 10.96.0.10:53: no such host',
  '[7] 2026/11/21 09:58:13.000000 [ERR] Error trying to connect to route (attempt 9): lookup for host "nats-2.nats.shop.svc.cluster.local": ' +
    'lookup nats-2.nats.shop.svc.cluster.local on 10.96.0.10:53: no such host',
  '[7] 2026/11/21 09:59:52.000000 [WRN] Healthcheck failed: "JetStream has not established contact with a meta leader"',
];
const nats0 = member('nats', 0, { restarts: 2 });
const natsEvents: Event[] = [
  event(nats0, {
    reason: 'Unhealthy',
    message: 'Startup probe failed: HTTP probe failed with statuscode: 503',
    count: 236,
    lastSeenAgo: 6,
    firstSeenAgo: 2450,
    fieldPath: 'spec.containers{nats}',
  }),
  event(nats0, {
    reason: 'Killing',
    type: 'Normal',
    message: 'Container nats failed startup probe, will be restarted',
    count: 2,
    lastSeenAgo: 610,
    fieldPath: 'spec.containers{nats}',
  }),
];
function natsCase(init: StsInit = {}, lines = natsLines, p = nats0, more: Partial<Snapshot> = {}): Snapshot {
  return snapshot(p, {
    owners: [sts('nats', { policy: 'OrderedReady', ...init })],
    logs: [logTail('nats', lines, false)],
    events: natsEvents,
    services: [headless('nats', true)],
    ...more,
  });
}

// etcd (bitnami/charts#1034 wording) with the policy unset: etcd-1 exists and waits for etcd-2.
const etcdLines = [
  '2026-11-21 09:59:48.495071 W | pkg/netutil: failed resolving host etcd-2.etcd-headless.shop.svc.cluster.local:2380 ' +
    '(lookup etcd-2.etcd-headless.shop.svc.cluster.local on 10.96.0.10:53: no such host); retrying in 1s',
  '2026-11-21 09:59:49.497097 W | pkg/netutil: failed resolving host etcd-2.etcd-headless.shop.svc.cluster.local:2380 ' +
    '(lookup etcd-2.etcd-headless.shop.svc.cluster.local on 10.96.0.10:53: no such host); retrying in 1s',
];

// ZooKeeper, crash-looping: its previous run could not open election channels to zk-1 and zk-2.
const zkLines = [
  '2026-11-21 09:58:59,971 [myid:1] - INFO  [QuorumPeer[myid=1]/0.0.0.0:2181:QuorumPeer@865] - LOOKING',
  '2026-11-21 09:58:59,980 [myid:1] - WARN  [QuorumPeer[myid=1]/0.0.0.0:2181:QuorumCnxManager@584] - ' +
    'Cannot open channel to 2 at election address zk-1.zk-hs.shop.svc.cluster.local:3888',
  'java.net.UnknownHostException: zk-1.zk-hs.shop.svc.cluster.local',
  '\tat java.net.AbstractPlainSocketImpl.connect(AbstractPlainSocketImpl.java:184)',
  '2026-11-21 09:58:59,990 [myid:1] - WARN  [QuorumPeer[myid=1]/0.0.0.0:2181:QuorumCnxManager@584] - ' +
    'Cannot open channel to 3 at election address zk-2.zk-hs.shop.svc.cluster.local:3888',
  'java.net.UnknownHostException: zk-2.zk-hs.shop.svc.cluster.local',
];

// Elasticsearch 7 names the initial master nodes by their bare node (pod) names.
const esLine =
  '{"type": "server", "timestamp": "2026-11-21T09:59:40,214Z", "level": "WARN", "component": "o.e.c.c.ClusterFormationFailureHelper", ' +
  '"cluster.name": "elasticsearch", "node.name": "es-master-0", "message": "master not discovered yet, this node has not previously joined a ' +
  'bootstrapped (v7+) cluster, and this node must discover master-eligible nodes [es-master-0, es-master-1, es-master-2] to bootstrap a cluster: ' +
  'have discovered [{es-master-0}{n4Q2}{10.244.1.5}{10.244.1.5:9300}{dilm}]; discovery will continue using [10.244.1.5:9300] from hosts providers" }';

// Consul servers with bootstrap_expect=3: no leader, and the retry-join targets do not resolve.
const consulLines = [
  '2026-11-21T09:42:55.048Z [WARN]  agent: bootstrap_expect > 0: expecting 3 servers',
  '2026-11-21T09:59:25.071Z [WARN]  agent.cluster: Join cluster failed, will retry: cluster=LAN retry_interval=30s error="2 errors occurred: ' +
    '* Failed to resolve consul-server-1.consul-server.shop.svc:8301: lookup consul-server-1.consul-server.shop.svc on 10.96.0.10:53: no such host"',
  '2026-11-21T09:59:31.120Z [ERROR] agent.anti_entropy: failed to sync remote state: error="No cluster leader"',
];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'healthy StatefulSet member: all replicas created and Ready',
      snapshot: snapshot(pod({ metadata: { name: 'nats-0' } }), { owners: [sts('nats', { created: 3, ready: 3 })], logs: [] }),
    },
    { name: 'near miss: podManagementPolicy Parallel (every ordinal is created at once)', snapshot: natsCase({ policy: 'Parallel' }) },
    { name: 'near miss: all replicas exist (peers that exist but do not resolve are a DNS problem)', snapshot: natsCase({ created: 3, ready: 2 }) },
    {
      name: 'near miss: a single-replica StatefulSet has no peers to wait for',
      snapshot: natsCase({ replicas: 1, created: 1 }),
    },
    {
      name: 'near miss: no such host for a name that is not a peer',
      snapshot: natsCase({}, [
        'level=error msg="cannot connect to database" error="dial tcp: lookup postgres.db.svc.cluster.local on 10.96.0.10:53: no such host"',
        'level=error msg="cannot connect to cache" error="dial tcp: lookup nats-cache-1.redis.shop.svc.cluster.local: no such host"',
      ]),
    },
    {
      name: 'near miss: not Ready for 2 minutes (still starting)',
      snapshot: natsCase({}, natsLines, member('nats', 0, { notReadyFor: 120 })),
    },
    {
      name: 'near miss: the log only lists the routes and the version (no failure, no wait for a leader)',
      snapshot: natsCase({}, [
        '[7] [INF]   Version:  nats-2.9.10',
        '[7] [INF] Configured routes: nats://nats-1.nats.shop.svc.cluster.local:6222, nats://nats-2.nats.shop.svc.cluster.local:6222',
        '[7] [INF] Server is ready',
      ]),
    },
    {
      name: 'near miss: no owner object was read (the policy and status are unknown)',
      snapshot: snapshot(nats0, { owners: [{ kind: 'StatefulSet', name: 'nats', events: [] }], logs: [logTail('nats', natsLines, false)], events: natsEvents }),
    },
  ],
  invalid: [
    {
      name: 'NATS JetStream: nats-0 waits for a meta leader, nats-1 and nats-2 were never created',
      snapshot: natsCase(),
      expect: {
        severity: 'error',
        playbook: null,
        params: { statefulSet: 'nats', ordinal: 0, desired: 3, created: 1, missing: ['nats-1', 'nats-2'] },
        said: [
          { id: 'ordered', data: { sts: 'nats', desired: 3, created: 1, ready: 0, policy: 'OrderedReady' } },
          { id: 'waits', data: { pod: 'nats-0', ordinal: 0, since: '40m', line: /JetStream has not established contact with a meta leader/ } },
          { id: 'peers', data: { peers: 'nats-1, nats-2', peerLine: /lookup nats-2\.nats\.shop\.svc\.cluster\.local .*no such host/ } },
          'deadlock',
          { id: 'parallel', data: { sts: 'nats', namespace: 'shop', desired: 3 } },
          'localReadiness',
        ],
        quotes: [
          /JetStream has not established contact with a meta leader/,
          /podManagementPolicy: OrderedReady, spec.replicas: 3, status.replicas: 1/,
          /Startup probe failed: HTTP probe failed with statuscode: 503/,
          /failed startup probe, will be restarted/,
        ],
      },
    },
    {
      name: 'etcd, policy unset: etcd-1 (the newest pod) fails to resolve etcd-2, no wait line',
      snapshot: snapshot(member('etcd', 1), {
        owners: [sts('etcd', { service: 'etcd-headless', created: 2, ready: 1 })],
        logs: [logTail('etcd', etcdLines, false)],
        services: [headless('etcd-headless', false)],
      }),
      expect: {
        params: { ordinal: 1, missing: ['etcd-2'] },
        said: [
          { id: 'ordered', data: { policy: 'unset (OrderedReady, the default)', created: 2, ready: 1 } },
          { id: 'peersOnly', data: { peers: 'etcd-2', peerLine: /failed resolving host etcd-2\.etcd-headless/ } },
          { id: 'publishNotReady', data: { service: 'etcd-headless' } },
        ],
        quotes: [/podManagementPolicy: \(unset: OrderedReady\)/],
      },
    },
    {
      name: 'ZooKeeper crash-looping: its previous run cannot open election channels to zk-1 and zk-2 (UnknownHostException)',
      snapshot: snapshot(member('zk', 0, { container: 'zookeeper', restarts: 6, crashLooping: true }), {
        owners: [sts('zk', { service: 'zk-hs' })],
        logs: [logTail('zookeeper', zkLines, true)],
      }),
      expect: {
        params: { missing: ['zk-1', 'zk-2'] },
        said: [{ id: 'peersOnly', data: { peers: 'zk-1, zk-2' } }],
        quotes: [/UnknownHostException: zk-2\.zk-hs/],
      },
    },
    {
      name: 'Elasticsearch: master not discovered, the bare node names of the missing masters',
      snapshot: snapshot(member('es-master', 0, { container: 'elasticsearch' }), {
        owners: [sts('es-master', { policy: 'OrderedReady', service: 'es-master-headless' })],
        logs: [logTail('elasticsearch', [esLine], false)],
      }),
      expect: {
        params: { missing: ['es-master-1', 'es-master-2'] },
        said: [
          { id: 'waits', data: { line: /^…[^{]*master not discovered yet/ } },
          { id: 'peersNamed', data: { peers: 'es-master-1, es-master-2' } },
        ],
        quotes: [/must discover master-eligible nodes \[es-master-0, es-master-1, es-master-2\]/],
      },
    },
    {
      name: 'Consul: No cluster leader, and the retry-join address of consul-server-1 does not resolve',
      snapshot: snapshot(member('consul-server', 0, { container: 'consul' }), {
        owners: [sts('consul-server', { replicas: 2, policy: 'OrderedReady' })],
        logs: [logTail('consul', consulLines, false)],
      }),
      expect: {
        params: { missing: ['consul-server-1'], desired: 2 },
        said: [{ id: 'waits', data: { line: /No cluster leader/ } }],
      },
    },
  ],
});

describe('statefulset.ordered-ready-deadlock among the other rules', () => {
  it('ranks before the startup probe that kills nats-0, and folds it in', () => {
    const d = diagnose(natsCase(), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('statefulset.ordered-ready-deadlock');
    expect(d.findings[0]?.merged).toContain('crash.probe-failing');
  });
  it('ranks before readiness.failing when only the readiness probe fails', () => {
    const p = member('nats', 0);
    const readinessEvent = event(p, {
      reason: 'Unhealthy',
      message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
      count: 200,
      lastSeenAgo: 5,
      fieldPath: 'spec.containers{nats}',
    });
    const s: Snapshot = { ...natsCase({}, natsLines, p), events: [readinessEvent] };
    const d = diagnose(s, { rules: RULES });
    expect(d.findings[0]?.rule).toBe('statefulset.ordered-ready-deadlock');
    expect(d.findings.map((f) => f.rule)).not.toContain('readiness.failing');
  });
  it('says nothing with the Parallel policy', () => {
    const d = diagnose(natsCase({ policy: 'Parallel' }), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).not.toContain('statefulset.ordered-ready-deadlock');
  });
});
