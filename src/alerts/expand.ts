// Workload alerts (KubeDeploymentReplicasMismatch, KubeStatefulSetReplicasMismatch,
// KubeDaemonSetRolloutStuck, KubeJobFailed...) name a workload, not a pod. Which pods are
// unhealthy is a question for the Kubernetes API, and the bot only enqueues (it has no cluster
// credentials, and a storm of workload alerts must not hold Alertmanager's request open while
// pods are listed). So the webhook queues one expansion job per workload alert (fixed id: HA
// repeats and retries add it once), and the worker role runs it: read the workload, list its
// pods through its selector, and queue a diagnosis for each unhealthy one (at most maxPods),
// then tell the thread which pods were picked (`targets-expanded` event).
//
// Each pod's requester is the alert's, with a per-pod `fingerprint` (the alert key of
// enqueueDiagnosis is per fingerprint, so one fingerprint could open only one job) and the
// alert's own in `alertFingerprint`.
import { createHash } from 'node:crypto';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { FactSource } from '../collect/source.js';
import { unhealthyPodsOf, type WorkloadPods } from '../collect/workload-pods.js';
import type { Target } from '../diagnosis/types.js';
import { enqueueDiagnosis } from '../jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, type JobQueues, type JobSettings } from '../jobs/queues.js';
import { AlertRequester, ClusterName } from '../jobs/schemas.js';
import { classifyError } from '../jobs/worker.js';
import { Dns1123Label, Dns1123Subdomain, targetKey } from '../kube/target.js';
import { type RedisClient, redisErrorListener } from '../redis/client.js';
import { clusterTag } from '../redis/keys.js';
import { TraceCarrier } from '../tracing/carrier.js';
import { beginSpan, contextFrom, currentTrace, runIn, settle } from '../tracing/spans.js';
import { cancelAlertJobs, isResolved } from './cancel.js';
import type { ExpandedPod } from './group-events.js';
import { appendGroupEvent, groupEpisode } from './groups.js';
import { alertKeys, groupIdOf, podFingerprint } from './keys.js';
import type { WorkloadRef } from './targets.js';

export const DEFAULT_MAX_PODS = 20;

export const ExpandJobSchema = z.object({
  v: z.literal(1),
  cluster: ClusterName,
  workload: z.object({
    kind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']),
    namespace: Dns1123Label,
    name: Dns1123Subdomain,
  }),
  requester: AlertRequester,
  requestedAt: z.string().max(64),
  maxPods: z.number().int().min(1).max(500),
  /** The notification's trace (its `alert.receive` span): the pods' diagnoses join it. */
  trace: TraceCarrier.optional().catch(undefined),
});
export type ExpandJob = z.infer<typeof ExpandJobSchema>;

/** BullMQ refuses ":" in queue names (cluster names are DNS labels: no dots either). */
export function expandQueueName(cluster: string): string {
  return `alert-expand.${cluster}`;
}

/** One expansion per firing alert occurrence (cluster, fingerprint, startsAt). */
export function expansionJobId(cluster: string, fingerprint: string, startsAt: string): string {
  return `x${createHash('sha256').update(`${cluster}\n${fingerprint}\n${startsAt}`).digest('hex').slice(0, 40)}`;
}

function expandJobOptions(s: JobSettings): JobsOptions {
  return {
    attempts: s.attempts,
    backoff: { type: 'exponential', delay: s.backoffMs },
    removeOnComplete: { age: s.keepCompletedSeconds, count: 10_000 },
    removeOnFail: { age: s.keepFailedSeconds, count: 10_000 },
  };
}

/** Producer side: one expansion queue per cluster, over the job system's connection. */
export class ExpansionQueues {
  private readonly open = new Map<string, Queue<ExpandJob>>();

  constructor(
    readonly redis: RedisClient,
    readonly settings: JobSettings = DEFAULT_JOB_SETTINGS,
    private readonly logger?: Logger,
  ) {}

  queue(cluster: string): Queue<ExpandJob> {
    let q = this.open.get(cluster);
    if (!q) {
      q = new Queue<ExpandJob>(expandQueueName(cluster), {
        connection: this.redis,
        prefix: clusterTag(this.settings.prefix, cluster),
        defaultJobOptions: expandJobOptions(this.settings),
      });
      q.on('error', (err) => this.logger?.warn({ err, queue: expandQueueName(cluster) }, 'queue error'));
      this.open.set(cluster, q);
    }
    return q;
  }

