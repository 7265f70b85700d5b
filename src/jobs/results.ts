// Waiting for one job's answer (CLI, tests, a caller that wants the result in hand). Polls
// the job in Redis: no extra blocking connection to manage, and it rides out reconnects.
import { Job } from 'bullmq';
import type { JobQueues } from './queues.js';
import type { DiagnoseResult } from './schemas.js';

export interface WaitOptions {
  timeoutMs?: number;
  /** First poll interval; grows to 500 ms. */
  pollMs?: number;
}

/**
 * Resolves with the job's result once it has one: `diagnosed`/`not-found` from a completed
 * job, `failed` (with the reason) from a job that ran out of attempts.
 */
export async function waitForResult(queues: JobQueues, cluster: string, jobId: string, options: WaitOptions = {}): Promise<DiagnoseResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const queue = queues.diagnose(cluster);
  let delay = options.pollMs ?? 50;
  for (;;) {
    // finishedOn and failedReason are also set between attempts; only the state is final.
    const state = await queue.getJobState(jobId);
    const job = state === 'completed' || state === 'failed' ? await Job.fromId<DiagnoseResult['job'], DiagnoseResult>(queue, jobId) : undefined;
    if (job && state === 'completed') return job.returnvalue;
    if (job && state === 'failed') return { job: job.data, jobId, status: 'failed', message: job.failedReason || 'job failed', requesters: [] };
    if (Date.now() > deadline) throw new Error(`no result for job ${jobId} within ${options.timeoutMs ?? 60_000} ms (state: ${state})`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(500, Math.round(delay * 1.5));
  }
}
