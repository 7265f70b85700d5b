import { crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './crash-inotify-limit.js';

const crashed = crashedPod({ exitCode: 2, restarts: 5 });
testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: "near miss (descriptor limit vs inotify): accept4: too many open files is the process's ulimit",
      snapshot: snapshot(crashed, {
        logs: [logTail('web', ['http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 1s', 'fatal: too many open files'])],
      }),
    },
  ],
  invalid: [
    {
      name: 'controller-runtime certwatcher panics',
      snapshot: snapshot(crashed, {
        logs: [
          logTail('web', ['I1121 starting manager', 'panic: failed to new ca-cert watcher: too many open files', '', 'goroutine 1 [running]:', 'main.main()']),
        ],
      }),
      expect: { playbook: null, said: [{ id: 'crashedRun', data: { line: 'panic: failed to new ca-cert watcher: too many open files' } }, 'notFdLimit'] },
    },
    {
      name: 'fsnotify',
      snapshot: snapshot(crashed, { logs: [logTail('web', ['level=fatal msg="failed to create fsnotify watcher: too many open files"'])] }),
      expect: { params: { container: 'web' } },
    },
  ],
});
