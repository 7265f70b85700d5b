import { ago, containerStatus, event, lostNode, ownerFact, pod, snapshot, terminated } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Pod } from '../types.js';
import { rule } from './terminating-finalizers.js';

const deleted = (deletedAgo: number, finalizers: string[]) =>
  pod({ metadata: { deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30, finalizers } });

/** A Job pod whose container finished and whose deletion the kubelet confirmed (grace 0): only the finalizer holds it. */
const JOB_POD_UID = '7c0e4b7a-1f52-4d8e-9a55-3c2b1d0e9f11';
const finishedJobPod = (deletedAgo: number): Pod =>
  pod({
    metadata: {
      name: 'nightly-export-28791230-q8v2m',
      uid: JOB_POD_UID,
      deletionTimestamp: ago(deletedAgo),
      deletionGracePeriodSeconds: 0,
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-export-28791230', uid: 'j', controller: true }],
    },
    spec: { restartPolicy: 'Never' },
    status: {
      phase: 'Failed',
      containerStatuses: [containerStatus({ ready: false, started: false, state: { terminated: terminated({ exitCode: 143, finishedAgo: deletedAgo + 5 }) } })],
    },
  });

/** A pod whose container still runs 10 minutes past the deadline: the kubelet keeps failing to stop it. */
const stillRunning = deleted(600, ['batch.kubernetes.io/job-tracking']);

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod()) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(deleted(-20, ['foregroundDeletion'])) },
    { name: 'deleted long ago but no finalizers', snapshot: snapshot(deleted(3600, [])) },
    {
      name: 'near miss (kubelet still stopping vs finalizer): the kill times out in the runtime, the container still runs',
      snapshot: snapshot(stillRunning, {
        events: [
          event(stillRunning, { reason: 'Killing', type: 'Normal', message: 'Stopping container web', lastSeenAgo: 620, fieldPath: 'spec.containers{web}' }),
          event(stillRunning, {
            reason: 'FailedKillPod',
            count: 6,
            lastSeenAgo: 40,
            firstSeenAgo: 500,
            message:
              'error killing pod: failed to "KillContainer" for "web" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
          }),
        ],
      }),
    },
    {
      name: 'near miss (preStop hook still failing vs finalizer): the kubelet reports the hook, not the finalizer, holding the pod',
      snapshot: (() => {
        const p = deleted(300, ['example.com/cleanup-hook']);
        return snapshot(p, {
          events: [
            event(p, {
              reason: 'FailedPreStopHook',
              lastSeenAgo: 200,
              fieldPath: 'spec.containers{web}',
              message: 'PreStopHook failed',
            }),
          ],
        });
      })(),
    },
    {
      name: 'near miss (a live controller working vs an orphaned finalizer): the Job controller is still counting the finished pod',
      snapshot: snapshot(finishedJobPod(75), {
        owners: [
          ownerFact('Job', 'nightly-export-28791230', {
            apiVersion: 'batch/v1',
            status: { active: 0, failed: 0, uncountedTerminatedPods: { failed: [JOB_POD_UID] } },
          }),
          ownerFact('CronJob', 'nightly-export'),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'foregroundDeletion (seed 003)',
      snapshot: snapshot(deleted(600, ['foregroundDeletion'])),
      expect: {
        severity: 'error',
        playbook: 'remove-finalizers',
        params: { finalizers: ['foregroundDeletion'] },
        said: [
          { id: 'blocked', data: { owned: /garbage collector/ } },
          { id: 'title', data: { finalizers: 'foregroundDeletion' } },
        ],
      },
    },
    {
      name: "a custom controller's finalizer",
      snapshot: snapshot(deleted(7200, ['example.com/cleanup-hook'])),
      expect: {
        said: [
          { id: 'title', data: { finalizers: 'example.com/cleanup-hook' } },
          { id: 'blocked', data: { overdue: '2h' } },
        ],
      },
    },
    {
      name: 'on a lost node the finalizer is secondary: no playbook, the kubelet must confirm first',
      snapshot: snapshot(deleted(600, ['example.com/x']), { node: lostNode() }),
      expect: { severity: 'warning', playbook: null, said: ['nodeLost'] },
    },
    {
      name: 'the kubelet confirmed (grace 0): job-tracking left behind although the Job no longer lists the pod',
      snapshot: snapshot(finishedJobPod(1800), {
        owners: [ownerFact('Job', 'nightly-export-28791230', { apiVersion: 'batch/v1', status: { failed: 1, uncountedTerminatedPods: {} } })],
      }),
      expect: {
        severity: 'error',
        playbook: 'remove-finalizers',
        said: [{ id: 'blocked', data: { owned: /the Job controller/ } }],
        quotes: [/deletionGracePeriodSeconds 0/],
      },
    },
    {
      name: 'force-deleted on a lost node (grace 0): only the finalizer is left, the playbook applies',
      snapshot: snapshot(pod({ metadata: { deletionTimestamp: ago(900), deletionGracePeriodSeconds: 0, finalizers: ['example.com/x'] } }), {
        node: lostNode(),
      }),
      expect: { severity: 'error', playbook: 'remove-finalizers' },
    },
  ],
});
