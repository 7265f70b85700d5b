// `pod-doctor diagnose [TYPE/]NAME [-n NS] [-o json|yaml] [--kubeconfig F] [--context C] [--from FILE...]`,
// with kubectl's conventions: pod/, deploy/, sts/, ds/, job/, node/, ns/, -n and the context's namespace.
import { parseArgs } from 'node:util';
import { bounded } from '../bounded.js';
import { contextNamespace, KubeSource, loadKubeConfig } from '../collect/kube-source.js';
import { ObjectsSource } from '../collect/objects-source.js';
import type { FactSource } from '../collect/source.js';
import type { Mark } from '../diagnosis/ignore.js';
import type { Diagnosis } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { primaryFinding } from '../jobs/incidents.js';
import { marksFor } from '../jobs/not-a-problem.js';
import { RECURRENCE_WINDOW_DAYS, readRecurrence, recurrenceFingerprint } from '../jobs/recurrence.js';
import type { Recurrence } from '../jobs/schemas.js';
import { isDns1123Label, parseKubectlRef, refTarget } from '../kube/target.js';
import { dropRedis, redisFromUrl } from '../redis/client.js';
import { loadObjects } from '../sim/load.js';
import { diagnoseTarget } from '../usecases/diagnose.js';
import { diagnoseWorkload, type WorkloadDiagnosis } from '../usecases/diagnose-workload.js';
import { CONFIG_USAGE, commandConfig } from './config.js';
import { diagnosisJson, renderDiagnosisText } from './diagnosis-text.js';
import { DEFAULT_WORKLOAD_PODS, DIAGNOSE_OPTIONS, OUTPUT_FORMATS } from './options.js';
import { agentLookupFromConfig, diagnoseSettings } from './wiring.js';

export const DIAGNOSE_USAGE = `Usage: pod-doctor diagnose [TYPE/]NAME | <namespace>/<pod> [options]
  TYPE is what kubectl calls it: pod (po), deploy (deployment), sts (statefulset), ds (daemonset),
  job, node (no), ns (namespace). A workload is diagnosed through its unhealthy pods, the worst first.
  -n, --namespace NS  namespace of a pod or workload (default: the kubeconfig context's, else "default")
  -o, --output FMT    json or yaml (default: text); --json is -o json
  --kubeconfig FILE   kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)
  --context NAME      kubeconfig context
  --from FILE|DIR     diagnose from saved YAML/JSON instead of a cluster (repeatable)
  --now TIME          evaluate as of this RFC 3339 time (post-mortems, fixtures)
  --cluster NAME      cluster name shown in the output
  --max-pods N        at most this many pods of a workload (default ${DEFAULT_WORKLOAD_PODS})
${CONFIG_USAGE}`;

type Output = (typeof OUTPUT_FORMATS)[number] | 'text';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

function outputOf(values: { output?: string | undefined; json?: boolean | undefined }): Output {
  if (values.output === undefined) return values.json ? 'json' : 'text';
  const format = OUTPUT_FORMATS.find((f) => f === values.output);
  if (!format) throw new PodDoctorError('BAD_INPUT', `-o "${values.output}" is not an output format: ${OUTPUT_FORMATS.join(' or ')} (none for text)`);
  if (values.json && format !== 'json') throw new PodDoctorError('BAD_INPUT', `--json and -o ${format} ask for different outputs: give one`);
  return format;
}

function maxPodsOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_WORKLOAD_PODS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw new PodDoctorError('BAD_INPUT', `--max-pods "${value}" is not a whole number from 1 to 500`);
  return n;
}

function workloadJson(w: WorkloadDiagnosis): object {
  return {
    workload: w.workload,
    pods: { total: w.total, unhealthy: w.unhealthy, ...(w.desired !== undefined ? { desired: w.desired } : {}) },
    diagnoses: w.diagnoses.map((d) => ({
      reason: w.reasons[d.target.kind === 'namespace' ? `ns/${d.target.name}` : d.target.name] ?? null,
      ...diagnosisJson(d),
    })),
  };
}

function renderWorkloadText(w: WorkloadDiagnosis, cluster: string, color: boolean): string {
  const name = `${w.workload.kind.toLowerCase()} ${w.workload.namespace}/${w.workload.name}`;
  const of = w.desired !== undefined ? `${w.total} of ${w.desired} pods exist` : `${w.total} pods`;
  if (w.diagnoses.length === 0) return `pod-doctor: ${name} on cluster ${cluster}: ${of}, none unhealthy; nothing to diagnose.`;
  const shown = w.diagnoses.length < w.unhealthy ? `; the worst ${w.diagnoses.length} diagnosed (--max-pods)` : '';
  const head = `pod-doctor: ${name} on cluster ${cluster}: ${of}, ${w.unhealthy} unhealthy${shown}; worst first.`;
  return [head, ...w.diagnoses.map((d) => renderDiagnosisText(d, { color }))].join('\n\n');
}

