import { describe, expect, it } from 'vitest';
import { crashedPod, event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './lifecycle-poststart-failed.js';

const withHook = {
  spec: {
    containers: [
      { name: 'web', image: 'registry.example.com/shop/web:1.4.2', lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', '/app/warmup.sh'] } } } },
    ],
  },
};
const EXEC_FAILED =
  'Exec lifecycle hook ([/bin/sh -c /app/warmup.sh]) for Container "web" in Pod "web-7d9f8c6b5-x2k4q_shop(6f1c2d3e-aaaa-4bbb-8ccc-000000000001)" ' +
  'failed - error: command \'/bin/sh -c /app/warmup.sh\' exited with 1: , message: "warmup: cache backend redis:6379 refused the connection\\n"';
const crashing = crashedPod({ exitCode: 137, restarts: 6 }, withHook);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'a hook failed once a day ago, Running and Ready now',
      snapshot: snapshot(pod(withHook), {
        events: [event(pod(), { reason: 'FailedPostStartHook', lastSeenAgo: 86400, fieldPath: 'spec.containers{web}', message: EXEC_FAILED })],
      }),
    },
  ],
  invalid: [
    {
      name: 'exec hook exits 1 (1.24+ wording), container crash-loops',
      snapshot: snapshot(crashing, {
        events: [
          event(crashing, { reason: 'FailedPostStartHook', count: 6, fieldPath: 'spec.containers{web}', message: EXEC_FAILED }),
          event(crashing, { reason: 'Killing', type: 'Normal', count: 6, fieldPath: 'spec.containers{web}', message: 'FailedPostStartHook' }),
        ],
      }),
      expect: {
        severity: 'error',
        params: { container: 'web', hook: 'exec ["/bin/sh","-c","/app/warmup.sh"]' },
        said: [
          { id: 'titleOutcome', data: { outcome: /exited with 1/ } },
          { id: 'failedTimesAgoOutcome', data: { times: 6 } },
        ],
      },
    },
    {
      name: 'HTTP hook against an app not yet listening',
      snapshot: snapshot(crashedPod({ exitCode: 137 }), {
        events: [
          event(pod(), {
            reason: 'FailedPostStartHook',
            count: 3,
            message:
              'HTTP lifecycle hook (/warmup) for Container "web" in Pod "web-7d9f8c6b5-x2k4q_shop(u)" failed - error: Get ' +
              '"http://10.244.1.12:8080/warmup": dial tcp 10.244.1.12:8080: connect: connection refused, message: ""',
          }),
        ],
      }),
      expect: { said: [{ id: 'titleOutcome', data: { outcome: /connection refused/ } }] },
    },
    {
      name: 'older kubelet: PostStartHookError state only',
      snapshot: snapshot(waitingPod('PostStartHookError', "command '/bin/sh -c /app/warmup.sh' exited with 126: ", withHook)),
      expect: { said: [{ id: 'titleOutcome', data: { outcome: 'the command exited with 126' } }] },
    },
  ],
});

describe('lifecycle.poststart-failed', () => {
  it('supersedes crash.app-exit for the killed container', () => {
    const d = diagnose(
      snapshot(crashing, { events: [event(crashing, { reason: 'FailedPostStartHook', count: 6, fieldPath: 'spec.containers{web}', message: EXEC_FAILED })] }),
      { rules: [appExit, rule] },
    );
    expect(d.findings.map((f) => f.rule)).toEqual(['lifecycle.poststart-failed']);
  });
});
