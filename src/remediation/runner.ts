// The playbook runner. `proposePlan` resolves a playbook for one finding against live state and
// stores the plan (with an expiry) under an opaque id; `runPlan` executes a stored plan once:
// it re-checks the preconditions against LIVE state before any step and refuses with the reason
// if one no longer holds, records each step's state in Redis under a run lock, gives each step
// a time limit, never runs a destructive step twice after a crash, and ends by diagnosing
// again: fixed or not fixed. Every stage is an event for the chat thread.

import type { Logger } from 'pino';
import { podRefFor } from '../collect/agent-client.js';
import type { KubeSource } from '../collect/kube-source.js';
import type { AgentLookup } from '../collect/snapshot.js';
import type { Diagnosis, Finding, Target } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { recurrenceFingerprint } from '../jobs/recurrence.js';
import { log as rootLog } from '../log.js';
import { beginSpan, runIn, settle, targetAttributes } from '../tracing/spans.js';
import { type DiagnoseOptions, diagnoseTarget } from '../usecases/diagnose.js';
import { ACTIONS, type ActionRegistry } from './actions/index.js';
import type { AgentActionsClient } from './agent-actions-client.js';
import type { RunAudit } from './audit.js';
import { type CheckResult, evaluateAll, evaluateCheck, LiveState } from './checks.js';
import { buildPlan, coerce, interpolate, isPlanId, type Plan, paramOrigin, resolveChecks } from './plan.js';
import type { FindingSummary, RunEventHandler, RunResult, StepReport, Verification } from './results.js';
import { errorText, PlanRun, type RunCounter } from './run.js';
import type { ParamDecl, ParamValue, Playbook } from './schema.js';
import type { RunRecord, RunStore } from './store.js';

export type { FindingSummary, RunEvent, RunEventHandler, RunResult, StepReport, Verification } from './results.js';

export interface RunnerDeps {
  cluster: string;
  /** Typed API clients for the steps, and the fact source for checks and diagnoses. */
  kube: KubeSource;
  store: RunStore;
  /** Node facts for the diagnoses (verify, rediagnose, finding-present). */
  agent?: AgentLookup;
  agentActions?: AgentActionsClient;
  /** Rule overrides, timeouts... as the worker diagnoses. */
  diagnose?: Omit<DiagnoseOptions, 'cluster' | 'agent'>;
  actions?: ActionRegistry;
  now?: () => Date;
  logger?: Logger;
  onEvent?: RunEventHandler;
  /** How long a proposed plan may wait for approval (default 1 h). */
  planTtlSeconds?: number;
  /** Run lock lifetime, renewed at a third (default 30 s). */
  lockMs?: number;
  /** Upper bound on a step's time limit (default 15 min). */
  maxStepTimeoutMs?: number;
  /** Test seam: make waits fast. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The audit trail (src/audit): approvers for the writes' User-Agent, expiries, run outcomes. */
  audit?: RunAudit;
  /** Counts how runs end (the worker's pod_doctor_remediation_runs_total). */
  runs?: RunCounter;
}

