// One run of a stored plan, in its phases: claim (the run lock, renewed while the run lasts),
// re-check (the preconditions against live state; a refusal is recorded and spends the plan),
// steps (each under its time limit; one a crash interrupted is re-checked, skipped or stopped,
// never blindly repeated when destructive), verify (a fresh diagnosis), release. Every phase
// records its state in the run store before it speaks, and stops at once if the lock was lost.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { planUserAgent } from '../audit/user-agent.js';
import { withDeadline } from '../bounded.js';
import type { KubeSource } from '../collect/kube-source.js';
import type { Diagnosis, Target } from '../diagnosis/types.js';
import type { ActionDef, ActionRegistry } from './actions/index.js';
import { type StepContext, StepError } from './actions/types.js';
import type { AgentActionsClient } from './agent-actions-client.js';
import { planSubject, type RunAudit, runOutcome } from './audit.js';
import { evaluateAll, LiveState } from './checks.js';
import type { Plan } from './plan.js';
import type { RunEvent, RunEventHandler, RunResult, StepReport, Verification } from './results.js';
import type { RunRecord, RunStatus, RunStore, StepInfo } from './store.js';

export interface RunDeps {
  kube: KubeSource;
  store: RunStore;
  agentActions?: AgentActionsClient;
  actions: ActionRegistry;
  now: () => Date;
  log: Logger;
  lockMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  diagnose: (target: Target) => Promise<Diagnosis>;
  verify: (plan: Plan) => Promise<Verification>;
  handlers: (RunEventHandler | undefined)[];
  /** The audit trail: who approved (named in the steps' User-Agent) and how the run ended. */
  audit?: RunAudit;
  /** Counts how runs end (pod_doctor_remediation_runs_total). */
  runs?: RunCounter;
}

/** How a run ended, as pod_doctor_remediation_runs_total counts it. */
export const RUN_ENDINGS = ['succeeded', 'failed', 'verify_failed', 'precondition_failed', 'refused'] as const;
export type RunEnding = (typeof RUN_ENDINGS)[number];

/** Where run endings are counted; a prom-client Counter<'playbook' | 'outcome'> is one. */
export interface RunCounter {
  inc(labels: { playbook: string; outcome: RunEnding }, value?: number): void;
}

/**
 * A finished run's ending: completed is succeeded only when verified fixed; a refusal is
 * precondition_failed when a precondition was checked and no longer holds (else the plan expired
 * or the checks could not run); a failed step and a crash-stopped run are both failed.
 */
export function runEnding(status: RunStatus, verification: Verification | undefined, preconditionFailed: boolean): RunEnding {
  switch (status) {
    case 'completed':
      return verification?.outcome === 'fixed' ? 'succeeded' : 'verify_failed';
    case 'refused':
      return preconditionFailed ? 'precondition_failed' : 'refused';
    case 'failed':
    case 'stopped':
    case 'running':
      return 'failed';
  }
}

const stamp = () => new Date().toISOString();

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

type Outcome = { ok: true; detail: string } | { ok: false; error: string };

/** A claimed run: the lock is held (and renewed) until `release()`. */
export class PlanRun {
  private readonly stop = new AbortController();
  private lockLost = false;
  private readonly renew: NodeJS.Timeout;
  private reports: StepReport[] = [];
  private plan: Plan | undefined;
  /** Who approved this plan (undefined: no audit trail, as for `playbook run`). */
  private approvers: string[] | undefined;
  /** The client the steps write with: its User-Agent names the plan and its approvers. */
  private writer: KubeSource;

  private constructor(
    private readonly deps: RunDeps,
    readonly runId: string,
    private readonly token: string,
    private readonly log: Logger,
  ) {
    this.renew = setInterval(
      () => {
        deps.store
          .renewLock(runId, token, deps.lockMs)
          .then((ok) => {
            if (!ok && !this.lockLost) {
              this.lockLost = true;
              this.stop.abort(new Error('lost the run lock'));
            }
          })
          .catch((err: unknown) => log.warn({ err }, 'run lock renewal failed'));
      },
      Math.max(50, Math.floor(deps.lockMs / 3)),
    );
    this.renew.unref();
    this.writer = deps.kube;
  }

  /** The run lock, or undefined when another runner holds it. */
  static async claim(deps: RunDeps, runId: string): Promise<PlanRun | undefined> {
    const token = randomUUID();
    if (!(await deps.store.acquireLock(runId, token, deps.lockMs))) return undefined;
    return new PlanRun(deps, runId, token, deps.log.child({ runId }));
  }

