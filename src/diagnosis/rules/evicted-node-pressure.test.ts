import { ago, containerStatus, event, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './evicted-node-pressure.js';

const evicted = (message: string) =>
  pod({
    status: {
      phase: 'Failed',
      reason: 'Evicted',
      message,
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message, lastTransitionTime: ago(900) }],
      containerStatuses: [
        containerStatus({
          ready: false,
          state: {
            terminated: {
              exitCode: 137,
              reason: 'ContainerStatusUnknown',
              message: 'The container could not be located when the pod was terminated',
              startedAt: undefined,
              finishedAt: undefined,
            },
          },
        }),
      ],
    },
  });

const MODERN =
  'The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. ' +
  'Container web was using 1288490188, request is 128Mi, has larger consumption of memory. ';
const OLD = 'The node was low on resource: ephemeral-storage. Container web was using 20Gi, which exceeds its request of 0. ';
const pressured = node({
  status: {
    conditions: [
      {
        type: 'MemoryPressure',
        status: 'True',
        reason: 'KubeletHasInsufficientMemory',
        message: 'kubelet has insufficient memory available',
        lastTransitionTime: ago(1000),
      },
      { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    ],
  },
  spec: { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'completed Job pod',
      snapshot: snapshot(
        pod({
          status: { phase: 'Succeeded', containerStatuses: [containerStatus({ ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } })] },
        }),
      ),
    },
    {
      name: 'kubelet admission rejection (OutOfmemory) is not an eviction',
      snapshot: snapshot(
        pod({
          status: {
            phase: 'Failed',
            reason: 'OutOfmemory',
            message: "Pod was rejected: Node didn't have enough resource: memory, requested: 4294967296, used: 15032385536, capacity: 16106127360",
          },
        }),
      ),
    },
  ],
  invalid: [
    {
      name: 'current kubelet: memory, threshold, usage vs request; node still under MemoryPressure',
      snapshot: snapshot(evicted(MODERN), {
        node: pressured,
        nodeEvents: [event(pressured, { reason: 'EvictionThresholdMet', count: 3, message: 'Attempting to reclaim memory' })],
      }),
      expect: {
        severity: 'error',
        causeKey: 'node/node-1:memory',
        params: { node: 'node-1', resource: 'memory', container: 'web', usage: '1288490188', request: '128Mi' },
        said: [
          { id: 'title', data: { resource: 'memory' } },
          { id: 'rankedFirst', data: { usages: /was using 1\.2Gi with a request of 128Mi \(9\.6× its request\)/ } },
          { id: 'lowOnThresholdAgo', data: { available: '51200Ki', threshold: '100Mi' } },
          { id: 'stillPressure', data: { condition: 'MemoryPressure' } },
        ],
        quotes: [/Attempting to reclaim memory/, /memory-pressure:NoSchedule/],
      },
    },
    {
      name: 'older kubelet wording: ephemeral-storage "which exceeds its request of 0"; disk pressure gone now',
      snapshot: snapshot(evicted(OLD)),
      expect: {
        severity: 'warning',
        causeKey: 'node/node-1:ephemeral-storage',
        said: [
          { id: 'rankedFirst', data: { usages: 'Container "web" was using 20Gi with no request' } },
          { id: 'pressureGone', data: { condition: 'DiskPressure', node: 'node-1' } },
        ],
      },
    },
    {
      name: 'oldest kubelets: [DiskPressure] without usage',
      snapshot: snapshot(evicted('The node was low on resource: [DiskPressure].')),
      expect: { causeKey: 'node/node-1:ephemeral-storage', said: ['noUsage'] },
    },
    {
      name: 'the pod broke its own ephemeral-storage limit',
      snapshot: snapshot(evicted('Container web exceeded its local ephemeral storage limit "500Mi". ')),
      expect: {
        causeKey: 'workload/shop/Pod/web-7d9f8c6b5-x2k4q:ephemeral-storage-limit',
        params: { container: 'web' },
        said: [{ id: 'containerExceeded', data: { limit: '500Mi' } }],
      },
    },
  ],
});
