// node.notready-cascade: Nodes go NotReady one after another where one workload lands.

import { claimClass, claimProvisioner } from '../claims.js';
import { eventEvidence, eventsMatching, formatDuration, isFinished, ms, nodeCondition, podLabel } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, Node, Pod, Snapshot } from '../types.js';

/** A node counts as taken down by the workload if it went NotReady this soon after a pod landed. */
export const LINK_SECONDS = 20 * 60;
/** "Within minutes": the linked NotReady transitions all fall inside this window. */
export const CASCADE_WINDOW_SECONDS = 60 * 60;
/** Only recent NotReady transitions are a live cascade. */
export const LOOKBACK_SECONDS = 6 * 60 * 60;

// Drivers/classes of shared network or FUSE filesystems whose hang can wedge a node's runtime (000: glusterfs).
const NETWORK_FS = /gluster|nfs|ceph|cephfs|rbd|fuse|juicefs|s3|goofys|gcsfuse|blob|smb|cifs|efs|lustre|seaweed|alluxio|moosefs|beegfs|sshfs|iscsi/i;

// What a hung mount does to a node: the runtime stops answering (PLEG relist hangs, the runtime
// status check fails), then the kubelet stops posting (Ready Unknown). A CNI that is not ready, a
// node shutting down or a kubelet just restarted are NotReady for reasons the workload did not cause.
const WEDGED = /PLEG is not healthy|container runtime is down|deadline exceeded/i;
// Taints of a node the platform is taking away (the kubernetes-mixin's KubeNodeUnreachable
// exclusions, the cloud node controller's shutdown taint, Karpenter's disruption): its NotReady is planned.
const REMOVED = [
  'ToBeDeletedByClusterAutoscaler',
  'cloud.google.com/impending-node-termination',
  'aws-node-termination-handler/spot-itn',
  'node.cloudprovider.kubernetes.io/shutdown',
  'karpenter.sh/disrupted',
  'karpenter.sh/disruption',
];

/** NotReady the way a hung runtime makes it, on a node nobody is removing. */
function wedged(node: Node): boolean {
  if ((node.spec?.taints ?? []).some((t) => REMOVED.includes(t.key))) return false;
  const ready = nodeCondition(node, 'Ready');
  return ready?.status === 'Unknown' || WEDGED.test(ready?.message ?? '');
}

interface SharedVolume {
  name: string;
  type: string;
  detail: string;
}

/** Volumes of the pod that are shared network/FUSE filesystems. */
export function sharedVolumes(pod: Pod, snapshot: Snapshot): SharedVolume[] {
  const out: SharedVolume[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.glusterfs) out.push({ name: v.name, type: 'glusterfs', detail: `endpoints ${v.glusterfs.endpoints}, path ${v.glusterfs.path}` });
    else if (v.nfs) out.push({ name: v.name, type: 'nfs', detail: `${v.nfs.server}:${v.nfs.path}` });
    else if (v.cephfs) out.push({ name: v.name, type: 'cephfs', detail: (v.cephfs.monitors ?? []).join(',') });
    else if (v.flexVolume) out.push({ name: v.name, type: 'flexVolume', detail: `driver ${v.flexVolume.driver}` });
    else if (v.csi && NETWORK_FS.test(v.csi.driver)) out.push({ name: v.name, type: 'csi', detail: `driver ${v.csi.driver}` });
    else if (v.persistentVolumeClaim) {
      const pvc = snapshot.pvcs?.[v.persistentVolumeClaim.claimName];
      const sc = claimClass(pvc);
      const prov = claimProvisioner(pvc);
      const hint = [sc, prov].find((s) => s && NETWORK_FS.test(s));
      if (hint)
        out.push({
          name: v.name,
          type: 'pvc',
          detail: `claim ${v.persistentVolumeClaim.claimName} (${sc ? `storageClass ${sc}` : ''}${prov ? ` provisioner ${prov}` : ''})`,
        });
    }
  }
  return out;
}

