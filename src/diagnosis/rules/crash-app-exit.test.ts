import { describe, expect, it } from 'vitest';
import { ago, containerStatus, crashedPod, event, logTail, pod, snapshot, terminated, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { exitMeaning } from '../crashes.js';
import { diagnose } from '../engine.js';
import { rule } from './crash-app-exit.js';

const JOB_OWNER = [{ apiVersion: 'batch/v1', kind: 'Job', name: 'report-29', uid: 'job-uid', controller: true }];

/** A finished Job pod: `main` exited 0 at t-120s; `sidecar` as given. */
function jobPod(phase: 'Succeeded' | 'Failed', sidecar: { name: string; exitCode: number; native?: boolean }) {
  const main = containerStatus({ name: 'main', ready: false, state: { terminated: terminated({ exitCode: 0, finishedAgo: 120, ranSeconds: 300 }) } });
  const side = containerStatus({
    name: sidecar.name,
    ready: false,
    state: { terminated: terminated({ exitCode: sidecar.exitCode, finishedAgo: 118, ranSeconds: 310 }) },
  });
  return pod({
    metadata: { name: 'report-29-abcde', ownerReferences: JOB_OWNER },
    spec: {
      restartPolicy: 'Never',
      containers: [
        { name: 'main', image: 'registry.example.com/batch/report:3' },
        ...(sidecar.native ? [] : [{ name: sidecar.name, image: 'docker.io/istio/proxyv2:1.24.0' }]),
      ],
      ...(sidecar.native ? { initContainers: [{ name: sidecar.name, image: 'docker.io/istio/proxyv2:1.24.0', restartPolicy: 'Always' }] } : {}),
    },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted' }],
      containerStatuses: sidecar.native ? [main] : [main, side],
      ...(sidecar.native ? { initContainerStatuses: [side] } : {}),
    },
  });
}