  all(): Queue[] {
    return [...this.open.values()];
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((q) => q.close()));
    this.open.clear();
  }
}

/** Queue the expansion; resolves once it is in Redis. Adding an existing id is a no-op. */
export async function enqueueExpansion(eq: ExpansionQueues, input: Omit<ExpandJob, 'v' | 'requestedAt'> & { requestedAt?: string }): Promise<string> {
  const trace = currentTrace();
  const job = ExpandJobSchema.parse({ v: 1, ...input, requestedAt: input.requestedAt ?? new Date().toISOString(), ...(trace ? { trace } : {}) });
  const jobId = expansionJobId(job.cluster, job.requester.fingerprint, job.requester.startsAt);
  await eq.queue(job.cluster).add('expand', job, { jobId });
  return jobId;
}

// The pure helpers (selector, unhealthy pods worst first) live in collect/workload-pods.ts, shared
// with `pod-doctor diagnose deploy/NAME`.
export { desiredPods, ownedBy, pickUnhealthyPods, selectorOf, unhealthyReason } from '../collect/workload-pods.js';

// ---- the worker ----

export interface ExpansionDeps {
  source: FactSource;
  queues: JobQueues;
  expansion: ExpansionQueues;
  logger: Logger;
}

export interface ExpandOutcome {
  status: 'expanded' | 'resolved' | 'error';
  pods: ExpandedPod[];
  unhealthy: number;
  total: number;
  error?: string;
}

const workloadText = (w: WorkloadRef) => `${w.kind.toLowerCase()}/${w.namespace}/${w.name}`;

async function publish(deps: ExpansionDeps, job: ExpandJob, outcome: ExpandOutcome): Promise<void> {
  const r = job.requester;
  const channel = r.channel ?? null;
  const groupId = r.groupId ?? groupIdOf(job.cluster, channel, r.groupKey);
  const prefix = deps.queues.prefix;
  await appendGroupEvent(deps.queues.redis, prefix, {
    v: 1,
    type: 'targets-expanded',
    cluster: job.cluster,
    channel,
    groupKey: r.groupKey,
    groupId,
    episode: await groupEpisode(deps.queues.redis, prefix, job.cluster, groupId),
    at: new Date().toISOString(),
    fingerprint: r.fingerprint,
    alertname: r.alertname ?? '',
    workload: job.workload,
    pods: outcome.pods,
    unhealthy: outcome.unhealthy,
    total: outcome.total,
    error: outcome.error ?? null,
  });
}

