import { describe, expect, it } from 'vitest';
import { containerStatus, crashedPod, event, logTail, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './container-start-error.js';
import { rule as appExit } from './crash-app-exit.js';

const CONTAINERD_NOT_FOUND =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
  'unable to start container process: exec: "gunicorn": executable file not found in $PATH: unknown';
// CRI-O 1.31+ runs crun by default; its words are not runc's (containers/crun src/libcrun/container.c).
const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.31.3' } } });
const withCommand = (command: string[], args?: string[]) => ({
  spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', command, ...(args ? { args } : {}) }] },
});

const notFound = crashedPod(
  { exitCode: 128, reason: 'StartError', message: CONTAINERD_NOT_FOUND, restarts: 4 },
  withCommand(['gunicorn'], ['app:wsgi', '--bind', '0.0.0.0:8080']),
);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (node vs workload): apparmor_parser missing on the node is not the image command',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to create containerd container: get apparmor_parser version: exec: "apparmor_parser": executable file not found in $PATH',
        ),
      ),
    },
    {
      name: 'near miss (arch vs script): exec format error of a binary is image.wrong-arch',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 4 }), { logs: [logTail('web', ['exec /usr/local/bin/web: exec format error'])] }),
    },
    {
      name: 'an app error exit 1',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', ['Error: connect ECONNREFUSED 10.96.0.12:5432'])] }),
    },
    {
      name: 'subPath mount error (no such file, but not the exec)',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
            'unable to start container process: error during container init: error mounting ' +
            '"/var/lib/kubelet/pods/1/volume-subpaths/conf/web/0" to rootfs at "/etc/app/app.conf": mount ' +
            '/var/lib/kubelet/pods/1/volume-subpaths/conf/web/0:/etc/app/app.conf (via /proc/self/fd/6), flags: 0x5001: no ' +
            'such file or directory: unknown',
        }),
      ),
    },
    {
      name: 'exec format error (image.wrong-arch)',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', ['exec /usr/local/bin/server: exec format error'])] }),
    },
    {
      name: 'near miss (arch vs script): crun\'s "Exec format error" of a binary is image.wrong-arch',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 4 }), {
        node: crioNode,
        logs: [logTail('web', ['exec container process `/usr/local/bin/server`: Exec format error'])],
      }),
    },
    {
      name: 'near miss (subPath vs command): crun cannot stat a subPath source (no such file, but not the exec)',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'container create failed: cannot stat `/var/lib/kubelet/pods/6f1c2d3e-aaaa-4bbb-8ccc-000000000001/volume-subpaths/conf/web/0`: ' +
            'No such file or directory',
        ),
        { node: crioNode },
      ),
    },
  ],
  invalid: [
    {
      name: 'CRI-O + crun: "executable file `gunicorn` not found in $PATH" at create time',
      snapshot: snapshot(
        waitingPod('CreateContainerError', 'container create failed: executable file `gunicorn` not found in $PATH: No such file or directory', {
          spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', command: ['gunicorn'] }] },
        }),
        { node: crioNode },
      ),
      expect: { params: { problem: 'not-found', path: 'gunicorn' }, said: ['notFound', { id: 'runsImage', data: { command: 'command ["gunicorn"]' } }] },
    },
    {
      name: 'CRI-O + crun: the entrypoint is not executable ("open executable: Permission denied")',
      snapshot: snapshot(waitingPod('CreateContainerError', 'container create failed: open executable: Permission denied'), { node: crioNode }),
      expect: {
        params: { problem: 'permission' },
        said: [{ id: 'runtimeMessage', data: { text: 'container create failed: open executable: Permission denied' } }],
      },
    },
    {
      name: 'crun after start: "exec container process (missing dynamic library?)" is the only log line',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 5 }), {
        node: crioNode,
        logs: [logTail('web', ['exec container process (missing dynamic library?) `/app/server`: No such file or directory'])],
      }),
      expect: { params: { problem: 'no-such-file', path: '/app/server' } },
    },
    {
      name: 'crun after start: a script without #! ("Exec format error" on /app/entrypoint.sh)',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 6 }), {
        node: crioNode,
        logs: [logTail('web', ['exec container process `/app/entrypoint.sh`: Exec format error'])],
      }),
      expect: { params: { problem: 'no-interpreter', path: '/app/entrypoint.sh' } },
    },
    {
      name: 'runc >= 1.1: "exec /entrypoint: no such file or directory" is the only log line (CRLF #! line)',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 7 }), { logs: [logTail('web', ['exec /entrypoint: no such file or directory'])] }),
      expect: {
        params: { problem: 'no-such-file', path: '/entrypoint' },
        said: [{ id: 'runtimeMessage', data: { text: 'exec /entrypoint: no such file or directory' } }],
      },
    },
    {
      name: 'a script without #! (exec format error on /app/entrypoint.sh)',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 6 }), {
        logs: [logTail('web', ['exec /app/entrypoint.sh: exec format error'])],
      }),
      expect: { params: { problem: 'no-interpreter', path: '/app/entrypoint.sh' }, said: ['titleNoInterpreterPath'] },
    },
    {
      name: 'containerd: executable file not found in $PATH (StartError, exit 128)',
      snapshot: snapshot(notFound, {
        events: [event(notFound, { reason: 'Failed', count: 5, fieldPath: 'spec.containers{web}', message: `Error: ${CONTAINERD_NOT_FOUND}` })],
      }),
      expect: {
        severity: 'error',
        params: { container: 'web', problem: 'not-found', path: 'gunicorn' },
        said: [
          { id: 'runtimeMessage', data: { text: /executable file not found in \$PATH/ } },
          { id: 'runsImage', data: { command: /command \["gunicorn"\] with args/ } },
        ],
      },
    },
    {
      name: 'containerd: the entrypoint script is not executable',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
            'unable to start container process: exec: "/docker-entrypoint.sh": permission denied: unknown',
        }),
      ),
      expect: { params: { problem: 'permission', path: '/docker-entrypoint.sh' }, said: ['titlePermissionPath'] },
    },
    {
      name: 'docker era: ContainerCannotRun with the escaped quotes, exit 127',
      snapshot: snapshot(
        crashedPod({
          exitCode: 127,
          reason: 'ContainerCannotRun',
          runtime: 'docker',
          message:
            'OCI runtime create failed: container_linux.go:345: starting container process caused "exec: ' +
            '\\"/app/server\\": stat /app/server: no such file or directory": unknown',
        }),
      ),
      expect: { params: { problem: 'no-such-file', path: '/app/server' } },
    },
    {
      name: 'a shell entrypoint whose command is missing exits 127',
      snapshot: snapshot(crashedPod({ exitCode: 127 }, withCommand(['sh', '-c', 'migrate && exec server'])), {
        logs: [logTail('web', ['sh: migrate: not found'])],
      }),
      expect: {
        params: { problem: 'not-found' },
        said: [
          { id: 'runtimeMessage', data: { text: 'sh: migrate: not found' } },
          { id: 'runsImage', data: { command: 'command ["sh","-c","migrate && exec server"]' } },
        ],
      },
    },
    {
      name: 'CRI-O: CreateContainerError at create time',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'container create failed: time="2026-11-21T09:58:01Z" level=error msg="runc create failed: unable to start ' +
            'container process: exec: \\"python\\": executable file not found in $PATH"',
        ),
        { node: undefined },
      ),
      expect: { params: { problem: 'not-found', path: 'python' } },
    },
  ],
});

describe('container.start-error in the engine', () => {
  it('supersedes crash.app-exit', () => {
    const d = diagnose(snapshot(notFound), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['container.start-error']);
    expect(d.findings[0]?.merged).toContain('crash.app-exit');
  });
  it('points at the image entrypoint when the spec has no command', () => {
    const p = crashedPod({ exitCode: 128, reason: 'StartError', message: CONTAINERD_NOT_FOUND });
    expect(diagnose(snapshot(p), { rules: [rule] }).findings[0]?.cause).toMatch(/image ENTRYPOINT\/CMD/);
  });
  it('reads an init container too', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'wait-db', image: 'busybox:1.36', command: ['wait-for', 'db:5432'] }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          containerStatus({
            name: 'wait-db',
            ready: false,
            restartCount: 3,
            state: {
              waiting: {
                reason: 'RunContainerError',
                message: 'failed to start containerd task "abc": OCI runtime start failed: exec: "wait-for": executable file not found in $PATH: unknown',
              },
            },
          }),
        ],
      },
    });
    const f = diagnose(snapshot(p), { rules: [rule] }).findings[0];
    expect(f?.title).toMatch(/^Init container wait-db cannot start: wait-for not found/);
  });
});
