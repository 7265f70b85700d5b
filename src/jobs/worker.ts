// Workers: take diagnosis jobs of one cluster, collect facts once, run the rules, group the
// result into an incident, and hand it to the chat side. Retry policy is data (job options);
// the processor only decides which class an error belongs to:
//   transient (API 5xx/429, timeouts, unreachable cluster or agent) → throw: BullMQ retries
//     with exponential backoff; the last attempt answers "failed" before giving up;
//   permanent (target gone, bad target, forbidden) → a clear result, no retry;
//   invalid payload → UnrecoverableError: failed at once, never retried.
// A worker killed mid-job loses its lock; BullMQ's stalled check hands the job to another.
import * as k8s from '@kubernetes/client-node';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { AgentLookup } from '../collect/snapshot.js';
import type { FactSource } from '../collect/source.js';
import { type Diagnosis, type Gap, TRANSIENT_GAP_KINDS } from '../diagnosis/types.js';
import { isPodDoctorError, type PodDoctorError } from '../errors.js';
import { formatTarget } from '../kube/target.js';
import { type ScopedLogger, scoped } from '../log.js';
import type { FailureClass, JobMetrics } from '../metrics/metrics.js';
import { redactDeep } from '../redact.js';
import { type RedisClient, redisErrorListener } from '../redis/client.js';
import { clusterTag, DEFAULT_PREFIX } from '../redis/keys.js';
import { beginSpan, contextFrom, currentTrace, runIn, settle, targetAttributes } from '../tracing/spans.js';
import { type DiagnoseOptions, diagnoseTarget } from '../usecases/diagnose.js';
import { closeJob, markActive } from './dedup.js';
import { joinIncident, primaryFinding } from './incidents.js';
import { queueName } from './queues.js';
import { RECURRENCE_WINDOW_DAYS, type RecurrenceSettings, recordRecurrence } from './recurrence.js';
import {
  type DiagnoseJob,
  type DiagnoseResult,
  type Incident,
  type PlanOffer,
  parseDiagnoseJob,
  parseRemediateJob,
  type Recurrence,
  type RemediateJob,
} from './schemas.js';
import type { ResultSink } from './sink.js';

const IDENTIFIERS = new Set(['rule', 'severity', 'playbook', 'subject', 'causeKey', 'fingerprint', 'params', 'merged', 'alternatives']);
const keepIdentifiers = (key: string) => IDENTIFIERS.has(key);

export type RemediateProcessor = (job: RemediateJob, ctx: { jobId: string; logger: Logger }) => Promise<unknown>;

export interface StartWorkersOptions {
  /** ioredis connection with `maxRetriesPerRequest: null` (see redisFromUrl); the caller closes it. */
  connection: RedisClient;
  cluster: string;
  /** Diagnosis jobs this process runs at once. */
  concurrency?: number;
  /** Facts of this cluster (KubeSource.throttled shares the cluster's API budget between workers). */
  source: FactSource;
  agent?: AgentLookup;
  sink: ResultSink;
  /**
   * Proposes the fixes for a diagnosis (plans stored for approval): the worker decides what to
   * offer, chat only renders it. Without it results carry no offers.
   */
  proposeOffers?: (diagnosis: Diagnosis, context: { jobId: string; since: number }) => Promise<PlanOffer[]>;
  /** The playbook runner; without it no remediation worker is started. */
  remediate?: RemediateProcessor;
  remediateConcurrency?: number;
  logger: Logger;
  prefix?: string;
  /** Lock of a running job (ms); a dead worker's job is taken over after it lapses. */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (ms). */
  stalledIntervalMs?: number;
  /** Times a job may stall (worker died) before it fails. */
  maxStalledCount?: number;
  incidentTtlSeconds?: number;
  /** How long an incident's fingerprint is kept for "it happened before" (default 90 days). */
  recurrenceRetentionDays?: number;
  /** Extra diagnose options: rule overrides, timeouts, a fixed clock in tests. */
  diagnose?: Omit<DiagnoseOptions, 'cluster' | 'agent'>;
  metrics?: JobMetrics;
  /**
   * Attempts that may be spent re-collecting when a diagnosis came back with transient gaps
   * (an API call timed out, a Ready node's agent did not answer). The last one answers with
   * the gaps shown.
   */
  gapRetries?: number;
  /** Close gracefully on SIGTERM/SIGINT (default true). */
  handleSignals?: boolean;
}

