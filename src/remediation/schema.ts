// The playbook format. Playbooks are data (playbooks/*.yaml, reviewed like code): typed
// parameters, typed checks and typed steps, no scripting. This file owns the shape; the loader
// (load.ts) cross-checks what a schema alone cannot: rule ids against the registry, step kinds
// and their parameters against the action registry, placeholders against declared params.
import { z } from 'zod';
import { ANY_IDS, approverIdSchema } from '../access/ids.js';

/** `{name}` placeholders in summaries, warnings and step/check values. */
export const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
/** A value that is exactly one placeholder takes the parameter's typed value (arrays stay arrays). */
export const WHOLE_PLACEHOLDER = /^\{([A-Za-z][A-Za-z0-9]*)\}$/;

export const ruleIdSchema = z.string().regex(/^[a-z-]+\.[a-z0-9-]+$/, 'expected a rule id such as terminating.finalizers');
const kebab = z.string().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'expected a kebab-case id');
const paramName = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'expected a parameter name of letters and digits');

export const PARAM_TYPES = ['string', 'string[]', 'number', 'boolean'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export type ParamValue = string | number | boolean | string[];

/**
 * Values read from the live cluster when the plan is proposed (never from the finding, which
 * may be stale): the pod's UID pins the incarnation a human approved.
 */
export const LIVE_VALUES = [
  'pod.uid',
  'pod.node',
  'pod.finalizers',
  'pod.images',
  'pod.containerIds',
  'pod.gracePeriodSeconds',
  'pod.workloadKind',
  'pod.workloadName',
  'namespace.uid',
  'namespace.finalizers',
] as const;
export type LiveValue = (typeof LIVE_VALUES)[number];

const paramBase = {
  type: z.enum(PARAM_TYPES),
  description: z.string().optional(),
  /** Absent values are allowed; steps then get no value for it. */
  optional: z.boolean().default(false),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
};

export const paramSchema = z.discriminatedUnion('from', [
  /** `finding.params[key ?? name]`. */
  z.object({ from: z.literal('finding'), key: z.string().optional(), ...paramBase }).strict(),
  /** The diagnosed target: `namespace`, `name` (pod, node or namespace name). */
  z.object({ from: z.literal('target'), field: z.enum(['namespace', 'name']), ...paramBase }).strict(),
  z.object({ from: z.literal('live'), value: z.enum(LIVE_VALUES), ...paramBase }).strict(),
]);
export type ParamDecl = z.infer<typeof paramSchema>;

/** A check value: a literal or a `{param}` placeholder resolved when the plan is made. */
const tmpl = z.union([z.string(), z.array(z.string())]);
const tmplNumber = z.union([z.number(), z.string().regex(WHOLE_PLACEHOLDER, 'expected a number or a {param}')]);

/**
 * Typed checks, used as preconditions (re-checked against live state right before the first
 * step), as guard conditions (at proposal) and as `expect` (after the steps, with `verify`).
 */
export const checkSchema = z.discriminatedUnion('check', [
  z.object({ check: z.literal('pod-exists') }).strict(),
  z.object({ check: z.literal('pod-gone') }).strict(),
  /** The live pod is the incarnation the plan was made for (not recreated under the same name). */
  z.object({ check: z.literal('pod-uid-is'), uid: tmpl.default('{uid}') }).strict(),
  /** Deleted and past its grace period by at least this much. */
  z.object({ check: z.literal('pod-still-terminating'), minOverdueSeconds: z.number().min(0).default(30) }).strict(),
  z.object({ check: z.literal('pod-not-terminating') }).strict(),
  z.object({ check: z.literal('pod-has-controller') }).strict(),
  z.object({ check: z.literal('pod-on-node'), node: tmpl.default('{node}') }).strict(),
  /** Every listed node is NotReady (Ready False or Unknown). */
  z.object({ check: z.literal('node-not-ready'), node: tmpl.default('{node}') }).strict(),
  z.object({ check: z.literal('node-ready'), node: tmpl.default('{node}') }).strict(),
  z.object({ check: z.literal('node-exists'), node: tmpl.default('{node}') }).strict(),
  z.object({ check: z.literal('node-cordoned'), node: tmpl.default('{node}') }).strict(),
  /** A live diagnosis of the target still reports this rule. */
  z.object({ check: z.literal('finding-present'), rule: ruleIdSchema }).strict(),
  z.object({ check: z.literal('owner-kind-is'), kind: z.string().min(1) }).strict(),
  z.object({ check: z.literal('owner-kind-is-not'), kind: z.string().min(1) }).strict(),
  /** The pod still has finalizers; with a list, exactly these (the approved ones). */
  z.object({ check: z.literal('has-finalizers'), finalizers: tmpl.optional() }).strict(),
  z.object({ check: z.literal('namespace-terminating'), namespace: tmpl.default('{namespace}') }).strict(),
  z.object({ check: z.literal('namespace-gone'), namespace: tmpl.default('{namespace}') }).strict(),
  z
    .object({
      check: z.literal('workload-replicas'),
      namespace: tmpl.default('{namespace}'),
      kind: tmpl,
      name: tmpl,
      replicas: tmplNumber,
    })
    .strict(),
  /** The workload's rollout history still holds this revision (the one a rollback goes back to). */
  z
    .object({
      check: z.literal('revision-exists'),
      namespace: tmpl.default('{namespace}'),
      kind: tmpl.default('{kind}'),
      name: tmpl.default('{name}'),
      revision: tmplNumber.default('{revision}'),
    })
    .strict(),
  /** The workload's newest revision is this one: nothing was rolled out since the plan was made. */
  z
    .object({
      check: z.literal('revision-is-newest'),
      namespace: tmpl.default('{namespace}'),
      kind: tmpl.default('{kind}'),
      name: tmpl.default('{name}'),
      revision: tmplNumber.default('{fromRevision}'),
    })
    .strict(),
  /**
   * The workload's pod template is this revision's (after a rollback), named by its ReplicaSet or
   * ControllerRevision: going back renumbers it.
   */
  z
    .object({
      check: z.literal('workload-at-revision'),
      namespace: tmpl.default('{namespace}'),
      kind: tmpl.default('{kind}'),
      name: tmpl.default('{name}'),
      revisionName: tmpl.default('{revisionName}'),
    })
    .strict(),
  /** A parameter has this value (e.g. a finding's `statefulSet: true`). */
  z.object({ check: z.literal('param-is'), param: paramName, equals: z.union([z.string(), z.number(), z.boolean()]) }).strict(),
]);
export type CheckDecl = z.infer<typeof checkSchema>;
export type CheckKind = CheckDecl['check'];

export const stepSchema = z
  .object({
    /** Step kind: one of the registered actions (src/remediation/actions). */
    action: kebab,
    /** A label for the dry run and the chat thread (default: the action's description). */
    name: z.string().max(120).optional(),
    /**
     * Action parameters. Omitted ones are taken from playbook parameters of the same name, so
     * `namespace`, `pod`, `uid` and `node` flow to every step that takes them.
     */
    with: z.record(z.string(), z.unknown()).default({}),
    /** Overrides the action's own time limit. */
    timeoutSeconds: z.number().positive().max(3600).optional(),
  })
  .strict();
export type StepDecl = z.infer<typeof stepSchema>;

export const guardSchema = z
  .object({
    /** Evaluated against live state when the plan is proposed. */
    when: checkSchema,
    /** Raise the number of approvers (never lowers it). */
    approvals: z.union([z.literal(1), z.literal(2)]).optional(),
    /** Shown above the dry run and in the approval message ({param} placeholders allowed). */
    warning: z.string().min(1).optional(),
    /** Refuse to propose the plan at all. */
    refuse: z.boolean().default(false),
  })
  .strict()
  .refine((g) => g.approvals !== undefined || g.warning !== undefined || g.refuse, 'a guard must raise approvals, warn or refuse');
export type GuardDecl = z.infer<typeof guardSchema>;

export const TARGET_KINDS = ['pod', 'node', 'namespace'] as const;

export const playbookSchema = z
  .object({
    id: kebab,
    title: z.string().min(5).max(150),
    /** Human text with {param} placeholders: the dry-run headline and the approval message. */
    summary: z.string().min(10).max(1500),
    /** Rule ids whose findings this playbook remediates (must exist in the registry). */
    matches: z.array(ruleIdSchema).min(1),
    risk: z.enum(['low', 'medium', 'high']),
    approvals: z.union([z.literal(1), z.literal(2)]),
    /** Per-playbook approvers (user and user-group ids; the loader checks them with the chat surface's parser), overriding POD_DOCTOR_APPROVERS. */
    approvers: z.array(approverIdSchema(ANY_IDS)).min(1).optional(),
    /** Target kinds a plan may be made for (default: pod). */
    targets: z.array(z.enum(TARGET_KINDS)).min(1).default(['pod']),
    params: z.record(paramName, paramSchema).default({}),
    preconditions: z.array(checkSchema).default([]),
    guards: z.array(guardSchema).default([]),
    steps: z.array(stepSchema).min(1),
    /** Rule ids that must be gone from the target's diagnosis afterwards. */
    verify: z.array(ruleIdSchema).default([]),
    /** State that must hold afterwards (for playbooks that contain rather than fix). */
    expect: z.array(checkSchema).default([]),
  })
  .strict()
  .refine((p) => p.verify.length > 0 || p.expect.length > 0, {
    message: 'a playbook must say how to verify it: `verify` rule ids or `expect` checks',
    path: ['verify'],
  });

export type Playbook = z.infer<typeof playbookSchema>;
export type PlaybookInput = z.input<typeof playbookSchema>;
