import { ago, lostNode, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-finalizers.js';

const deleted = (deletedAgo: number, finalizers: string[]) =>
  pod({ metadata: { deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30, finalizers } });

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod()) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(deleted(-20, ['foregroundDeletion'])) },
    { name: 'deleted long ago but no finalizers', snapshot: snapshot(deleted(3600, [])) },
  ],
  invalid: [
    {
      name: 'foregroundDeletion (seed 003)',
      snapshot: snapshot(deleted(600, ['foregroundDeletion'])),
      expect: {
        severity: 'error',
        playbook: 'remove-finalizers',
        params: { finalizers: ['foregroundDeletion'] },
        mentions: [/garbage collector/, /foregroundDeletion/],
      },
    },
    {
      name: "a custom controller's finalizer",
      snapshot: snapshot(deleted(7200, ['example.com/cleanup-hook'])),
      expect: { mentions: [/example\.com/, /2h/] },
    },
    {
      name: 'on a lost node the finalizer is secondary',
      snapshot: snapshot(deleted(600, ['example.com/x']), { node: lostNode() }),
      expect: { severity: 'warning' },
    },
  ],
});
