import {
  ago,
  cloudNode,
  completedJobPod,
  daemonSetPod,
  failedScheduling,
  pod,
  schedulerLease,
  snapshot,
  unscheduledPod,
} from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-scheduler-down.js';

const crashingScheduler = pod({
  metadata: { name: 'kube-scheduler-master-1', namespace: 'kube-system', labels: { component: 'kube-scheduler', tier: 'control-plane' } },
  spec: { nodeName: 'master-1' },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
    containerStatuses: [
      {
        name: 'kube-scheduler',
        ready: false,
        restartCount: 14,
        image: 'registry.k8s.io/kube-scheduler:v1.31.4',
        imageID: '',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=kube-scheduler' } },
      },
    ],
  },
});
const healthyScheduler = pod({ metadata: { name: 'kube-scheduler-master-1', namespace: 'kube-system' }, spec: { nodeName: 'master-1' } });

testRule(rule, {
  valid: [
    { name: 'healthy running pod while the scheduler is down', snapshot: snapshot(pod(), { schedulerLease: schedulerLease(1800) }) },
    { name: 'Pending for a few seconds', snapshot: snapshot(unscheduledPod(undefined, {}, 20), { schedulerLease: schedulerLease(1800) }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { schedulerLease: schedulerLease(1800) }) },
    { name: 'DaemonSet pod on a healthy GKE node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('gke'), schedulerLease: schedulerLease(2) }) },
    {
      name: 'scheduler healthy (fresh lease, Running pod): an unscheduled pod is not its fault',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.'), {
        schedulerLease: schedulerLease(3),
        schedulerPods: [healthyScheduler],
      }),
    },
    {
      name: 'managed control plane: no scheduler pods, fresh lease',
      snapshot: snapshot(unscheduledPod(undefined), { schedulerLease: schedulerLease(5), schedulerPods: [] }),
    },
    {
      name: 'scheduling gates hold the pod on purpose',
      snapshot: snapshot(unscheduledPod(undefined, { spec: { schedulingGates: [{ name: 'example.com/quota' }] } }), { schedulerLease: schedulerLease(1800) }),
    },
  ],
  invalid: [
    {
      name: 'stale lease, no scheduling attempt at all (seed 003)',
      snapshot: snapshot(unscheduledPod(undefined), { schedulerLease: schedulerLease(1800), schedulerPods: [] }),
      expect: {
        severity: 'critical',
        causeKey: 'scheduler:default-scheduler',
        params: { scheduler: 'default-scheduler' },
        said: [{ id: 'leaseStale', data: { ago: '30m' } }, 'noAttempt'],
      },
    },
    {
      name: 'kube-scheduler pod CrashLoopBackOff, lease gone; old FailedScheduling from before the crash',
      snapshot: (() => {
        const p = unscheduledPod(undefined, {}, 7200);
        return snapshot(p, {
          schedulerLease: null,
          schedulerPods: [crashingScheduler],
          events: [failedScheduling(p, '0/4 nodes are available: 2 Insufficient cpu.', { lastSeenAgo: 5400 })],
        });
      })(),
      expect: {
        severity: 'critical',
        said: [{ id: 'podDown', data: { pods: /kube-scheduler-master-1 \(Running \/ CrashLoopBackOff, Ready=False, 14 restarts\)/ } }],
      },
    },
    {
      name: 'custom schedulerName that never acts',
      snapshot: snapshot(unscheduledPod(undefined, { spec: { schedulerName: 'volcano' } }), { schedulerLease: schedulerLease(2) }),
      expect: { severity: 'error', causeKey: 'scheduler:volcano', said: [{ id: 'customTitle', data: { scheduler: 'volcano' } }] },
    },
    {
      name: 'scheduler state not collected, pod never tried',
      snapshot: snapshot(unscheduledPod(undefined, { metadata: { creationTimestamp: ago(900) } })),
      expect: { severity: 'warning', said: ['neverTried'] },
    },
  ],
});
