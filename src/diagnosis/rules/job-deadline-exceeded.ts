// job.deadline-exceeded: Job ran past its activeDeadlineSeconds and was stopped.

import { formatDuration, ms, namespaceOf } from '../facts.js';
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
    priority: 45,
    doc: 'The Job has a Failed condition with reason DeadlineExceeded ("Job was active longer than specified deadline"): it ran longer than spec.activeDeadlineSeconds, so its running pods were killed (status reason DeadlineExceeded) and it will not retry. Compares the deadline with how long the Job ran.',
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
      title: `Job ${job.name} stopped at its deadline${deadline !== undefined ? ` (activeDeadlineSeconds ${deadline})` : ''}`,
      cause:
        `Job ${job.name}${cronJob ? ` (of CronJob ${cronJob.name})` : ''} failed with DeadlineExceeded: "${failure.message}". ` +
        `${deadline !== undefined ? `Its spec.activeDeadlineSeconds is ${deadline} (${formatDuration(deadline)})` : 'It has an activeDeadlineSeconds'}${ran !== undefined ? ` and it ran ${formatDuration(ran)}` : ''}; ` +
        'past the deadline the controller killed its pods, whatever they were doing. The pods did not crash: the work takes longer than the Job allows (or it waited long to be scheduled, which counts too).',
      evidence: failure.evidence,
      advice: [
        `Find out how long the work really takes (\`kubectl get job -n ${ns} ${job.name} -o yaml\`: startTime, the pods' start times) and raise activeDeadlineSeconds with margin, or split the work.`,
        'If the pods waited long for scheduling or image pulls, that time counts against the deadline too: fix that first.',
      ],
      prevent: ['Set activeDeadlineSeconds from measured run times, and alert on Jobs whose duration approaches it.'],
      causeKey: `job/${ns}/${cronJob ? `cronjob/${cronJob.name}` : job.name}:DeadlineExceeded`,
      params: { job: job.name, ...(deadline !== undefined ? { activeDeadlineSeconds: deadline } : {}), ...(cronJob ? { cronJob: cronJob.name } : {}) },
    };
  },
});
