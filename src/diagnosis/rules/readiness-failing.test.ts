import { describe, expect, it } from 'vitest';
import { ago, crashedPod, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import type { KubeObject, Pod } from '../types.js';
import { rule } from './readiness-failing.js';

const probe = { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5, failureThreshold: 3 };
function unready(notReadySeconds: number, patch: Partial<Pod> = {}): Pod {
  const p = pod({
    spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', readinessProbe: probe }] },
    status: {
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        {
          type: 'Ready',
          status: 'False',
          reason: 'ContainersNotReady',
          message: 'containers with unready status: [web]',
          lastTransitionTime: ago(notReadySeconds),
        },
      ],
      containerStatuses: [
        {
          name: 'web',
          ready: false,
          started: true,
          restartCount: 0,
          image: 'registry.example.com/shop/web:1.4.2',
          imageID: '',
          state: { running: { startedAt: ago(3580) } },
        },
      ],
    },
  });
  return { ...p, ...patch };
}
const svc = (name: string, selector: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'shop' },
  spec: { selector },
});
const failing = (p: Pod, message: string, lastSeenAgo = 5, count = 240) =>
  event(p, { reason: 'Unhealthy', count, lastSeenAgo, firstSeenAgo: 1800, fieldPath: 'spec.containers{web}', message });

const p503 = unready(1800);
testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'not Ready for 2 minutes (still starting)',
      snapshot: snapshot(unready(120), { events: [failing(unready(120), 'Readiness probe failed: HTTP probe failed with statuscode: 503')] }),
    },
    {
      name: 'crash-looping (the crash rules speak)',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        events: [failing(pod(), 'Readiness probe failed: Get "http://10.244.1.12:8080/ready": dial tcp 10.244.1.12:8080: connect: connection refused')],
      }),
    },
    {
      name: 'unready, but the failures stopped an hour ago',
      snapshot: snapshot(unready(7200), { events: [failing(unready(7200), 'Readiness probe failed: HTTP probe failed with statuscode: 503', 3600)] }),
    },
  ],
  invalid: [
    {
      name: "its current log explains it: the app's ServiceAccount may not list pods (a mechanism, with the knob)",
      snapshot: snapshot(p503, {
        events: [failing(p503, 'Readiness probe failed: HTTP probe failed with statuscode: 503')],
        logs: [
          {
            container: 'web',
            previous: false,
            lines: [
              'I1121 09:00:01.000000       1 main.go:40] starting controller',
              'E1121 09:00:02.000000       1 reflector.go:147] failed to list *v1.Pod: pods is forbidden: User "system:serviceaccount:shop:web" cannot list resource "pods" in API group "" in the namespace "shop"',
              'I1121 09:00:03.000000       1 main.go:52] waiting for caches to sync',
            ],
          },
        ],
      }),
      expect: {
        mechanism: 'rbac-forbidden',
        mechanismVariant: 'missing-grant',
        said: [
          { id: 'titleMechanism', data: { summary: /may not list pods in namespace shop/ } },
          { id: 'decisiveLine', data: { line: /cannot list resource "pods"/ } },
        ],
      },
    },
    {
      name: 'HTTP 503 for 30 minutes, two Services lose it',
      snapshot: snapshot(p503, {
        events: [failing(p503, 'Readiness probe failed: HTTP probe failed with statuscode: 503')],
        services: [svc('web', { app: 'web' }), svc('web-internal', { app: 'web' })],
      }),
      expect: {
        severity: 'warning',
        params: { container: 'web', failures: 240, services: ['web', 'web-internal'] },
        said: [
          { id: 'title', data: { failure: 'HTTP probe failed with statuscode: 503', since: '30m' } },
          { id: 'notEndpoints', data: { services: 'web, web-internal' } },
        ],
      },
    },
    {
      name: 'connection refused (app listens elsewhere)',
      snapshot: snapshot(unready(900), {
        events: [failing(unready(900), 'Readiness probe failed: Get "http://10.244.1.12:8080/ready": dial tcp 10.244.1.12:8080: connect: connection refused')],
      }),
      expect: { said: [{ id: 'title', data: { failure: /connection refused/ } }, 'noService'] },
    },
    {
      name: 'older kubelet wording: request canceled, no fieldPath',
      snapshot: snapshot(unready(900), {
        events: [
          event(pod(), {
            reason: 'Unhealthy',
            count: 80,
            message: 'Readiness probe failed: Get http://10.244.1.12:8080/ready: net/http: request canceled (Client.Timeout exceeded while awaiting headers)',
          }),
        ],
      }),
      expect: { said: [{ id: 'title', data: { failure: /Client.Timeout exceeded/ } }] },
    },
  ],
});

describe('readiness.failing', () => {
  it('advises by the failure: a 5xx points at dependencies, a timeout at timeoutSeconds', () => {
    const found = findingsOf(rule, snapshot(p503, { events: [failing(p503, 'Readiness probe failed: HTTP probe failed with statuscode: 503')] }));
    expect(found[0]?.advice.join('\n')).toMatch(/dependency/);
  });
});
