import { describe, expect, it } from 'vitest';
import { ago, daemonSetPod, event, lostNode, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Node } from '../types.js';
import { RULES } from './index.js';
import { rule } from './node-not-ready.js';

const CNI =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
function notReady(message: string, sinceSeconds: number, status: 'False' | 'Unknown' = 'False'): Node {
  return node({
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'Ready', status, reason: 'KubeletNotReady', message, lastHeartbeatTime: ago(10), lastTransitionTime: ago(sinceSeconds) },
      ],
    },
  });
}

testRule(rule, {
  valid: [
    { name: 'healthy pod on a Ready node', snapshot: snapshot(pod()) },
    { name: 'NotReady for 20 s (a flap)', snapshot: snapshot(pod(), { node: notReady(CNI, 20) }) },
    {
      name: 'PLEG (node.runtime-unresponsive speaks)',
      snapshot: snapshot(pod(), { node: notReady('PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s', 600) }),
    },
    { name: 'a deleted pod (terminating rules speak)', snapshot: snapshot(pod({ metadata: { deletionTimestamp: ago(600) } }), { node: lostNode() }) },
  ],
  invalid: [
    {
      name: 'CNI not initialized (containerd wording), DaemonSet pod',
      snapshot: snapshot(daemonSetPod(), { node: notReady(CNI, 1800) }),
      expect: {
        severity: 'error',
        params: { cause: 'cni', node: 'node-1' },
        said: [{ id: 'becauseCni', data: { message: /cni plugin not initialized/ } }, 'daemonSetPod'],
      },
    },
    {
      name: 'dockershim wording: cni config uninitialized, pod stuck ContainerCreating for hours',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(4 * 3600) } }), {
        node: notReady(
          'runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized',
          4 * 3600,
        ),
        nodeEvents: [
          event(node(), {
            reason: 'NodeNotReady',
            type: 'Normal',
            component: 'kubelet',
            message: 'Node node-1 status is now: NodeNotReady',
            lastSeenAgo: 4 * 3600,
          }),
        ],
      }),
      expect: {
        params: { cause: 'cni' },
        said: [
          { id: 'becauseCni', data: { message: /cni config uninitialized/ } },
          { id: 'podWaits', data: { reason: 'ContainerCreating' } },
          { id: 'titleFor', data: { duration: '4h' } },
        ],
      },
    },
    {
      name: 'kubelet silent (Unknown)',
      snapshot: snapshot(pod(), { node: lostNode('node-1', 1200) }),
      expect: { params: { cause: 'kubelet-silent' }, said: [{ id: 'becauseKubeletSilent', data: { message: 'Kubelet stopped posting node status.' } }] },
    },
    {
      name: 'container runtime is down',
      snapshot: snapshot(pod(), { node: notReady('container runtime is down', 900) }),
      expect: { params: { cause: 'runtime-down' } },
    },
  ],
});

describe('node.not-ready in the full registry', () => {
  it('explains a pod stuck ContainerCreating on a node NotReady for hours (past the cascade window)', () => {
    const d = diagnose(
      snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(6 * 3600) } }), { node: notReady(CNI, 6 * 3600) }),
      { rules: RULES },
    );
    expect(d.findings[0]?.rule).toBe('node.not-ready');
  });
});
