// `pod-doctor worker [--cluster NAME] [--concurrency N] [--kubeconfig FILE]`: runs the job
// workers of one cluster until SIGTERM/SIGINT, then finishes running jobs and exits. Only dials
// out: to Redis and to the cluster's API (and node agents). Serves /metrics, /healthz, /readyz.
import { parseArgs } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import { startAuditEvents } from '../audit/consumer.js';
import { createAgentCallMetrics } from '../collect/agent-metrics.js';
import { KubeSource, loadKubeConfig } from '../collect/kube-source.js';
import type { Config } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { JobQueues } from '../jobs/queues.js';
import { RedisStreamSink } from '../jobs/sink.js';
import { createLogger } from '../log.js';
import { createMetrics } from '../metrics/metrics.js';
import { serveOps } from '../metrics/server.js';
import { checkRedis, closeRedis, dropRedis, redisConnections, redisUp } from '../redis/client.js';
import { loadScriptsOnReady } from '../redis/lua.js';
import { embeddedWorkerDeadlineMs, shutdown, shutdownDeadlineMs, untilSignal } from '../shutdown.js';
import { startTracing, stopTracing } from '../tracing/start.js';
import { CONFIG_OPTION, CONFIG_USAGE, clusterOf, commandConfig } from './config.js';
import type { CliIo } from './io.js';
import { agentLookupFromConfig, jobSettingsFromConfig } from './wiring.js';
import { startWorkerRole } from './worker-role.js';

export const WORKER_USAGE = `Usage: pod-doctor worker [--config FILE] [--cluster NAME] [--concurrency N] [--kubeconfig FILE] [--context NAME] [--port N]
  Runs the diagnosis and (approved) remediation jobs of one cluster, and expands workload alerts.
${CONFIG_USAGE}
  --cluster NAME      cluster whose queues to serve (default: $POD_DOCTOR_CLUSTER)
  --concurrency N     diagnoses at once in this process (default: $POD_DOCTOR_WORKER_CONCURRENCY)
  --kubeconfig FILE   kubeconfig (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)
  --context NAME      kubeconfig context
  --port N            port of /metrics, /healthz, /readyz (default: $POD_DOCTOR_METRICS_PORT)
  Redis: $REDIS_URL (+ $POD_DOCTOR_REDIS_OPTIONS for Sentinel/Cluster).`;

export interface WorkerDeps {
  /** Resolves when the process should stop (default: SIGTERM or SIGINT). */
  stopSignal?: Promise<unknown>;
  /**
   * Run inside the bot (its worker thread): no ops server and no process or queue metrics (the
   * bot serves those); `onStarted` gets this worker's registry for the bot's /metrics.
   */
  embedded?: { onStarted(info: { registry: Registry }): void };
}

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new PodDoctorError('BAD_INPUT', `${flag} "${value}" is not a whole number`);
  return n;
}

/**
 * What a worker is built from: the configuration (read once, by the process that starts it) and
 * the flags that settle it. The bot's worker thread gets this object, not argv to parse again.
 */
export interface WorkerOptions {
  config: Config;
  cluster: string;
  concurrency: number;
  /** Port of /metrics, /healthz, /readyz (not served in the bot's thread). */
  port: number;
  kubeconfig?: string;
  context?: string;
}

export async function workerCommand(argv: string[], io: CliIo, deps: WorkerDeps = {}): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      cluster: { type: 'string' },
      concurrency: { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      port: { type: 'string' },
      ...CONFIG_OPTION,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(`${WORKER_USAGE}\n`);
    return 0;
  }
  const config = commandConfig(io.env, values.config, io.stderr);
  const concurrency = positiveInt('--concurrency', values.concurrency) ?? config.workerConcurrency;
  if (concurrency < 1) throw new PodDoctorError('BAD_INPUT', '--concurrency must be at least 1');
  const kubeconfig = values.kubeconfig ?? config.kubeconfig;
  const context = values.context ?? config.kubeContext;
  return runWorker(
    {
      config,
      cluster: clusterOf(values.cluster, config),
      concurrency,
      port: positiveInt('--port', values.port) ?? config.metricsPort,
      ...(kubeconfig ? { kubeconfig } : {}),
      ...(context ? { context } : {}),
    },
    io,
    deps,
  );
}

