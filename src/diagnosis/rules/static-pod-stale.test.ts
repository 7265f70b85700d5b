import { agent, host } from '../../../test/helpers/agent.js';
import { agentGap, ago, containerStatus, lostNode, pod, snapshot, uid } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { argvHash, redactArgs } from '../../probes/host.js';
import type { StaticPodManifest, StaticPods } from '../../probes/types.js';
import type { Pod, Snapshot } from '../types.js';
import { rule } from './static-pod-stale.js';

const NODE = 'cp-1';
const DIR = '/etc/kubernetes/manifests';
const IMAGE = 'registry.k8s.io/kube-apiserver:v1.31.4';
const ARGV = [
  'kube-apiserver',
  '--advertise-address=10.0.0.11',
  '--etcd-servers=https://127.0.0.1:2379',
  '--token-auth-file=/etc/kubernetes/pki/tokens.csv',
  '--audit-log-maxage=30',
];
// config.hash is the kubelet's md5 over the Go object; config.seen has nanoseconds and an offset.
const HASH = '4c7b0a3d9e2f61c5b8a7d6e5f4c3b2a1';
const SEEN_AGO = 86400;
const SEEN = '2026-11-20T18:00:00.123456789+08:00';

function mirror(patch: { image?: string; argv?: string[]; owners?: boolean; seen?: boolean; deleting?: boolean; source?: string } = {}): Pod {
  const image = patch.image ?? IMAGE;
  return pod({
    metadata: {
      name: `kube-apiserver-${NODE}`,
      namespace: 'kube-system',
      creationTimestamp: ago(SEEN_AGO - 2),
      labels: { component: 'kube-apiserver', tier: 'control-plane' },
      annotations: {
        'kubernetes.io/config.hash': HASH,
        'kubernetes.io/config.mirror': HASH,
        'kubernetes.io/config.source': patch.source ?? 'file',
        ...(patch.seen === false ? {} : { 'kubernetes.io/config.seen': SEEN }),
      },
      ownerReferences: patch.owners === false ? undefined : [{ apiVersion: 'v1', kind: 'Node', name: NODE, uid: uid(), controller: true }],
      deletionTimestamp: patch.deleting ? ago(5) : undefined,
    },
    spec: { nodeName: NODE, containers: [{ name: 'kube-apiserver', image, command: patch.argv ?? ARGV }] },
    status: { containerStatuses: [containerStatus({ name: 'kube-apiserver', image })] },
  });
}

/** A manifest as the agent reports it: argv text redacted, hash over what was written. */
function manifest(file: string, init: { image?: string; argv?: string[]; mtimeAgo?: number; omitted?: boolean; name?: string } = {}): StaticPodManifest {
  const argv = init.argv ?? ARGV;
  const time = ago(init.mtimeAgo ?? SEEN_AGO + 600);
  return {
    file,
    mtime: time,
    ctime: time,
    size: 3412,
    pod: {
      name: init.name ?? 'kube-apiserver',
      namespace: 'kube-system',
      specHash: 'a1'.repeat(32),
      containers: [
        {
          name: 'kube-apiserver',
          init: false,
          image: init.image ?? IMAGE,
          ...(init.omitted ? { argvOmitted: true } : { command: redactArgs(argv) }),
          argvHash: argvHash(argv, undefined),
        },
      ],
    },
  };
}

const broken = (file: string, mtimeAgo = 900): StaticPodManifest => ({
  file,
  mtime: ago(mtimeAgo),
  ctime: ago(mtimeAgo),
  size: 410,
  error: 'not valid YAML: Sequence item without - indicator at line 13, column 1',
});
const etcd = manifest('etcd.yaml', { name: 'etcd', image: 'registry.k8s.io/etcd:3.5.15-0', argv: ['etcd', '--data-dir=/var/lib/etcd'] });

function dir(manifests: StaticPodManifest[], patch: Partial<StaticPods> = {}): StaticPods {
  return { path: DIR, source: 'config', kind: 'dir', mtime: ago(SEEN_AGO * 3), manifests, truncated: false, ...patch };
}

const onNode = (p: Pod, sp: StaticPods | undefined, more: Partial<Snapshot> = {}) =>
  snapshot(p, { agent: agent(NODE, { host: host(sp ? { staticPods: sp } : {}) }), ...more });