export interface RunningWorkers {
  diagnose: Worker<DiagnoseJob, DiagnoseResult>;
  remediate?: Worker<RemediateJob, unknown>;
  /** Resolves once the workers' Redis connections are up. */
  ready(): Promise<void>;
  /** Finish running jobs, then stop (idempotent). */
  close(): Promise<void>;
}

// ---- error classes ----

const NETWORK = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|EPIPE|socket hang up|timed out|no answer within|unreachable/i;

export function classifyError(err: unknown): FailureClass {
  if (err instanceof UnrecoverableError) return 'invalid';
  if (isPodDoctorError(err)) {
    switch (err.code) {
      case 'CLUSTER_UNREACHABLE':
        return 'transient';
      case 'TARGET_NOT_FOUND':
      case 'BAD_TARGET':
      case 'NOT_AUTHORIZED':
      case 'BAD_CONFIG':
      case 'BAD_INPUT':
      case 'PLAYBOOK_INVALID':
      case 'PRECONDITION_FAILED':
        return 'permanent';
    }
  }
  const status = err instanceof k8s.ApiException ? err.code : (err as { code?: unknown })?.code;
  if (typeof status === 'number') return status >= 500 || status === 429 || status === 408 ? 'transient' : 'permanent';
  const text = `${(err as { code?: unknown })?.code ?? ''} ${(err as Error)?.message ?? String(err)}`;
  if (NETWORK.test(text)) return 'transient';
  return 'unknown';
}

const transientGap = (g: Gap): boolean => TRANSIENT_GAP_KINDS.has(g.kind);

class TransientGapsError extends Error {
  constructor(readonly gaps: Gap[]) {
    super(`transient gaps: ${gaps.map((g) => `${g.check}: ${g.reason}`).join('; ')}`);
    this.name = 'TransientGapsError';
  }
}

