// A plan is a playbook resolved for one finding: every parameter has its value, every step its
// exact parameters and dry-run text, every check its values. What a human approves is what
// runs: the runner executes the plan's stored steps, never the playbook file again.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Finding, Severity, Target } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import type { ActionRegistry } from './actions/index.js';
import type { ResolvedCheck } from './checks.js';
import { type CheckDecl, type ParamDecl, type ParamType, type ParamValue, PLACEHOLDER, type Playbook, WHOLE_PLACEHOLDER } from './schema.js';

export interface PlanStep {
  index: number;
  action: string;
  name?: string;
  /** Parameters as the action's schema parsed them (defaults filled in). */
  params: Record<string, unknown>;
  /** Exact text of what the step does. */
  description: string[];
  destructive: boolean;
  /** After a crash, the action can tell whether it already took effect. */
  recheckable: boolean;
  timeoutMs: number;
}

export interface Plan {
  v: 1;
  /** Opaque id (what a chat button carries). */
  id: string;
  cluster: string;
  playbook: { id: string; title: string };
  target: Target;
  finding: { rule: string; fingerprint: string; subject: string; causeKey: string; title: string; severity: Severity };
  params: Record<string, ParamValue>;
  /** The playbook summary with its placeholders filled in. */
  summary: string;
  /** Guard warnings (split-brain...), shown above the dry run. */
  warnings: string[];
  /** Numbered lines: exactly what will be done. */
  dryRun: string[];
  risk: Playbook['risk'];
  approvals: 1 | 2;
  /** Per-playbook approvers (Slack ids), when the playbook overrides the global list. */
  approvers?: string[];
  /** Re-checked against live state right before the first step. */
  preconditions: ResolvedCheck[];
  steps: PlanStep[];
  /** Rules that must be gone from the target's diagnosis afterwards. */
  verify: string[];
  /** State that must hold afterwards. */
  expect: ResolvedCheck[];
  createdAt: string;
  expiresAt: string;
  /** The recurrence fingerprint (rule|workload|node) a verified fix is recorded under ("last fix: …"). */
  recurrence?: string;
}

export function newPlanId(): string {
  return `pl_${randomBytes(12).toString('base64url')}`;
}

/** Plan ids are what buttons carry: check the form before using one as a key. */
export function isPlanId(id: string): boolean {
  return /^pl_[A-Za-z0-9_-]{16}$/.test(id);
}

function show(v: ParamValue | undefined): string {
  if (v === undefined) return '?';
  return Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
}

/** `{name}` → value; arrays as `[a, b]`. Unknown names stay visible as `{name}`. */
export function interpolate(text: string, params: Record<string, ParamValue>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (params[name] === undefined ? whole : show(params[name])));
}

class MissingParam extends Error {
  constructor(readonly param: string) {
    super(`parameter ${param} has no value`);
  }
}

/** Resolve placeholders inside a value: a whole `{x}` keeps x's type, embedded ones become text. */
export function resolveValue(value: unknown, params: Record<string, ParamValue>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) {
      const v = params[whole[1] ?? ''];
      if (v === undefined) throw new MissingParam(whole[1] ?? '');
      return v;
    }
    for (const m of value.matchAll(PLACEHOLDER)) if (params[m[1] ?? ''] === undefined) throw new MissingParam(m[1] ?? '');
    return interpolate(value, params);
  }
  if (Array.isArray(value)) return value.flatMap((v) => resolveValue(v, params) as never);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, params)]));
  return value;
}

/** Coerce a raw value (finding param, live fact) to the declared type, or undefined. */
export function coerce(value: unknown, type: ParamType): ParamValue | undefined {
  if (value === undefined || value === null) return undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    case 'string[]':
      return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : undefined;
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
  }
}

/** Where a parameter's value came from, for error messages. */
export function paramOrigin(decl: ParamDecl): string {
  switch (decl.from) {
    case 'finding':
      return `finding param ${decl.key ?? '(same name)'}`;
    case 'target':
      return `target ${decl.field}`;
    case 'live':
      return `live ${decl.value}`;
  }
}

