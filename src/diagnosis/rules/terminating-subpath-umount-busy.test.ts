import { agent, fsMounts, holder, host, journal, line, mountCheck, mountHolders, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, lostNode, merge, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-subpath-umount-busy.js';

const UID = 'c74b89dd-be53-11e8-a1f4-525400f721a0';
const SUBPATH = `/mnt/disk01/k8s/lib/kubelet/pods/${UID}/volume-subpaths/filebeat-config/filebeat/1`;
// Seed 003, the kubelet's line (journal prints the month in Chinese there).
const KUBELET_LINE =
  `9月 22 20:04:07 ee-test kubelet[3583]: E0922 20:04:07.711666    3583 nestedpendingoperations.go:264] Operation for ` +
  `"\\"kubernetes.io/configmap/${UID}-filebeat-config\\" (\\"${UID}\\")" failed. No retries permitted until 2018-09-22 20:04:08.711632504 +0800 CST ` +
  `(durationBeforeRetry 1s). Error: error cleaning subPath mounts for volume "filebeat-config" (UniqueName: ` +
  `"kubernetes.io/configmap/${UID}-filebeat-config") pod "${UID}" (UID: "${UID}") : error deleting ${SUBPATH}: remove ${SUBPATH}: device or resource ` +
  `busy`;

const withSubPath = (deletedAgo = 3600) =>
  pod({
    metadata: { uid: UID, name: 'filebeat-x7k2p', namespace: 'logging', deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30 },
    spec: {
      containers: [
        {
          name: 'filebeat',
          image: 'docker.elastic.co/beats/filebeat:6.4.0',
          volumeMounts: [{ name: 'filebeat-config', mountPath: '/usr/share/filebeat/filebeat.yml', subPath: 'filebeat.yml' }],
        },
      ],
    },
  });
const oldNode = node({ status: { nodeInfo: { kernelVersion: '3.10.0-862.el7.x86_64', containerRuntimeVersion: 'docker://17.3.2' } } });
const newNode = node({ status: { nodeInfo: { kernelVersion: '5.15.0-91-generic', containerRuntimeVersion: 'containerd://1.7.24' } } });
const busyLine = line(KUBELET_LINE, ['subpath-cleanup-busy', 'device-busy'], { path: SUBPATH, volume: 'filebeat-config' });

// The same old node after its kubelet stopped posting status (kernel and docker still in nodeInfo).
const oldLostNode = merge(lostNode('node-1', 1800), { status: { nodeInfo: oldNode.status?.nodeInfo } });
// The subPath comes from an NFS volume whose server went away: stat on it hangs.
const nfsSubPath = () =>
  merge(withSubPath(), {
    spec: {
      volumes: [{ name: 'filebeat-config', nfs: { server: 'nas-1', path: '/export/filebeat' } }],
    },
  });

testRule(rule, {
  valid: [
    { name: 'healthy pod on an old node', snapshot: snapshot(pod(), { node: oldNode }) },
    { name: 'deleted recently, in grace', snapshot: snapshot(withSubPath(-10), { node: oldNode, agent: agent('node-1', { journal: journal([busyLine]) }) }) },
    {
      name: 'stuck on the old pair but no subPath volumes and no log line',
      snapshot: snapshot(pod({ metadata: { deletionTimestamp: ago(3600) } }), { node: oldNode, gaps: [agentGap('node-1', 'unreachable', 'unreachable')] }),
    },
    {
      name: 'stuck with subPath on the old pair but the kubelet log was read and is clean',
      snapshot: snapshot(withSubPath(), { node: oldNode, agent: agent('node-1', { journal: journal([]) }) }),
    },
    {
      name: 'near miss (node lost vs subPath umount): the old pair and a subPath, but the kubelet is gone, so nothing is unmounting',
      snapshot: snapshot(withSubPath(), { node: oldLostNode, gaps: [agentGap('node-1', 'unreachable: EHOSTUNREACH', 'unreachable')] }),
    },
    {
      name: 'near miss (hung NFS volume vs the 3.10 umount bug): the old pair, but the kubelet log has no subPath busy line',
      snapshot: snapshot(nfsSubPath(), {
        node: oldNode,
        agent: agent('node-1', {
          journal: journal([]),
          'fs-mounts': fsMounts([
            mountCheck({
              state: 'hung',
              fsType: 'nfs4',
              source: 'nas-1:/export/filebeat',
              mountPoint: `/mnt/disk01/k8s/lib/kubelet/pods/${UID}/volumes/kubernetes.io~nfs/filebeat-config`,
              detail: 'stat did not return within 2000ms',
              line:
                `388 45 0:101 / /mnt/disk01/k8s/lib/kubelet/pods/${UID}/volumes/kubernetes.io~nfs/filebeat-config rw,relatime shared:190 - nfs4 ` +
                `nas-1:/export/filebeat rw,vers=4.1,hard`,
            }),
          ]),
        }),
      }),
    },
  ],
  invalid: [
    {
      name: 'seed 003: kubelet log line, kernel 3.10 + docker 17.03 (docker era)',
      snapshot: snapshot(withSubPath(), {
        node: oldNode,
        agent: agent('node-1', {
          journal: journal([busyLine]),
          host: host({ kernel: '3.10.0-862.el7.x86_64' }),
          runtime: runtime({ docker: { version: '17.03.2-ce' } }),
        }),
      }),
      expect: {
        severity: 'error',
        playbook: null,
        causeKey: 'node/node-1:subpath-umount',
        params: { node: 'node-1', mount: SUBPATH, kernel: '3.10.0-862.el7.x86_64', docker: '17.03.2-ce' },
        said: ['knownBug', { id: 'titleKnownBug', data: { kernel: '3.10.0-862.el7.x86_64' } }],
        quotes: [/error cleaning subPath mounts/],
      },
    },
    {
      name: 'agent unreachable: versions from the API suggest it, the log check is named',
      snapshot: snapshot(withSubPath(), { node: oldNode, gaps: [agentGap('node-1', 'unreachable: ECONNREFUSED', 'unreachable')] }),
      expect: {
        severity: 'warning',
        said: [
          { id: 'checksMissing', data: { missing: /journal could not run on node-1/ } },
          { id: 'titleKnownBug', data: { docker: '17.3.2' } },
        ],
      },
    },
    {
      name: 'containerd era: same log line on a new kernel, a holder found',
      snapshot: snapshot(withSubPath(), {
        node: newNode,
        agent: agent('node-1', { journal: journal([busyLine]), 'mount-holders': mountHolders([holder({ mounts: [SUBPATH], notInHost: [SUBPATH] })]) }),
      }),
      expect: {
        playbook: 'release-mount-holder',
        causeKey: `node/node-1:mount/${SUBPATH}`,
        params: { unit: 'ntpd.service', holderKind: 'service' },
        said: ['notKnownPairRuntime', { id: 'holderUnit', data: { command: '/usr/sbin/ntpd -u ntp:ntp -g', unit: 'ntpd.service' } }],
      },
    },
    {
      name: 'the holder is a bare process in no systemd service: stop-mount-holder is the fix',
      snapshot: snapshot(withSubPath(), {
        node: newNode,
        agent: agent('node-1', {
          journal: journal([busyLine]),
          'mount-holders': mountHolders([
            holder({
              pid: 4242,
              command: 'sleep 100000',
              unit: 'session-3.scope',
              unitFile: undefined,
              privateTmp: undefined,
              namespaceSettings: [],
              mounts: [SUBPATH],
              notInHost: [SUBPATH],
            }),
          ]),
        }),
      }),
      expect: { playbook: 'stop-mount-holder', params: { pid: 4242, holderKind: 'process' }, said: [{ id: 'holderUnit', data: { pid: 4242 } }] },
    },
    {
      name: "a holder of another container's subPath mount is not the one to release: no playbook",
      snapshot: snapshot(withSubPath(), {
        node: newNode,
        agent: agent('node-1', {
          journal: journal([busyLine]),
          'mount-holders': mountHolders([
            holder({
              mounts: [`/var/lib/kubelet/pods/${UID}/volume-subpaths/filebeat-config/sidecar/0`],
              notInHost: [`/var/lib/kubelet/pods/${UID}/volume-subpaths/filebeat-config/sidecar/0`],
            }),
          ]),
        }),
      }),
      expect: { severity: 'error', playbook: null, said: ['notKnownPairRuntime'] },
    },
  ],
});