const crashLoop = crashedPod({ exitCode: 1, restarts: 7 });
const neverRestart = crashedPod({ exitCode: 2, now: 'terminated' }, { spec: { restartPolicy: 'Never' } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'completed Job pod', snapshot: snapshot(jobPod('Succeeded', { name: 'log-shipper', exitCode: 0 })) },
    {
      name: 'completed Job pod whose istio-proxy sidecar was killed (137) after main finished',
      snapshot: snapshot(jobPod('Failed', { name: 'istio-proxy', exitCode: 137 })),
    },
    {
      name: 'completed Job pod whose unnamed sidecar got SIGTERM (143) after main finished',
      snapshot: snapshot(jobPod('Failed', { name: 'log-shipper', exitCode: 143 })),
    },
    {
      name: 'native sidecar (init, restartPolicy Always) exited 143 after the Job completed',
      snapshot: snapshot(jobPod('Succeeded', { name: 'istio-proxy', exitCode: 143, native: true })),
    },
    {
      name: 'restarted once a day ago, Running and Ready now',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 1, now: 'running', finishedAgo: 86400 })),
    },
    {
      name: 'evicted pod (its containers were killed by the kubelet)',
      snapshot: snapshot(
        crashedPod({ exitCode: 137, now: 'terminated' }, { status: { reason: 'Evicted', message: 'The node was low on resource: memory. ' } }),
      ),
    },
    {
      name: 'deleted pod whose container was killed on shutdown',
      snapshot: snapshot(crashedPod({ exitCode: 137, now: 'terminated' }, { metadata: { deletionTimestamp: ago(-10) } })),
    },
    {
      name: 'image pull just started',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(5) } }), {
        events: [event(pod(), { reason: 'Pulling', type: 'Normal', message: 'Pulling image "registry.example.com/shop/web:1.4.2"', lastSeenAgo: 3 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'CrashLoopBackOff exit 1, containerd, previous logs (new BackOff wording)',
      snapshot: snapshot(crashLoop, {
        events: [
          event(crashLoop, {
            reason: 'BackOff',
            count: 30,
            message: 'Back-off restarting failed container web in pod web-7d9f8c6b5-x2k4q_shop(00000000-0000-4000-8000-000000000001)',
          }),
        ],
        logs: [logTail('web', ['starting web 1.4.2', 'connecting to postgres at db:5432', 'FATAL: password authentication failed for user "shop"'])],
      }),
      expect: {
        severity: 'error',
        causeKey: 'workload/shop/Pod/web-7d9f8c6b5-x2k4q/web:exit-1',
        params: { container: 'web', exitCode: 1, restarts: 7, node: 'node-1' },
        // The catalogue reads the rejected password as its mechanism (credentials-rejected), not only the log's end.
        mechanism: 'credentials-rejected',
        said: [
          { id: 'titleMechanism', data: { code: 1, summary: 'the dependency rejects the credentials of user shop' } },
          { id: 'decisiveLine', data: { line: /password authentication failed/ } },
          { id: 'waiting', data: { restarts: 7, times: 'times' } },
        ],
        quotes: [/Back-off restarting failed container web/],
      },
    },
    {
      name: 'docker era: old BackOff wording, DNS failure in the log',
      snapshot: snapshot(
        crashedPod(
          { exitCode: 1, runtime: 'docker' },
          { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5', uid: 'rs', controller: true }] } },
        ),
        {
          events: [event(pod(), { reason: 'BackOff', count: 25616, message: 'Back-off restarting failed container' })],
          logs: [logTail('web', ['panic: dial tcp: lookup mysql.prod on 10.96.0.10:53: no such host'])],
        },
      ),
      expect: {
        causeKey: 'workload/shop/ReplicaSet/web-7d9f8c6b5/web:exit-1',
        said: [{ id: 'decisiveLine', data: { line: /no such host/ } }],
        quotes: [/^Back-off restarting failed container$/m],
      },
    },
    {
      name: 'restartPolicy Never: phase Failed, terminated non-zero, no CrashLoopBackOff',
      snapshot: snapshot(neverRestart, { logs: [logTail('web', ['usage: web --config <file>', 'error: unknown flag --cfg'], false)] }),
      expect: {
        severity: 'error',
        params: { exitCode: 2 },
        said: ['notRestarted', { id: 'logEnds', data: { lines: 'usage: web --config <file> ⏎ error: unknown flag --cfg' } }],
      },
    },
    {
      name: 'no logs collected: termination message (FallbackToLogsOnError) is quoted',
      snapshot: snapshot(crashedPod({ exitCode: 3, message: 'config: key "listen" missing in /etc/web/config.yaml' })),
      expect: { said: [{ id: 'terminationMessage', data: { message: 'config: key "listen" missing in /etc/web/config.yaml' } }], quotes: [/exitCode=3/] },
    },
    {
      name: 'exit code 0 in CrashLoopBackOff: a task run as a Deployment',
      snapshot: snapshot(crashedPod({ exitCode: 0, reason: 'Completed' })),
      expect: {
        said: [
          { id: 'titleExitedReason', data: { code: 0, reason: 'Completed' } },
          { id: 'exitMeaning', data: { meaning: /finished successfully/ } },
        ],
      },
    },
    {
      name: 'init container in Init:CrashLoopBackOff',
      snapshot: snapshot(
        pod({
          spec: { initContainers: [{ name: 'migrate', image: 'registry.example.com/shop/migrate:7' }] },
          status: {
            phase: 'Pending',
            initContainerStatuses: [
              containerStatus({
                name: 'migrate',
                ready: false,
                restartCount: 4,
                state: {
                  waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=migrate pod=web-7d9f8c6b5-x2k4q_shop(u)' },
                },
                lastState: { terminated: terminated({ exitCode: 1 }) },
              }),
            ],
            containerStatuses: [containerStatus({ ready: false, state: { waiting: { reason: 'PodInitializing' } } })],
          },
        }),
      ),
      expect: { params: { container: 'migrate' }, said: [{ id: 'titleExited', data: { code: 1, container: 'migrate', kind: 'Init container' } }] },
    },
    {
      name: 'running again but crashed 5 times, the last 2 minutes ago',
      snapshot: snapshot(crashedPod({ exitCode: 139, restarts: 5, now: 'running', finishedAgo: 120 })),
      expect: {
        severity: 'warning',
        mechanism: 'native-crash',
        said: [{ id: 'titleMechanism', data: { summary: 'the process crashed in native code (SIGSEGV)' } }],
      },
    },
    {
      name: 'a legacy sidecar that crash-loops while the app still runs is a crash',
      snapshot: snapshot(
        pod({
          spec: {
            containers: [
              { name: 'web', image: 'registry.example.com/shop/web:1.4.2' },
              { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.24.0' },
            ],
          },
          status: {
            containerStatuses: [
              containerStatus(),
              containerStatus({
                name: 'istio-proxy',
                ready: false,
                restartCount: 9,
                state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=istio-proxy pod=web_shop(u)' } },
                lastState: { terminated: terminated({ exitCode: 255 }) },
              }),
            ],
          },
        }),
      ),
      expect: { params: { container: 'istio-proxy', exitCode: 255 } },
    },
  ],
});

describe('crash.app-exit in the engine', () => {
  it('a restartPolicy Never crash is reported even though the pod is Failed', () => {
    const d = diagnose(snapshot(neverRestart), { rules: [rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.app-exit']);
  });
});

describe('crash.app-exit facts', () => {
  it.each([
    [137, /SIGKILL/],
    [143, /SIGTERM/],
    [130, /killed by signal 2/],
    [255, /application-defined/],
    [200, /application-defined/],
  ])('exit code %i means %s', (code, meaning) => {
    expect(exitMeaning(code)).toMatch(meaning);
  });

  it('prints no duration for a container that never ran (startedAt is the zero time)', () => {
    const p = crashedPod({
      exitCode: 128,
      reason: 'StartError',
      message:
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container ' +
        'process: exec: "/app/server": stat /app/server: no such file or directory: unknown',
    });
    const status = p.status?.containerStatuses?.[0];
    if (status?.lastState?.terminated) status.lastState.terminated.startedAt = '1970-01-01T00:00:00Z';
    const f = diagnose(snapshot(p), { rules: [rule] }).findings[0];
    expect(f?.cause).not.toMatch(/after running/);
    expect(f?.evidence.map((e) => e.text).join('\n')).not.toMatch(/ran \d/);
  });

  it('names an init container that crashes as one', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'migrate', image: 'registry.example.com/shop/migrate:41' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          containerStatus({
            name: 'migrate',
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=migrate pod=web_shop(u)' } },
            lastState: { terminated: terminated({ exitCode: 1 }) },
          }),
        ],
        containerStatuses: [containerStatus({ ready: false, started: false, state: { waiting: { reason: 'PodInitializing' } } })],
      },
    });
    const f = diagnose(snapshot(p), { rules: [rule] }).findings[0];
    expect(f?.title).toMatch(/^Init container migrate/);
    expect(f?.evidence[0]?.source).toMatch(/initContainerStatuses\[migrate\]/);
  });
});
