import { event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './security-profile-missing.js';

const APPARMOR = 'Cannot enforce AppArmor: profile "k8s-deny-write" is not loaded';
const blocked = waitingPod('Blocked', undefined, { status: { phase: 'Pending', reason: 'AppArmor', message: APPARMOR } });
const SECCOMP =
  'failed to create containerd container: cannot load seccomp profile ' +
  '"/var/lib/kubelet/seccomp/profiles/unshare.json": open /var/lib/kubelet/seccomp/profiles/unshare.json: no ' +
  'such file or directory';

const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.30.6' } } });

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
    {
      name: 'near miss (a bad profile vs a missing one): CRI-O read the file but cannot parse it',
      snapshot: snapshot(
        waitingPod('CreateContainerError', 'setup seccomp: load local profile: decoding seccomp profile failed: unexpected end of JSON input'),
        { node: crioNode },
      ),
    },
  ],
  invalid: [
    {
      name: 'kubelet AppArmor admission: Blocked, profile not loaded',
      snapshot: snapshot(blocked, { events: [event(blocked, { reason: 'AppArmor', message: APPARMOR })] }),
      expect: { playbook: null, params: { kind: 'AppArmor', profile: 'k8s-deny-write' }, said: [{ id: 'missing', data: { text: /is not loaded/ } }] },
    },
    {
      name: 'CRI-O 1.27+: setup seccomp: unable to load local profile',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'setup seccomp: unable to load local profile "/var/lib/kubelet/seccomp/profiles/audit.json": open ' +
            '/var/lib/kubelet/seccomp/profiles/audit.json: no such file or directory',
        ),
        { node: crioNode },
      ),
      expect: { params: { kind: 'seccomp', profile: '/var/lib/kubelet/seccomp/profiles/audit.json' } },
    },
    {
      name: 'containerd 2.x: failed to generate seccomp spec opts: cannot load seccomp profile',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to generate seccomp spec opts: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/audit.json": ' +
            'open /var/lib/kubelet/seccomp/profiles/audit.json: no such file or directory',
        ),
        { node: node({ status: { nodeInfo: { containerRuntimeVersion: 'containerd://2.0.4' } } }) },
      ),
      expect: { params: { kind: 'seccomp', profile: '/var/lib/kubelet/seccomp/profiles/audit.json' } },
    },
    {
      name: 'containerd: cannot load the Localhost seccomp profile',
      snapshot: snapshot(waitingPod('CreateContainerError', SECCOMP)),
      expect: { params: { kind: 'seccomp', profile: '/var/lib/kubelet/seccomp/profiles/unshare.json' } },
    },
  ],
});
