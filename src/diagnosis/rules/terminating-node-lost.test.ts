import {
  ago,
  cloudNode,
  completedJobPod,
  containerStatus,
  daemonSetPod,
  event,
  lostNode,
  node,
  pod,
  snapshot,
  terminated,
} from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Pod } from '../types.js';
import { rule } from './terminating-node-lost.js';

const deleted = (deletedAgo: number, patch: Parameters<typeof pod>[0] = {}) =>
  pod({ ...patch, metadata: { deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30, ...(patch.metadata ?? {}) } });
const stsPod = (deletedAgo: number) =>
  deleted(deletedAgo, {
    metadata: { name: 'db-0', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }] },
  });
const lostEvents = (p: Pod) => [
  event(p, { reason: 'NodeNotReady', message: 'Node is not ready', component: 'node-controller', lastSeenAgo: 1200 }),
  event(p, {
    reason: 'TaintManagerEviction',
    type: 'Normal',
    message: `Marking for deletion Pod shop/${p.metadata?.name ?? ''}`,
    component: 'taint-eviction-controller',
    lastSeenAgo: 900,
  }),
];

testRule(rule, {
  valid: [
    {
      name: 'kubelet alive but NotReady (PLEG, fresh heartbeat): not lost, no force delete',
      snapshot: snapshot(deleted(600), {
        node: node({
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'KubeletNotReady',
                message: 'PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s',
                lastHeartbeatTime: ago(5),
                lastTransitionTime: ago(700),
              },
            ],
          },
        }),
      }),
    },
    { name: 'healthy running pod', snapshot: snapshot(pod()) },
    { name: 'deleted on a lost node, still inside its grace period', snapshot: snapshot(deleted(-20), { node: lostNode() }) },
    { name: 'stuck deletion on a healthy node (another rule)', snapshot: snapshot(deleted(600)) },
    { name: 'stuck deletion on a healthy GKE node with extra conditions', snapshot: snapshot(deleted(600), { node: cloudNode('gke') }) },
    { name: 'completed Job pod on a lost node (not deleted)', snapshot: snapshot(completedJobPod(), { node: lostNode() }) },
    {
      name: 'completed Job pod deleted on a lost node',
      snapshot: snapshot(completedJobPod({ metadata: { deletionTimestamp: ago(3600) } }), { node: lostNode() }),
    },
    { name: 'DaemonSet pod on a healthy node', snapshot: snapshot(daemonSetPod(), { node: node() }) },
    {
      name: 'near miss (runtime down vs node lost): NotReady with a 4-minute-old heartbeat is a live kubelet between status reports',
      snapshot: snapshot(deleted(600), {
        node: node({
          spec: {
            taints: [
              { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: ago(900) },
              { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: ago(900) },
            ],
          },
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'KubeletNotReady',
                message: 'container runtime is down',
                // Lease heartbeats: an unchanged status is re-posted only every 5 minutes.
                lastHeartbeatTime: ago(260),
                lastTransitionTime: ago(900),
              },
            ],
          },
        }),
      }),
    },
    {
      name: 'near miss (graceful node shutdown vs node lost): the kubelet stopped the pod before the machine went away',
      snapshot: snapshot(
        deleted(1200, {
          status: {
            phase: 'Failed',
            reason: 'Terminated',
            message: 'Pod was terminated in response to imminent node shutdown.',
            conditions: [
              {
                type: 'DisruptionTarget',
                status: 'True',
                reason: 'TerminationByKubelet',
                message: 'Pod was terminated in response to imminent node shutdown.',
              },
              { type: 'Ready', status: 'False' },
            ],
            containerStatuses: [containerStatus({ ready: false, started: false, state: { terminated: terminated({ exitCode: 143, finishedAgo: 1900 }) } })],
          },
        }),
        { node: lostNode('node-1', 1800) },
      ),
    },
  ],
  invalid: [
    {
      name: 'taint-based eviction: Terminating on an unreachable node',
      snapshot: (() => {
        const p = deleted(900);
        return snapshot(p, { node: lostNode('node-1', 1500), events: lostEvents(p) });
      })(),
      expect: {
        severity: 'error',
        playbook: 'force-delete-pod',
        causeKey: 'node/node-1',
        params: { node: 'node-1', statefulSet: false, requiresTwoApprovals: false },
        said: ['stoppedPosting'],
        quotes: [/node\.kubernetes\.io\/unreachable:NoExecute/, /Marking for deletion Pod shop\//],
      },
    },
    {
      name: 'StatefulSet pod: split-brain warning and two approvers',
      snapshot: snapshot(stsPod(3600), { node: lostNode('node-1', 4000) }),
      expect: { severity: 'critical', params: { pod: 'db-0', statefulSet: true, requiresTwoApprovals: true }, said: ['splitBrainRisk'] },
    },
    {
      name: 'old cluster: status.reason NodeLost (STATUS Unknown), node object not collected',
      snapshot: snapshot(deleted(7200, { status: { reason: 'NodeLost', message: 'Node node-1 which was running pod web-7d9f8c6b5-x2k4q is unresponsive' } }), {
        node: undefined,
      }),
      expect: { causeKey: 'node/node-1', quotes: [/NodeLost: Node node-1 which was running pod/] },
    },
  ],
});
