import { ago, event, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Snapshot } from '../types.js';
import { rule } from './node-pressure.js';

const pressured = (type: string, reason: string, message: string) =>
  node({
    metadata: { name: 'worker-3' },
    status: {
      allocatable: { memory: '8Gi' },
      conditions: [
        { type, status: 'True', reason, message, lastTransitionTime: ago(900) },
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  });
const nodeTarget = (n: ReturnType<typeof node>, more: Partial<Snapshot> = {}): Snapshot =>
  snapshot(undefined, { target: { kind: 'node', name: 'worker-3' }, node: n, nodeEvents: [], podsOnNode: [], ...more });
const memoryNode = pressured('MemoryPressure', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available');

testRule(rule, {
  valid: [
    { name: 'a healthy node', snapshot: nodeTarget(node({ metadata: { name: 'worker-3' } })) },
    {
      name: 'near miss (history vs now): pressure that cleared, old EvictionThresholdMet events',
      snapshot: nodeTarget(
        node({ metadata: { name: 'worker-3' }, status: { conditions: [{ type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' }] } }),
        {
          nodeEvents: [
            event(node({ metadata: { name: 'worker-3' } }), {
              reason: 'EvictionThresholdMet',
              type: 'Warning',
              message: 'Attempting to reclaim memory',
              lastSeenAgo: 3000,
            }),
          ],
        },
      ),
    },
    {
      name: 'a pod target on a pressured node is evicted.node-pressure territory',
      snapshot: snapshot(pod({ spec: { nodeName: 'worker-3' } }), { node: memoryNode }),
    },
  ],
  invalid: [
    {
      name: 'MemoryPressure with evictions and an overbooked node',
      snapshot: nodeTarget(memoryNode, {
        nodeEvents: [event(memoryNode, { reason: 'EvictionThresholdMet', message: 'Attempting to reclaim memory', count: 14 })],
        podsOnNode: [
          pod({ spec: { containers: [{ name: 'a', image: 'x', resources: { requests: { memory: '2Gi' }, limits: { memory: '6Gi' } } }] } }),
          pod({ spec: { containers: [{ name: 'b', image: 'x', resources: { requests: { memory: '2Gi' }, limits: { memory: '6Gi' } } }] } }),
        ],
      }),
      expect: {
        severity: 'error',
        playbook: null,
        params: { pressures: ['MemoryPressure'] },
        said: [
          { id: 'reports', data: { conditions: 'MemoryPressure ("kubelet has insufficient memory available")' } },
          { id: 'booking', data: { booking: /request 50% of allocatable memory/ } },
        ],
        quotes: [/Attempting to reclaim memory/],
      },
    },
    {
      name: 'DiskPressure',
      snapshot: nodeTarget(pressured('DiskPressure', 'KubeletHasDiskPressure', 'kubelet has disk pressure')),
      expect: { params: { pressures: ['DiskPressure'] }, said: [{ id: 'reports', data: { conditions: 'DiskPressure ("kubelet has disk pressure")' } }] },
    },
  ],
});
