import { describe, expect, it } from 'vitest';
import { crashedPod, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './crash-probe-failing.js';

const withProbe = (probe: Record<string, unknown>, kind: 'livenessProbe' | 'startupProbe' = 'livenessProbe') => ({
  spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', ports: [{ containerPort: 8080 }], [kind]: probe }] },
});

const httpProbe = { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 3 };
const killedEarly = crashedPod({ exitCode: 137, restarts: 6, ranSeconds: 36 }, withProbe(httpProbe));
const containerdEvents = [
  event(killedEarly, {
    reason: 'Unhealthy',
    count: 21,
    fieldPath: 'spec.containers{web}',
    message: 'Liveness probe failed: Get "http://10.244.1.12:8080/healthz": dial tcp 10.244.1.12:8080: connect: connection refused',
  }),
  event(killedEarly, {
    reason: 'Killing',
    type: 'Normal',
    count: 6,
    fieldPath: 'spec.containers{web}',
    message: 'Container web failed liveness probe, will be restarted',
  }),
];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'crash-looping with readiness failures only (no probe kill, exit 1)',
      snapshot: snapshot(crashedPod({ exitCode: 1 }, withProbe(httpProbe)), {
        events: [
          event(pod(), {
            reason: 'Unhealthy',
            message: 'Readiness probe failed: Get "http://10.244.0.163:3000/api/health": dial tcp 10.244.0.163:3000: connect: connection refused',
          }),
        ],
      }),
    },
    {
      name: 'killed by liveness once a day ago, Running and Ready now',
      snapshot: snapshot(crashedPod({ exitCode: 137, restarts: 1, now: 'running', finishedAgo: 86400 }, withProbe(httpProbe)), {
        events: [event(pod(), { reason: 'Killing', type: 'Normal', message: 'Container web failed liveness probe, will be restarted', lastSeenAgo: 86400 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'containerd, current wording: connection refused, killed at the first chance',
      snapshot: snapshot(killedEarly, { events: containerdEvents }),
      expect: {
        severity: 'error',
        causeKey: 'workload/shop/Pod/web-7d9f8c6b5-x2k4q/web:liveness-probe',
        params: { container: 'web', probe: 'liveness', restarts: 6 },
        said: [
          {
            id: 'probeSettings',
            data: { settings: /HTTP GET http:\/\/:8080\/healthz initialDelaySeconds=5 periodSeconds=10 timeoutSeconds=1 failureThreshold=3/ },
          },
          { id: 'restartedSeen', data: { message: /connection refused/, failures: 21 } },
          'timingEarly',
        ],
        quotes: [/Container web failed liveness probe, will be restarted/],
      },
    },
    {
      name: 'docker era (<= 1.13): old Killing wording, 404 on the probe path',
      snapshot: snapshot(
        crashedPod({ exitCode: 137, restarts: 12, ranSeconds: 600, runtime: 'docker' }, withProbe({ ...httpProbe, httpGet: { path: '/health', port: 8080 } })),
        {
          events: [
            event(pod(), { reason: 'Unhealthy', count: 36, message: 'Liveness probe failed: HTTP probe failed with statuscode: 404' }),
            event(pod(), {
              reason: 'Killing',
              type: 'Normal',
              count: 12,
              message: 'Killing container with id docker://web:Container failed liveness probe.. Container will be killed and recreated.',
            }),
          ],
        },
      ),
      expect: {
        said: [
          { id: 'restartedSeen', data: { message: 'HTTP probe failed with statuscode: 404' } },
          { id: 'probeSettings', data: { settings: /\/health / } },
        ],
        quotes: [/Killing container with id docker:\/\/web/],
      },
    },
    {
      name: 'startup probe kills a slow starter, running again between kills',
      snapshot: snapshot(
        crashedPod(
          { exitCode: 143, restarts: 4, now: 'running', finishedAgo: 30, ranSeconds: 30 },
          withProbe({ tcpSocket: { port: 8080 }, periodSeconds: 5, failureThreshold: 6 }, 'startupProbe'),
        ),
        {
          events: [
            event(pod(), { reason: 'Unhealthy', count: 24, message: 'Startup probe failed: dial tcp 10.244.1.12:8080: connect: connection refused' }),
            event(pod(), { reason: 'Killing', type: 'Normal', count: 4, message: 'Container web failed startup probe, will be restarted' }),
          ],
        },
      ),
      expect: { severity: 'warning', params: { probe: 'startup' }, said: [{ id: 'titleAction', data: { action: 'TCP :8080', probeKind: 'Startup' } }] },
    },
    {
      name: 'Killing events aged out: liveness failures plus exit 137 suffice; probe on an undeclared port',
      snapshot: snapshot(crashedPod({ exitCode: 137 }, withProbe({ httpGet: { path: '/healthz', port: 9090 }, timeoutSeconds: 1 })), {
        events: [
          event(pod(), {
            reason: 'Unhealthy',
            message: 'Liveness probe failed: Get "http://10.1.2.3:9090/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          }),
        ],
      }),
      expect: { said: [{ id: 'restartedSeen', data: { message: /context deadline exceeded/ } }] },
    },
  ],
});

describe('crash.probe-failing', () => {
  it('supersedes crash.app-exit and advises a startupProbe when killed early', () => {
    const d = diagnose(snapshot(killedEarly, { events: containerdEvents }), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.probe-failing']);
    expect(d.findings[0]?.advice.join('\n')).toMatch(/startupProbe/);
  });
  it('names an undeclared probe port and a too-short timeout', () => {
    const p = crashedPod({ exitCode: 137 }, withProbe({ httpGet: { path: '/healthz', port: 9090 } }));
    const d = diagnose(
      snapshot(p, {
        events: [
          event(p, {
            reason: 'Unhealthy',
            message: 'Liveness probe failed: Get "http://10.1.2.3:9090/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
          }),
        ],
      }),
      { rules: [rule] },
    );
    const advice = d.findings[0]?.advice.join('\n') ?? '';
    expect(advice).toMatch(/port 9090 but the container declares 8080/);
    expect(advice).toMatch(/timeoutSeconds=1/);
  });
});

describe('crash.probe-failing, graceful apps', () => {
  it('catches a probe kill whose container exits 0 after SIGTERM (the app shuts down cleanly)', () => {
    const p = crashedPod({ exitCode: 0, reason: 'Completed', restarts: 5, ranSeconds: 40 }, withProbe(httpProbe));
    const events = [
      event(p, { reason: 'Unhealthy', count: 15, fieldPath: 'spec.containers{web}', message: 'Liveness probe failed: HTTP probe failed with statuscode: 503' }),
      event(p, {
        reason: 'Killing',
        type: 'Normal',
        count: 5,
        fieldPath: 'spec.containers{web}',
        message: 'Container web failed liveness probe, will be restarted',
      }),
    ];
    const d = diagnose(snapshot(p, { events }), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.probe-failing']);
    expect(d.findings[0]?.cause).toMatch(/exit code 0/);
  });
  it('leaves a normal exit 0 without a probe kill alone', () => {
    const p = crashedPod({ exitCode: 0, reason: 'Completed', restarts: 5 }, withProbe(httpProbe));
    expect(diagnose(snapshot(p), { rules: [rule] }).findings).toEqual([]);
  });
});
