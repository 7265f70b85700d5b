import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './security-profile-missing.js';

const APPARMOR = 'Cannot enforce AppArmor: profile "k8s-deny-write" is not loaded';
const blocked = waitingPod('Blocked', undefined, { status: { phase: 'Pending', reason: 'AppArmor', message: APPARMOR } });
const SECCOMP =
  'failed to create containerd container: cannot load seccomp profile ' +
  '"/var/lib/kubelet/seccomp/profiles/unshare.json": open /var/lib/kubelet/seccomp/profiles/unshare.json: no ' +
  'such file or directory';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (node helper vs profile): apparmor_parser itself missing is container.create-error',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to create containerd container: get apparmor_parser version: exec: "apparmor_parser": executable file not found in $PATH',
        ),
      ),
    },
    {
      name: 'an old AppArmor event on a pod that runs now',
      snapshot: snapshot(pod(), { events: [event(pod(), { reason: 'AppArmor', message: APPARMOR, lastSeenAgo: 3000 })] }),
    },
  ],
  invalid: [
    {
      name: 'kubelet AppArmor admission: Blocked, profile not loaded',
      snapshot: snapshot(blocked, { events: [event(blocked, { reason: 'AppArmor', message: APPARMOR })] }),
      expect: { playbook: null, params: { kind: 'AppArmor', profile: 'k8s-deny-write' }, mentions: [/is not loaded/] },
    },
    {
      name: 'containerd: cannot load the Localhost seccomp profile',
      snapshot: snapshot(waitingPod('CreateContainerError', SECCOMP)),
      expect: { params: { kind: 'seccomp', profile: '/var/lib/kubelet/seccomp/profiles/unshare.json' } },
    },
  ],
});
