import { crashedPod, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './runtime-cgroup-write-failed.js';

const CFS =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: ' +
  'unable to start container process: error during container init: error setting cgroup config for procHooks ' +
  'process: failed to write "200000": write ' +
  '/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod367e6884/0a1b/cpu.cfs_quota_us: invalid argument: unknown';

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
  ],
  invalid: [
    {
      name: 'StartError: cpu.cfs_quota_us invalid argument',
      snapshot: snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: CFS, restarts: 14 })),
      expect: {
        playbook: null,
        params: { file: '/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod367e6884/0a1b/cpu.cfs_quota_us' },
        mentions: [/invalid argument/],
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
      expect: { mentions: [/unable to apply cgroup configuration/] },
    },
  ],
});
