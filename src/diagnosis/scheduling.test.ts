import { describe, expect, it } from 'vitest';
import { node, pod, snapshot, unscheduledPod } from '../../test/helpers/factories.js';
import { diagnose } from './engine.js';
import { rule as insufficient } from './rules/pending-insufficient-resources.js';
import { rule as taint } from './rules/pending-taint.js';
import { rule as selector } from './rules/pending-unschedulable-selector.js';
import { kindCount, parseFitError, podRequests, rankSeverity, selectorCheck, tolerates } from './scheduling.js';

describe('parseFitError', () => {
  it('reads the pre-1.9 predicates wording', () => {
    const fit = parseFitError('No nodes are available that match all of the following predicates:: PodFitsHostPorts (1), PodToleratesNodeTaints (1).');
    expect(fit).toMatchObject({
      era: 'predicates',
      reasons: [
        { count: 1, kind: 'hostport' },
        { count: 1, kind: 'taint' },
      ],
    });
    expect(parseFitError('No nodes are available that match all of the predicates: Insufficient pods (3).')?.reasons).toEqual([
      { count: 3, text: 'Insufficient pods', kind: 'pods', resource: 'pods' },
    ]);
  });

  it('reads the ≈1.9–1.17 wording without a preemption part', () => {
    const fit = parseFitError("0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu.");
    expect(fit?.totalNodes).toBe(3);
    expect(fit?.reasons.map((r) => [r.count, r.kind, r.resource])).toEqual([
      [1, 'taint', undefined],
      [2, 'resources', 'cpu'],
    ]);
    expect(fit?.postFilter).toBeUndefined();
  });

  it('reads the 1.18 taint wording with its comma inside the reason', () => {
    const fit = parseFitError(
      "0/5 nodes are available: 2 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate, 3 node(s) didn't match node selector.",
    );
    expect(fit?.reasons).toEqual([
      { count: 2, text: "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate", kind: 'taint', taint: { key: 'dedicated', value: 'gpu' } },
      { count: 3, text: "node(s) didn't match node selector", kind: 'selector' },
    ]);
  });

  it('drops the preemption part and keeps valueless taints', () => {
    const fit = parseFitError(
      '0/3 nodes are available: 1 node(s) had untolerated taint {machine-check-exception: memory}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
    expect(fit?.reasons).toHaveLength(2);
    expect(fit?.reasons[0]?.taint).toEqual({ key: 'machine-check-exception', value: 'memory' });
    expect(fit?.postFilter).toMatch(/^preemption: 0\/3/);
    const cp = parseFitError(
      '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    expect(cp?.reasons.map((r) => r.taint)).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', value: '' },
      { key: 'node.kubernetes.io/unreachable', value: '' },
    ]);
  });

  it('reads the 1.35 wording (no taint key, DRA post-filter first)', () => {
    const fit = parseFitError(
      "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match pod anti-affinity rules. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
    expect(fit?.reasons.map((r) => r.kind)).toEqual(['taint', 'pod-affinity']);
    expect(fit?.reasons[0]?.taint).toBeUndefined();
    expect(fit?.postFilter).toMatch(/^no new claims/);
  });

  it('tolerates the doubled final period of some 1.26–1.28 builds', () => {
    const fit = parseFitError(
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    expect(fit?.reasons).toEqual([{ count: 3, text: "node(s) didn't match Pod's node affinity/selector", kind: 'selector' }]);
  });

  it('counts a PreFilter message against all nodes', () => {
    const fit = parseFitError(
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(fit?.reasons).toEqual([{ count: 3, text: 'pod has unbound immediate PersistentVolumeClaims', kind: 'volume', preFilter: true }]);
  });

  it('sorts histogram entries as strings (10 before 2) and still parses', () => {
    const fit = parseFitError('0/12 nodes are available: 10 Insufficient memory, 2 Too many pods.');
    expect(fit && kindCount(fit, 'resources')).toBe(10);
    expect(fit && kindCount(fit, 'pods')).toBe(2);
  });

  it('ignores messages that are not FitErrors', () => {
    expect(parseFitError('running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition')).toBeUndefined();
  });
});

describe('requests, tolerations, selectors', () => {
  it('charges the larger of containers and init steps, plus sidecars and overhead', () => {
    const p = pod({
      spec: {
        initContainers: [
          { name: 'migrate', image: 'x', resources: { requests: { cpu: '2', memory: '1Gi' } } },
          { name: 'proxy', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
        ],
        containers: [
          { name: 'a', image: 'x', resources: { requests: { cpu: '500m', memory: '256Mi' } } },
          { name: 'b', image: 'x', resources: { limits: { cpu: '250m', memory: '256Mi' } } },
        ],
        overhead: { cpu: '50m' },
      },
    });
    const r = podRequests(p);
    expect(r.cpu).toBeCloseTo(2.05);
    expect(r.memory).toBe(2 ** 30);
  });

  it('matches tolerations as the API does', () => {
    const t = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    expect(tolerates({ operator: 'Exists' }, t)).toBe(true);
    expect(tolerates({ key: 'dedicated', operator: 'Exists' }, t)).toBe(true);
    expect(tolerates({ key: 'dedicated', value: 'gpu' }, t)).toBe(true);
    expect(tolerates({ key: 'dedicated', value: 'cpu' }, t)).toBe(false);
    expect(tolerates({ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, t)).toBe(false);
  });

  it('names the labels no node has and ignores a DaemonSet pin', () => {
    const nodes = [node({ metadata: { name: 'a', labels: { disktype: 'hdd' } } }), node({ metadata: { name: 'b', labels: { zone: 'z1' } } })];
    const p = pod({ spec: { nodeSelector: { disktype: 'ssd' } } });
    expect(selectorCheck(p, nodes, false)).toEqual({ requirements: ['disktype=ssd'], unmet: ['disktype=ssd'], matching: [] });
    const ds = pod({
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }] },
          },
        },
      },
    });
    expect(selectorCheck(ds, nodes, true)).toBeUndefined();
  });
});

