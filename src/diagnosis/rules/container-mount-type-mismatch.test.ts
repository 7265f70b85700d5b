import { crashedPod, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './container-mount-type-mismatch.js';

const RUNC =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
  'unable to start container process: error during container init: error mounting "/srv/customer/profile.json" ' +
  'to rootfs at "/customer/profile.json": mount /srv/customer/profile.json:/customer/profile.json (via ' +
  '/proc/self/fd/6), flags: 0x5000: not a directory: unknown';
const withHostPath = { spec: { volumes: [{ name: 'profile', hostPath: { path: '/srv/customer/profile.json' } }] } };
// CRI-O + crun (containers/crun src/libcrun/linux.c `mount `%s` to `%s``, the target relative to the rootfs), at create time.
const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.31.3' } } });
const CRUN = 'container create failed: mount `/srv/customer/profile.json` to `customer/profile.json`: Not a directory';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (subPath missing vs type): a subPath whose source is gone is crash.subpath-missing',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'failed to create containerd task: OCI runtime create failed: runc create failed: unable to start container ' +
            'process: error during container init: error mounting "/var/lib/kubelet/pods/x/volume-subpaths/conf/web/0" to ' +
            'rootfs at "/etc/app/app.conf": stat /var/lib/kubelet/pods/x/volume-subpaths/conf/web/0: no such file or ' +
            'directory: unknown',
        }),
      ),
    },
    {
      name: 'near miss (image vs volume): a read-only rootfs while mounting is image.corrupt-local',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'error mounting "/var/lib/kubelet/pods/5b/volumes/kubernetes.io~empty-dir/logs" to rootfs at "/app/logs": ' +
            'mkdir /run/containerd/x/rootfs/app/logs: read-only file system: unknown',
        }),
      ),
    },
    {
      name: 'near miss (subPath missing vs type): crun cannot stat a subPath source',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'container create failed: cannot stat `/var/lib/kubelet/pods/x/volume-subpaths/conf/web/0`: No such file or directory',
        ),
        { node: crioNode },
      ),
    },
  ],
  invalid: [
    {
      name: 'CRI-O + crun: "mount `src` to `tgt`: Not a directory" (CreateContainerError)',
      snapshot: snapshot(waitingPod('CreateContainerError', CRUN, withHostPath), { node: crioNode }),
      expect: {
        params: { source: '/srv/customer/profile.json', target: '/customer/profile.json', volume: 'profile' },
        said: [{ id: 'cannotStart', data: { text: /Not a directory/ } }, 'hostPathUntyped'],
      },
    },
    {
      name: 'a hostPath that did not exist became a directory, mounted onto a file',
      snapshot: snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: RUNC, restarts: 7 }, withHostPath)),
      expect: {
        playbook: null,
        params: { source: '/srv/customer/profile.json', target: '/customer/profile.json', volume: 'profile' },
        said: [{ id: 'cannotStart', data: { text: /not a directory/ } }, 'hostPathUntyped'],
      },
    },
    {
      name: "docker's wording",
      snapshot: snapshot(
        crashedPod({
          exitCode: 127,
          reason: 'ContainerCannotRun',
          message:
            'OCI runtime create failed: container_linux.go:349: starting container process caused "process_linux.go:449: ' +
            'container init caused \\"rootfs_linux.go:58: mounting \\\\\\"/etc/app.conf\\\\\\" to rootfs ... not a ' +
            'directory\\"": unknown: Are you trying to mount a directory onto a file (or vice-versa)? Check if the ' +
            'specified host path exists and is the expected type',
        }),
      ),
      expect: { said: [{ id: 'cannotStart', data: { text: /Are you trying to mount a directory onto a file/ } }] },
    },
  ],
});
