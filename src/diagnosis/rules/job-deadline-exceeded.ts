// job.deadline-exceeded: Job ran past its activeDeadlineSeconds and was stopped.

import { formatDuration, ms, namespaceOf } from '../facts.js';
import { msg } from '../messages.js';
import { jobFailure, ownerConditions } from '../owners.js';
import { defineRule } from '../rule.js';

// spec.activeDeadlineSeconds bounds a Job's whole run: past it the controller kills its pods and
// fails the Job with DeadlineExceeded ("Job was active longer than specified deadline"), however
// healthy they were. The pods did not crash; the work took longer than the Job allows.

export const rule = defineRule({
  meta: {
    id: 'job.deadline-exceeded',
    title: 'Job ran past its activeDeadlineSeconds and was stopped',
    category: 'job',
    severity: 'error',
    needs: ['pod', 'events', 'owners'],
    // Above every crash rule: a Job's terminal state outranks the container exits it explains.
    priority: 53,
    doc:
      'The Job has a Failed condition with reason DeadlineExceeded ("Job was active longer than specified deadline"): ' +
      'it ran longer than spec.activeDeadlineSeconds, so its running pods were killed (status reason DeadlineExceeded) and it will not retry. ' +
      'Compares the deadline with how long the Job ran.',
    messages: {
      title: 'Job {{job}} stopped at its deadline',
      titleDeadline: 'Job {{job}} stopped at its deadline (activeDeadlineSeconds {{deadline}})',
      failed: 'Job {{job}} failed with DeadlineExceeded: "{{message}}".',
      failedCron: 'Job {{job}} (of CronJob {{cronJob}}) failed with DeadlineExceeded: "{{message}}".',
      deadlineIs: 'Its spec.activeDeadlineSeconds is {{deadline}} ({{duration}});',
      deadlineIsRan: 'Its spec.activeDeadlineSeconds is {{deadline}} ({{duration}}) and it ran {{ran}};',
      hasDeadline: 'It has an activeDeadlineSeconds;',
      hasDeadlineRan: 'It has an activeDeadlineSeconds and it ran {{ran}};',
      podsKilled: 'past the deadline the controller killed its pods, whatever they were doing.',
      notCrashed: 'The pods did not crash: the work takes longer than the Job allows (or it waited long to be scheduled, which counts too).',
      measure:
        "Find out how long the work really takes (`kubectl get job -n {{namespace}} {{job}} -o yaml`: startTime, the pods' start times) " +
        'and raise activeDeadlineSeconds with margin, or split the work.',
      waitCounts: 'If the pods waited long for scheduling or image pulls, that time counts against the deadline too: fix that first.',
      prevent: 'Set activeDeadlineSeconds from measured run times, and alert on Jobs whose duration approaches it.',
    },
  },
  check(snapshot) {
    const failure = jobFailure(snapshot);
    if (failure?.reason !== 'DeadlineExceeded') return null;
    const { job, cronJob } = failure;
    const ns = namespaceOf(snapshot);
    const spec = (job.object?.spec ?? {}) as { activeDeadlineSeconds?: number };
    const status = (job.object?.status ?? {}) as { startTime?: string };
    const started = ms(status.startTime);
    const failedAt = ms(ownerConditions(job.object).find((c) => c.type === 'Failed')?.lastTransitionTime);
    const ran = started !== undefined && failedAt !== undefined ? (failedAt - started) / 1000 : undefined;
    const deadline = spec.activeDeadlineSeconds;
    return {
      title: deadline !== undefined ? msg('titleDeadline', { job: job.name, deadline }) : msg('title', { job: job.name }),
      cause: [
        cronJob
          ? msg('failedCron', { job: job.name, cronJob: cronJob.name, message: failure.message })
          : msg('failed', { job: job.name, message: failure.message }),
        deadline !== undefined
          ? ran !== undefined
            ? msg('deadlineIsRan', { deadline, duration: formatDuration(deadline), ran: formatDuration(ran) })
            : msg('deadlineIs', { deadline, duration: formatDuration(deadline) })
          : ran !== undefined
            ? msg('hasDeadlineRan', { ran: formatDuration(ran) })
            : msg('hasDeadline'),
        msg('podsKilled'),
        msg('notCrashed'),
      ],
      evidence: failure.evidence,
      advice: [msg('measure', { namespace: ns, job: job.name }), msg('waitCounts')],
      prevent: [msg('prevent')],
      causeKey: `job/${ns}/${cronJob ? `cronjob/${cronJob.name}` : job.name}:DeadlineExceeded`,
      params: { job: job.name, ...(deadline !== undefined ? { activeDeadlineSeconds: deadline } : {}), ...(cronJob ? { cronJob: cronJob.name } : {}) },
    };
  },
});
