import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './volume-mount-failed.js';

const withVolumes = {
  spec: {
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } },
      { name: 'share', nfs: { server: '10.0.0.5', path: '/exports/share' } },
    ],
  },
};
const creating = waitingPod('ContainerCreating', undefined, withVolumes);
const mount = (message: string, init: { reason?: string; lastSeenAgo?: number; count?: number } = {}) =>
  event(creating, { reason: init.reason ?? 'FailedMount', count: init.count ?? 9, lastSeenAgo: init.lastSeenAgo ?? 30, firstSeenAgo: 1200, message });
const CACHE = 'MountVolume.SetUp failed for volume "kube-api-access-b35r6" : failed to sync configmap cache: timed out waiting for the condition';
const SANDBOX =
  'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get network status for pod sandbox k8s_web_default_0(e510827d): ' +
  'error checking pod default_web for CNI network "crio": Interface veth53193e1d Mac doesn\'t match: 7e:10:77:0b:8b:d5 not found';
const TIMED_OUT =
  'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-x2k4q]: timed out waiting for the condition';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(withVolumes)) },
    {
      name: 'a missing configmap volume (config.missing-reference)',
      snapshot: snapshot(creating, { events: [mount('MountVolume.SetUp failed for volume "config" : configmap "web-config" not found')] }),
    },
    { name: 'old mount failures, pod Running now', snapshot: snapshot(pod(withVolumes), { events: [mount(TIMED_OUT, { lastSeenAgo: 7200 })] }) },
    {
      name: 'near miss (mounted since): one configmap-cache failure, then the kubelet tries sandboxes (it mounts every volume first)',
      snapshot: snapshot(creating, {
        events: [
          mount(CACHE, { count: 1, lastSeenAgo: 240 }),
          event(creating, { reason: 'FailedCreatePodSandBox', count: 16, firstSeenAgo: 220, lastSeenAgo: 10, message: SANDBOX }),
          event(creating, {
            reason: 'SandboxChanged',
            type: 'Normal',
            count: 18,
            firstSeenAgo: 239,
            lastSeenAgo: 9,
            message: 'Pod sandbox changed, it will be killed and re-created.',
          }),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'CSI driver not registered: its node plugin crash-loops on this node, and CSINode lists other drivers only',
      snapshot: snapshot(creating, {
        events: [
          mount(
            'MountVolume.MountDevice failed for volume "pvc-0a1b2c3d" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: ' +
              'driver name smb.csi.k8s.io not found in the list of registered CSI drivers',
            { lastSeenAgo: 60 },
          ),
        ],
        components: [
          {
            role: 'csi',
            why: 'driver name smb.csi.k8s.io not found in the list of registered CSI drivers',
            name: 'smb.csi.k8s.io',
            registered: ['ebs.csi.aws.com'],
            pods: [
              pod({
                metadata: { name: 'csi-smb-node-x8k2p', namespace: 'kube-system' },
                status: {
                  conditions: [{ type: 'Ready', status: 'False' }],
                  containerStatuses: [
                    { name: 'smb', ready: false, restartCount: 12, image: 'smb', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } },
                  ],
                },
              }),
            ],
            logs: [
              {
                pod: 'kube-system/csi-smb-node-x8k2p',
                container: 'smb',
                previous: true,
                lines: ['I1121 starting', 'F1121 09:58:00 main.go:44] mount.cifs: command not found on the host'],
              },
            ],
          },
        ],
      }),
      expect: {
        params: { problem: 'driver-missing' },
        said: [{ id: 'pluginSummary', data: { summary: /csi-smb-node-x8k2p \(kube-system\) is CrashLoopBackOff/ } }],
        quotes: [/registered drivers: ebs.csi.aws.com/],
      },
    },
    {
      name: 'NFS access denied 20 minutes ago beats the 1.28 summary that ends in "context deadline exceeded"',
      snapshot: snapshot(creating, {
        events: [
          mount(
            'MountVolume.SetUp failed for volume "share" : mount failed: exit status 32\nMounting command: mount\nOutput: mount.nfs: access denied by ' +
              'server while mounting 10.0.0.5:/exports/share',
            {
              lastSeenAgo: 1200,
              count: 3,
            },
          ),
          mount(
            'Unable to attach or mount volumes: unmounted volumes=[share], unattached volumes=[], failed to process volumes=[]: context deadline exceeded',
            {
              lastSeenAgo: 40,
              count: 9,
            },
          ),
        ],
      }),
      expect: { params: { problem: 'nfs-denied' }, said: [{ id: 'cannotMountDriver', data: { message: /access denied by server while mounting/ } }] },
    },
    {
      name: "the attacher's error on the VolumeAttachment, when the pod only shows the summary",
      snapshot: snapshot(creating, {
        events: [
          mount(
            'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data], failed to process volumes=[]: context deadline exceeded',
            { lastSeenAgo: 30 },
          ),
        ],
        claims: [
          {
            name: 'data-db-0',
            claim: null,
            events: [],
            attachment: {
              apiVersion: 'storage.k8s.io/v1',
              kind: 'VolumeAttachment',
              metadata: { name: 'csi-0a1b' },
              status: {
                attached: false,
                attachError: {
                  message:
                    'rpc error: code = Internal desc = Could not attach volume "vol-1" to node "i-0abc": UnauthorizedOperation: You are not authorized ' +
                    'to perform this operation.',
                },
              },
            },
          },
        ],
      }),
      expect: { said: [{ id: 'cannotAttach', data: { message: /Could not attach volume "vol-1" to node "i-0abc"/ } }] },
    },
    {
      name: 'CSI driver not registered on the node (the specific error beats the timeout summary)',
      snapshot: snapshot(creating, {
        events: [
          mount(
            'MountVolume.MountDevice failed for volume "pvc-0a1b2c3d" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: ' +
              'driver name ebs.csi.aws.com not found in the list of registered CSI drivers',
            { lastSeenAgo: 60 },
          ),
          mount(TIMED_OUT, { lastSeenAgo: 20, count: 6 }),
        ],
      }),
      expect: {
        params: { node: 'node-1', problem: 'driver-missing', volume: 'pvc-0a1b2c3d', driver: 'ebs.csi.aws.com' },
        said: [{ id: 'cannotMountDriver', data: { message: /not found in the list of registered CSI drivers/ } }, 'titleDriverMissing'],
      },
    },
    {
      name: 'NFS server times out (mount exit status 32)',
      snapshot: snapshot(creating, {
        events: [
          mount(
            'MountVolume.SetUp failed for volume "share" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs ' +
              '10.0.0.5:/exports/share /var/lib/kubelet/pods/6f1c2d3e/volumes/kubernetes.io~nfs/share\nOutput: mount.nfs: Connection timed out',
          ),
        ],
      }),
      expect: {
        params: { problem: 'nfs-timeout', volume: 'share', driver: 'nfs' },
        said: [{ id: 'cannotMountDriver', data: { message: /mount.nfs: Connection timed out/ } }],
      },
    },
    {
      name: 'attach times out in the CSI controller',
      snapshot: snapshot(creating, {
        events: [
          mount('AttachVolume.Attach failed for volume "pvc-9f8e" : rpc error: code = DeadlineExceeded desc = context deadline exceeded', {
            reason: 'FailedAttachVolume',
          }),
        ],
      }),
      expect: { params: { problem: 'deadline' } },
    },
    {
      name: 'a mount failure that keeps recurring after an older sandbox attempt (the volume came back unmounted, or another volume fails)',
      snapshot: snapshot(creating, {
        events: [
          event(creating, { reason: 'FailedCreatePodSandBox', count: 1, firstSeenAgo: 600, lastSeenAgo: 600, message: SANDBOX }),
          mount(TIMED_OUT, { lastSeenAgo: 30 }),
        ],
      }),
      expect: { params: { problem: 'timed-out' } },
    },
    {
      name: 'only the summary is left',
      snapshot: snapshot(creating, { events: [mount(TIMED_OUT)] }),
      expect: { params: { problem: 'timed-out', volume: 'data', driver: 'PersistentVolumeClaim data-db-0' } },
    },
  ],
});

describe('volume.mount-failed in the full registry', () => {
  it('ranks first for a pod stuck ContainerCreating on an iSCSI login failure', () => {
    const d = diagnose(
      snapshot(creating, {
        events: [
          mount(
            'MountVolume.WaitForAttach failed for volume "lun-7" : failed to get any path for iscsi disk, last err seen:\niscsi: failed to sendtargets ' +
              'to portal 10.0.0.9:3260 output: iscsiadm: cannot make connection to 10.0.0.9: Connection refused',
          ),
        ],
      }),
      { rules: RULES },
    );
    expect(d.findings[0]).toMatchObject({ rule: 'volume.mount-failed', params: { problem: 'iscsi' } });
  });
});
