// `pod-doctor diagnose <ns>/<pod> [--kubeconfig F] [--context C] [--json] [--from FILE...]`
import { parseArgs } from 'node:util';
import { agentLookupFromConfig } from '../collect/agent-lookup.js';
import { KubeSource, loadKubeConfig } from '../collect/kube-source.js';
import { ObjectsSource } from '../collect/objects-source.js';
import type { FactSource } from '../collect/source.js';
import { PodDoctorError } from '../errors.js';
import { parseTarget } from '../kube/target.js';
import { loadObjects } from '../sim/load.js';
import { diagnoseTarget } from '../usecases/diagnose.js';
import { CONFIG_OPTION, CONFIG_USAGE, commandConfig } from './config.js';
import { diagnosisJson, renderDiagnosisText } from './diagnosis-text.js';
import type { CliIo } from './io.js';

export const DIAGNOSE_USAGE = `Usage: pod-doctor diagnose <namespace>/<pod> | node/<name> | ns/<name>
  --kubeconfig FILE   kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)
  --context NAME      kubeconfig context
  --from FILE|DIR     diagnose from saved YAML/JSON instead of a cluster (repeatable)
  --now TIME          evaluate as of this RFC 3339 time (post-mortems, fixtures)
  --cluster NAME      cluster name shown in the output
  --json              print JSON
${CONFIG_USAGE}`;

export async function diagnoseCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      from: { type: 'string', multiple: true },
      now: { type: 'string' },
      cluster: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...CONFIG_OPTION,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(`${DIAGNOSE_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new PodDoctorError('BAD_TARGET', `expected one target, got ${positionals.length}\n${DIAGNOSE_USAGE}`);
  const config = commandConfig(io.env, values.config, io.stderr);
  const target = parseTarget(positionals[0]!);
  let now: (() => Date) | undefined;
  if (values.now) {
    const t = Date.parse(values.now);
    if (Number.isNaN(t)) throw new PodDoctorError('BAD_INPUT', `--now "${values.now}" is not an RFC 3339 time`);
    now = () => new Date(t);
  }

  let source: FactSource;
  if (values.from && values.from.length > 0) {
    source = new ObjectsSource(await loadObjects(values.from), values.from.join(', '));
  } else {
    source = new KubeSource(
      loadKubeConfig({
        kubeconfig: values.kubeconfig ?? config.kubeconfig,
        ...(values.kubeconfig ? { kubeconfigFrom: '--kubeconfig' } : {}),
        context: values.context ?? config.kubeContext,
        env: io.env,
      }),
    );
  }
  const diagnosis = await diagnoseTarget(source, target, {
    cluster: values.cluster ?? config.cluster,
    overrides: config.rules,
    checkSecrets: config.checkSecrets,
    timeoutMs: config.apiTimeoutMs,
    pendingGraceSeconds: config.pendingGraceSeconds,
    agent: values.from ? undefined : agentLookupFromConfig(config),
    agentSkipReason: values.from ? 'saved objects carry no node facts' : 'no node agent token configured (POD_DOCTOR_AGENT_TOKEN)',
    now,
  });
  if (values.json) io.stdout.write(`${JSON.stringify(diagnosisJson(diagnosis), null, 2)}\n`);
  else io.stdout.write(`${renderDiagnosisText(diagnosis, { color: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR })}\n`);
  return 0;
}
