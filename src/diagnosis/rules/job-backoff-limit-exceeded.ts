// job.backoff-limit-exceeded: Job gave up after its pods failed.

import { crashes, crashReading, mechanismRef } from '../crashes.js';
import { eventEvidence, namespaceOf, newestFirst } from '../facts.js';
import { msg } from '../messages.js';
import { jobFailure } from '../owners.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

// A Job stops creating pods once too many of them failed: `BackoffLimitExceeded` ("Job has reached
// the specified backoff limit"), per-index limits (`MaxFailedIndexesExceeded`, `FailedIndexes`),
// or a podFailurePolicy FailJob rule (`PodFailurePolicy`). The pods' own failures are the cause;
// with restartPolicy OnFailure the controller deletes them, so only their events may remain.

const GAVE_UP = new Set(['BackoffLimitExceeded', 'MaxFailedIndexesExceeded', 'FailedIndexes', 'PodFailurePolicy']);

export const rule = defineRule({
  meta: {
    id: 'job.backoff-limit-exceeded',
    title: 'Job gave up after its pods failed',
    category: 'job',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'logs', 'access', 'dependencies'],
    // Below the crash rules: when the failed pod is still there, its crash is the cause to read first.
    // Above every crash rule: a Job's terminal state outranks the container exits it explains.
    priority: 53,
    doc:
      'The Job has a Failed condition with reason BackoffLimitExceeded ("Job has reached the specified backoff limit"), ' +
      'MaxFailedIndexesExceeded / FailedIndexes (indexed Jobs) or PodFailurePolicy (a FailJob rule matched): ' +
      'it stopped retrying because its pods kept failing. ' +
      'Quotes the Job condition, the failed pods that are left and their last events; the crash rules explain a pod that is still there.',
    messages: {
      title: 'Job {{job}} gave up: {{reason}}',
      failed: 'Job {{job}} failed with {{reason}}: "{{message}}".',
      failedCron: 'Job {{job}} (of CronJob {{cronJob}}) failed with {{reason}}: "{{message}}".',
      failJobRule: 'A pod failure matched a FailJob rule of its podFailurePolicy, so it failed at once.',
      overLimit: 'Its pods failed more than backoffLimit {{limit}} times, so it stopped retrying.',
      tooOften: 'Its pods failed too often, so it stopped retrying.',
      podDeleted: 'Pod {{pod}} was deleted by the Job controller; its events are all that remain of it.',
      podsAreCause: "The pods' own failure is the cause: the quoted events and the crashed container's logs say what it was.",
      podMechanism: 'Its pods failed because of it: {{kind}} {{container}} says why. {{explanation}}',
      decisiveLine: 'The decisive line ({{source}}): "{{line}}".',
      knob: '{{knob}}',
      seeWhy:
        'See why the pods failed: `kubectl get pods -n {{namespace}} -l job-name={{job}}` ' +
        'and `kubectl logs -n {{namespace}} -l job-name={{job}} --previous`; ' +
        'with restartPolicy OnFailure the failed pods are deleted, so use restartPolicy Never to keep them for inspection.',
      nextSchedule:
        'Fix the cause; CronJob {{cronJob}} starts a new Job at its next schedule ' +
        '(or `kubectl create job --from=cronjob/{{cronJob}} {{cronJob}}-manual -n {{namespace}}`).',
      createAgain: 'Fix the cause and create the Job again (a failed Job does not retry).',
      prevent: 'Alert on kube_job_failed, keep failed pods (restartPolicy Never, ttlSecondsAfterFinished) long enough to read their logs.',
    },
  },
  check(snapshot) {
    const failure = jobFailure(snapshot);
    if (!failure || !GAVE_UP.has(failure.reason)) return null;
    const { job, cronJob } = failure;
    const ns = namespaceOf(snapshot);
    const limit = (job.object?.spec as { backoffLimit?: number } | undefined)?.backoffLimit;
    // The pod's last words, when it (or its events after deletion) are still there.
    const podEvents = newestFirst(snapshot.events).filter((e) => e.type === 'Warning' || e.reason === 'Killing');
    const evidence: Evidence[] = [...failure.evidence, ...podEvents.slice(0, 2).map(eventEvidence)];
    const failed = { job: job.name, reason: failure.reason, message: failure.message };
    // The Job gave up because its pods failed: a crash of this pod whose line the catalogue knows says why.
    const crash = crashes(snapshot).find((c) => crashReading(snapshot, c));
    const reading = crash && crashReading(snapshot, crash);
    if (reading) evidence.push(...reading.evidence);
    return {
      title: msg('title', { job: job.name, reason: failure.reason }),
      cause: [
        cronJob ? msg('failedCron', { ...failed, cronJob: cronJob.name }) : msg('failed', failed),
        failure.reason === 'PodFailurePolicy' ? msg('failJobRule') : limit !== undefined ? msg('overLimit', { limit }) : msg('tooOften'),
        snapshot.missingPod && msg('podDeleted', { pod: snapshot.missingPod.name }),
        crash && reading
          ? msg('podMechanism', { kind: crash.s.init ? 'init container' : 'container', container: crash.name, explanation: reading.explanation })
          : msg('podsAreCause'),
        reading && msg('decisiveLine', { source: reading.source, line: reading.line }),
      ],
      evidence,
      advice: [
        ...(reading?.knobs ?? []).map((knob) => msg('knob', { knob })),
        msg('seeWhy', { namespace: ns, job: job.name }),
        cronJob ? msg('nextSchedule', { cronJob: cronJob.name, namespace: ns }) : msg('createAgain'),
      ],
      prevent: [msg('prevent')],
      causeKey: `job/${ns}/${cronJob ? `cronjob/${cronJob.name}` : job.name}:${failure.reason}`,
      params: { job: job.name, reason: failure.reason, ...(cronJob ? { cronJob: cronJob.name } : {}), ...(limit !== undefined ? { backoffLimit: limit } : {}) },
      ...(reading ? { mechanism: mechanismRef(reading) } : {}),
    };
  },
});