export interface Runner {
  /**
   * `since`: when the diagnosis was asked for (ms since the epoch). The live state is then read
   * as a diagnosis reads it, sharing reads started at or after that moment (the pod the
   * diagnosis just read is not read again).
   */
  proposePlan(finding: Finding, diagnosis: Diagnosis, playbook: Playbook, options?: { since?: number }): Promise<Plan>;
  runPlan(planId: string, options?: { onEvent?: RunEventHandler }): Promise<RunResult>;
  getPlan(planId: string): Promise<Plan | null>;
  getRun(runId: string): Promise<RunRecord | null>;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function summaries(findings: readonly Finding[]): FindingSummary[] {
  return findings.map((f) => ({ rule: f.rule, title: f.title, severity: f.severity, fingerprint: f.fingerprint }));
}

function targetNamespace(t: Target): string | undefined {
  return t.kind === 'pod' ? t.namespace : t.kind === 'namespace' ? t.name : undefined;
}

/** Resolve every declared parameter from the finding, the target or live state. */
export async function resolveParams(playbook: Playbook, finding: Finding, target: Target, live: LiveState): Promise<Record<string, ParamValue>> {
  const out: Record<string, ParamValue> = {};
  const missingPod = () =>
    new PodDoctorError('TARGET_NOT_FOUND', `cannot propose ${playbook.id}: pod ${targetNamespace(target)}/${target.name} no longer exists`);
  const liveValue = async (decl: Extract<ParamDecl, { from: 'live' }>): Promise<unknown> => {
    if (decl.value.startsWith('pod.')) {
      const pod = await live.pod();
      if (!pod) throw missingPod();
      const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
      switch (decl.value) {
        case 'pod.uid':
          return pod.metadata?.uid;
        case 'pod.node':
          return pod.spec?.nodeName;
        case 'pod.finalizers':
          return pod.metadata?.finalizers ?? [];
        case 'pod.images':
          return [...new Set(containers.map((c) => c.image).filter((i): i is string => Boolean(i)))];
        case 'pod.containerIds':
          return podRefFor(pod)?.containerIds ?? [];
        case 'pod.gracePeriodSeconds':
          return pod.spec?.terminationGracePeriodSeconds;
        case 'pod.workloadKind':
          return (await live.workload())?.kind;
        case 'pod.workloadName':
          return (await live.workload())?.name;
      }
    }
    const ns = targetNamespace(target);
    const obj = ns ? await live.namespace(ns) : null;
    if (decl.value === 'namespace.uid') return obj?.metadata?.uid;
    return obj ? [...(obj.spec?.finalizers ?? []), ...(obj.metadata?.finalizers ?? [])] : undefined;
  };
  for (const [name, decl] of Object.entries(playbook.params)) {
    let raw: unknown;
    if (decl.from === 'finding') raw = finding.params[decl.key ?? name];
    else if (decl.from === 'target') raw = decl.field === 'name' ? target.name : targetNamespace(target);
    else raw = await liveValue(decl);
    let value = coerce(raw, decl.type);
    if (raw !== undefined && raw !== null && value === undefined) {
      throw new PodDoctorError(
        'BAD_INPUT',
        `cannot propose ${playbook.id}: parameter ${name} (${paramOrigin(decl)}) is ${JSON.stringify(raw)}, not a ${decl.type}`,
      );
    }
    if (value === undefined && decl.default !== undefined) value = coerce(decl.default, decl.type);
    if (value === undefined) {
      if (decl.optional) continue;
      throw new PodDoctorError('BAD_INPUT', `cannot propose ${playbook.id}: parameter ${name} (${paramOrigin(decl)}) has no value`);
    }
    out[name] = value;
  }
  return out;
}

/**
 * How many people must approve and what they are warned of: the playbook's count, raised to two
 * by a rule that knows the stakes (a StatefulSet pod, a namespace) or by a guard that holds; a
 * refusing guard that holds stops the proposal.
 */
async function weighGuards(
  playbook: Playbook,
  finding: Finding,
  params: Record<string, ParamValue>,
  live: LiveState,
): Promise<{ approvals: 1 | 2; warnings: string[] }> {
  let approvals: 1 | 2 = finding.params.requiresTwoApprovals === true ? 2 : playbook.approvals;
  const warnings: string[] = [];
  for (const [i, guard] of playbook.guards.entries()) {
    const [when] = resolveChecks([guard.when], params, playbook.id, `guards[${i}].when`);
    if (!when || !(await evaluateCheck(when, live, params)).ok) continue;
    if (guard.refuse)
      throw new PodDoctorError('PRECONDITION_FAILED', `${playbook.id} refused: ${interpolate(guard.warning ?? `guard ${when.check} holds`, params)}`);
    if (guard.approvals === 2) approvals = 2;
    if (guard.warning) warnings.push(interpolate(guard.warning.trim(), params));
  }
  return { approvals, warnings };
}

/** After a run: diagnose again; fixed when the rules the plan verifies are silent and its expectations hold. */
async function verifyPlan(plan: Plan, kube: KubeSource, diagnose: (t: Target) => Promise<Diagnosis>, now: () => Date): Promise<Verification> {
  let d: Diagnosis | null = null;
  let error: string | undefined;
  try {
    d = await diagnose(plan.target);
  } catch (err) {
    if ((err as { code?: string }).code !== 'TARGET_NOT_FOUND') error = `the verifying diagnosis failed: ${errorText(err)}`;
  }
  const remaining = d
    ? [...new Set(d.findings.filter((f) => plan.verify.includes(f.rule) || f.merged.some((r) => plan.verify.includes(r))).map((f) => f.rule))]
    : [];
  const live = new LiveState(kube, plan.target, () => (d ? Promise.resolve(d) : diagnose(plan.target)), now);
  const expect: CheckResult[] = [];
  for (const c of plan.expect)
    expect.push(await evaluateCheck(c, live, plan.params).catch((err: unknown) => ({ check: c.check, ok: false, reason: errorText(err) })));
  const fixed = !error && remaining.length === 0 && expect.every((e) => e.ok);
  return {
    outcome: fixed ? 'fixed' : 'not-fixed',
    remaining,
    findings: d ? summaries(d.findings) : [],
    // Gone: not found at all, or only its owner is left (a pod that was deleted or replaced).
    targetGone: !error && (d === null || d.missing !== undefined),
    expect,
    ...(error ? { error } : {}),
    at: new Date().toISOString(),
  };
}

export function createRunner(deps: RunnerDeps): Runner {
  const actions = deps.actions ?? ACTIONS;
  const now = deps.now ?? (() => new Date());
  const log = (deps.logger ?? rootLog).child({ component: 'runner', cluster: deps.cluster });
  const lockMs = deps.lockMs ?? 30_000;
  const planTtlSeconds = deps.planTtlSeconds ?? 3600;
  const sleep = deps.sleep ?? abortableSleep;

  const diagnose = (target: Target): Promise<Diagnosis> =>
    diagnoseTarget(deps.kube, target, { ...deps.diagnose, cluster: deps.cluster, ...(deps.agent ? { agent: deps.agent } : {}), now });

  async function proposePlan(finding: Finding, diagnosis: Diagnosis, playbook: Playbook, options: { since?: number } = {}): Promise<Plan> {
    const rules = [finding.rule, ...finding.merged];
    if (!playbook.matches.some((r) => rules.includes(r))) {
      throw new PodDoctorError('BAD_INPUT', `playbook ${playbook.id} does not remediate ${finding.rule} (it matches ${playbook.matches.join(', ')})`);
    }
    const target = diagnosis.target;
    if (!playbook.targets.includes(target.kind)) throw new PodDoctorError('BAD_INPUT', `playbook ${playbook.id} does not take a ${target.kind} target`);
    const source = options.since === undefined ? deps.kube : deps.kube.sharing(options.since);
    const live = new LiveState(source, target, () => diagnose(target), now);
    const params = await resolveParams(playbook, finding, target, live);

    const { approvals, warnings } = await weighGuards(playbook, finding, params, live);
    const plan = buildPlan({
      cluster: deps.cluster,
      playbook,
      finding,
      recurrence: recurrenceFingerprint(diagnosis, finding),
      target,
      params,
      warnings,
      approvals,
      actions,
      now: now(),
      ttlSeconds: planTtlSeconds,
      maxStepTimeoutMs: deps.maxStepTimeoutMs ?? 15 * 60_000,
    });
    // Offer nothing that would be refused: the live state must already satisfy the preconditions
    // (a finding-present check is the finding in hand).
    const pre = await evaluateAll(
      plan.preconditions.filter((c) => c.check !== 'finding-present'),
      live,
      params,
    );
    if (!pre.ok) throw new PodDoctorError('PRECONDITION_FAILED', `${playbook.id} cannot run now: ${pre.failed?.reason ?? 'a precondition does not hold'}`);
    await deps.store.savePlan(plan, planTtlSeconds);
    await deps.audit?.proposed(plan).catch((err: unknown) => log.warn({ err, planId: plan.id }, 'expiry watch not recorded'));
    log.info({ planId: plan.id, playbook: playbook.id, target, rule: finding.rule, approvals }, 'plan proposed');
    return plan;
  }

  async function runPlan(planId: string, options: { onEvent?: RunEventHandler } = {}): Promise<RunResult> {
    const base = { runId: planId, planId, steps: [] as StepReport[] };
    if (!isPlanId(planId)) return { ...base, status: 'not-found', reason: 'not a plan id' };
    const runLog = log.child({ runId: planId });
    const run = await PlanRun.claim(
      {
        kube: deps.kube,
        store: deps.store,
        ...(deps.agentActions ? { agentActions: deps.agentActions } : {}),
        actions,
        now,
        log,
        lockMs,
        sleep,
        diagnose,
        verify,
        handlers: [deps.onEvent, options.onEvent],
        ...(deps.audit ? { audit: deps.audit } : {}),
        ...(deps.runs ? { runs: deps.runs } : {}),
      },
      planId,
    );
    if (!run) {
      runLog.warn('run lock held elsewhere');
      return { ...base, status: 'busy', reason: 'another runner is executing this plan right now' };
    }
    try {
      const record = await deps.store.readRun(planId);
      if (record?.status && record.status !== 'running') {
        const stored = record.result as RunResult | undefined;
        return { ...(stored ?? { ...base, status: record.status }), alreadyRan: true };
      }
      const plan = record?.plan ?? (await deps.store.loadPlan(planId));
      if (!plan) return { ...base, status: 'not-found', reason: 'no such plan, or it expired before it was run' };
      // A trace of its own: the re-checks, the steps and the verifying diagnosis (collect, rules) under one span.
      const span = beginSpan('playbook.run', {
        parent: 'root',
        attributes: { ...targetAttributes(plan.cluster, plan.target), 'pod_doctor.playbook': plan.playbook.id, 'pod_doctor.plan.id': planId },
      });
      return await settle(
        span,
        runIn(span.context, () => run.execute(record, plan)),
        (r) => ({ 'pod_doctor.run.status': r.status }),
      );
    } catch (err) {
      runLog.error({ err }, 'run crashed');
      throw err;
    } finally {
      await run.release();
    }
  }

  const verify = (plan: Plan) => verifyPlan(plan, deps.kube, diagnose, now);

  return {
    proposePlan,
    runPlan,
    getPlan: (planId) => (isPlanId(planId) ? deps.store.loadPlan(planId) : Promise.resolve(null)),
    getRun: (runId) => deps.store.readRun(runId),
  };
}
