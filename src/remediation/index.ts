// Public surface of remediation, and the one-call wiring a worker (or the bot's in-process
// worker) uses: playbooks from POD_DOCTOR_PLAYBOOK_DIR, plans and runs in Redis, agent actions
// with the agents' token, limits from the config schema.
import type { Logger } from 'pino';
import type { AgentTransportConfig } from '../collect/agent-lookup.js';
import type { AgentCallMetrics } from '../collect/agent-metrics.js';
import type { KubeSource } from '../collect/kube-source.js';
import type { AgentLookup } from '../collect/snapshot.js';
import type { Config } from '../config/schema.js';
import type { RedisClient } from '../redis/client.js';
import { agentActionsClientFromConfig } from './agent-actions-client.js';
import { redisRunAudit } from './audit.js';
import { defaultPlaybookDir, loadPlaybooks } from './load.js';
import { RUN_ENDINGS, type RunCounter } from './run.js';
import { createRunner, type RunEventHandler, type Runner } from './runner.js';
import type { Playbook } from './schema.js';
import { RedisRunStore } from './store.js';

export { ACTIONS, actionByKind } from './actions/index.js';
export { AgentActionError, AgentActionsClient } from './agent-actions-client.js';
export { planSubject, type RunAudit, redisRunAudit } from './audit.js';
export { defaultPlaybookDir, formatIssue, loadPlaybooks, type PlaybookIssue, PlaybookLoadError, validatePlaybook, validatePlaybookDir } from './load.js';
export { describeCheck, isPlanId, type Plan, type PlanStep, renderPlanText } from './plan.js';
export { RUN_ENDINGS, type RunCounter, type RunEnding, runEnding } from './run.js';
export {
  createRunner,
  type FindingSummary,
  type RunEvent,
  type RunEventHandler,
  type Runner,
  type RunnerDeps,
  type RunResult,
  resolveParams,
  type StepReport,
  type Verification,
} from './runner.js';
export { type Playbook, playbookSchema } from './schema.js';
export { MemoryRunStore, RedisRunStore, type RunRecord, type RunStatus, type RunStore, type StepState, storeKeys } from './store.js';

export type RemediationConfig = Pick<
  Config,
  | 'cluster'
  | 'redisPrefix'
  | 'playbookDir'
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
> &
  AgentTransportConfig;

/**
 * Load (and validate: a bad file throws PlaybookLoadError, which should stop startup) the
 * playbooks and build the runner for one cluster.
 */
export async function runnerFromConfig(input: {
  config: RemediationConfig;
  kube: KubeSource;
  redis: RedisClient;
  agent?: AgentLookup;
  logger?: Logger;
  onEvent?: RunEventHandler;
  /** How long audit entries are kept (default 30 days; POD_DOCTOR_AUDIT_RETENTION_DAYS once the schema has it). */
  auditRetentionMs?: number;
  /** Counts how runs end (pod_doctor_remediation_runs_total). */
  runs?: RunCounter;
  /** Counts the calls to node agents (pod_doctor_agent_calls_total). */
  agentCalls?: AgentCallMetrics;
}): Promise<{ runner: Runner; playbooks: Playbook[] }> {
  const { config, kube, runs } = input;
  const playbooks = await loadPlaybooks(config.playbookDir ?? defaultPlaybookDir());
  // Every playbook's series from 0, so the first failure shows in increase() and alerts.
  if (runs) for (const { id } of playbooks) for (const outcome of RUN_ENDINGS) runs.inc({ playbook: id, outcome }, 0);
  const agentActions = agentActionsClientFromConfig(config, (name) => kube.getNode(name), input.agentCalls);
  const runner = createRunner({
    cluster: config.cluster,
    kube,
    store: new RedisRunStore(input.redis, config.cluster, config.redisPrefix, config.runTtlSeconds),
    ...(input.agent ? { agent: input.agent } : {}),
    ...(agentActions ? { agentActions } : {}),
    diagnose: {
      overrides: config.rules,
      checkSecrets: config.checkSecrets,
      timeoutMs: config.apiTimeoutMs,
      pendingGraceSeconds: config.pendingGraceSeconds,
      changeWindowMinutes: config.changeWindowMinutes,
    },
    planTtlSeconds: config.planTtlSeconds,
    lockMs: config.runLockMs,
    maxStepTimeoutMs: config.maxStepTimeoutSeconds * 1000,
    ...(input.logger ? { logger: input.logger } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...(runs ? { runs } : {}),
    // Runs through a worker were approved in chat: named in their writes, recorded in the trail.
    audit: redisRunAudit(input.redis, config.redisPrefix, input.auditRetentionMs !== undefined ? { retentionMs: input.auditRetentionMs } : {}),
  });
  return { runner, playbooks };
}
