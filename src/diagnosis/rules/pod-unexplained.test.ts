import { describe, expect, it } from 'vitest';
import { ago, completedJobPod, crashedPod, event, pod, snapshot, unscheduledPod, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './pod-unexplained.js';

// A waiting reason no rule knows (a runtime-specific one), with the kubelet's message.
const oddWaiting = waitingPod('ContainerCannotRun', 'OCI runtime state failed: fork/exec /usr/bin/runc: resource temporarily unavailable: unknown');

// Running, Ready=False for 20 minutes, no probe events: nothing specific to say.
const notReady = pod({
  status: {
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Initialized', status: 'True' },
      {
        type: 'ContainersReady',
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [web]',
        lastTransitionTime: ago(1200),
      },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]', lastTransitionTime: ago(1200) },
    ],
    containerStatuses: [
      { name: 'web', ready: false, restartCount: 0, image: 'registry.example.com/shop/web:1.4.2', imageID: '', state: { running: { startedAt: ago(3580) } } },
    ],
  },
});

// Ready now; readiness failed while it started 50 minutes ago (a rollout): history, not a problem.
const rolledOut = pod({
  status: {
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True', lastTransitionTime: ago(3000) },
    ],
  },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    {
      name: 'ContainerCreating for 40 s (image pull in progress)',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(45) }, status: { startTime: ago(40) } })),
    },
    { name: 'Pending 20 s, within the grace', snapshot: snapshot(unscheduledPod(undefined, {}, 20)) },
    { name: 'deleted, in its grace period', snapshot: snapshot(pod({ metadata: { deletionTimestamp: ago(-20), deletionGracePeriodSeconds: 30 } })) },
    {
      name: 'Ready after a rollout whose readiness probe failed while starting',
      snapshot: snapshot(rolledOut, {
        events: [
          event(rolledOut, {
            reason: 'Unhealthy',
            count: 4,
            lastSeenAgo: 3010,
            message: 'Readiness probe failed: Get "http://10.244.1.12:8080/ready": dial tcp 10.244.1.12:8080: connect: connection refused',
          }),
        ],
      }),
    },
    { name: 'restarted once a day ago', snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 1, now: 'running', finishedAgo: 86400 })) },
    // Explained and over: OOMKilled once 45 minutes ago, running and Ready since.
    {
      name: 'Ready; its one restart 45 minutes ago (OOMKilled) is over',
      snapshot: snapshot(crashedPod({ exitCode: 137, reason: 'OOMKilled', restarts: 1, now: 'running', finishedAgo: 2700 })),
    },
    {
      name: 'Ready, with a benign Warning repeated after it became Ready (DNSConfigForming)',
      snapshot: snapshot(rolledOut, {
        events: [
          event(rolledOut, {
            reason: 'DNSConfigForming',
            count: 38,
            lastSeenAgo: 60,
            message: 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.0.0.2 10.0.0.3 10.0.0.4',
          }),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'running, not Ready, no probe events, and its own log says why: the mechanism and its knob instead of "no rule matched"',
      snapshot: snapshot(notReady, {
        logs: [
          {
            container: 'web',
            previous: false,
            lines: [
              'level=info msg="starting web"',
              'level=error msg="sync failed" err="Get \\"https://vault.internal:8200/v1/sys/health\\": tls: failed to verify certificate: x509: certificate signed by unknown authority"',
              'level=info msg="retrying in 30s"',
            ],
          },
        ],
      }),
      expect: {
        severity: 'warning',
        mechanism: 'tls-unknown-authority',
        said: [
          { id: 'mechanismTitle', data: { summary: /certificate authority is not trusted/ } },
          { id: 'decisiveLine', data: { line: /x509: certificate signed by unknown authority/ } },
        ],
      },
    },
    {
      name: 'a waiting reason no rule knows, quoted with its message',
      snapshot: snapshot(oddWaiting, {
        events: [
          event(oddWaiting, {
            reason: 'Failed',
            count: 9,
            lastSeenAgo: 40,
            message: 'Error: ContainerCannotRun: OCI runtime state failed: fork/exec /usr/bin/runc: resource temporarily unavailable: unknown',
          }),
        ],
      }),
      expect: {
        severity: 'warning',
        said: [{ id: 'unhealthyTitle', data: { what: 'container web waiting: ContainerCannotRun' } }, 'unhealthy'],
        quotes: [/resource temporarily unavailable/],
      },
    },
    {
      name: 'Running but not Ready for 20 minutes',
      snapshot: snapshot(notReady),
      expect: { said: [{ id: 'unhealthyTitle', data: { what: 'Running but not Ready for 20m' } }], quotes: [/containers with unready status: \[web\]/] },
    },
    {
      name: 'Ready, but Warning events keep coming after it became Ready',
      snapshot: snapshot(rolledOut, {
        events: [
          event(rolledOut, {
            reason: 'FailedToUpdateEndpoint',
            count: 12,
            lastSeenAgo: 120,
            component: 'endpoint-controller',
            message:
              'Failed to update endpoint shop/web: Operation cannot be fulfilled on endpoints "web": the object has been modified; ' +
              'please apply your changes to the latest version and try again',
          }),
        ],
      }),
      // Ready now: history, quoted at info, never an alarm.
      expect: { severity: 'info', said: [{ id: 'readyNowTitle', data: { what: 'FailedToUpdateEndpoint events' } }] },
    },
    {
      name: 'running between crashes of a restart loop (4 restarts, the last 3 minutes ago) is not over',
      snapshot: snapshot(crashedPod({ exitCode: 2, restarts: 4, now: 'running', finishedAgo: 180 })),
      expect: { severity: 'warning', said: [{ id: 'unhealthyTitle', data: { what: 'container web restarted 4 times, last 3m ago (Error 2)' } }] },
    },
    {
      name: 'ContainerCreating for 10 minutes with no event that any rule knows',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { status: { startTime: ago(600) } })),
      expect: { said: [{ id: 'unhealthyTitle', data: { what: 'container web waiting: ContainerCreating for 10m' } }] },
    },
    {
      name: 'phase Unknown, and it says which checks could not run',
      snapshot: {
        ...snapshot(pod({ status: { phase: 'Unknown', reason: 'NodeLost', message: 'Node node-1 which was running pod web is unresponsive' } })),
        gaps: [{ check: 'node', reason: 'HTTP 403 (forbidden)', kind: 'forbidden', origin: 'api' }],
      },
      expect: {
        said: [
          { id: 'unhealthyTitle', data: { what: /phase Unknown/ } },
          { id: 'checksMissed', data: { checks: 'node' } },
        ],
      },
    },
  ],
});

describe('pod.unexplained in the engine', () => {
  it('stays out of the way when a specific rule explains the pod', () => {
    const p = crashedPod({ exitCode: 1, restarts: 7 });
    const d = diagnose(snapshot(p), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toContain('crash.app-exit');
    expect(d.findings.map((f) => f.rule)).not.toContain('pod.unexplained');
  });
  it('answers when no other rule does', () => {
    const d = diagnose(snapshot(oddWaiting), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toEqual(['pod.unexplained']);
  });
  it('is not run at all when it is disabled by configuration', () => {
    const d = diagnose(snapshot(oddWaiting), { rules: RULES, overrides: { 'pod.unexplained': { enabled: false } } });
    expect(d.findings).toEqual([]);
  });
});