async function print(io: CliIo, output: Output, value: object, text: () => string): Promise<void> {
  if (output === 'json') io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (output === 'yaml') io.stdout.write((await import('yaml')).stringify(value));
  else io.stdout.write(`${text()}\n`);
}

export async function diagnoseCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: DIAGNOSE_OPTIONS });
  if (values.help) {
    io.stdout.write(`${DIAGNOSE_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new PodDoctorError('BAD_TARGET', `expected one target, got ${positionals.length}\n${DIAGNOSE_USAGE}`);
  // What the argument says and how to print it are checked before any file or cluster is read.
  const ref = parseKubectlRef(positionals[0]!);
  const output = outputOf(values);
  const maxPods = maxPodsOf(values['max-pods']);
  if (values.namespace !== undefined && !isDns1123Label(values.namespace))
    throw new PodDoctorError('BAD_INPUT', `-n "${values.namespace}" is not a valid namespace name`);
  const config = commandConfig(io.env, values.config, io.stderr);
  let now: (() => Date) | undefined;
  if (values.now) {
    const t = Date.parse(values.now);
    if (Number.isNaN(t)) throw new PodDoctorError('BAD_INPUT', `--now "${values.now}" is not an RFC 3339 time`);
    now = () => new Date(t);
  }

  let source: FactSource;
  let contextNs: string | undefined;
  if (values.from && values.from.length > 0) {
    source = new ObjectsSource(await loadObjects(values.from), values.from.join(', '));
  } else {
    const kc = loadKubeConfig({
      kubeconfig: values.kubeconfig ?? config.kubeconfig,
      ...(values.kubeconfig ? { kubeconfigFrom: '--kubeconfig' } : {}),
      context: values.context ?? config.kubeContext,
      env: io.env,
    });
    contextNs = contextNamespace(kc);
    source = new KubeSource(kc);
  }
  const named = refTarget(ref, values.namespace ?? contextNs ?? 'default', values.namespace !== undefined);
  const cluster = values.cluster ?? config.cluster;
  const options = {
    cluster,
    ...diagnoseSettings(config),
    agent: values.from ? undefined : agentLookupFromConfig(config),
    agentSkipReason: values.from ? 'saved objects carry no node facts' : 'no node agent token configured (POD_DOCTOR_AGENT_TOKEN)',
    now,
    // With Redis configured, findings marked Not a problem in chat stay out here too (read only).
    ...(!values.from && io.env.REDIS_URL ? { marks: (object: string) => readMarks(config, cluster, object) } : {}),
  };
  const color = output === 'text' && Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  if ('workload' in named) {
    const w = await diagnoseWorkload(source, named.workload, { ...options, maxPods });
    await print(io, output, workloadJson(w), () => renderWorkloadText(w, cluster, color));
    return 0;
  }
  const diagnosis: Diagnosis = await diagnoseTarget(source, named.target, options);
  // With Redis configured (REDIS_URL set), the incidents of the same cause the workers recorded.
  const history = !values.from && io.env.REDIS_URL ? await pastIncidents(config, diagnosis) : undefined;
  await print(io, output, { ...diagnosisJson(diagnosis), ...(history ?? {}) }, () => renderDiagnosisText(diagnosis, { color, ...(history ?? {}) }));
  return 0;
}

/** Read-only: the Not a problem marks of an object (diagnoseTarget bounds the wait and says when they could not be read). */
async function readMarks(config: ReturnType<typeof commandConfig>, cluster: string, object: string): Promise<Mark[]> {
  const redis = redisFromUrl(config.redisUrl, config.redisOptions, { role: 'producer' });
  redis.on('error', () => undefined);
  try {
    return await marksFor(redis, config.redisPrefix, cluster, object, Date.now());
  } finally {
    dropRedis(redis);
  }
}

/** Read-only: the recurrence of the diagnosis' primary cause, or why it could not be read (bounded, never fatal). */
async function pastIncidents(
  config: ReturnType<typeof commandConfig>,
  diagnosis: Diagnosis,
): Promise<{ recurrence: Recurrence } | { recurrenceError: string } | undefined> {
  const primary = primaryFinding(diagnosis);
  if (!primary) return undefined;
  const redis = redisFromUrl(config.redisUrl, config.redisOptions, { role: 'producer' });
  redis.on('error', () => undefined);
  try {
    const fingerprint = recurrenceFingerprint(diagnosis, primary);
    const read = await bounded(2000, () =>
      readRecurrence(redis, { prefix: config.redisPrefix, windowDays: RECURRENCE_WINDOW_DAYS }, diagnosis.cluster, fingerprint),
    );
    if (read.status === 'done') return read.value ? { recurrence: read.value } : undefined;
    return { recurrenceError: read.status === 'timeout' ? 'Redis did not answer within 2 s' : String((read.error as Error)?.message ?? read.error) };
  } finally {
    dropRedis(redis);
  }
}
