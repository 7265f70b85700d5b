// Public surface of remediation. A worker's runner is wired from the configuration in
// cli/wiring.ts (runnerFromConfig).
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