  private get base() {
    return { runId: this.runId, planId: this.runId, steps: this.reports };
  }

  /** This runner stalled past its lease: another may have the plan now. */
  private lost(): RunResult {
    return {
      ...this.base,
      status: 'busy',
      reason: 'lost the run lock (this runner stalled past its lease); stopped without touching anything more',
    };
  }

  private async emit(event: RunEvent): Promise<void> {
    for (const handler of this.deps.handlers) {
      if (!handler) continue;
      try {
        await handler(event);
      } catch (err) {
        this.log.warn({ err, event: event.type }, 'run event handler failed');
      }
    }
  }

  async release(): Promise<void> {
    clearInterval(this.renew);
    await this.deps.store.releaseLock(this.runId, this.token).catch((err: unknown) => this.log.warn({ err }, 'run lock release failed'));
  }

  /** The whole run, from the stored record (a fresh run, or one a crash left running). */
  async execute(record: RunRecord | null, plan: Plan): Promise<RunResult> {
    const resumed = record?.status === 'running';
    await this.identify(plan);
    this.reports = plan.steps.map((s, i) => ({
      index: i,
      action: s.action,
      state: record?.steps[i]?.state ?? 'pending',
      ...(record?.steps[i]?.info.detail ? { detail: record.steps[i]?.info.detail } : {}),
    }));
    if (!resumed) {
      const refused = await this.recheck(plan);
      if (refused) return refused;
    }
    await this.emit({ type: 'run-started', runId: this.runId, planId: this.runId, at: stamp(), playbook: plan.playbook.id, target: plan.target, resumed });
    this.log.info({ playbook: plan.playbook.id, target: plan.target, resumed }, 'run started');
    for (const step of plan.steps) {
      const ended = await this.step(plan, step, record);
      if (ended) return ended;
    }
    const verification = await this.deps.verify(plan);
    await this.emit({
      type: 'verified',
      runId: this.runId,
      at: verification.at,
      outcome: verification.outcome,
      remaining: verification.remaining,
      findings: verification.findings,
      targetGone: verification.targetGone,
    });
    return this.finish('completed', { verification, ...(verification.outcome === 'not-fixed' ? { reason: notFixedReason(verification) } : {}) });
  }

  /** Who approved the plan, and the writing client that names them (and the plan) to the API server. */
  private async identify(plan: Plan): Promise<void> {
    this.plan = plan;
    const audit = this.deps.audit;
    if (audit) {
      this.approvers = await audit.approvers(plan.id).catch((err: unknown) => {
        this.log.warn({ err }, 'approvers of the plan could not be read');
        return [];
      });
      if (this.approvers.length === 0) this.log.warn({ planId: plan.id }, 'no approver on record for this plan; its writes say approvedBy=unknown');
    }
    this.writer = this.deps.kube.writingAs(planUserAgent(plan.id, this.approvers));
  }

  /** The run's entry in the audit trail (never fails the run: the run store holds its result). */
  private async audit(result: RunResult): Promise<void> {
    const outcome = runOutcome(result);
    if (!this.deps.audit || !this.plan || !outcome) return;
    await this.deps.audit
      .ran({
        at: stamp(),
        cluster: this.plan.cluster,
        kind: 'run',
        ...planSubject(this.plan),
        actors: this.approvers ?? [],
        outcome,
        ...(result.reason ? { reason: result.reason.slice(0, 1000) } : {}),
      })
      .catch((err: unknown) => this.log.error({ err, outcome }, 'the run could not be recorded in the audit trail'));
  }

  /** The one place a run ends (`failedCheck`: the precondition that refused it). */
  private async finish(status: RunStatus, extra: Partial<RunResult>, failedCheck?: string): Promise<RunResult> {
    const result: RunResult = { ...this.base, status, ...extra };
    if (!(await this.deps.store.finishRun(this.runId, this.token, status, result))) return this.lost();
    // Counted once its end is on record (a run that lost its lock is another runner's to end).
    if (this.plan) this.deps.runs?.inc({ playbook: this.plan.playbook.id, outcome: runEnding(status, result.verification, failedCheck !== undefined) });
    await this.audit(result);
    await this.emit({ type: 'run-finished', runId: this.runId, at: stamp(), status });
    this.log.info({ status, reason: extra.reason, outcome: extra.verification?.outcome }, 'run finished');
    return result;
  }