const EDITED = ARGV.map((a) => (a === '--audit-log-maxage=30' ? '--audit-log-maxage=7' : a));
const edited = (mtimeAgo = 600) => manifest('kube-apiserver.yaml', { image: 'registry.k8s.io/kube-apiserver:v1.31.5', argv: EDITED, mtimeAgo });

/** The mirror pod the kubelet made after it applied an edit: new hash, config.seen and creation just after the file changed. */
function recreated(seenAgo: number, image: string, argv: string[], waiting?: { reason: string; message: string }): Pod {
  const p = mirror({ image, argv });
  const hash = '9e1d4f7a2b6c3e8d5a0f1b2c3d4e5f6a';
  p.metadata = {
    ...p.metadata,
    creationTimestamp: ago(seenAgo - 1),
    annotations: {
      ...p.metadata?.annotations,
      'kubernetes.io/config.hash': hash,
      'kubernetes.io/config.mirror': hash,
      'kubernetes.io/config.seen': ago(seenAgo).replace('Z', '.481516872Z'),
    },
  };
  if (waiting)
    p.status = {
      ...p.status,
      phase: 'Pending',
      containerStatuses: [containerStatus({ name: 'kube-apiserver', image, ready: false, started: false, containerID: undefined, state: { waiting } })],
    };
  return p;
}
const MISSING_IMAGE = 'registry.k8s.io/kube-apiserver:v1.31.9';

