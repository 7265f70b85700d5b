import { agent, container, failed, holder, host, journal, line, mountHolders, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-mount-busy.js';

const MERGED = '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged';
const CID = 'e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9';
// Seed 001, dockerd's own words.
const BUSY_LINE = `Jan 30 14:57:47 c3-a05-136-45-4.com dockerd[1510]: time="2019-01-30T14:57:47.704772288+08:00" level=error msg="Handler for DELETE /v1.31/containers/${CID} returned error: driver \\"overlay\\" failed to remove root filesystem for ${CID}: remove ${MERGED}: device or resource busy"`;

const stuck = (deletedAgo = 3600) =>
  pod({ metadata: { name: 'httpserver-prod-1-6cb97dfbcc-f9flb', namespace: 'default', deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30 } });

const removing = runtime({ docker: { version: '17.07.0-ce', storageDriver: 'overlay', containers: [container({ id: CID, state: 'removing', status: 'Removal In Progress', rootfsMount: MERGED })] } });
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

testRule(rule, {
  valid: [
    { name: 'healthy running pod, even with a holder somewhere', snapshot: snapshot(pod(), { agent: seed001 }) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(stuck(-20), { agent: seed001 }) },
    { name: 'stuck but nothing on the node or in events says busy', snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([]), journal: journal([]) }) }) },
    {
      name: 'only a shared copy the host also has (a CSI plugin with Bidirectional propagation) and no busy line',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([holder({ notInHost: [] })]), journal: journal([]) }) }),
    },
    {
      name: "the pod's own processes and the host namespace are not holders",
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([holder({ ownPod: true }), holder({ pid: 1, hostNamespace: true })]), journal: journal([]) }) }),
    },
    { name: 'agent unreachable and no busy event', snapshot: snapshot(stuck(), { gaps: [agentGap('node-1', 'unreachable: ECONNREFUSED', 'unreachable')] }) },
  ],
  invalid: [
    {
      name: 'seed 001: ntpd with PrivateTmp holds the overlay merged dir (docker)',
      snapshot: snapshot(stuck(), { agent: seed001 }),
      expect: {
        severity: 'critical',
        playbook: 'release-mount-holder',
        causeKey: 'node/node-1:holder/ntpd.service',
        params: { node: 'node-1', unit: 'ntpd.service', pid: 2725007, mount: MERGED },
        mentions: [/ntpd\.service/, /PrivateTmp=true/, /\/usr\/sbin\/ntpd -u ntp:ntp -g/, /device or resource busy/, /Removal In Progress/, /MountFlags/, /mnt:\[4026532601\]/],
      },
    },
    {
      name: 'containerd: a container mounting /run/containerd holds the task rootfs',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([containerHolder]), journal: journal([]) }) }),
      expect: { severity: 'critical', playbook: null, causeKey: 'node/node-1:holder/container/7d2b6f0c1e9a', params: { pid: 48213 }, mentions: [/container 7d2b6f0c1e9a/, /rootfs/] },
    },
    {
      name: 'busy line but no holder found now',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': mountHolders([]), journal: journal([line(BUSY_LINE, ['device-busy'], { path: MERGED })]), runtime: removing }) }),
      expect: { severity: 'error', playbook: null, causeKey: `node/node-1:mount/${MERGED}`, mentions: [/No process outside the host mount namespace/] },
    },
    {
      name: 'agent unreachable: the API event still reports, naming the check that could not run',
      snapshot: snapshot(stuck(), {
        events: [event(stuck(), { reason: 'FailedKillPod', message: `error killing pod: failed to "KillContainer" for "web": remove ${MERGED}: device or resource busy`, count: 12 })],
        gaps: [agentGap('node-1', 'unreachable: ECONNREFUSED', 'unreachable')],
      }),
      expect: { severity: 'warning', playbook: null, mentions: [/mount-holders could not run on node-1 \(unreachable: ECONNREFUSED\)/] },
    },
    {
      name: 'mount-holders timed out: says so',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'mount-holders': failed('mount-holders did not finish within 5000ms', true), journal: journal([line(BUSY_LINE, ['device-busy'], { path: MERGED })]) }) }),
      expect: { severity: 'warning', mentions: [/did not finish within 5000ms/] },
    },
  ],
});