export interface BuildInput {
  id?: string;
  cluster: string;
  playbook: Playbook;
  finding: Finding;
  target: Target;
  params: Record<string, ParamValue>;
  warnings: string[];
  approvals: 1 | 2;
  actions: ActionRegistry;
  now: Date;
  ttlSeconds: number;
  /** Upper bound on any step's time limit. */
  maxStepTimeoutMs?: number;
  /** The recurrence fingerprint of the finding's diagnosis. */
  recurrence?: string;
}

function fail(playbook: string, message: string): never {
  throw new PodDoctorError('BAD_INPUT', `cannot propose ${playbook}: ${message}`);
}

export function resolveChecks(checks: readonly CheckDecl[], params: Record<string, ParamValue>, playbook: string, where: string): ResolvedCheck[] {
  return checks.map((c, i) => {
    try {
      return resolveValue(c, params) as ResolvedCheck;
    } catch (err) {
      if (err instanceof MissingParam) fail(playbook, `${where}[${i}] (${c.check}) needs parameter ${err.param}, which has no value`);
      throw err;
    }
  });
}

/** Steps with their exact parameters: `with` resolved, then same-named playbook params inherited. */
export function buildSteps(input: Pick<BuildInput, 'playbook' | 'params' | 'actions' | 'maxStepTimeoutMs'>): PlanStep[] {
  const { playbook, params, actions } = input;
  return playbook.steps.map((step, index) => {
    const action = Object.hasOwn(actions, step.action) ? actions[step.action] : undefined;
    if (!action) fail(playbook.id, `step ${index + 1}: unknown step kind ${step.action}`);
    const shape = action.params.shape as Record<string, z.ZodType>;
    const raw: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) if (!(key in step.with) && params[key] !== undefined) raw[key] = params[key];
    for (const [key, value] of Object.entries(step.with)) {
      try {
        raw[key] = resolveValue(value, params);
      } catch (err) {
        if (!(err instanceof MissingParam)) throw err;
        // An optional parameter without a value leaves the step parameter unset.
        if (playbook.params[err.param]?.optional) continue;
        fail(playbook.id, `step ${index + 1} (${step.action}).${key} needs parameter ${err.param}, which has no value`);
      }
    }
    const parsed = action.params.safeParse(raw);
    if (!parsed.success) {
      fail(playbook.id, `step ${index + 1} (${step.action}): ${parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ')}`);
    }
    const out = parsed.data as Record<string, unknown>;
    const own = step.timeoutSeconds !== undefined ? step.timeoutSeconds * 1000 : (action.timeoutFor?.(out as never) ?? action.timeoutMs);
    const timeoutMs = Math.min(own, input.maxStepTimeoutMs ?? Number.MAX_SAFE_INTEGER);
    return {
      index,
      action: step.action,
      ...(step.name ? { name: step.name } : {}),
      params: out,
      description: action.describe(out as never),
      destructive: action.destructive,
      recheckable: action.recheck !== undefined,
      timeoutMs,
    };
  });
}

export function buildPlan(input: BuildInput): Plan {
  const { playbook, params, finding } = input;
  const steps = buildSteps(input);
  const created = input.now;
  const dryRun = steps.flatMap((s) => s.description.map((line, j) => `${j === 0 ? `${s.index + 1}.` : '  '} ${line}`));
  return {
    v: 1,
    id: input.id ?? newPlanId(),
    cluster: input.cluster,
    playbook: { id: playbook.id, title: playbook.title },
    target: input.target,
    ...(input.recurrence ? { recurrence: input.recurrence } : {}),
    finding: {
      rule: finding.rule,
      fingerprint: finding.fingerprint,
      subject: finding.subject,
      causeKey: finding.causeKey,
      title: finding.title,
      severity: finding.severity,
    },
    params,
    summary: interpolate(playbook.summary.trim(), params),
    warnings: input.warnings,
    dryRun,
    risk: playbook.risk,
    approvals: input.approvals,
    ...(playbook.approvers ? { approvers: playbook.approvers } : {}),
    preconditions: resolveChecks(playbook.preconditions, params, playbook.id, 'preconditions'),
    steps,
    verify: playbook.verify,
    expect: resolveChecks(playbook.expect, params, playbook.id, 'expect'),
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + input.ttlSeconds * 1000).toISOString(),
  };
}

