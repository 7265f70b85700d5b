import { describe, expect, it } from 'vitest';
import { agent, container, failed, holder, host, journal, line, mountHolders, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { matchSignatures } from '../../probes/signatures.js';
import { rule } from './terminating-mount-busy.js';

const MERGED = '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged';
const CID = 'e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9';
// Seed 001, dockerd's own words.
const BUSY_LINE =
  `Jan 30 14:57:47 c3-a05-136-45-4.com dockerd[1510]: time="2019-01-30T14:57:47.704772288+08:00" level=error msg="Handler for DELETE ` +
  `/v1.31/containers/${CID} returned error: driver \\"overlay\\" failed to remove root filesystem for ${CID}: remove ${MERGED}: device or resource ` +
  `busy"`;

const stuck = (deletedAgo = 3600) =>
  pod({ metadata: { name: 'httpserver-prod-1-6cb97dfbcc-f9flb', namespace: 'default', deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30 } });

const removing = runtime({
  docker: {
    version: '17.07.0-ce',
    storageDriver: 'overlay',
    containers: [container({ id: CID, state: 'removing', status: 'Removal In Progress', rootfsMount: MERGED })],
  },
});
const seed001 = agent('node-1', {
  'mount-holders': mountHolders([holder()]),
  journal: journal([line(BUSY_LINE, ['device-busy', 'docker-delete-failed'], { path: MERGED, containerId: CID })]),
  runtime: removing,
  host: host({ kernel: '3.10.0-327.el7.x86_64', dockerService: { unitFile: '/usr/lib/systemd/system/docker.service', dropIns: [] } }),
});

// containerd era: the task rootfs, held by a container that mounts /run/containerd from the host.
const TASK = '/run/containerd/io.containerd.runtime.v2.task/k8s.io/4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d/rootfs';
const containerHolder = holder({
  pid: 48213,
  command: '/bin/node-agent --root /host',
  unit: 'cri-containerd-7d2b6f0c1e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c.scope',
  unitFile: undefined,
  privateTmp: undefined,
  namespaceSettings: [],
  containerId: '7d2b6f0c1e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c',
  podUid: '11111111-2222-4333-8444-555555555555',
  mounts: [`/host${TASK}`],
  notInHost: [`/host${TASK}`],
});

// containerd era, the real-node reproduction: `unshare -m --propagation slave … sleep`, started by
// hand (no systemd service), works inside the pod's emptyDir, so the kubelet's umount is busy.
const VOL = '/var/lib/kubelet/pods/fb153396-24b1-43e2-82ae-2782ebdef33c/volumes/kubernetes.io~empty-dir/cache';
const UMOUNT_BUSY =
  `E1125 13:07:09.774973    8048 nestedpendingoperations.go:301] Operation for ` +
  `"{volumeName:kubernetes.io/empty-dir/fb153396-24b1-43e2-82ae-2782ebdef33c-cache}" failed. Error: "UnmountVolume.TearDown failed for volume ` +
  `"cache" : unmount failed: exit status 32
Unmounting arguments: ${VOL}
Output: umount: ${VOL}: target is busy.
"`;
const processHolder = (patch: Parameters<typeof holder>[0] = {}) =>
  holder({
    pid: 31337,
    command: 'sleep 100000',
    unit: undefined,
    unitFile: undefined,
    privateTmp: undefined,
    namespaceSettings: [],
    mounts: [VOL],
    notInHost: [],
    inUse: [VOL],
    ...patch,
  });
const busyVolume = (h: ReturnType<typeof holder>) =>
  agent('node-1', { 'mount-holders': mountHolders([h]), journal: journal([line(UMOUNT_BUSY, ['device-busy'], { path: VOL })]) });

// A CSI node plugin-like service whose copy of the pod's volume the host also still has (shared
// propagation): not a leak, so it is the holder only if it holds the path that is busy.
const sharedCopy = holder({
  pid: 1893,
  command: '/usr/bin/backup-agent --watch /var/lib/kubelet/pods',
  unit: 'backup-agent.service',
  unitFile: '/etc/systemd/system/backup-agent.service',
  privateTmp: undefined,
  namespaceSettings: [],
  mounts: [VOL],
  notInHost: [],
});
const POD_UID = 'fb153396-24b1-43e2-82ae-2782ebdef33c';
// runc (inside the kubelet) cannot rmdir the pod's cgroup while a task is still in it: a process problem.
const CGROUP_BUSY =
  `Nov 21 09:52:11 node-1 kubelet[1083348]: time="2026-11-21T09:52:11Z" level=warning msg="Failed to remove cgroup (will retry)" error="rmdir ` +
  `/sys/fs/cgroup/freezer/kubepods.slice/kubepods-burstable.slice/` +
  `kubepods-burstable-pod${POD_UID.replaceAll('-', '_')}.slice/cri-containerd-${CID}.scope: device or resource busy"`;
const SUBPATH = `/var/lib/kubelet/pods/${POD_UID}/volume-subpaths/config/web/0`;
const SUBPATH_BUSY =
  `Nov 21 09:52:14 node-1 kubelet[1083348]: E1121 09:52:14.711666 1083348 nestedpendingoperations.go:348] Operation for ` +
  `"{volumeName:kubernetes.io/configmap/${POD_UID}-config podName:${POD_UID} nodeName:}" failed. No retries permitted until 2026-11-21 ` +
  `09:54:16.711632504 +0000 UTC m=+90000.1 (durationBeforeRetry 2m2s). Error: error cleaning subPath mounts for volume "config" (UniqueName: ` +
  `"kubernetes.io/configmap/${POD_UID}-config") pod "${POD_UID}" (UID: "${POD_UID}") : error deleting ${SUBPATH}: remove ${SUBPATH}: device or ` +
  `resource busy`;
const NETNS = '/var/run/netns/cni-49ddd103-d374-1f86-7324-13abaeb9c910';
/** A journal match with the signatures and captures the agent's journal probe gives that line. */
const probed = (text: string) => {
  const hit = matchSignatures(text);
  return line(text, hit?.signatures ?? [], hit?.captures ?? {});
};

testRule(rule, {
  valid: [
    { name: 'healthy running pod, even with a holder somewhere', snapshot: snapshot(pod(), { agent: seed001 }) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(stuck(-20), { agent: seed001 }) },
    {
      name: 'stuck but nothing on the node or in events says busy',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([]), journal: journal([]) }) }),
    },
    {
      name: 'only a shared copy the host also has (a CSI plugin with Bidirectional propagation) and no busy line',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([holder({ notInHost: [] })]), journal: journal([]) }) }),
    },
    {
      name: "the pod's own processes and the host namespace are not holders",
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', { 'mount-holders': mountHolders([holder({ ownPod: true }), holder({ pid: 1, hostNamespace: true })]), journal: journal([]) }),
      }),
    },
    { name: 'agent unreachable and no busy event', snapshot: snapshot(stuck(), { gaps: [agentGap('node-1', 'unreachable: ECONNREFUSED', 'unreachable')] }) },
    {
      name: 'near miss (cgroup rmdir busy vs a held mount): a task left in the cgroup, and a service with a shared copy nearby',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', {
          'mount-holders': mountHolders([sharedCopy]),
          journal: journal([probed(CGROUP_BUSY)]),
        }),
      }),
    },
    {
      name: 'near miss (subPath cleanup busy vs a held container mount): terminating.subpath-umount-busy reports it',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', {
          'mount-holders': mountHolders([sharedCopy]),
          journal: journal([probed(SUBPATH_BUSY)]),
        }),
      }),
    },
  ],
  invalid: [
    {
      name: 'seed 001: ntpd with PrivateTmp holds the overlay merged dir (docker)',
      snapshot: snapshot(stuck(), { agent: seed001 }),
      expect: {
        severity: 'critical',
        playbook: 'release-mount-holder',
        causeKey: 'node/node-1:holder/ntpd.service',
        params: { node: 'node-1', unit: 'ntpd.service', pid: 2725007, mount: MERGED, holderKind: 'service' },
        said: [
          { id: 'titleService', data: { unit: 'ntpd.service' } },
          'privateTmp',
          { id: 'heldByService', data: { command: '/usr/sbin/ntpd -u ntp:ntp -g', mountNamespace: 'mnt:[4026532601]' } },
          'containerBusy',
        ],
        quotes: [/Removal In Progress/, /MountFlags/],
      },
    },
    {
      name: 'containerd: a container mounting /run/containerd holds the task rootfs',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([containerHolder]), journal: journal([]) }) }),
      expect: {
        severity: 'critical',
        playbook: null,
        causeKey: 'node/node-1:holder/container/7d2b6f0c1e9a',
        params: { pid: 48213, holderKind: 'container' },
        said: [
          { id: 'heldByPodContainer', data: { container: '7d2b6f0c1e9a' } },
          { id: 'titlePid', data: { mount: /rootfs/ } },
        ],
      },
    },
    {
      name: 'a process in no systemd service (unshare -m … sleep) works inside the emptyDir: stop-mount-holder',
      snapshot: snapshot(stuck(), { agent: busyVolume(processHolder()) }),
      expect: {
        severity: 'critical',
        playbook: 'stop-mount-holder',
        causeKey: 'node/node-1:holder/pid/31337',
        params: { node: 'node-1', pid: 31337, mount: VOL, holderKind: 'process' },
        said: [{ id: 'titlePid', data: { pid: 31337 } }, 'worksInside'],
        quotes: [/no systemd unit/],
      },
    },
    {
      name: 'the same process started by hand over ssh (a session scope, not a service): stop-mount-holder',
      snapshot: snapshot(stuck(), { agent: busyVolume(processHolder({ unit: 'session-3.scope' })) }),
      expect: { playbook: 'stop-mount-holder', params: { pid: 31337, unit: 'session-3.scope', holderKind: 'process' }, quotes: [/unit session-3\.scope/] },
    },
    {
      name: 'the same mount held by a systemd service: release-mount-holder, not stop-mount-holder',
      snapshot: snapshot(stuck(), { agent: busyVolume(processHolder({ unit: 'backup-agent.service', command: '/usr/bin/backup-agent' })) }),
      expect: {
        playbook: 'release-mount-holder',
        params: { pid: 31337, unit: 'backup-agent.service', holderKind: 'service' },
        said: [{ id: 'heldByService', data: { unit: 'backup-agent.service' } }],
      },
    },
    {
      name: 'busy line but no holder found now',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', {
          'mount-holders': mountHolders([]),
          journal: journal([line(BUSY_LINE, ['device-busy'], { path: MERGED })]),
          runtime: removing,
        }),
      }),
      expect: { severity: 'error', playbook: null, causeKey: `node/node-1:mount/${MERGED}`, said: ['noHolderMatching'] },
    },
    {
      name: 'agent unreachable: the API event still reports, naming the check that could not run',
      snapshot: snapshot(stuck(), {
        events: [
          event(stuck(), {
            reason: 'FailedKillPod',
            message: `error killing pod: failed to "KillContainer" for "web": remove ${MERGED}: device or resource busy`,
            count: 12,
          }),
        ],
        gaps: [agentGap('node-1', 'unreachable: ECONNREFUSED', 'unreachable')],
      }),
      expect: {
        severity: 'warning',
        playbook: null,
        said: [{ id: 'checksMissing', data: { missing: /mount-holders could not run on node-1 \(unreachable: ECONNREFUSED\)/ } }],
      },
    },
    {
      name: "the busy path is the sandbox's netns; the only holder has a shared copy of a volume, not that: no playbook",
      snapshot: snapshot(stuck(), {
        events: [
          event(stuck(), {
            reason: 'FailedKillPod',
            count: 7,
            message:
              `error killing pod: failed to "KillPodSandbox" for "${POD_UID}" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to ` +
              `remove network namespace for sandbox \\"${CID}\\": failed to remove ns: unlinkat ${NETNS}: device or resource busy"`,
          }),
        ],
        agent: agent('node-1', { 'mount-holders': mountHolders([sharedCopy]), journal: journal([]) }),
      }),
      expect: {
        severity: 'error',
        playbook: null,
        causeKey: `node/node-1:mount/${NETNS}`,
        said: [{ id: 'holderNotBusy', data: { mount: '/var/run/netns/cni-49ddd103-d374-1f86-7324-13abaeb9c910', holders: 'pid 1893 backup-agent.service' } }],
      },
    },
    {
      name: 'mount-holders timed out: says so',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', {
          'mount-holders': failed('mount-holders did not finish within 5000ms', true),
          journal: journal([line(BUSY_LINE, ['device-busy'], { path: MERGED })]),
        }),
      }),
      expect: { severity: 'warning', said: [{ id: 'checksMissing', data: { missing: /did not finish within 5000ms/ } }] },
    },
  ],
});

describe('terminating.mount-busy advice names the playbook that fits the holder', () => {
  const advice = (h: ReturnType<typeof holder>) => findingsOf(rule, snapshot(stuck(), { agent: busyVolume(h) }))[0]?.advice.join('\n') ?? '';

  it('a process in no service: stop it (stop-mount-holder), never release-mount-holder', () => {
    for (const text of [advice(processHolder()), advice(processHolder({ unit: 'session-3.scope' }))]) {
      expect(text).toMatch(/Stop pid 31337 on node-1 \(`kill 31337`\): it is part of no systemd service.*playbook stop-mount-holder/);
      expect(text).not.toMatch(/release-mount-holder/);
    }
  });

  it('a service: restart it (release-mount-holder)', () => {
    const text = advice(processHolder({ unit: 'backup-agent.service', command: '/usr/bin/backup-agent' }));
    expect(text).toMatch(/systemctl restart backup-agent\.service.*playbook release-mount-holder/);
    expect(text).not.toMatch(/stop-mount-holder/);
  });

  it('a container: restart its pod, no playbook', () => {
    const text = advice(containerHolder);
    expect(text).toMatch(/Restart the pod that owns container 7d2b6f0c1e9a/);
    expect(text).not.toMatch(/playbook/);
  });
});