testRule(rule, {
  valid: [
    { name: 'a Deployment pod, with the node facts', snapshot: snapshot(pod(), { agent: agent('node-1', { host: host({ staticPods: dir([etcd]) }) }) }) },
    {
      name: 'mirror pod that matches its manifest (written before the kubelet saw it)',
      snapshot: onNode(mirror(), dir([etcd, manifest('kube-apiserver.yaml')])),
    },
    {
      name: 'matching by hash: the redacted --token-auth-file in the manifest text is no difference',
      snapshot: onNode(mirror(), dir([manifest('kube-apiserver.yaml', { mtimeAgo: SEEN_AGO + 5 })])),
    },
    { name: 'edited 30s ago: the kubelet may still be at it', snapshot: onNode(mirror(), dir([etcd, edited(30)])) },
    {
      name: 'agent unreachable: nothing to compare, the gap says so',
      snapshot: snapshot(mirror(), { gaps: [agentGap(NODE, 'unreachable: ECONNREFUSED', 'unreachable')] }),
    },
    { name: 'an agent too old to report static pods', snapshot: onNode(mirror(), undefined) },
    { name: 'the manifest dir is only the kubeadm guess and holds no such pod', snapshot: onNode(mirror(), dir([etcd], { source: 'default' })) },
    { name: 'the listing was cut short', snapshot: onNode(mirror(), dir([etcd], { truncated: true })) },
    { name: 'mirror pod being replaced', snapshot: onNode(mirror({ deleting: true }), dir([edited()])) },
    { name: 'an HTTP-source static pod', snapshot: onNode(mirror({ source: 'http' }), dir([edited()])) },
    {
      name: 'an old backup beside the live manifest the pod runs',
      snapshot: onNode(
        mirror(),
        dir([
          manifest('kube-apiserver.yaml'),
          manifest('kube-apiserver.yaml.bak', { image: 'registry.k8s.io/kube-apiserver:v1.30.2', mtimeAgo: SEEN_AGO * 30 }),
        ]),
      ),
    },
    {
      name: 'near miss (a mirror pod updated normally vs a missed change): the kubelet recreated it 10 seconds after the edit',
      snapshot: onNode(recreated(590, 'registry.k8s.io/kube-apiserver:v1.31.5', EDITED), dir([etcd, edited(600)])),
    },
    {
      name: 'near miss (the new image cannot be pulled vs a missed change): the mirror pod has the new spec and waits in ImagePullBackOff',
      snapshot: onNode(
        recreated(590, MISSING_IMAGE, ARGV, {
          reason: 'ImagePullBackOff',
          message:
            `Back-off pulling image "${MISSING_IMAGE}": ErrImagePull: rpc error: code = NotFound desc = ` +
            `failed to pull and unpack image "${MISSING_IMAGE}": failed to resolve reference "${MISSING_IMAGE}": ${MISSING_IMAGE}: not found`,
        }),
        dir([etcd, manifest('kube-apiserver.yaml', { image: MISSING_IMAGE, mtimeAgo: 600 })]),
      ),
    },
  ],
  invalid: [
    {
      name: 'seed 003: kube-apiserver manifest edited 10 minutes ago, the mirror pod still runs the old spec',
      snapshot: onNode(mirror(), dir([etcd, edited(), broken('kube-scheduler.yaml')])),
      expect: {
        severity: 'error',
        playbook: 'restart-kubelet',
        causeKey: `node/${NODE}:static-pod/kube-apiserver`,
        params: { node: NODE },
        said: [{ id: 'differs', data: { path: '/etc/kubernetes/manifests/kube-apiserver.yaml', age: '10m' } }, 'missedChange'],
        quotes: [
          /manifest: registry\.k8s\.io\/kube-apiserver:v1\.31\.5 · running: registry\.k8s\.io\/kube-apiserver:v1\.31\.4/,
          /manifest: --audit-log-maxage=7 · running: --audit-log-maxage=30/,
          new RegExp(`config\\.hash=${HASH}`),
        ],
      },
    },
    {
      name: 'manifest modified a day after the kubelet loaded the pod; images and flags the same (two classes fit: no playbook)',
      snapshot: onNode(mirror(), dir([manifest('kube-apiserver.yaml', { mtimeAgo: 3600 })])),
      expect: {
        severity: 'warning',
        playbook: null,
        said: [
          { id: 'modifiedAfter', data: { later: '23h', seen: '2026-11-20T18:00:00.123456789+08:00', seenField: 'kubernetes.io/config.seen' } },
          'sameArgv',
        ],
      },
    },
    {
      name: 'manifest moved out of the dir an hour ago, the mirror pod remains',
      snapshot: onNode(mirror(), dir([etcd], { mtime: ago(3600) })),
      expect: { severity: 'warning', playbook: 'restart-kubelet', said: ['goneTitle', 'gone'], quotes: [/etcd\.yaml; dir modified/] },
    },
    {
      name: 'the edit broke the YAML: fix the file, a restart does not help',
      snapshot: onNode(mirror(), dir([etcd, broken('kube-apiserver.yaml')])),
      expect: {
        severity: 'warning',
        playbook: null,
        said: [{ id: 'broken', data: { errors: /kube-apiserver\.yaml \(not valid YAML: Sequence item without - indicator at line 13, column 1\)/ } }],
      },
    },
    {
      name: 'the edit is shadowed by a copy of the old manifest in the same dir',
      snapshot: onNode(mirror(), dir([edited(), manifest('kube-apiserver.yaml.orig', { mtimeAgo: SEEN_AGO * 30 })])),
      expect: {
        severity: 'error',
        playbook: null,
        said: [{ id: 'shadowTitle', data: { ignored: 'kube-apiserver.yaml', kept: 'kube-apiserver.yaml.orig' } }],
        quotes: [/--audit-log-maxage=7/],
      },
    },
    {
      name: 'node NotReady: the kubelet may have the change but cannot post it',
      snapshot: onNode(mirror(), dir([edited()]), { node: lostNode(NODE) }),
      expect: { severity: 'warning', playbook: null, said: ['offline'] },
    },
    {
      name: "an old kubelet's mirror pod (no owner, no config.seen), one manifest file, argv too long to quote",
      snapshot: onNode(
        mirror({ owners: false, seen: false }),
        dir([{ ...manifest('kube-apiserver.yaml', { argv: EDITED, omitted: true, mtimeAgo: 1800 }), file: 'kube-apiserver.yaml' }], {
          kind: 'file',
          path: '/etc/kubelet.d/kube-apiserver.yaml',
          source: 'flag',
          mtime: undefined,
        }),
      ),
      expect: {
        severity: 'error',
        said: [{ id: 'differs', data: { age: '30m' } }],
        quotes: [/\/etc\/kubelet\.d\/kube-apiserver\.yaml modified/, /too long to quote/],
      },
    },
  ],
});
