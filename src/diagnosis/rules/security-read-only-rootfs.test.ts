import { crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './security-read-only-rootfs.js';

const NGINX = 'nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)';
const readOnly = (extra: Record<string, unknown> = {}) =>
  crashedPod(
    { exitCode: 1, restarts: 7 },
    { spec: { containers: [{ name: 'web', image: 'nginx:1.27', securityContext: { readOnlyRootFilesystem: true }, ...extra }] } },
  );

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (rootfs writable): the same line without readOnlyRootFilesystem',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', [NGINX])] }),
    },
    {
      name: 'near miss (volume vs rootfs): the path is a read-only volume mount',
      snapshot: snapshot(readOnly({ volumeMounts: [{ name: 'cache', mountPath: '/var/cache/nginx', readOnly: true }] }), { logs: [logTail('web', [NGINX])] }),
    },
  ],
  invalid: [
    {
      name: 'nginx cannot create its cache directory',
      snapshot: snapshot(readOnly(), { logs: [logTail('web', ['/docker-entrypoint.sh: Configuration complete; ready for start up', NGINX])] }),
      expect: { playbook: null, params: { path: '/var/cache/nginx/client_temp' }, said: [{ id: 'writeFails', data: { line: /Read-only file system/ } }] },
    },
    {
      name: "Java names no path; the stack trace's createTempFile says /tmp (the issue's example)",
      snapshot: snapshot(readOnly(), {
        logs: [
          logTail('web', [
            'Exception in thread "main" java.io.IOException: Read-only file system',
            '\tat java.base/java.io.UnixFileSystem.createFileExclusively(Native Method)',
            '\tat java.base/java.io.File.createTempFile(Unknown Source)',
            '\tat org.eclipse.edc.boot.system.ExtensionLoader.loadVault(ExtensionLoader.java:91)',
          ]),
        ],
      }),
      expect: { params: { path: '/tmp' }, mechanism: 'fs-read-only', said: [{ id: 'title', data: { path: '/tmp' } }] },
    },
    {
      name: 'Python [Errno 30]',
      snapshot: snapshot(readOnly(), {
        logs: [logTail('web', ['Traceback (most recent call last):', "OSError: [Errno 30] Read-only file system: '/app/.cache'"])],
      }),
      expect: { params: { path: '/app/.cache' } },
    },
  ],
});
