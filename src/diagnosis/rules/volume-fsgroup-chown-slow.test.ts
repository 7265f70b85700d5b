import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './volume-fsgroup-chown-slow.js';

const creating = waitingPod('ContainerCreating', undefined, { status: { phase: 'Pending' }, spec: { securityContext: { fsGroup: 10000 } } });
const SLOW =
  'Setting volume ownership for /var/lib/kubelet/pods/9bdd/volumes/kubernetes.io~csi/pvc-1/mount is taking longer than expected, ' +
  'consider using OnRootMismatch - ' +
  'https://kubernetes.io/docs/tasks/configure-pod-container/security-context/#configure-volume-permission-and-ownership-change-policy-for-pods';
const SUMMARY = 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (mount error vs chown): an NFS server refusing the node',
      snapshot: snapshot(creating, {
        events: [
          event(creating, {
            reason: 'FailedMount',
            message:
              'MountVolume.SetUp failed for volume "data" : mount failed: exit status 32 Output: mount.nfs: access denied by server while mounting 10.0.0.5:/x',
          }),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'taking longer than expected, then the mount timeout',
      snapshot: snapshot(creating, {
        events: [
          event(creating, { reason: 'VolumePermissionChangeInProgress', message: SLOW, lastSeenAgo: 2000 }),
          event(creating, {
            reason: 'VolumePermissionChangeInProgress',
            message: 'Setting volume ownership for /var/lib/kubelet/pods/9bdd/volumes/kubernetes.io~csi/pvc-1/mount, processed 6122418 files',
            lastSeenAgo: 60,
          }),
          event(creating, { reason: 'FailedMount', count: 18, message: SUMMARY }),
        ],
      }),
      expect: {
        playbook: null,
        params: { fsGroup: 10000, policy: 'Always', files: 6122418 },
        said: [{ id: 'saysSoFiles', data: { message: /consider using OnRootMismatch/ } }],
      },
    },
    {
      name: 'only the progress event',
      snapshot: snapshot(creating, { events: [event(creating, { reason: 'VolumePermissionChangeInProgress', message: SLOW })] }),
      expect: { params: { fsGroup: 10000 } },
    },
  ],
});

describe('volume.fsgroup-chown-slow in the engine', () => {
  it('folds the mount timeout in', () => {
    const d = diagnose(
      snapshot(creating, {
        events: [event(creating, { reason: 'VolumePermissionChangeInProgress', message: SLOW }), event(creating, { reason: 'FailedMount', message: SUMMARY })],
      }),
      { rules: RULES },
    );
    expect(d.findings[0]?.rule).toBe('volume.fsgroup-chown-slow');
  });
});