/** The worker role, until its stop signal: `pod-doctor worker`, or the bot's worker thread. */
export async function runWorker(options: WorkerOptions, io: Pick<CliIo, 'stdout'>, deps: WorkerDeps = {}): Promise<number> {
  const began = performance.now();
  const { config, cluster, port } = options;
  const kc = loadKubeConfig({ kubeconfig: options.kubeconfig, context: options.context });

  const logger = createLogger({ level: config.logLevel }).child({ role: 'worker', cluster });
  // Off without an OTLP endpoint; in the bot's thread, a provider of the thread's own.
  await startTracing({ serviceName: 'pod-doctor-worker', settings: config, logger });
  const connections = redisConnections(config, logger);
  const redis = connections.connect('worker');
  // Redis's script cache filled as soon as it answers, not by the first burst's NOSCRIPT answers.
  loadScriptsOnReady(redis, (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis scripts not loaded'));
  const settings = jobSettingsFromConfig(config);
  const kube = new KubeSource(kc);
  const embedded = deps.embedded;
  const metrics = createMetrics({ defaultMetrics: !embedded });
  const agentCalls = createAgentCallMetrics(metrics.registry);
  const agent = agentLookupFromConfig(config, agentCalls);
  const queues = new JobQueues(redis, settings, logger);
  if (!embedded) metrics.watchQueues(queues, [cluster]);
  // The port answers before anything waits (/readyz names what is missing): a liveness probe
  // passes while Redis or the API server are still away, and work starts once they are there.
  let started = false;
  const version = kc.makeApiClient(k8s.VersionApi);
  const ops = embedded
    ? undefined
    : await serveOps({
        port,
        logger,
        registry: metrics.registry,
        readiness: {
          redis: () => checkRedis(redis),
          kubernetes: () => version.getCode(),
          workers: async () => {
            if (!started) throw new Error('starting');
          },
        },
      });
  // How long after the command began the port answered (module loading aside).
  const listeningMs = Math.round(performance.now() - began);
  try {
    return await serveWorker(
      { ...options, listeningMs, logger, connections, redis, settings, kube, metrics, agentCalls, agent, queues, ops, markStarted: () => (started = true) },
      io,
      deps,
    );
  } catch (err) {
    await ops?.close();
    throw err;
  }
}

/** The worker's jobs, from its connections and metrics (the port already serves), until its stop signal. */
async function serveWorker(
  o: WorkerOptions & {
    listeningMs: number;
    logger: ReturnType<typeof createLogger>;
    connections: ReturnType<typeof redisConnections>;
    redis: ReturnType<ReturnType<typeof redisConnections>['connect']>;
    settings: ReturnType<typeof jobSettingsFromConfig>;
    kube: KubeSource;
    metrics: ReturnType<typeof createMetrics>;
    agentCalls: ReturnType<typeof createAgentCallMetrics>;
    agent: ReturnType<typeof agentLookupFromConfig>;
    queues: JobQueues;
    ops: Awaited<ReturnType<typeof serveOps>> | undefined;
    markStarted: () => void;
  },
  io: Pick<CliIo, 'stdout'>,
  deps: WorkerDeps,
): Promise<number> {
  const { config, cluster, concurrency, logger, connections, redis, settings, kube, metrics, agentCalls, agent, queues, ops } = o;
  const embedded = deps.embedded;
  const retentionMs = config.auditRetentionDays * 86_400_000;
  // Playbooks are validated here: a bad file stops startup.
  const workers = await startWorkerRole({
    config,
    cluster,
    connection: redis,
    settings,
    queues,
    kube,
    ...(agent ? { agent } : {}),
    sink: new RedisStreamSink(redis, settings.prefix, config.resultsMaxLen),
    concurrency,
    logger,
    metrics,
    agentCalls,
  });
  // The cluster's audit trail as Events on the targets (its reader blocks: its own connection).
  const auditRedis = connections.connect('worker');
  const audit = startAuditEvents({ redis: auditRedis, prefix: settings.prefix, cluster, kube, logger, blockMs: 1000, retentionMs });
  o.markStarted();
  if (embedded) {
    embedded.onStarted({ registry: metrics.registry });
    logger.info({ concurrency, api: kube.description }, 'worker started (in the bot)');
  } else if (ops) {
    const listeningMs = o.listeningMs;
    logger.info({ concurrency, port: ops.port, api: kube.description, listeningMs }, 'worker started');
    io.stdout.write(`pod-doctor worker: cluster ${cluster}, concurrency ${concurrency}, metrics on :${ops.port} (listening ${listeningMs} ms after start)\n`);
  }

  const signal = await (deps.stopSignal ?? untilSignal());
  // In the bot, the thread's share of the bot's deadline (the same setting, the same env).
  const botDeadlineMs = shutdownDeadlineMs('bot', config.shutdownSeconds);
  const deadlineMs = embedded ? embeddedWorkerDeadlineMs(botDeadlineMs) : shutdownDeadlineMs('worker', config.shutdownSeconds);
  logger.info({ signal, deadlineMs }, 'worker stopping: finishing running jobs');
  // The audit reader ends with its current read; entries left are read by the next worker.
  const auditStopped = audit.stop();
  await shutdown({
    logger,
    deadlineMs,
    steps: [
      // No new job; running ones finish. One that outlives its budget stays active with its lock,
      // and another worker takes it over once the lock lapses (POD_DOCTOR_JOB_LOCK_MS).
      // With Redis down a running job cannot write its result: it is left to the next worker.
      { name: 'finish running jobs', needsRedis: true, run: () => workers.drain() },
      { name: 'close workers', budgetMs: 1000, needsRedis: true, run: () => workers.close() },
      { name: 'audit events', budgetMs: 1000, needsRedis: true, run: () => auditStopped },
      ...(ops ? [{ name: 'ops server', budgetMs: 1000, run: () => ops?.close() }] : []),
      // The spans of the last jobs are exported (a no-op with tracing off).
      { name: 'traces', budgetMs: 2000, run: () => stopTracing() },
      { name: 'queues', budgetMs: 2000, needsRedis: true, run: () => queues.close() },
      { name: 'redis', budgetMs: 2000, needsRedis: true, run: () => Promise.all([closeRedis(redis), closeRedis(auditRedis)]) },
    ],
    hardStops: [() => dropRedis(redis), () => dropRedis(auditRedis)],
    redisUp: () => redisUp(redis),
  });
  return 0;
}
