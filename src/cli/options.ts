// Command-line options as data, in a module that loads nothing: the commands parse with them and
// `pod-doctor completion` offers them, without loading what the commands need to run.

/** The `--config` option every command that reads the configuration takes (node:util parseArgs). */
export const CONFIG_OPTION = { config: { type: 'string' } } as const;

export const CONFIG_USAGE = '  --config FILE       YAML config file (default: $POD_DOCTOR_CONFIG); variables set in the environment win over it';

/** At most this many pods of a workload are diagnosed (`diagnose deploy/web --max-pods N`). */
export const DEFAULT_WORKLOAD_PODS = 20;

export const OUTPUT_FORMATS = ['json', 'yaml'] as const;

/** The options of `pod-doctor diagnose`. */
export const DIAGNOSE_OPTIONS = {
  namespace: { type: 'string', short: 'n' },
  output: { type: 'string', short: 'o' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  from: { type: 'string', multiple: true },
  now: { type: 'string' },
  cluster: { type: 'string' },
  'max-pods': { type: 'string' },
  json: { type: 'boolean', default: false },
  ...CONFIG_OPTION,
  help: { type: 'boolean', short: 'h', default: false },
} as const;
