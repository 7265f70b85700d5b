import { describe, expect, it } from 'vitest';
import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, lostNode, node, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './pending-taint.js';

const gpuNode = (name: string) => node({ metadata: { name }, spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } });
const cpNode = node({
  metadata: { name: 'master-1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
  spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
});
const nodes = [gpuNode('gpu-1'), gpuNode('gpu-2'), cpNode];

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod(), { nodes }) },
    {
      name: 'Pending for a few seconds',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}.', {}, 3), { nodes }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { nodes }) },
    { name: 'DaemonSet pod tolerating everything on a healthy GKE node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('gke'), nodes }) },
    {
      name: 'the control-plane taint next to the real cause stays informational',
      snapshot: snapshot(
        unscheduledPod('0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu.'),
        { nodes },
      ),
    },
  ],
  invalid: [
    {
      name: '≈1.24–1.34 wording names the taint; nodes from the node list',
      snapshot: snapshot(
        unscheduledPod(
          '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, ' +
            '2 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
        ),
        { nodes },
      ),
      expect: {
        severity: 'error',
        causeKey: 'taint:dedicated',
        params: { nodes: ['gpu-1', 'gpu-2', 'master-1'] },
        said: [{ id: 'untoleratedListed', data: { taints: /dedicated=gpu:NoSchedule on gpu-1, gpu-2/ } }],
      },
    },
    {
      name: '1.18 wording: "had taint {k: v}, that the pod didn\'t tolerate"',
      snapshot: (() => {
        const p = unscheduledPod(undefined);
        return snapshot(p, { events: [failedScheduling(p, "0/2 nodes are available: 2 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate.")] });
      })(),
      expect: { severity: 'error', causeKey: 'taint:dedicated', params: { taints: ['dedicated'] } },
    },
    {
      name: '1.35 wording without keys: taints found on the nodes',
      snapshot: snapshot(
        unscheduledPod(
          '0/2 nodes are available: 2 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
        ),
        { nodes: [gpuNode('gpu-1'), gpuNode('gpu-2')] },
      ),
      expect: { causeKey: 'taint:dedicated', said: [{ id: 'untoleratedListed', data: { taints: 'dedicated=gpu:NoSchedule on gpu-1, gpu-2' } }] },
    },
    {
      name: '≤1.17 wording, unreachable nodes: advise fixing the nodes',
      snapshot: snapshot(unscheduledPod("0/2 nodes are available: 2 node(s) had taints that the pod didn't tolerate."), {
        nodes: [lostNode('node-1'), lostNode('node-2')],
      }),
      expect: {
        causeKey: 'taint:node.kubernetes.io/unreachable',
        said: [{ id: 'untoleratedListed', data: { taints: /node\.kubernetes\.io\/unreachable:NoSchedule/ } }],
      },
    },
    {
      name: 'single-node cluster: only the control-plane taint is left',
      snapshot: snapshot(unscheduledPod('0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.'), {
        nodes: [cpNode],
      }),
      expect: { severity: 'error', causeKey: 'taint:node-role.kubernetes.io/control-plane' },
    },
  ],
});

describe('pending.taint and system taints', () => {
  it('never advises tolerating CriticalAddonsOnly', () => {
    const p = unscheduledPod(
      '0/2 nodes are available: 2 node(s) had untolerated taint {CriticalAddonsOnly: true}. ' +
        'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    const nodes = ['sys-1', 'sys-2'].map((n) =>
      node({ metadata: { name: n }, spec: { taints: [{ key: 'CriticalAddonsOnly', value: 'true', effect: 'NoSchedule' }] } }),
    );
    const advice = diagnose(snapshot(p, { nodes }), { rules: [rule] }).findings[0]?.advice.join('\n') ?? '';
    expect(advice).toMatch(/do not tolerate it/);
    expect(advice).not.toMatch(/add a toleration for CriticalAddonsOnly/);
  });
});