  /** Before any step: the plan has not expired and its preconditions hold now. Else refused (recorded). */
  private async recheck(plan: Plan): Promise<RunResult | undefined> {
    const refuse = async (reason: string, check?: string): Promise<RunResult> => {
      if (!(await this.deps.store.startRun(this.runId, this.token, plan))) return this.lost();
      await this.emit({ type: 'refused', runId: this.runId, planId: this.runId, at: stamp(), reason, ...(check ? { check } : {}) });
      this.log.warn({ reason, check }, 'run refused');
      return this.finish('refused', { reason }, check);
    };
    if (Date.parse(plan.expiresAt) < this.deps.now().getTime()) return refuse(`the plan expired at ${plan.expiresAt}; diagnose again for a new one`);
    const live = new LiveState(this.deps.kube, plan.target, () => this.deps.diagnose(plan.target), this.deps.now);
    let pre: Awaited<ReturnType<typeof evaluateAll>>;
    try {
      pre = await evaluateAll(plan.preconditions, live, plan.params);
    } catch (err) {
      return refuse(`could not check the preconditions against the cluster: ${errorText(err)}`);
    }
    if (!pre.ok) return refuse(`precondition no longer holds: ${pre.failed?.reason ?? 'unknown'}`, pre.failed?.check);
    if (!(await this.deps.store.startRun(this.runId, this.token, plan))) return this.lost();
    return undefined;
  }

  private contextFor(plan: Plan, signal: AbortSignal): StepContext {
    return {
      kube: this.writer,
      ...(this.deps.agentActions ? { agent: this.deps.agentActions } : {}),
      target: plan.target,
      signal,
      log: this.log,
      diagnose: () => this.deps.diagnose(plan.target),
      sleep: (ms) => this.deps.sleep(ms, signal),
    };
  }

  /** One step: skipped when done, resumed when a crash interrupted it, else run. Returns the run's end, if it ends here. */
  private async step(plan: Plan, step: Plan['steps'][number], record: RunRecord | null): Promise<RunResult | undefined> {
    const i = step.index;
    const report = this.reports[i]!;
    const state = record?.steps[i]?.state ?? 'pending';
    if (state === 'done' || state === 'skipped') return undefined;
    const action = Object.hasOwn(this.deps.actions, step.action) ? this.deps.actions[step.action] : undefined;
    if (!action) {
      report.state = 'failed';
      report.error = `unknown step kind ${step.action}`;
      if (!(await this.deps.store.setStep(this.runId, this.token, i, 'failed', { error: report.error }))) return this.lost();
      return this.finish('failed', { reason: `step ${i + 1}: ${report.error}` });
    }
    const parsed = action.params.safeParse(step.params);
    let resumedNote: string | undefined;
    if (state === 'running' || state === 'failed') {
      const resumed = await this.resume(plan, step, action, parsed, record);
      if (resumed.end) return resumed.end;
      if (resumed.skip) return undefined;
      resumedNote = resumed.note;
    }

    if (this.stop.signal.aborted) return this.lost();
    const startedAt = stamp();
    if (!(await this.deps.store.setStep(this.runId, this.token, i, 'running', { startedAt, ...(resumedNote ? { resumed: resumedNote } : {}) })))
      return this.lost();
    report.state = 'running';
    await this.emit({
      type: 'step-started',
      runId: this.runId,
      at: startedAt,
      index: i,
      action: step.action,
      description: step.description,
      destructive: step.destructive,
    });
    this.log.info({ step: i, action: step.action, description: step.description }, 'step started');
    const started = performance.now();
    const outcome: Outcome = parsed.success
      ? await this.perform(plan, step, action, parsed.data)
      : { ok: false, error: `stored parameters are invalid: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}` };
    const durationMs = Math.round(performance.now() - started);
    if (this.lockLost) return this.lost();
    const info: StepInfo = { startedAt, finishedAt: stamp(), durationMs, ...(resumedNote ? { resumed: resumedNote } : {}) };
    const ended = outcome.ok ? ('done' as const) : ('failed' as const);
    const said = outcome.ok ? { detail: outcome.detail } : { error: outcome.error };
    report.state = ended;
    Object.assign(report, said);
    if (!(await this.deps.store.setStep(this.runId, this.token, i, ended, { ...info, ...said }))) return this.lost();
    await this.emit({ type: 'step-finished', runId: this.runId, at: stamp(), index: i, action: step.action, state: ended, ...said, durationMs });
    if (outcome.ok) {
      this.log.info({ step: i, action: step.action, detail: outcome.detail, durationMs }, 'step done');
      return undefined;
    }
    this.log.warn({ step: i, action: step.action, error: outcome.error }, 'step failed');
    return this.finish('failed', { reason: `step ${i + 1} (${step.action}) failed: ${outcome.error}` });
  }

