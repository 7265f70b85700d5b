import { ago, ownerFact, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './job-deadline-exceeded.js';

const job = (reason: string, message: string) =>
  ownerFact('Job', 'reindex', {
    apiVersion: 'batch/v1',
    spec: { activeDeadlineSeconds: 600 },
    status: { startTime: ago(1300), failed: 1, conditions: [{ type: 'Failed', status: 'True', reason, message, lastTransitionTime: ago(700) }] },
  });
const killed = pod({
  metadata: { name: 'reindex-x8k2p' },
  status: { phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' },
});

testRule(rule, {
  valid: [
    { name: 'a healthy pod of a running Job', snapshot: snapshot(pod(), { owners: [ownerFact('Job', 'reindex', { status: { active: 1 } })] }) },
    {
      name: 'near miss (backoff vs deadline): BackoffLimitExceeded',
      snapshot: snapshot(killed, { owners: [job('BackoffLimitExceeded', 'Job has reached the specified backoff limit')] }),
    },
  ],
  invalid: [
    {
      name: 'DeadlineExceeded after 10 minutes (activeDeadlineSeconds 600)',
      snapshot: snapshot(killed, { owners: [job('DeadlineExceeded', 'Job was active longer than specified deadline')] }),
      expect: {
        severity: 'error',
        playbook: null,
        params: { activeDeadlineSeconds: 600 },
        said: [
          { id: 'failed', data: { message: 'Job was active longer than specified deadline' } },
          { id: 'deadlineIsRan', data: { ran: '10m' } },
        ],
      },
    },
    {
      name: 'the pod was deleted; the Job says it',
      snapshot: snapshot(undefined, {
        target: { kind: 'pod', namespace: 'shop', name: 'reindex-x8k2p' },
        missingPod: { name: 'reindex-x8k2p' },
        owners: [job('DeadlineExceeded', 'Job was active longer than specified deadline')],
      }),
      expect: { said: ['failed'] },
    },
  ],
});
