import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, node, ownerFact, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-hostport-conflict.js';

// Seed 003: node-exporter (hostNetwork, 9100) already runs; a second exporter wants 9100 too.
const exporterOn = (nodeName: string) => daemonSetPod({ metadata: { name: `node-exporter-${nodeName}` }, spec: { nodeName } });
const hostPortPods = [exporterOn('node-1'), exporterOn('node-2')];
const nodes = [node({ metadata: { name: 'node-1' } }), node({ metadata: { name: 'node-2' } })];
const wants9100 = {
  metadata: {
    name: 'my-prom-node-exporter-abcde',
    namespace: 'monitoring',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'my-prom-node-exporter', uid: 'u', controller: true }],
  },
  spec: {
    hostNetwork: true,
    containers: [{ name: 'exporter', image: 'prom/node-exporter', ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }] }],
  },
};

testRule(rule, {
  valid: [
    {
      name: 'healthy DaemonSet pod holding the port on a healthy GKE node',
      snapshot: snapshot(exporterOn('node-1'), { node: cloudNode('gke'), hostPortPods }),
    },
    { name: 'healthy running pod', snapshot: snapshot(pod(), { hostPortPods }) },
    {
      name: 'Pending for a few seconds',
      snapshot: snapshot(unscheduledPod("0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports.", wants9100, 10), {
        hostPortPods,
      }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { hostPortPods }) },
    {
      name: 'DaemonSet with desired 0 but no port holder found',
      snapshot: snapshot(undefined, {
        owners: [ownerFact('DaemonSet', 'my-prom-node-exporter', { spec: { template: { spec: wants9100.spec } }, status: { desiredNumberScheduled: 0 } })],
        hostPortPods: [],
      }),
    },
  ],
  invalid: [
    {
      name: 'current wording: names the holder of 9100',
      snapshot: snapshot(
        unscheduledPod(
          "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. " +
            'preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
          wants9100,
        ),
        { nodes, hostPortPods },
      ),
      expect: {
        severity: 'error',
        causeKey: 'hostport:TCP/9100',
        params: { ports: ['TCP/9100'], nodes: ['node-1', 'node-2'], holders: ['monitoring/node-exporter-node-1', 'monitoring/node-exporter-node-2'] },
        said: [{ id: 'takenBy', data: { holders: /DaemonSet node-exporter/ } }, 'portTakenHostNetwork'],
      },
    },
    {
      name: 'pre-1.9 wording: PodFitsHostPorts',
      snapshot: (() => {
        const p = unscheduledPod(undefined, wants9100);
        return snapshot(p, {
          hostPortPods,
          events: [failedScheduling(p, 'No nodes are available that match all of the following predicates:: PodFitsHostPorts (2).')],
        });
      })(),
      expect: { causeKey: 'hostport:TCP/9100', quotes: [/PodFitsHostPorts/] },
    },
    {
      name: 'seed 003: old DaemonSet controller leaves desired 0 and no pod',
      snapshot: snapshot(undefined, {
        owners: [
          ownerFact('DaemonSet', 'my-prom-node-exporter', {
            spec: { template: { spec: wants9100.spec } },
            status: { desiredNumberScheduled: 0, currentNumberScheduled: 0 },
          }),
        ],
        hostPortPods,
      }),
      expect: { severity: 'error', causeKey: 'hostport:TCP/9100', said: ['daemonSetEmpty', { id: 'takenBy', data: { holders: /node-exporter-node-1/ } }] },
    },
  ],
});
