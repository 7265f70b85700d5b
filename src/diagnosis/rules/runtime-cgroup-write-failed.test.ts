import { crashedPod, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './runtime-cgroup-write-failed.js';

const CFS =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
  'unable to start container process: error during container init: error setting cgroup config for procHooks ' +
  'process: failed to write "200000": write ' +
  '/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod367e6884/0a1b/cpu.cfs_quota_us: invalid argument: unknown';

const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.31.3' } } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (command vs cgroup): the entrypoint is missing',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
            'unable to start container process: exec: "app": executable file not found in $PATH: unknown',
        }),
      ),
    },
    {
      name: 'near miss (AppArmor vs cgroup): crun writing a /proc attr file is not a cgroup limit',
      snapshot: snapshot(
        waitingPod('CreateContainerError', 'container create failed: write file `/proc/thread-self/attr/apparmor/exec`: No such file or directory'),
        { node: crioNode },
      ),
    },
  ],
  invalid: [
    {
      name: 'CRI-O + crun: "writing file `cpu.max`: Invalid argument" at create time',
      snapshot: snapshot(waitingPod('CreateContainerError', 'container create failed: writing file `cpu.max`: Invalid argument'), { node: crioNode }),
      expect: {
        params: { file: 'cpu.max' },
        said: [{ id: 'titleAnswer', data: { answer: 'Invalid argument', file: 'cpu.max', node: 'node-1', runtime: 'crun' } }],
      },
    },
    {
      name: 'StartError: cpu.cfs_quota_us invalid argument',
      snapshot: snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: CFS, restarts: 14 })),
      expect: {
        playbook: null,
        params: { file: '/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod367e6884/0a1b/cpu.cfs_quota_us' },
        said: [{ id: 'titleAnswer', data: { answer: 'invalid argument' } }],
      },
    },
    {
      name: 'CreateContainerError: unable to apply cgroup configuration',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to create containerd task: OCI runtime create failed: runc create failed: unable to apply cgroup ' +
            'configuration: failed to write 0: no such device: unknown',
        ),
      ),
      expect: { said: [{ id: 'refused', data: { text: /unable to apply cgroup configuration/ } }] },
    },
  ],
});
