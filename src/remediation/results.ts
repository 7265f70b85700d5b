// What a run reports: its steps, its verification and the events the chat thread follows. Kept apart
// from the runner so the run, its audit and the runner all read the same shapes without importing
// each other.
import type { Severity, Target } from '../diagnosis/types.js';
import type { CheckResult } from './checks.js';
import type { RunStatus, StepState } from './store.js';

export interface FindingSummary {
  rule: string;
  title: string;
  severity: Severity;
  fingerprint: string;
}

export interface Verification {
  outcome: 'fixed' | 'not-fixed';
  /** `verify` rules a new diagnosis still reports. */
  remaining: string[];
  /** The new diagnosis's findings (empty when the target is gone). */
  findings: FindingSummary[];
  targetGone: boolean;
  expect: CheckResult[];
  /** The diagnosis could not run. */
  error?: string;
  at: string;
}

export interface StepReport {
  index: number;
  action: string;
  state: StepState;
  detail?: string;
  error?: string;
}

export interface RunResult {
  /** Equal to the plan id: a plan runs at most once. */
  runId: string;
  planId: string;
  status: RunStatus | 'busy' | 'not-found';
  reason?: string;
  steps: StepReport[];
  verification?: Verification;
  /** Nothing was done by this call: it reports the result of an earlier run. */
  alreadyRan?: boolean;
}

interface EventBase {
  runId: string;
  at: string;
}

export type RunEvent =
  | (EventBase & { type: 'run-started'; planId: string; playbook: string; target: Target; resumed: boolean })
  | (EventBase & { type: 'refused'; planId: string; reason: string; check?: string })
  | (EventBase & { type: 'step-started'; index: number; action: string; description: string[]; destructive: boolean })
  | (EventBase & {
      type: 'step-finished';
      index: number;
      action: string;
      state: 'done' | 'failed' | 'skipped';
      detail?: string;
      error?: string;
      durationMs: number;
    })
  | (EventBase & { type: 'stopped'; index?: number; reason: string })
  | (EventBase & { type: 'verified'; outcome: Verification['outcome']; remaining: string[]; findings: FindingSummary[]; targetGone: boolean })
  | (EventBase & { type: 'run-finished'; status: RunResult['status'] });

export type RunEventHandler = (event: RunEvent) => void | Promise<void>;