/** One expansion; throws on transient errors (BullMQ retries), answers with an error event otherwise. */
export async function expandWorkload(deps: ExpansionDeps, job: ExpandJob, opts: { lastAttempt: boolean }): Promise<ExpandOutcome> {
  const { source, queues } = deps;
  const r = job.requester;
  const prefix = queues.prefix;
  if (await isResolved(queues.redis, prefix, job.cluster, r.fingerprint, r.startsAt)) return { status: 'resolved', pods: [], unhealthy: 0, total: 0 };
  const w = job.workload;
  const fail = async (error: string): Promise<ExpandOutcome> => {
    const outcome: ExpandOutcome = { status: 'error', pods: [], unhealthy: 0, total: 0, error };
    await publish(deps, job, outcome);
    return outcome;
  };

  let picked: Exclude<WorkloadPods, { problem: string }>;
  try {
    const read = await unhealthyPodsOf(source, w, job.maxPods);
    if (read.problem) return await fail(read.message);
    picked = read;
  } catch (err) {
    const cls = classifyError(err);
    if ((cls === 'transient' || cls === 'unknown') && !opts.lastAttempt) throw err;
    return await fail(`could not list the pods of ${w.kind} ${w.namespace}/${w.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const desired = picked.desired;

  const jobsKey = alertKeys.jobs(prefix, job.cluster, r.fingerprint, r.startsAt);
  const pods: ExpandedPod[] = [];
  /** One diagnosis answered to the alert, remembered so that the alert's resolve cancels it. */
  const enqueue = async (target: Target, name: string, reason: string) => {
    const { jobId } = await enqueueDiagnosis(queues, {
      cluster: job.cluster,
      target,
      reason: 'alert',
      requester: { ...r, fingerprint: podFingerprint(r.fingerprint, targetKey(target)), alertFingerprint: r.fingerprint, workload: workloadText(w) },
    });
    await queues.redis.multi().sadd(jobsKey, jobId).pexpire(jobsKey, queues.settings.alertDedupMs).exec();
    pods.push({ name, jobId, reason });
  };
  for (const { pod, reason } of picked.picked) {
    const name = pod.metadata?.name ?? '';
    await enqueue({ kind: 'pod', namespace: w.namespace, name }, name, reason);
  }
  // Pods missing rather than unhealthy (a quota or admission refusal): nothing to pick, so the
  // namespace is diagnosed, which reads the workloads' FailedCreate events and conditions.
  if (picked.picked.length === 0 && desired !== undefined && picked.total < desired) {
    await enqueue({ kind: 'namespace', name: w.namespace }, `ns/${w.namespace}`, `${picked.total} of ${desired} pods exist`);
  }
  // Resolved while we were listing: the resolve's cancel may have run before our jobs existed.
  if (pods.length > 0 && (await isResolved(queues.redis, prefix, job.cluster, r.fingerprint, r.startsAt))) {
    await cancelAlertJobs({ queues, expandQueue: (c) => deps.expansion.queue(c), logger: deps.logger }, job.cluster, r.fingerprint, r.startsAt);
  }
  const outcome: ExpandOutcome = { status: 'expanded', pods, unhealthy: picked.unhealthy, total: picked.total };
  await publish(deps, job, outcome);
  return outcome;
}

export interface ExpansionWorkerOptions {
  /** ioredis connection with `maxRetriesPerRequest: null` (see redisFromUrl); the caller closes it. */
  connection: RedisClient;
  cluster: string;
  source: FactSource;
  /** Producer side of the diagnosis queues (the pods' jobs go there). */
  queues: JobQueues;
  logger: Logger;
  concurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface RunningExpansionWorker {
  worker: Worker<ExpandJob, ExpandOutcome>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Run next to startWorkers in the worker role (it needs the cluster's API):
 * `startExpansionWorker({ connection, cluster, source, queues, logger })`.
 */
export function startExpansionWorker(options: ExpansionWorkerOptions): RunningExpansionWorker {
  const { connection, cluster, logger, queues } = options;
  const expansion = new ExpansionQueues(queues.redis, queues.settings, logger);
  const deps: ExpansionDeps = { source: options.source, queues, expansion, logger };
  const name = expandQueueName(cluster);
  const worker = new Worker<ExpandJob, ExpandOutcome>(
    name,
    async (job: Job<ExpandJob, ExpandOutcome>) => {
      const parsed = ExpandJobSchema.safeParse(job.data);
      if (!parsed.success)
        throw new UnrecoverableError(`invalid expansion job: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      if (parsed.data.cluster !== cluster) throw new UnrecoverableError(`job for cluster "${parsed.data.cluster}" on a worker of "${cluster}"`);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const span = beginSpan('alert.expand', {
        parent: contextFrom(parsed.data.trace),
        attributes: { 'k8s.cluster.name': cluster, 'pod_doctor.workload': workloadText(parsed.data.workload), 'pod_doctor.job.id': String(job.id) },
      });
      const outcome = await settle(
        span,
        runIn(span.context, () => expandWorkload(deps, parsed.data, { lastAttempt })),
        (o) => ({ 'pod_doctor.expand.status': o.status, 'pod_doctor.jobs': o.pods.length }),
      );
      logger.info(
        { jobId: job.id, workload: workloadText(parsed.data.workload), status: outcome.status, pods: outcome.pods.length, unhealthy: outcome.unhealthy },
        'workload alert expanded',
      );
      return outcome;
    },
    {
      connection,
      prefix: clusterTag(queues.prefix, cluster),
      concurrency: options.concurrency ?? 2,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      name: `${cluster}-${process.pid}-expand`,
    },
  );
  worker.on('error', redisErrorListener(logger, { queue: name }, 'worker error'));
  worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, err, queue: name }, 'workload expansion failed'));
  let closing: Promise<void> | undefined;
  return {
    worker,
    ready: () => worker.waitUntilReady().then(() => undefined),
    close: () => {
      closing ??= (async () => {
        await worker.close();
        await expansion.close();
      })();
      return closing;
    },
  };
}
