import { describe, expect, it } from 'vitest';
import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, node, pod, pvcObject, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { KubeObject } from '../types.js';
import { rule as insufficient } from './pending-insufficient-resources.js';
import { rule } from './pending-pvc.js';

const withClaim = (claimName: string) => ({ spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] } });
const unboundMsg =
  '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
const pendingClaim = pvcObject('data-db-0', {
  metadata: { annotations: { 'volume.kubernetes.io/storage-provisioner': 'rbd.csi.ceph.com' } },
  spec: { storageClassName: 'ceph-rbd', volumeName: undefined },
  status: { phase: 'Pending' },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod with a bound claim', snapshot: snapshot(pod(withClaim('data')), { pvcs: { data: pvcObject('data') } }) },
    {
      name: 'Pending for a few seconds (provisioning in progress)',
      snapshot: snapshot(unscheduledPod(unboundMsg, withClaim('data-db-0'), 15), { pvcs: { 'data-db-0': pendingClaim } }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    { name: 'DaemonSet pod on a healthy AKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('aks') }) },
    {
      name: 'unschedulable for cpu only',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.', withClaim('data')), { pvcs: { data: pvcObject('data') } }),
    },
  ],
  invalid: [
    {
      name: 'current wording: claim Pending on a storage class',
      snapshot: snapshot(unscheduledPod(unboundMsg, withClaim('data-db-0')), { pvcs: { 'data-db-0': pendingClaim } }),
      expect: {
        severity: 'error',
        causeKey: 'storageclass:ceph-rbd',
        params: { claims: ['data-db-0'], storageClass: 'ceph-rbd', provisioner: 'rbd.csi.ceph.com' },
        said: [{ id: 'notProvisioned', data: { claims: /data-db-0 \(phase Pending, storageClass ceph-rbd/, provisioner: 'rbd.csi.ceph.com' } }],
      },
    },
    {
      name: '≈1.2x wording without preemption, claim missing',
      snapshot: (() => {
        const p = unscheduledPod(undefined, withClaim('cache'));
        return snapshot(p, {
          pvcs: { cache: null },
          events: [failedScheduling(p, '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.')],
        });
      })(),
      expect: { causeKey: 'pvc/shop/cache', said: [{ id: 'claimMissing', data: { claims: 'cache' } }] },
    },
    {
      name: 'bound zonal volume: node affinity conflict',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 1 Insufficient memory, 2 node(s) had volume node affinity conflict.', withClaim('data')), {
        pvcs: { data: pvcObject('data') },
      }),
      expect: { severity: 'error', causeKey: 'pvc/shop/data', said: [{ id: 'boundUnusable', data: { reasons: 'node(s) had volume node affinity conflict' } }] },
    },
    {
      name: 'PreBind failure (not a FitError)',
      snapshot: snapshot(
        unscheduledPod('running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition', withClaim('data-db-0')),
        { pvcs: { 'data-db-0': pendingClaim } },
      ),
      expect: { severity: 'error', causeKey: 'storageclass:ceph-rbd' },
    },
  ],
});

describe('pending.pvc with a zonal volume', () => {
  // The volume lives in eu-west-1a; the one node there is full, the others are in other zones.
  const bound = pvcObject('data-db-0', { spec: { volumeName: 'pvc-zonal-1' } });
  const pv: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pvc-zonal-1' },
    spec: {
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-1a'] }] }] },
      },
    },
  };
  const zoned = (name: string, zone: string) => node({ metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } } });
  const nodes = [zoned('a-1', 'eu-west-1a'), zoned('b-1', 'eu-west-1b'), zoned('c-1', 'eu-west-1c')];
  const msg =
    '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had volume node affinity conflict. ' +
    'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';
  const p = unscheduledPod(msg, withClaim('data-db-0'));
  const s = snapshot(p, { events: [failedScheduling(p, msg)], pvcs: { 'data-db-0': bound }, volumes: { 'pvc-zonal-1': pv }, nodes });

  it('names the zone and the node that needs room, and ranks before the cpu shortage', () => {
    const d = diagnose(s, { rules: [rule, insufficient] });
    expect(d.findings.map((f) => f.rule)).toEqual(['pending.pvc', 'pending.insufficient-resources']);
    const f = d.findings[0]!;
    expect(f.severity).toBe('error');
    expect(f.cause).toMatch(/topology.kubernetes.io\/zone=eu-west-1a, that is a-1/);
    expect(f.advice[0]).toMatch(/Make room on a-1/);
    expect(d.findings[1]?.severity).toBe('warning');
  });

  it("says so when no node is left in the volume's zone", () => {
    const d = diagnose({ ...s, nodes: nodes.slice(1) }, { rules: [rule] });
    expect(d.findings[0]?.cause).toMatch(/no node has that any more/);
  });
});
