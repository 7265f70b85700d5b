import {
  ago,
  cloudNode,
  completedJobPod,
  daemonSetPod,
  event,
  lostNode,
  merge,
  node,
  ownerFact,
  pod,
  pvcObject,
  snapshot,
} from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Pod } from '../types.js';
import { rule } from './node-notready-cascade.js';

type Vol = NonNullable<NonNullable<Pod['spec']>['volumes']>[number];
const glusterfs: Vol = { name: 'data', glusterfs: { endpoints: 'glusterfs-cluster', path: 'index' } };

const workloadPod = (
  name: string,
  nodeName: string,
  scheduledAgo: number,
  volume: Vol = glusterfs,
  owner = { kind: 'ReplicaSet', name: 'index-task-569f775985' },
) =>
  pod({
    metadata: { name, labels: { app: 'index-task' }, ownerReferences: [{ apiVersion: 'apps/v1', ...owner, uid: 'u', controller: true }] },
    spec: { nodeName, volumes: [volume] },
    status: { startTime: ago(scheduledAgo - 5), conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: ago(scheduledAgo) }] },
  });

// Seed 000: each node dies a few minutes after an index-task pod lands on it.
const nodes = [
  node({ metadata: { name: 'node-1' } }),
  lostNode('node-2', 1500),
  lostNode('node-3', 1000),
  lostNode('node-4', 400),
  node({ metadata: { name: 'node-5' } }),
];
const workloadPods = [
  workloadPod('index-task-569f775985-a', 'node-2', 1800),
  workloadPod('index-task-569f775985-b', 'node-3', 1300),
  workloadPod('index-task-569f775985-c', 'node-4', 700),
  workloadPod('index-task-569f775985-d', 'node-1', 200),
];
const target = workloadPods[3]!;
const owners = [ownerFact('ReplicaSet', 'index-task-569f775985'), ownerFact('Deployment', 'index-task')];
const nodeNotReady = event(
  { kind: 'Node', metadata: { name: 'node-4' } },
  {
    reason: 'NodeNotReady',
    type: 'Normal',
    message: 'Node node-4 status is now: NodeNotReady',
    component: 'node-controller',
    involved: { kind: 'Node', name: 'node-4' },
  },
);

/** Kubelet alive but NotReady (runtime hung: PLEG), as in seed 000 before the heartbeat stops. */
const plegNode = (name: string, sinceSeconds: number) =>
  node({
    metadata: { name },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s',
          lastHeartbeatTime: ago(5),
          lastTransitionTime: ago(sinceSeconds),
        },
      ],
    },
  });

/** NotReady because the CNI agent on the node is being replaced (a calico-node rollout), kubelet alive. */
const cniNode = (name: string, sinceSeconds: number) =>
  node({
    metadata: { name },
    spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: ago(sinceSeconds) }] },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message:
            'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady ' +
            'message:Network plugin returns error: cni plugin not initialized',
          lastHeartbeatTime: ago(8),
          lastTransitionTime: ago(sinceSeconds),
        },
      ],
    },
  });

/** A spot node reclaimed by the cloud: the termination handler tainted it, then the machine went away. */
const reclaimed = (name: string, sinceSeconds: number) =>
  merge(lostNode(name, sinceSeconds), {
    spec: {
      taints: [
        { key: 'aws-node-termination-handler/spot-itn', value: 'spot-itn', effect: 'NoSchedule' },
        { key: 'node.cloudprovider.kubernetes.io/shutdown', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: ago(sinceSeconds) },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ago(sinceSeconds) },
      ],
    },
  });

