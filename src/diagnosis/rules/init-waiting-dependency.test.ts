import { describe, expect, it } from 'vitest';
import { ago, containerStatus, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Pod } from '../types.js';
import { dependencyOf, rule } from './init-waiting-dependency.js';

function initPod(command: string[], runningFor: number, extra: Partial<{ restartPolicy: string }> = {}): Pod {
  return pod({
    spec: { initContainers: [{ name: 'wait-db', image: 'busybox:1.36', command, ...extra }] },
    status: {
      phase: 'Pending',
      conditions: [
        { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [wait-db]' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
      ],
      initContainerStatuses: [
        containerStatus({ name: 'wait-db', ready: false, started: true, restartCount: 0, state: { running: { startedAt: ago(runningFor) } } }),
      ],
      containerStatuses: [containerStatus({ ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })],
    },
  });
}
const nslookup = ['sh', '-c', 'until nslookup postgres.db.svc.cluster.local; do echo waiting for postgres; sleep 2; done'];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'init container running for 40 s', snapshot: snapshot(initPod(nslookup, 40)) },
    { name: 'a native sidecar (restartPolicy Always) runs on purpose', snapshot: snapshot(initPod(['envoy'], 3600, { restartPolicy: 'Always' })) },
  ],
  invalid: [
    {
      name: 'until nslookup ... for 25 minutes, log says NXDOMAIN',
      snapshot: snapshot(initPod(nslookup, 1500), {
        logs: [
          logTail(
            'wait-db',
            ['Server:    10.96.0.10', 'Address:   10.96.0.10:53', "** server can't find postgres.db.svc.cluster.local: NXDOMAIN", 'waiting for postgres'],
            false,
          ),
        ],
      }),
      expect: {
        severity: 'warning',
        params: { container: 'wait-db', dependency: 'postgres.db.svc.cluster.local' },
        said: [
          { id: 'titleFor', data: { running: '25m', done: 0, total: 1 } },
          { id: 'lastLines', data: { lines: /NXDOMAIN/ } },
        ],
      },
    },
    {
      name: 'its log says the name does not resolve: the mechanism and its knob',
      snapshot: snapshot(initPod(['/bin/check'], 1200), {
        logs: [logTail('wait-db', ['checking kafka', 'dial tcp: lookup kafka.streaming on 10.96.0.10:53: no such host', 'retrying in 5s'], false)],
      }),
      expect: {
        mechanism: 'dns-resolution',
        mechanismVariant: 'no-such-name',
        said: [{ id: 'mechanism', data: { explanation: /kafka\.streaming does not exist where the resolver looks/ } }],
      },
    },
    {
      name: 'wait-for-it with a port, no log',
      snapshot: snapshot(initPod(['/wait-for-it.sh', 'rabbitmq:5672', '--', 'echo', 'up'], 900)),
      expect: { params: { dependency: 'rabbitmq:5672' }, said: ['noLogs'] },
    },
  ],
});

describe('dependencyOf', () => {
  it.each([
    [['sh', '-c', 'while ! nc -z redis-master 6379; do sleep 1; done'], [], 'redis-master:6379'],
    [['sh', '-c', 'until pg_isready -h pg.db -p 5432; do sleep 2; done'], [], 'pg.db'],
    [['/bin/check'], ['dial tcp: lookup kafka.streaming on 10.96.0.10:53: no such host'], 'kafka.streaming'],
  ])('%j / %j → %s', (command, lines, dep) => {
    expect(dependencyOf({ name: 'x', command }, lines)).toBe(dep);
  });
});
