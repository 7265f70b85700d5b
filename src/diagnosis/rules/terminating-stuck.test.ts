import { agentGap, ago, lostNode, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-stuck.js';

const deleted = (deletedAgo: number, more: Parameters<typeof pod>[0] = {}) =>
  pod({ ...more, metadata: { deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30, ...(more.metadata ?? {}) } });

const refused = agentGap('node-1', 'connect ECONNREFUSED 10.0.0.11:9477', 'unreachable');

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'deleted a minute ago (the kubelet may still be working)', snapshot: snapshot(deleted(60)) },
    { name: 'finalizers explain it', snapshot: snapshot(deleted(3600, { metadata: { finalizers: ['example.com/x'] } })) },
    { name: 'the node is lost (terminating.node-lost explains it)', snapshot: snapshot(deleted(3600), { node: lostNode() }) },
  ],
  invalid: [
    {
      name: 'docker-era pod stuck for days, agent unreachable (seed 001 without the agent)',
      snapshot: snapshot(
        deleted(86400 * 55, {
          spec: { nodeName: 'node-1' },
          status: {
            containerStatuses: [
              {
                name: 'web',
                ready: false,
                restartCount: 0,
                image: 'x',
                imageID: '',
                containerID: 'docker://e6b7378c58a3',
                state: { terminated: { exitCode: 137, reason: 'Error' } },
              },
            ],
          },
        }),
        { gaps: [refused] },
      ),
      expect: {
        severity: 'warning',
        causeKey: 'node/node-1:stuck-deletion',
        said: [
          { id: 'title', data: { overdue: '55d' } },
          { id: 'checksMissing', data: { missing: /could not run on node-1/ } },
        ],
        quotes: [/terminated \(Error\)/],
      },
    },
    {
      name: 'containerd pod stuck, no agent configured',
      snapshot: snapshot(deleted(1800), { gaps: [agentGap('node-1', 'no node agent token configured (POD_DOCTOR_AGENT_TOKEN)', 'not-configured')] }),
      expect: {
        said: [
          { id: 'title', data: { overdue: '30m' } },
          { id: 'checksMissing', data: { missing: /POD_DOCTOR_AGENT_TOKEN/ } },
        ],
        quotes: [/containerd/],
      },
    },
  ],
});
