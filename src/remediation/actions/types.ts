// What every step kind provides: a zod schema for its parameters, the exact dry-run text, how
// to run it under a time limit, whether it changes things that cannot be undone, and (for steps
// that may be repeated safely) how to tell after a crash whether it already took effect.
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { KubeSource } from '../../collect/kube-source.js';
import type { Diagnosis, Target } from '../../diagnosis/types.js';
import type { AgentActionsClient } from '../agent-actions-client.js';

export interface StepContext {
  kube: KubeSource;
  /** Node agent actions; undefined when no agent token is configured. */
  agent?: AgentActionsClient;
  target: Target;
  /** Aborted when the step's time limit passes or the run stops. */
  signal: AbortSignal;
  log: Logger;
  /** A fresh diagnosis of the plan's target (same rules and options as the worker's). */
  diagnose(): Promise<Diagnosis>;
  /** Abortable sleep (tests make it fast through the runner's deps). */
  sleep(ms: number): Promise<void>;
}

export interface StepOutput {
  /** One line for the thread: what happened. */
  detail: string;
  data?: Record<string, unknown>;
}

/**
 * After a crash a step may be found `running`: `done` means its effect is already there (skip
 * it), `not-done` means running it again is safe, `unknown` stops the run for a human.
 */
export type Recheck = 'done' | 'not-done' | 'unknown';

export interface ActionDef<S extends z.ZodObject = z.ZodObject> {
  kind: string;
  /** One line for `playbook list` and docs. */
  summary: string;
  params: S;
  /** Changes that cannot simply be undone (deletes, restarts, scale to zero). */
  destructive: boolean;
  /** Default time limit of one run of this step. */
  timeoutMs: number;
  /** Time limit depending on the parameters (a `wait` lasts as long as it says). */
  timeoutFor?(params: z.output<S>): number;
  /** Exact text of what the step will do, one line per object it touches. */
  describe(params: z.output<S>): string[];
  run(ctx: StepContext, params: z.output<S>): Promise<StepOutput>;
  recheck?(ctx: StepContext, params: z.output<S>): Promise<Recheck>;
}

export function defineAction<S extends z.ZodObject>(def: ActionDef<S>): ActionDef<S> {
  return def;
}

/** A step failed in a way the runner reports as is (not an unexpected exception). */
export class StepError extends Error {
  constructor(
    message: string,
    readonly options: { cause?: unknown; status?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'StepError';
  }
}
