import { ago, pod, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './pending-scheduling-gated.js';

const gated = (seconds: number) =>
  unscheduledPod(undefined, {
    spec: { schedulingGates: [{ name: 'kueue.x-k8s.io/admission' }] },
    status: {
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'SchedulingGated',
          message: 'Scheduling is blocked due to non-empty scheduling gates',
          lastTransitionTime: ago(seconds),
        },
      ],
    },
  });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'gated for a minute (waiting for admission, as designed)', snapshot: snapshot(gated(60)) },
    {
      name: 'near miss (unschedulable vs gated): an ordinary FailedScheduling',
      snapshot: snapshot(unscheduledPod('0/3 nodes are available: 3 Insufficient cpu.')),
    },
  ],
  invalid: [
    {
      name: 'gated for an hour',
      snapshot: snapshot(gated(3600)),
      expect: {
        severity: 'warning',
        playbook: null,
        params: { gates: ['kueue.x-k8s.io/admission'] },
        said: [{ id: 'gatedSaying', data: { message: 'Scheduling is blocked due to non-empty scheduling gates' } }],
      },
    },
    {
      name: 'gates without the condition (older status)',
      snapshot: snapshot(unscheduledPod(undefined, { spec: { schedulingGates: [{ name: 'example.com/hold' }] } }, 3600)),
      expect: { params: { gates: ['example.com/hold'] } },
    },
  ],
});
