import { describe, expect, it } from 'vitest';
import { ago, crashedPod, event, ownerFact, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Snapshot } from '../types.js';
import { RULES } from './index.js';
import { rule } from './job-backoff-limit-exceeded.js';

const failedJob = (reason: string, message: string, type = 'Failed') =>
  ownerFact(
    'Job',
    'nightly-export-29920890',
    {
      apiVersion: 'batch/v1',
      spec: { backoffLimit: 2, parallelism: 1 },
      status: { failed: 3, conditions: [{ type, status: 'True', reason, message, lastTransitionTime: ago(1500) }] },
    },
    [],
  );
const deleted = (owners: Snapshot['owners'], events: Snapshot['events'] = []): Snapshot =>
  snapshot(undefined, {
    target: { kind: 'pod', namespace: 'shop', name: 'nightly-export-29920890-7xk2p' },
    missingPod: { name: 'nightly-export-29920890-7xk2p', via: 'Job nightly-export-29920890' },
    owners,
    events,
  });
const BACKOFF = 'Job has reached the specified backoff limit';

testRule(rule, {
  valid: [
    {
      name: 'a Job that completed after one failed pod',
      snapshot: deleted([
        ownerFact('Job', 'j', { spec: { backoffLimit: 6 }, status: { failed: 1, succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } }),
      ]),
    },
    {
      name: 'near miss (deadline vs backoff): DeadlineExceeded is job.deadline-exceeded',
      snapshot: deleted([failedJob('DeadlineExceeded', 'Job was active longer than specified deadline')]),
    },
    { name: 'a running Job (no Failed condition)', snapshot: deleted([ownerFact('Job', 'j', { spec: {}, status: { active: 1 } })]) },
  ],
  invalid: [
    {
      name: 'BackoffLimitExceeded; the OnFailure pod was deleted, only its events remain',
      snapshot: deleted(
        [failedJob('BackoffLimitExceeded', BACKOFF), ownerFact('CronJob', 'nightly-export', { apiVersion: 'batch/v1' })],
        [
          event(
            { kind: 'Pod', metadata: { name: 'nightly-export-29920890-7xk2p', namespace: 'shop' } },
            { reason: 'BackOff', count: 9, message: 'Back-off restarting failed container export in pod nightly-export-29920890-7xk2p_shop(4e50)' },
          ),
        ],
      ),
      expect: {
        severity: 'error',
        playbook: null,
        params: { reason: 'BackoffLimitExceeded', cronJob: 'nightly-export', backoffLimit: 2 },
        said: [{ id: 'failedCron', data: { message: 'Job has reached the specified backoff limit' } }],
        quotes: [/Back-off restarting failed container export/],
      },
    },
    {
      name: "the failed pod is still there and its log names the mechanism: the Job's finding says it, with the knob",
      snapshot: snapshot(crashedPod({ exitCode: 1, now: 'terminated', container: 'export' }, { spec: { restartPolicy: 'Never' } }), {
        owners: [failedJob('BackoffLimitExceeded', BACKOFF)],
        logs: [
          { container: 'export', previous: false, lines: ['starting export', "OSError: [Errno 28] No space left on device: '/scratch/part-0001.parquet'"] },
        ],
      }),
      expect: {
        mechanism: 'disk-full',
        said: [
          { id: 'decisiveLine', data: { line: /No space left on device/ } },
          { id: 'podMechanism', data: { container: 'export', kind: 'container' } },
        ],
      },
    },
    {
      name: '1.31+: FailureTarget before Failed',
      snapshot: deleted([failedJob('BackoffLimitExceeded', BACKOFF, 'FailureTarget')]),
      expect: { params: { reason: 'BackoffLimitExceeded' } },
    },
    {
      name: 'podFailurePolicy FailJob',
      snapshot: deleted([failedJob('PodFailurePolicy', 'Container main for pod shop/x failed with exit code 42 matching FailJob rule at index 0')]),
      expect: { said: [{ id: 'failed', data: { message: /FailJob rule/ } }] },
    },
  ],
});

describe('job.backoff-limit-exceeded in the engine', () => {
  it('ranks first for the deleted pod, and above the crash it explains when the failed pod is still there', () => {
    expect(diagnose(deleted([failedJob('BackoffLimitExceeded', BACKOFF)]), { rules: RULES }).findings[0]?.rule).toBe('job.backoff-limit-exceeded');
    const failedPod = crashedPod({ exitCode: 3, now: 'terminated' }, { spec: { restartPolicy: 'Never' } });
    const d = diagnose(snapshot(failedPod, { owners: [failedJob('BackoffLimitExceeded', BACKOFF)] }), { rules: RULES });
    expect(d.findings.map((f) => f.rule).slice(0, 2)).toEqual(['job.backoff-limit-exceeded', 'crash.app-exit']);
  });
});
