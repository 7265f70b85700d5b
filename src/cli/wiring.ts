// One wiring per role: where each role is assembled from the parsed configuration.
//
//   bot            cli/bot.ts botCommand: jobSettingsFromConfig, alertmanagerOptionsFromConfig (here);
//                  composeChat, composeSlackAdapter, composeMattermostAdapter, chatApprovers (compose.ts); readChatStreams
//                  (chat-streams.ts: results, run and alert-group events into chat); its worker
//                  thread (worker-thread.ts) is the worker role below, settled once by the bot.
//   worker         cli/worker.ts runWorker: connections, ops port, jobSettingsFromConfig and
//                  agentLookupFromConfig (here), then startWorkerRole (worker-role.ts): the runner
//                  (runnerFromConfig, here), rule overrides, the API rate limit, workload-alert
//                  expansion.
//   demo           cli/demo.ts: the same startWorkerRole (results to the results stream) and the
//                  bot's composeChat and readChatStreams; what differs is configuration (its
//                  cluster name, a private Redis prefix, no agent token for node actions) or parts
//                  (the simulated cluster's kubeconfig and agents, the console adapter).
//   playbook run   cli/playbook.ts: the worker's runnerFromConfig with an in-memory run store
//                  (no chat approval, no audit), diagnoseSettings and agentLookupFromConfig.
//   diagnose       cli/diagnose.ts: diagnoseSettings and agentLookupFromConfig.
//   agent          agent/cli.ts agentMain: its flags and POD_DOCTOR_AGENT_* variables, in that one
//                  place; no Config: it needs none of the cluster settings, and the idle agent
//                  loads no zod (the config schema would bring it, and its memory, to every node).
//
// Domain modules (everything outside cli/ and config/) never see the Config object: they take
// the values they need as options, and the functions here turn the configuration into those
// options (test/architecture.test.ts keeps it so).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AlertmanagerHandlerOptions } from '../alerts/http.js';
import { alertDestinationProblem } from '../alerts/routes.js';
import { createAgentLookup } from '../collect/agent-client.js';
import { agentTransportFrom } from '../collect/agent-lookup.js';
import type { AgentCallMetrics } from '../collect/agent-metrics.js';
import type { KubeSource } from '../collect/kube-source.js';
import type { AgentLookup } from '../collect/snapshot.js';
import type { Config } from '../config/schema.js';
import type { Node } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { DEFAULT_JOB_SETTINGS, type JobQueues, type JobSettings } from '../jobs/queues.js';
import type { RedisClient } from '../redis/client.js';
import { AgentActionsClient } from '../remediation/agent-actions-client.js';
import { redisRunAudit } from '../remediation/audit.js';
import { defaultPlaybookDir, loadPlaybooks } from '../remediation/load.js';
import { RUN_ENDINGS, type RunCounter } from '../remediation/run.js';
import { createRunner, type RunEventHandler, type Runner } from '../remediation/runner.js';
import type { Playbook } from '../remediation/schema.js';
import { RedisRunStore, type RunStore } from '../remediation/store.js';
import type { DiagnoseOptions } from '../usecases/diagnose.js';
import { chatIds } from './config.js';

type AgentTransportKeys = 'agentTlsCa' | 'agentTlsServerName' | 'agentPlainHttp';

/** What every diagnosis (worker, runner's verification, CLI) takes from the configuration. */
export function diagnoseSettings(
  config: Pick<Config, 'rules' | 'checkSecrets' | 'apiTimeoutMs' | 'pendingGraceSeconds' | 'changeWindowMinutes'>,
): Omit<DiagnoseOptions, 'cluster' | 'agent'> {
  return {
    overrides: config.rules,
    checkSecrets: config.checkSecrets,
    timeoutMs: config.apiTimeoutMs,
    pendingGraceSeconds: config.pendingGraceSeconds,
    changeWindowMinutes: config.changeWindowMinutes,
  };
}

/** The job policy (prefix, attempts, dedup windows, replica waits) of the configuration. */
export function jobSettingsFromConfig(config: Config): JobSettings {
  return {
    ...DEFAULT_JOB_SETTINGS,
    prefix: config.redisPrefix,
    attempts: config.jobAttempts,
    backoffMs: config.jobBackoffMs,
    dedupWindowMs: config.dedupWindowSeconds * 1000,
    alertDedupMs: config.alertDedupSeconds * 1000,
    waitReplicas: config.redisWaitReplicas,
    waitMs: config.redisWaitMs,
  };
}

/** The collector's agent lookup: undefined (node checks skipped, said as a gap) without an agent token. */
export function agentLookupFromConfig(
  config: Pick<Config, 'agentToken' | 'agentTimeoutMs' | 'agentUrls' | 'agentUrlTemplate' | AgentTransportKeys>,
  metrics?: AgentCallMetrics,
): AgentLookup | undefined {
  if (!config.agentToken) return undefined;
  return createAgentLookup({
    agentToken: config.agentToken,
    agentTimeoutMs: config.agentTimeoutMs,
    agentUrls: config.agentUrls,
    agentUrlTemplate: config.agentUrlTemplate,
    transport: agentTransportFrom(config),
    ...(metrics ? { metrics } : {}),
  });
}