  /**
   * A step a crash left unfinished may or may not have taken effect. A destructive one runs again
   * only when its re-check says it has not; found done, it is skipped; otherwise the run stops.
   */
  private async resume(
    plan: Plan,
    step: Plan['steps'][number],
    action: ActionDef,
    parsed: ReturnType<ActionDef['params']['safeParse']>,
    record: RunRecord | null,
  ): Promise<{ end?: RunResult; skip?: true; note?: string }> {
    const i = step.index;
    const report = this.reports[i]!;
    const state = record?.steps[i]?.state;
    let verdict: 'rerun' | 'done' | 'stop' = step.destructive ? 'stop' : 'rerun';
    if (state === 'running' && step.destructive && action.recheck && parsed.success) {
      const check = new AbortController();
      const timer = setTimeout(() => check.abort(new Error('recheck time limit')), Math.min(step.timeoutMs, 30_000));
      try {
        const r = await action.recheck(this.contextFor(plan, check.signal), parsed.data as never);
        verdict = r === 'done' ? 'done' : r === 'not-done' ? 'rerun' : 'stop';
      } catch (err) {
        this.log.warn({ err, step: i }, 'recheck failed');
      } finally {
        clearTimeout(timer);
      }
    }
    if (verdict === 'stop') {
      const reason = `step ${i + 1} (${step.action}) may have run before the runner stopped; check manually`;
      report.state = 'failed';
      report.error = reason;
      if (
        !(await this.deps.store.setStep(this.runId, this.token, i, 'failed', {
          ...record?.steps[i]?.info,
          error: reason,
          resumed: 'not repeated: destructive',
        }))
      )
        return { end: this.lost() };
      await this.emit({ type: 'stopped', runId: this.runId, at: stamp(), index: i, reason });
      return { end: await this.finish('stopped', { reason }) };
    }
    if (verdict === 'done') {
      const detail = `already took effect before the runner stopped; not run again`;
      report.state = 'done';
      report.detail = detail;
      const saved = await this.deps.store.setStep(this.runId, this.token, i, 'done', {
        ...record?.steps[i]?.info,
        detail,
        resumed: 'found done by its re-check',
        finishedAt: stamp(),
      });
      if (!saved) return { end: this.lost() };
      await this.emit({ type: 'step-finished', runId: this.runId, at: stamp(), index: i, action: step.action, state: 'skipped', detail, durationMs: 0 });
      return { skip: true };
    }
    return { note: step.destructive ? 'run again: its re-check showed it had not taken effect' : 'run again after the runner stopped (not destructive)' };
  }

  /** The step's action under its time limit, aborted if the run loses its lock. */
  private async perform(plan: Plan, step: Plan['steps'][number], action: ActionDef, params: unknown): Promise<Outcome> {
    const controller = new AbortController();
    const onStop = () => controller.abort(this.stop.signal.reason);
    this.stop.signal.addEventListener('abort', onStop, { once: true });
    try {
      const stopped = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
      const out = await withDeadline(
        step.timeoutMs,
        () => Promise.race([action.run(this.contextFor(plan, controller.signal), params as never), stopped]),
        () => {
          const why = new StepError(
            `did not finish within ${Number((step.timeoutMs / 1000).toFixed(1))}s${step.destructive ? '; it may still take effect' : ''}`,
          );
          controller.abort(why);
          return why;
        },
      );
      return { ok: true, detail: out.detail };
    } catch (err) {
      return { ok: false, error: errorText(err) };
    } finally {
      this.stop.signal.removeEventListener('abort', onStop);
    }
  }
}

function notFixedReason(v: Verification): string {
  if (v.error) return v.error;
  const parts = [];
  if (v.remaining.length) parts.push(`still reported: ${v.remaining.join(', ')}`);
  for (const e of v.expect.filter((x) => !x.ok)) parts.push(e.reason);
  return `not fixed: ${parts.join('; ')}`;
}
