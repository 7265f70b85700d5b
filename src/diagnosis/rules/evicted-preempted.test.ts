import { ago, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './evicted-preempted.js';

const victim = pod({
  metadata: { deletionTimestamp: ago(-20), deletionGracePeriodSeconds: 30 },
  spec: { priorityClassName: 'batch-low', priority: 1000 },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'PreemptionByScheduler',
        message: 'default-scheduler: preempting to accommodate a higher priority pod',
        lastTransitionTime: ago(10),
      },
    ],
  },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (taint eviction vs preemption): DisruptionTarget DeletionByTaintManager',
      snapshot: snapshot(
        pod({
          status: {
            conditions: [
              { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' },
            ],
          },
        }),
      ),
    },
    {
      name: 'a Preempted event two hours old',
      snapshot: snapshot(pod(), {
        events: [event(pod(), { reason: 'Preempted', type: 'Normal', message: 'Preempted by pod 1e34 on node n1', lastSeenAgo: 7200 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'being deleted by the scheduler for a higher-priority pod',
      snapshot: snapshot(victim, {
        events: [
          event(victim, {
            reason: 'Preempted',
            type: 'Normal',
            component: 'default-scheduler',
            message: 'Preempted by pod 1e34d0ad-9460-46db-8725-c9cb9507b972 on node ip-10-26-171-40',
          }),
        ],
      }),
      expect: {
        severity: 'warning',
        playbook: null,
        params: { priorityClass: 'batch-low', priority: 1000, byKubelet: false },
        said: [{ id: 'schedulerDeletingFor', data: { preemptor: '1e34d0ad-9460-46db-8725-c9cb9507b972' } }],
        quotes: [/preempting to accommodate a higher priority pod/],
      },
    },
    {
      name: 'the kubelet preempted it to admit a critical pod',
      snapshot: snapshot(pod({ status: { phase: 'Failed', reason: 'Preempting', message: 'Preempted in order to admit critical pod' } })),
      expect: { params: { byKubelet: true }, quotes: [/admit critical pod/] },
    },
  ],
});
