import { cloudNode, completedJobPod, daemonSetPod, failedScheduling, pod, pvcObject, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-pvc.js';

const withClaim = (claimName: string) => ({ spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] } });
const unboundMsg = '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
const pendingClaim = pvcObject('data-db-0', {
  metadata: { annotations: { 'volume.kubernetes.io/storage-provisioner': 'rbd.csi.ceph.com' } },
  spec: { storageClassName: 'ceph-rbd', volumeName: undefined },
  status: { phase: 'Pending' },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod with a bound claim', snapshot: snapshot(pod(withClaim('data')), { pvcs: { data: pvcObject('data') } }) },
    { name: 'Pending for a few seconds (provisioning in progress)', snapshot: snapshot(unscheduledPod(unboundMsg, withClaim('data-db-0'), 15), { pvcs: { 'data-db-0': pendingClaim } }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    { name: 'DaemonSet pod on a healthy AKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('aks') }) },
    { name: 'unschedulable for cpu only', snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.', withClaim('data')), { pvcs: { data: pvcObject('data') } }) },
  ],
  invalid: [
    {
      name: 'current wording: claim Pending on a storage class',
      snapshot: snapshot(unscheduledPod(unboundMsg, withClaim('data-db-0')), { pvcs: { 'data-db-0': pendingClaim } }),
      expect: {
        severity: 'error',
        causeKey: 'storageclass:ceph-rbd',
        params: { claims: ['data-db-0'], storageClass: 'ceph-rbd', provisioner: 'rbd.csi.ceph.com' },
        mentions: [/data-db-0 \(phase Pending, storageClass ceph-rbd/, /rbd\.csi\.ceph\.com/],
      },
    },
    {
      name: '≈1.2x wording without preemption, claim missing',
      snapshot: (() => {
        const p = unscheduledPod(undefined, withClaim('cache'));
        return snapshot(p, { pvcs: { cache: null }, events: [failedScheduling(p, '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.')] });
      })(),
      expect: { causeKey: 'pvc/shop/cache', mentions: [/cache does not exist/] },
    },
    {
      name: 'bound zonal volume: node affinity conflict',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 1 Insufficient memory, 2 node(s) had volume node affinity conflict.', withClaim('data')), { pvcs: { data: pvcObject('data') } }),
      expect: { severity: 'error', causeKey: 'pvc/shop/data', mentions: [/volume node affinity conflict/, /zonal/] },
    },
    {
      name: 'PreBind failure (not a FitError)',
      snapshot: snapshot(unscheduledPod('running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition', withClaim('data-db-0')), { pvcs: { 'data-db-0': pendingClaim } }),
      expect: { severity: 'error', causeKey: 'storageclass:ceph-rbd' },
    },
  ],
});
