// The structured Alertmanager settings (routes, label mapping) and their schemas: YAML in the
// config file, JSON in an environment variable. They live in config/ so that loading the
// configuration needs nothing from the alert code; src/alerts/ imports them from here.
import { z } from 'zod';
import { jsonSetting } from './json.js';

export const AlertRoute = z.strictObject({
  /** Alertmanager receiver name, as written in alertmanager.yml (unquoted). */
  receiver: z.string().min(1).max(1024).optional(),
  /** Exact label values; all must match. */
  matchers: z.record(z.string().min(1).max(256), z.string().max(4096)).optional(),
  channel: z.string().min(1).max(256),
});
export type AlertRoute = z.infer<typeof AlertRoute>;

export const AlertRoutes = z.array(AlertRoute).max(500);

export const LABEL_ROLES = ['cluster', 'namespace', 'pod', 'deployment', 'statefulset', 'daemonset', 'job', 'node'] as const;
export type LabelRole = (typeof LABEL_ROLES)[number];
export type LabelMapping = Record<LabelRole, readonly string[]>;

/**
 * kube-prometheus names. `job` is the scrape job, so a Job's name is in `job_name`.
 * `cluster` is empty: the cluster label is consulted only when configured, because a
 * single-cluster install often carries an external `cluster` label that matches no name here.
 */
export const DEFAULT_LABELS: LabelMapping = {
  cluster: [],
  namespace: ['namespace'],
  pod: ['pod'],
  deployment: ['deployment'],
  statefulset: ['statefulset'],
  daemonset: ['daemonset'],
  job: ['job_name'],
  node: ['node'],
};

const labelNames = z.union([z.string().min(1).max(256), z.array(z.string().min(1).max(256)).max(16)]).transform((v) => (typeof v === 'string' ? [v] : v));

/** `alertLabels`: role → label name or names, merged over the defaults. */
export const LabelMappingOverrides = z.strictObject(
  Object.fromEntries(LABEL_ROLES.map((r) => [r, labelNames.optional()])) as Record<LabelRole, z.ZodOptional<typeof labelNames>>,
);

export function labelMapping(overrides: Partial<Record<LabelRole, readonly string[] | undefined>> = {}): LabelMapping {
  const out = { ...DEFAULT_LABELS };
  for (const role of LABEL_ROLES) {
    const names = overrides[role];
    if (names) out[role] = [...names];
  }
  return out;
}

/** `{"namespace":["exported_namespace","namespace"],"pod":"kubernetes_pod_name"}` → the full mapping. */
export const alertLabelsFile = LabelMappingOverrides.transform((o) => labelMapping(o));
export const alertLabelsSetting = jsonSetting<LabelMapping>(alertLabelsFile, labelMapping(), 'an object of role → label name(s)');

/** `[{"receiver":"pod-doctor","matchers":{"severity":"critical"},"channel":"C0123"}]`. */
export const alertRoutesSetting = jsonSetting<AlertRoute[]>(AlertRoutes, [], 'a list of {receiver?, matchers?, channel}');