/** The actions client of a worker (or `pod-doctor playbook run`): undefined without an agent token. */
export function agentActionsClientFromConfig(
  config: Pick<Config, 'agentToken' | 'agentUrls' | 'agentUrlTemplate' | 'agentActionTimeoutMs' | AgentTransportKeys>,
  getNode: (name: string) => Promise<Node | null>,
  metrics?: AgentCallMetrics,
): AgentActionsClient | undefined {
  if (!config.agentToken) return undefined;
  return new AgentActionsClient({
    token: config.agentToken,
    agentUrls: config.agentUrls,
    agentUrlTemplate: config.agentUrlTemplate,
    timeoutMs: config.agentActionTimeoutMs,
    transport: agentTransportFrom(config),
    ...(metrics ? { metrics } : {}),
    getNode,
  });
}

export type RemediationConfig = Pick<
  Config,
  | 'cluster'
  | 'redisPrefix'
  | 'playbookDir'
  | 'chatSurfaces'
  | 'planTtlSeconds'
  | 'runTtlSeconds'
  | 'runLockMs'
  | 'maxStepTimeoutSeconds'
  | 'agentToken'
  | 'agentUrls'
  | 'agentUrlTemplate'
  | 'agentActionTimeoutMs'
  | 'rules'
  | 'checkSecrets'
  | 'apiTimeoutMs'
  | 'pendingGraceSeconds'
  | 'changeWindowMinutes'
  | AgentTransportKeys
>;

/**
 * Load (and validate: a bad file throws PlaybookLoadError, which should stop startup) the
 * playbooks and build the runner for one cluster: plans and runs in Redis with their audit trail
 * (a worker), or in the given store without a trail (`playbook run`, an operator's own run).
 */
export async function runnerFromConfig(
  input: {
    config: RemediationConfig;
    kube: KubeSource;
    agent?: AgentLookup;
    logger?: Logger;
    onEvent?: RunEventHandler;
    now?: () => Date;
    /** How long audit entries are kept (default 30 days). */
    auditRetentionMs?: number;
    /** Counts how runs end (pod_doctor_remediation_runs_total). */
    runs?: RunCounter;
    /** Counts the calls to node agents (pod_doctor_agent_calls_total). */
    agentCalls?: AgentCallMetrics;
  } & ({ redis: RedisClient } | { store: RunStore }),
): Promise<{ runner: Runner; playbooks: Playbook[] }> {
  const { config, kube, runs } = input;
  const playbooks = await loadPlaybooks(config.playbookDir ?? defaultPlaybookDir(), { ids: chatIds(config) });
  // Every playbook's series from 0, so the first failure shows in increase() and alerts.
  if (runs) for (const { id } of playbooks) for (const outcome of RUN_ENDINGS) runs.inc({ playbook: id, outcome }, 0);
  const agentActions = agentActionsClientFromConfig(config, (name) => kube.getNode(name), input.agentCalls);
  const runner = createRunner({
    cluster: config.cluster,
    kube,
    store: 'store' in input ? input.store : new RedisRunStore(input.redis, config.cluster, config.redisPrefix, config.runTtlSeconds),
    ...(input.agent ? { agent: input.agent } : {}),
    ...(agentActions ? { agentActions } : {}),
    diagnose: diagnoseSettings(config),
    planTtlSeconds: config.planTtlSeconds,
    lockMs: config.runLockMs,
    maxStepTimeoutMs: config.maxStepTimeoutSeconds * 1000,
    ...(input.now ? { now: input.now } : {}),
    ...(input.logger ? { logger: input.logger } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...(runs ? { runs } : {}),
    // Runs through a worker were approved in chat: named in their writes, recorded in the trail.
    ...('redis' in input
      ? { audit: redisRunAudit(input.redis, config.redisPrefix, input.auditRetentionMs !== undefined ? { retentionMs: input.auditRetentionMs } : {}) }
      : {}),
  });
  return { runner, playbooks };
}

/** The Alertmanager webhook's options; throws BAD_CONFIG when ALERTMANAGER_TOKEN is unset. */
export function alertmanagerOptionsFromConfig(
  config: Config,
  deps: { queues: JobQueues; logger: Logger; clusters?: readonly string[]; registry?: Registry },
): AlertmanagerHandlerOptions {
  if (!config.alertmanagerToken) throw new PodDoctorError('BAD_CONFIG', 'ALERTMANAGER_TOKEN is not set: the Alertmanager webhook needs a bearer token');
  const nowhere = alertDestinationProblem(config);
  if (nowhere) throw new PodDoctorError('BAD_CONFIG', nowhere);
  return {
    queues: deps.queues,
    logger: deps.logger,
    cluster: config.cluster,
    ...(deps.clusters ? { clusters: deps.clusters } : {}),
    ...(deps.registry ? { registry: deps.registry } : {}),
    token: config.alertmanagerToken,
    path: config.alertmanagerPath,
    maxBytes: config.alertmanagerMaxBytes,
    labels: config.alertLabels,
    routes: config.alertRoutes,
    defaultChannel: config.alertChannel,
    maxPodsPerWorkload: config.alertMaxPods,
  };
}