/** One line per precondition, for the dry run. */
export function describeCheck(c: ResolvedCheck): string {
  const v = (k: string) => {
    const x = c[k];
    return Array.isArray(x) ? x.join(', ') : String(x ?? '');
  };
  switch (c.check) {
    case 'pod-exists':
      return 'the pod still exists';
    case 'pod-gone':
      return 'the pod is gone';
    case 'pod-uid-is':
      return `the pod is still the same incarnation (uid ${v('uid')})`;
    case 'pod-still-terminating':
      return 'the pod is still stuck Terminating (past its grace period)';
    case 'pod-not-terminating':
      return 'the pod is not being deleted';
    case 'pod-has-controller':
      return 'the pod has a controller that recreates it';
    case 'pod-on-node':
      return `the pod is still on ${v('node')}`;
    case 'node-not-ready':
      return `${v('node')} still NotReady`;
    case 'node-ready':
      return `${v('node')} Ready`;
    case 'node-exists':
      return `node ${v('node')} exists`;
    case 'node-cordoned':
      return `${v('node')} cordoned`;
    case 'finding-present':
      return `a new diagnosis still reports ${v('rule')}`;
    case 'owner-kind-is':
      return `the pod is owned by a ${v('kind')}`;
    case 'owner-kind-is-not':
      return `the pod is not owned by a ${v('kind')}`;
    case 'has-finalizers':
      return c.finalizers === undefined ? 'the pod still has finalizers' : `the pod's finalizers are still exactly [${v('finalizers')}]`;
    case 'namespace-terminating':
      return `namespace ${v('namespace')} is still Terminating`;
    case 'namespace-gone':
      return `namespace ${v('namespace')} is gone`;
    case 'workload-replicas':
      return `${v('kind')} ${v('namespace')}/${v('name')} has ${v('replicas')} replica(s)`;
    case 'param-is':
      return `${v('param')} is ${v('equals')}`;
    case 'revision-exists':
      return `${v('kind')} ${v('namespace')}/${v('name')} still has revision ${v('revision')}`;
    case 'revision-is-newest':
      return `nothing newer than revision ${v('revision')} of ${v('kind')} ${v('namespace')}/${v('name')} was rolled out`;
    case 'workload-at-revision':
      return `${v('kind')} ${v('namespace')}/${v('name')} runs the pod template of ${v('revisionName')}`;
    default:
      return c.check;
  }
}

/** The whole plan as text: the approval message body, the CLI's dry run. */
export function renderPlanText(plan: Plan): string {
  const lines = [
    `${plan.playbook.title} [${plan.playbook.id}] on ${plan.cluster}: risk ${plan.risk}, ${plan.approvals} approver${plan.approvals > 1 ? 's' : ''}`,
    plan.summary,
    ...plan.warnings.map((w) => `WARNING: ${w}`),
    ...(plan.preconditions.length ? ['Re-checked right before the first step:', ...plan.preconditions.map((c) => `  - ${describeCheck(c)}`)] : []),
    'Steps:',
    ...plan.dryRun.map((l) => `  ${l}`),
    `Then: diagnose again${plan.verify.length ? `; fixed when ${plan.verify.join(', ')} no longer report${plan.verify.length > 1 ? '' : 's'}` : ''}${plan.expect.length ? `; expect ${plan.expect.map(describeCheck).join('; ')}` : ''}.`,
  ];
  return lines.join('\n');
}