testRule(rule, {
  valid: [
    { name: 'healthy pod on healthy nodes', snapshot: snapshot(pod(), { nodes: [node(), node({ metadata: { name: 'node-2' } })], workloadPods: [pod()] }) },
    {
      name: 'healthy cloud nodes with extra conditions (GKE, AKS, EKS)',
      snapshot: snapshot(target, { owners, workloadPods, nodes: [cloudNode('gke', 'node-1'), cloudNode('aks', 'node-2'), cloudNode('eks', 'node-3')] }),
    },
    {
      name: 'DaemonSet pod on a healthy node',
      snapshot: snapshot(daemonSetPod(), { nodes: [cloudNode('gke', 'node-1'), cloudNode('gke', 'node-2')], workloadPods: [daemonSetPod()] }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { nodes }) },
    {
      name: 'completed Job pod of the poisoned workload',
      snapshot: snapshot(completedJobPod({ spec: { volumes: [glusterfs] } }), { nodes, workloadPods, owners }),
    },
    {
      name: 'zone outage: nodes NotReady, but the pods had been there for hours',
      snapshot: snapshot(target, {
        owners,
        nodes,
        workloadPods: [workloadPod('a', 'node-2', 20000), workloadPod('b', 'node-3', 30000), workloadPod('c', 'node-4', 40000)],
      }),
    },
    {
      name: 'same timing but the workload mounts no shared filesystem',
      snapshot: (() => {
        const pods = workloadPods.map((p) => ({ ...p, spec: { ...p.spec!, volumes: [{ name: 'tmp', emptyDir: {} }] } }));
        return snapshot(pods[3], { owners, nodes, workloadPods: pods });
      })(),
    },
    {
      name: 'near miss (a CNI rollout vs the cascade): nodes NotReady with "cni plugin not initialized" minutes after the pods landed',
      snapshot: snapshot(target, {
        owners,
        workloadPods,
        nodes: [
          node({ metadata: { name: 'node-1' } }),
          cniNode('node-2', 1500),
          cniNode('node-3', 1000),
          cniNode('node-4', 400),
          node({ metadata: { name: 'node-5' } }),
        ],
      }),
    },
    {
      name: 'near miss (spot reclaims vs the cascade): the cloud took the nodes back one after another',
      snapshot: snapshot(target, {
        owners,
        workloadPods,
        nodes: [node({ metadata: { name: 'node-1' } }), reclaimed('node-2', 1500), reclaimed('node-3', 1000), reclaimed('node-4', 400)],
      }),
    },
    {
      name: 'only one node went down',
      snapshot: snapshot(target, { owners, nodes: [node({ metadata: { name: 'node-1' } }), lostNode('node-2', 1500)], workloadPods: workloadPods.slice(0, 1) }),
    },
  ],
  invalid: [
    {
      name: 'seed 000: glusterfs workload, three nodes lost within minutes',
      snapshot: snapshot(target, { owners, nodes, workloadPods, nodeEvents: [nodeNotReady] }),
      expect: {
        severity: 'critical',
        playbook: 'contain-cascade',
        causeKey: 'workload/shop/Deployment/index-task',
        params: {
          namespace: 'shop',
          kind: 'Deployment',
          name: 'index-task',
          nodes: ['node-2', 'node-3', 'node-4'],
          volumes: ['glusterfs:data'],
          requiresTwoApprovals: true,
        },
        quotes: [/Kubelet stopped posting node status/, /glusterfs: endpoints glusterfs-cluster, path index/, /Node node-4 status is now: NodeNotReady/],
      },
    },
    {
      name: 'NFS CSI StatefulSet, kubelets NotReady with PLEG (no owners collected)',
      snapshot: (() => {
        const nfs: Vol = { name: 'share', csi: { driver: 'nfs.csi.k8s.io', volumeAttributes: { server: 'nas-1', share: '/export' } } };
        const sts = { kind: 'StatefulSet', name: 'crawler' };
        const pods = [workloadPod('crawler-0', 'node-a', 900, nfs, sts), workloadPod('crawler-1', 'node-b', 600, nfs, sts)];
        return snapshot(pods[1], { nodes: [plegNode('node-a', 700), plegNode('node-b', 300), node({ metadata: { name: 'node-c' } })], workloadPods: pods });
      })(),
      expect: {
        causeKey: 'workload/shop/StatefulSet/crawler',
        params: { nodes: ['node-a', 'node-b'] },
        said: [{ id: 'sharedMount', data: { volumes: 'csi (driver nfs.csi.k8s.io)' } }],
        quotes: [/PLEG is not healthy/],
      },
    },
    {
      name: 'PVC on a glusterfs storage class',
      snapshot: (() => {
        const claim: Vol = { name: 'data', persistentVolumeClaim: { claimName: 'index-data' } };
        const pods = workloadPods.map((p) => ({ ...p, spec: { ...p.spec!, volumes: [claim] } }));
        return snapshot(pods[3], {
          owners,
          nodes,
          workloadPods: pods,
          pvcs: {
            'index-data': pvcObject('index-data', {
              spec: { storageClassName: 'glusterfs-storage' },
              metadata: { annotations: { 'volume.kubernetes.io/storage-provisioner': 'kubernetes.io/glusterfs' } },
            }),
          },
        });
      })(),
      expect: { causeKey: 'workload/shop/Deployment/index-task', said: [{ id: 'sharedMount', data: { volumes: /storageClass glusterfs-storage/ } }] },
    },
  ],
});
