import { ago, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './node-graceful-shutdown.js';

const owned = { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5', uid: 'rs', controller: true }] } };
const shutDown = pod({
  ...owned,
  status: {
    phase: 'Failed',
    reason: 'Terminated',
    message: 'Pod was terminated in response to imminent node shutdown.',
    conditions: [
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'TerminationByKubelet',
        message: 'Pod was terminated in response to imminent node shutdown.',
        lastTransitionTime: ago(5400),
      },
    ],
  },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (eviction vs shutdown): evicted for memory pressure',
      snapshot: snapshot(pod({ status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' } })),
    },
  ],
  invalid: [
    {
      name: 'Terminated by graceful node shutdown, replaced by its ReplicaSet',
      snapshot: snapshot(shutDown),
      expect: {
        severity: 'warning',
        playbook: null,
        params: { reason: 'Terminated', owner: 'ReplicaSet/web-7d9f8c6b5' },
        said: [{ id: 'stopped', data: { message: 'Pod was terminated in response to imminent node shutdown.' } }],
      },
    },
    {
      name: 'older kubelet wording (Shutdown)',
      snapshot: snapshot(pod({ status: { phase: 'Failed', reason: 'Shutdown', message: 'Node is shutting down, pod was terminated' } })),
      expect: { params: { reason: 'Shutdown' } },
    },
  ],
});
