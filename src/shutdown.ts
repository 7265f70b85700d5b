// The graceful stop of a serving role, bounded in time. Kubernetes sends SIGTERM, waits the
// pod's terminationGracePeriodSeconds, then SIGKILLs: a process still waiting on a dead Redis
// then loses whatever it could have handed back. So a role stops in ordered steps (stop taking
// work, finish or hand back running jobs, flush, close connections), each with a budget, all
// within one deadline; then the hard stops run (ioredis `disconnect()`: queued commands fail at
// once, no reconnect timer left) and the command returns.
import type { Logger } from 'pino';
import { bounded } from './bounded.js';

export type ShutdownRole = 'bot' | 'worker' | 'agent';

/**
 * Deadline of each role when POD_DOCTOR_SHUTDOWN_SECONDS is unset: a few seconds below the
 * shortest terminationGracePeriodSeconds its manifests give it (deploy/: bot 30, worker 120,
 * agent 10), for the hard stops and the exit itself.
 */
export const SHUTDOWN_DEFAULT_SECONDS = { bot: 25, worker: 110, agent: 8 } as const satisfies Record<ShutdownRole, number>;

/** The bounds of POD_DOCTOR_SHUTDOWN_SECONDS (config's schema). */
export const SHUTDOWN_SECONDS_RANGE = { min: 1, max: 3600 } as const;

export function shutdownDeadlineMs(role: ShutdownRole, seconds: number | undefined): number {
  return (seconds ?? SHUTDOWN_DEFAULT_SECONDS[role]) * 1000;
}

/**
 * The bot's in-process worker (its own thread, its own shutdown) gets half the bot's deadline
 * for its running jobs: the other half is for Slack, the streams, parent updates and Redis.
 */
export function embeddedWorkerDeadlineMs(botDeadlineMs: number): number {
  return Math.floor(botDeadlineMs / 2);
}

export interface ShutdownStep {
  /** What the logs call it. */
  name: string;
  /**
   * Longest the step may take (ms). Unset (the long wait, e.g. running jobs): what is left of the
   * deadline after the budgets of the steps behind it, but at least half of what is left.
   */
  budgetMs?: number;
  /** Gets its budget, for work that can stop itself in time. */
  run(budgetMs: number): unknown;
  /**
   * The step waits on Redis (a read, a queue's close, a job's last write). With Redis down when
   * it starts (ShutdownPlan.redisUp), nothing it waits for can come, so it gets DOWN_BUDGET_MS:
   * a pod whose Redis is gone stops in seconds, not at the end of its grace period.
   */
  needsRedis?: boolean;
}

/** What a step that waits on Redis gets when Redis is down. */
export const DOWN_BUDGET_MS = 300;

export interface ShutdownPlan {
  deadlineMs: number;
  logger: Logger;
  steps: readonly ShutdownStep[];
  /** Run last, whatever the steps did: drop what may still be open. Each one on its own. */
  hardStops?: readonly (() => unknown)[];
  /** Whether Redis is connected now (asked before each step that needs it); unset: assumed up. */
  redisUp?: () => boolean;
}

export interface ShutdownReport {
  /** Steps that failed, ran out of budget or were skipped at the deadline. */
  unfinished: string[];
  ms: number;
}

/** Runs the steps in order, each within its budget and all within the deadline, then the hard stops. */
export async function shutdown(plan: ShutdownPlan): Promise<ShutdownReport> {
  const { logger, steps } = plan;
  const started = Date.now();
  const deadline = started + plan.deadlineMs;
  const unfinished: string[] = [];
  for (const [i, step] of steps.entries()) {
    const left = deadline - Date.now();
    const behind = steps.slice(i + 1).reduce((sum, s) => sum + (s.budgetMs ?? 0), 0);
    const down = step.needsRedis === true && plan.redisUp?.() === false;
    const budget = Math.floor(Math.min(left, down ? DOWN_BUDGET_MS : (step.budgetMs ?? Math.max(left - behind, left / 2))));
    if (budget <= 0) {
      unfinished.push(step.name);
      logger.warn({ step: step.name }, 'shutdown: deadline reached, step skipped');
      continue;
    }
    const stepStarted = Date.now();
    const outcome = await runStep(step, budget, down ? undefined : plan.redisUp);
    const ms = Date.now() - stepStarted;
    if (outcome.status === 'done') {
      logger.debug({ step: step.name, ms }, 'shutdown: step done');
      continue;
    }
    unfinished.push(step.name);
    if (outcome.status === 'timeout')
      logger.warn({ step: step.name, budgetMs: budget, ...(down ? { redis: 'down' } : {}) }, 'shutdown: step ran out of time, moving on');
    else logger.warn({ step: step.name, ms, err: outcome.error }, 'shutdown: step failed, moving on');
  }
  for (const stop of plan.hardStops ?? []) {
    try {
      const pending = stop();
      // A hard stop is not awaited; its late failure has nobody to tell.
      if (pending instanceof Promise) pending.catch(() => undefined);
    } catch (err) {
      logger.warn({ err }, 'shutdown: hard stop failed');
    }
  }
  const report = { unfinished, ms: Date.now() - started };
  if (unfinished.length > 0) logger.warn(report, 'stopped within the deadline, some steps unfinished');
  else logger.info({ ms: report.ms }, 'stopped');
  return report;
}

/** How often a step that waits on Redis looks whether Redis is still there. */
const REDIS_WATCH_MS = 100;

/**
 * One step within its budget. A step that waits on Redis while Redis is up is watched: Redis
 * can go a moment before the signal (a node lost with both pods), and the status read at the
 * step's start is then still 'ready'. Once Redis is seen gone, nothing the step waits for can
 * come, so it gets DOWN_BUDGET_MS from then, as it would have from its start.
 */
async function runStep(step: ShutdownStep, budget: number, redisUp: (() => boolean) | undefined) {
  const running = bounded(budget, () => step.run(budget));
  if (step.needsRedis !== true || redisUp === undefined) return running;
  let watch: NodeJS.Timeout | undefined;
  let cut: NodeJS.Timeout | undefined;
  const lost = new Promise<{ status: 'timeout' }>((resolve) => {
    watch = setInterval(() => {
      if (redisUp()) return;
      clearInterval(watch);
      cut = setTimeout(() => resolve({ status: 'timeout' }), DOWN_BUDGET_MS);
    }, REDIS_WATCH_MS);
  });
  try {
    return await Promise.race([running, lost]);
  } finally {
    clearInterval(watch);
    clearTimeout(cut);
  }
}

/** Resolves with the first SIGTERM or SIGINT (and stops listening). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