/** When the pod was bound to its node: PodScheduled=True transition, else start or creation. */
function scheduledAt(p: Pod): number | undefined {
  const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  return ms(cond?.lastTransitionTime) ?? ms(p.status?.startTime) ?? ms(p.metadata?.creationTimestamp);
}

interface WorkloadRef {
  namespace: string;
  kind: string;
  name: string;
}

function workloadOf(snapshot: Snapshot): WorkloadRef | undefined {
  const pod = snapshot.pod ?? snapshot.workloadPods?.[0];
  const namespace = pod?.metadata?.namespace;
  if (!namespace) return undefined;
  // Owners are nearest first; the last is the workload a human scales (Deployment over ReplicaSet).
  const top = snapshot.owners?.[snapshot.owners.length - 1];
  if (top) return { namespace, kind: top.kind, name: top.name };
  const ref = pod.metadata?.ownerReferences?.[0];
  return ref ? { namespace, kind: ref.kind, name: ref.name } : undefined;
}

interface Link {
  node: Node;
  name: string;
  downAt: number;
  pod: Pod;
  podAt: number;
}

export const rule = defineRule({
  meta: {
    id: 'node.notready-cascade',
    title: 'Nodes go NotReady one after another where one workload lands',
    category: 'node',
    severity: 'critical',
    needs: ['pod', 'owners', 'nodes', 'nodeEvents', 'workloadPods', 'pvcs'],
    playbook: 'contain-cascade',
    // Explains many stuck pods and NotReady nodes at once; ranks above the per-pod terminating rules.
    // It does not supersede terminating.node-lost: stuck pods still need that finding's force-delete path.
    priority: 85,
    // One node's NotReady is a symptom of the cascade: fold node.not-ready into it.
    supersedes: ['node.not-ready'],
    doc:
      'Several nodes turned NotReady within minutes, each shortly after pods of one workload were scheduled onto it, ' +
      'and that workload mounts a shared FUSE/network volume (glusterfs, nfs, cephfs, flexVolume, such CSI drivers): ' +
      'the workload takes down every node it lands on (000). ' +
      'Only NotReady the way a hung runtime makes it counts (Ready Unknown, PLEG not healthy, runtime down): ' +
      'a CNI that is not ready, a node shutting down, or a node the platform is removing ' +
      '(spot interruption, autoscaler, Karpenter, cloud shutdown taints) is another cause.',
    messages: {
      title: '{{workload}} takes down each node it lands on: {{count}} nodes NotReady',
      cascade: '{{count}} nodes ({{nodes}}) went NotReady within {{span}}, each {{delays}} after a pod of {{workload}} was scheduled onto it.',
      sharedMount:
        'The workload mounts {{volumes}}; a hung network/FUSE mount blocks the container runtime on the node ' +
        '(docker ps hangs, the kubelet stops reporting), ' +
        'and every reschedule of these pods carries the failure to the next node (000: glusterfs).',
      noAgent: 'The node check (a FUSE mount that does not answer stat, a hung runtime) could not run: no node agent facts.',
      contain:
        'Contain first: cordon {{nodes}} and scale {{workload}} to zero so it stops landing on healthy nodes ' + '(playbook contain-cascade, two approvers).',
      unmount:
        'Then on each node: lazy-unmount the hung {{type}} mount or stop its client, which frees the runtime (see terminating.runtime-hung), and uncordon.',
      fixBackend: 'Fix the storage backend ({{backends}}) before scaling the workload back up.',
      preventNetworkFs:
        'Keep network/FUSE filesystems out of critical nodes: ' +
        'CSI drivers with timeouts (soft/intr, timeo for NFS) instead of in-tree glusterfs/flexVolume.',
      preventPool: 'Pin risky storage clients to a dedicated node pool (taints + tolerations) so a hang cannot spread.',
    },
  },
  check(snapshot) {
    if (isFinished(snapshot.pod)) return null;
    const workload = workloadOf(snapshot);
    const pods = [...(snapshot.workloadPods ?? []), ...(snapshot.pod ? [snapshot.pod] : [])];
    const nodes = snapshot.nodes ?? [];
    if (!workload || pods.length === 0 || nodes.length < 2) return null;

    const volumes = new Map<string, SharedVolume>();
    for (const p of pods) for (const v of sharedVolumes(p, snapshot)) volumes.set(`${v.type}:${v.detail}`, v);
    if (volumes.size === 0) return null;

    const now = ms(snapshot.now) ?? 0;
    const links: Link[] = [];
    for (const node of nodes) {
      const ready = nodeCondition(node, 'Ready');
      const downAt = ms(ready?.lastTransitionTime);
      if (!ready || ready.status === 'True' || downAt === undefined || now - downAt > LOOKBACK_SECONDS * 1000 || !wedged(node)) continue;
      const name = node.metadata?.name ?? '?';
      const landed = pods
        .filter((p) => p.spec?.nodeName === name)
        .map((p) => ({ pod: p, at: scheduledAt(p) }))
        .filter((x): x is { pod: Pod; at: number } => x.at !== undefined && x.at <= downAt && downAt - x.at <= LINK_SECONDS * 1000)
        .sort((a, b) => b.at - a.at)[0];
      if (landed) links.push({ node, name, downAt, pod: landed.pod, podAt: landed.at });
    }
    links.sort((a, b) => a.downAt - b.downAt);
    const latest = links[links.length - 1]?.downAt ?? 0;
    const cascade = links.filter((l) => latest - l.downAt <= CASCADE_WINDOW_SECONDS * 1000);
    if (cascade.length < 2) return null;

    const ref = `${workload.kind} ${workload.namespace}/${workload.name}`;
    const vols = [...volumes.values()];
    const evidence: Evidence[] = cascade.map((l) => {
      const ready = nodeCondition(l.node, 'Ready');
      return {
        source: `node ${l.name} Ready condition`,
        text:
          `${ready?.status ?? '?'} (${ready?.reason ?? ''}: ${ready?.message ?? ''}) ` +
          `since ${new Date(l.downAt).toISOString().replace('.000Z', 'Z')}, ` +
          `${formatDuration((l.downAt - l.podAt) / 1000)} after ${podLabel(l.pod)} was scheduled there`,
      };
    });
    for (const v of vols) evidence.push({ source: `${ref} volume ${v.name}`, text: `${v.type}: ${v.detail}` });
    for (const e of eventsMatching(snapshot.nodeEvents ?? [], /NotReady/, ['NodeNotReady']).slice(0, 2)) evidence.push(eventEvidence(e));

    const names = cascade.map((l) => l.name);
    const span = (latest - (cascade[0]?.downAt ?? latest)) / 1000;
    return {
      title: msg('title', { workload: ref, count: names.length }),
      cause: [
        msg('cascade', {
          count: names.length,
          nodes: names.join(', '),
          span: formatDuration(span),
          delays: cascade.map((l) => formatDuration((l.downAt - l.podAt) / 1000)).join('/'),
          workload: ref,
        }),
        msg('sharedMount', { volumes: vols.map((v) => `${v.type} (${v.detail})`).join(', ') }),
        !snapshot.agent && msg('noAgent'),
      ],
      evidence,
      advice: [
        msg('contain', { nodes: names.join(', '), workload: ref }),
        msg('unmount', { type: vols[0]?.type ?? 'network' }),
        msg('fixBackend', { backends: vols.map((v) => v.detail).join(', ') }),
      ],
      prevent: [msg('preventNetworkFs'), msg('preventPool')],
      causeKey: `workload/${workload.namespace}/${workload.kind}/${workload.name}`,
      params: {
        namespace: workload.namespace,
        kind: workload.kind,
        name: workload.name,
        nodes: names,
        volumes: vols.map((v) => `${v.type}:${v.name}`),
        requiresTwoApprovals: true,
      },
    };
  },
});