describe('several causes in one message', () => {
  const message =
    '0/3 nodes are available: 1 node(s) had untolerated taint {machine-check-exception: memory}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
  const p = unscheduledPod(message, { spec: { containers: [{ name: 'web', image: 'x', resources: { requests: { cpu: '3' } } }] } });
  const nodes = [
    node({ metadata: { name: 'n1' }, spec: { taints: [{ key: 'machine-check-exception', value: 'memory', effect: 'NoSchedule' }] } }),
    node({ metadata: { name: 'n2' } }),
    node({ metadata: { name: 'n3' } }),
  ];

  it('fires each matching rule and ranks the cause ruling out most nodes first', () => {
    const d = diagnose(snapshot(p, { nodes }), { rules: [taint, insufficient] });
    expect(d.findings.map((f) => [f.rule, f.severity])).toEqual([
      ['pending.insufficient-resources', 'error'],
      ['pending.taint', 'warning'],
    ]);
  });

  it('does not let a satisfiable selector or the control-plane taint outrank the real cause', () => {
    const msg =
      "0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.";
    const q = unscheduledPod(msg, { spec: { nodeSelector: { pool: 'big' } } });
    const five = [
      node({
        metadata: { name: 'cp', labels: { 'node-role.kubernetes.io/control-plane': '' } },
        spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
      }),
      node({ metadata: { name: 'big-1', labels: { pool: 'big' } } }),
      node({ metadata: { name: 'big-2', labels: { pool: 'big' } } }),
      node({ metadata: { name: 's1' } }),
      node({ metadata: { name: 's2' } }),
    ];
    const s = snapshot(q, { nodes: five });
    const fit = parseFitError(msg);
    expect(fit && rankSeverity(s, fit, 'resources')).toBe('error');
    expect(fit && rankSeverity(s, fit, 'selector')).toBe('info');
    expect(fit && rankSeverity(s, fit, 'taint')).toBe('info');
    const d = diagnose(s, { rules: [selector, taint, insufficient] });
    expect(d.findings[0]?.rule).toBe('pending.insufficient-resources');
  });
});