function nodeReady(node: { status?: { conditions?: { type: string; status: string }[] } }): boolean {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

/**
 * Agent gaps are transient only for Ready nodes: a lost node's agent is expected to be
 * silent, and retrying would only delay the answer.
 */
function observingAgent(agent: AgentLookup | undefined, transient: Gap[]): AgentLookup | undefined {
  if (!agent) return undefined;
  return {
    async fetch(input) {
      const result = await agent.fetch(input);
      if (nodeReady(input.node)) transient.push(...result.gaps.filter(transientGap));
      return result;
    },
  };
}

// ---- workers ----

/** A job's payload, valid and for this worker's cluster (else unrecoverable: never retried). */
function jobOf<T extends { cluster: string }>(parse: (raw: unknown) => T, raw: unknown, cluster: string): T {
  const data = parse(raw);
  if (data.cluster !== cluster) throw new UnrecoverableError(`job for cluster "${data.cluster}" on a worker of "${cluster}"`);
  return data;
}

/** What every diagnosis job of one worker process shares. */
interface DiagnoseContext {
  options: StartWorkersOptions;
  prefix: string;
  gapRetries: number;
  incidentSettings: { prefix: string; ttlSeconds: number };
  recurrenceSettings: RecurrenceSettings;
  /** The queue's name, for metrics. */
  queue: string;
}

/**
 * One diagnosis job: collect and diagnose, retry what is transient (thrown: BullMQ backs off),
 * answer what is permanent, and hand the result to the sink.
 */
async function processDiagnose(c: DiagnoseContext, job: Job<DiagnoseJob, DiagnoseResult>): Promise<DiagnoseResult> {
  const { options, queue } = c;
  const { cluster, logger, metrics } = options;
  const started = process.hrtime.bigint();
  const jobId = job.id ?? '';
  let data: DiagnoseJob;
  try {
    data = jobOf(parseDiagnoseJob, job.data, cluster);
  } catch (err) {
    metrics?.failures.inc({ queue, class: 'invalid' });
    logger.error({ jobId, err }, 'invalid diagnose job');
    throw err;
  }
  const log = scoped(logger, { jobId, cluster, target: formatTarget(data.target), reason: data.reason });
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const observe = (status: string) => metrics?.jobDuration.observe({ queue, status }, Number(process.hrtime.bigint() - started) / 1e9);
  const finish = (partial: Pick<DiagnoseResult, 'status' | 'diagnosis' | 'message'>) => finishDiagnosis(c, job, data, log, partial);

  await markActive(options.connection, c.prefix, data, jobId);
  log.debug({ attempt: job.attemptsMade + 1 }, 'diagnosis started');
  const transientAgentGaps: Gap[] = [];
  let diagnosis: Diagnosis;
  try {
    // Concurrent diagnoses share identical reads that started after this job was enqueued
    // (job.timestamp, the producer's clock): as fresh as reading alone, a fraction of the load.
    diagnosis = await diagnoseTarget(options.source.sharing?.(job.timestamp) ?? options.source, data.target, {
      ...options.diagnose,
      cluster,
      agent: observingAgent(options.agent, transientAgentGaps),
    });
  } catch (err) {
    const cls = classifyError(err);
    metrics?.failures.inc({ queue, class: cls });
    const message = err instanceof Error ? err.message : String(err);
    if (cls === 'permanent') {
      const notFound = isPodDoctorError(err, 'TARGET_NOT_FOUND') || isPodDoctorError(err, 'BAD_TARGET');
      log.info({ code: (err as PodDoctorError).code }, 'diagnosis finished without a target');
      const result = await finish({ status: notFound ? 'not-found' : 'failed', message });
      observe(result.status);
      return result;
    }
    if (lastAttempt) {
      log.error({ err, attempts: job.attemptsMade + 1 }, 'diagnosis failed, no attempts left');
      await finish({ status: 'failed', message: `diagnosis failed after ${job.attemptsMade + 1} attempts: ${message}` });
      observe('failed');
    } else {
      log.warn({ err, attempt: job.attemptsMade + 1 }, 'diagnosis failed, will retry');
    }
    throw err;
  }

  const transient = [...diagnosis.skipped.filter((g) => g.origin === 'api' && transientGap(g)), ...transientAgentGaps];
  if (transient.length > 0 && job.attemptsMade < c.gapRetries && !lastAttempt) {
    metrics?.failures.inc({ queue, class: 'transient' });
    log.warn({ gaps: transient }, 'diagnosis incomplete, will retry');
    throw new TransientGapsError(transient);
  }

  for (const f of diagnosis.findings) metrics?.findings.inc({ rule: f.rule, severity: f.severity });
  // What is stored and posted quotes cluster text (event messages, waiting reasons): credentials
  // out. Identifiers (rule ids, fingerprints, playbook params) stay as they are.
  const result = await finish({ status: 'diagnosed', diagnosis: { ...diagnosis, findings: redactDeep(diagnosis.findings, keepIdentifiers) } });
  observe('diagnosed');
  log.info(
    {
      findings: diagnosis.findings.length,
      primary: diagnosis.findings[0]?.rule,
      incident: result.incident?.id,
      created: result.incident?.created,
      requesters: result.requesters.length,
    },
    'diagnosis delivered',
  );
  return result;
}

/**
 * An attempt as a `job.diagnose` span, continuing the trace its job data carries (the request
 * that queued it); the result carries this span on to the chat post.
 */
function traceDiagnose(c: DiagnoseContext, job: Job<DiagnoseJob, DiagnoseResult>): Promise<DiagnoseResult> {
  const data = job.data as Partial<DiagnoseJob> | undefined;
  const attributes = { 'k8s.cluster.name': c.options.cluster, 'pod_doctor.job.id': job.id ?? '', 'pod_doctor.job.attempt': job.attemptsMade + 1 };
  const span = beginSpan('job.diagnose', { parent: contextFrom(data?.trace), attributes });
  return settle(
    span,
    runIn(span.context, () => processDiagnose(c, job)),
    (result) => ({
      ...targetAttributes(result.job.cluster, result.job.target),
      'pod_doctor.job.status': result.status,
      'pod_doctor.findings': result.diagnosis?.findings.length ?? 0,
      ...(result.incident ? { 'pod_doctor.incident.id': result.incident.id } : {}),
    }),
  );
}

/** The answer of a job: its incident, the fixes offered, who asked (read as the job closes), to the sink. */
async function finishDiagnosis(
  c: DiagnoseContext,
  job: Job<DiagnoseJob, DiagnoseResult>,
  data: DiagnoseJob,
  log: ScopedLogger,
  partial: Pick<DiagnoseResult, 'status' | 'diagnosis' | 'message'>,
): Promise<DiagnoseResult> {
  const { connection, cluster, metrics, proposeOffers, sink } = c.options;
  const jobId = job.id ?? '';
  let incident: Incident | undefined;
  const primary = partial.diagnosis ? primaryFinding(partial.diagnosis) : undefined;
  if (primary) {
    incident = await joinIncident(connection, c.incidentSettings, { cluster, jobId, finding: primary });
    metrics?.incidents.inc({ k8s_cluster: cluster, outcome: incident.created ? 'created' : 'joined' });
  }
  let recurrence: Recurrence | undefined;
  if (primary && incident && partial.diagnosis) {
    try {
      recurrence = await recordRecurrence(connection, c.recurrenceSettings, { cluster, diagnosis: partial.diagnosis, finding: primary, incident });
    } catch (err) {
      // The diagnosis still goes out, without "it happened before".
      log.warn({ err }, 'recurrence could not be recorded');
    }
  }
  let offers: PlanOffer[] = [];
  if (partial.status === 'diagnosed' && partial.diagnosis && proposeOffers) {
    try {
      offers = await proposeOffers(partial.diagnosis, { jobId, since: job.timestamp });
    } catch (err) {
      // The diagnosis still goes out; its findings show without buttons.
      log.warn({ err }, 'fixes could not be proposed');
    }
  }
  const requesters = await closeJob(connection, c.prefix, data, jobId);
  const trace = currentTrace();
  const result: DiagnoseResult = {
    job: data,
    jobId,
    ...partial,
    requesters,
    ...(incident ? { incident } : {}),
    ...(recurrence ? { recurrence } : {}),
    ...(offers.length > 0 ? { offers } : {}),
    ...(trace ? { trace } : {}),
  };
  await sink.deliver(result);
  return result;
}

export async function startWorkers(options: StartWorkersOptions): Promise<RunningWorkers> {
  const { connection, cluster, logger, metrics } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const common = {
    connection,
    prefix: clusterTag(prefix, cluster),
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 2,
    name: `${cluster}-${process.pid}`,
  };
  const diagnoseQueue = queueName('diagnose', cluster);
  const context: DiagnoseContext = {
    options,
    prefix,
    gapRetries: options.gapRetries ?? 2,
    incidentSettings: { prefix, ttlSeconds: options.incidentTtlSeconds ?? 21_600 },
    recurrenceSettings: { prefix, retentionSeconds: (options.recurrenceRetentionDays ?? 90) * 86_400, windowDays: RECURRENCE_WINDOW_DAYS },
    queue: diagnoseQueue,
  };
  const processDiagnoseJob = (job: Job<DiagnoseJob, DiagnoseResult>) => traceDiagnose(context, job);

  const diagnoseWorker = new Worker<DiagnoseJob, DiagnoseResult>(diagnoseQueue, processDiagnoseJob, { ...common, concurrency: options.concurrency ?? 8 });
  diagnoseWorker.on('error', redisErrorListener(logger, { queue: diagnoseQueue }, 'worker error'));
  diagnoseWorker.on('stalled', (jobId) => logger.warn({ jobId, queue: diagnoseQueue }, 'job stalled, handed to another worker'));

  let remediateWorker: Worker<RemediateJob, unknown> | undefined;
  if (options.remediate) {
    const remediate = options.remediate;
    const remediateQueue = queueName('remediate', cluster);
    remediateWorker = new Worker<RemediateJob, unknown>(
      remediateQueue,
      async (job) => {
        const started = process.hrtime.bigint();
        const jobId = job.id ?? '';
        let data: RemediateJob;
        try {
          data = jobOf(parseRemediateJob, job.data, cluster);
        } catch (err) {
          metrics?.failures.inc({ queue: remediateQueue, class: 'invalid' });
          throw err;
        }
        const log = logger.child({ jobId, cluster, proposalId: data.proposalId });
        try {
          const out = await remediate(data, { jobId, logger: log });
          metrics?.jobDuration.observe({ queue: remediateQueue, status: 'done' }, Number(process.hrtime.bigint() - started) / 1e9);
          return out;
        } catch (err) {
          metrics?.failures.inc({ queue: remediateQueue, class: classifyError(err) });
          metrics?.jobDuration.observe({ queue: remediateQueue, status: 'failed' }, Number(process.hrtime.bigint() - started) / 1e9);
          throw err;
        }
      },
      { ...common, concurrency: options.remediateConcurrency ?? 1 },
    );
    remediateWorker.on('error', redisErrorListener(logger, { queue: remediateQueue }, 'worker error'));
    remediateWorker.on('failed', (job, err) => logger.error({ jobId: job?.id, err, queue: remediateQueue }, 'remediation failed'));
  }

  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'closing workers');
    void close();
  };
  const close = (): Promise<void> => {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      await Promise.all([diagnoseWorker.close(), remediateWorker?.close()]);
    })();
    return closing;
  };
  if (options.handleSignals ?? true) {
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  return {
    diagnose: diagnoseWorker,
    ...(remediateWorker ? { remediate: remediateWorker } : {}),
    ready: async () => {
      await Promise.all([diagnoseWorker.waitUntilReady(), remediateWorker?.waitUntilReady()]);
    },
    close,
  };
}
