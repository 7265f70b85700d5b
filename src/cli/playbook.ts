// `pod-doctor playbook list [--json]`, `pod-doctor playbook validate [DIR]`,
// `pod-doctor playbook run <id> --target <ns>/<pod> [--dry-run]`. The run path is for operators
// with their own kubeconfig: no chat approval, but the same plan, the same live precondition
// re-check before any step, and the same verifying diagnosis at the end.
import { parseArgs } from 'node:util';
import { KubeSource, loadKubeConfig } from '../collect/kube-source.js';
import type { Config } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { formatTarget, parseTarget } from '../kube/target.js';
import { defaultPlaybookDir, formatIssue, loadPlaybooks, validatePlaybookDir } from '../remediation/load.js';
import { renderPlanText } from '../remediation/plan.js';
import type { RunEvent } from '../remediation/runner.js';
import { MemoryRunStore } from '../remediation/store.js';
import { diagnoseTarget } from '../usecases/diagnose.js';
import { CONFIG_OPTION, chatIds, commandConfig } from './config.js';
import type { CliIo } from './io.js';
import { agentLookupFromConfig, diagnoseSettings, runnerFromConfig } from './wiring.js';

export const PLAYBOOK_USAGE = `Usage: pod-doctor playbook <list|validate|run> [options]
  list [--json] [--dir DIR]              the playbooks, their risk, approvals and rules
  validate [DIR]                          check every playbook file (exit 1 naming file and field)
  run <id> --target <ns>/<pod>|node/<n>|ns/<n> [--dry-run]
      [--kubeconfig FILE] [--context NAME] [--dir DIR] [--cluster NAME] [--json]
                                          diagnose, plan, re-check preconditions, run, verify
  --config FILE                           YAML config file (default: $POD_DOCTOR_CONFIG), with every subcommand`;

function playbookDir(config: Config, dir: string | undefined): string {
  return dir ?? config.playbookDir ?? defaultPlaybookDir();
}

function eventLine(e: RunEvent): string | undefined {
  switch (e.type) {
    case 'run-started':
      return `run ${e.runId} started${e.resumed ? ' (resumed)' : ''}`;
    case 'refused':
      return `REFUSED: ${e.reason}`;
    case 'step-started':
      return `step ${e.index + 1} ${e.action}: ${e.description.join('; ')}`;
    case 'step-finished':
      return `step ${e.index + 1} ${e.state}${e.detail ? `: ${e.detail}` : ''}${e.error ? `: ${e.error}` : ''}`;
    case 'stopped':
      return `STOPPED: ${e.reason}`;
    case 'verified':
      return (
        `verified: ${e.outcome === 'fixed' ? 'FIXED' : 'NOT FIXED'}${e.targetGone ? ' (the target is gone)' : ''}` +
        `${e.remaining.length ? `; still reported: ${e.remaining.join(', ')}` : ''}`
      );
    case 'run-finished':
      return undefined;
  }
}

export async function playbookCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(`${PLAYBOOK_USAGE}\n`);
    return sub ? 0 : 2;
  }
  switch (sub) {
    case 'list':
      return listCommand(rest, io);
    case 'validate':
      return validateCommand(rest, io);
    case 'run':
      return runCommand(rest, io);
    default:
      io.stderr.write(`pod-doctor playbook: unknown subcommand "${sub}"\n${PLAYBOOK_USAGE}\n`);
      return 2;
  }
}

async function listCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false }, dir: { type: 'string' }, ...CONFIG_OPTION } });
  const config = commandConfig(io.env, values.config, io.stderr);
  const playbooks = await loadPlaybooks(playbookDir(config, values.dir), { ids: chatIds(config) });
  if (values.json) {
    const out = playbooks.map((p) => ({
      id: p.id,
      title: p.title,
      risk: p.risk,
      approvals: p.approvals,
      matches: p.matches,
      targets: p.targets,
      steps: p.steps.map((s) => s.action),
      verify: p.verify,
      ...(p.approvers ? { approvers: p.approvers } : {}),
    }));
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...playbooks.map((p) => p.id.length));
  for (const p of playbooks) {
    io.stdout.write(
      `${p.id.padEnd(width)}  risk ${p.risk.padEnd(6)}  approvals ${p.approvals}  ${p.title}\n` +
        `${' '.repeat(width)}  matches ${p.matches.join(', ')}; steps ${p.steps.map((s) => s.action).join(' → ')}\n`,
    );
  }
  return 0;
}

async function validateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...CONFIG_OPTION } });
  if (positionals.length > 1) throw new PodDoctorError('BAD_INPUT', `expected at most one directory\n${PLAYBOOK_USAGE}`);
  const config = commandConfig(io.env, values.config, io.stderr);
  const dir = positionals[0] ?? playbookDir(config, undefined);
  const { playbooks, issues } = await validatePlaybookDir(dir, { ids: chatIds(config) });
  if (issues.length > 0) {
    for (const i of issues) io.stderr.write(`${formatIssue(i)}\n`);
    io.stderr.write(`${issues.length} problem${issues.length > 1 ? 's' : ''} in ${new Set(issues.map((i) => i.file)).size} file(s) under ${dir}\n`);
    return 1;
  }
  io.stdout.write(`ok: ${playbooks.length} playbook${playbooks.length === 1 ? '' : 's'} in ${dir} (${playbooks.map((p) => p.playbook.id).join(', ')})\n`);
  return 0;
}

async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      dir: { type: 'string' },
      cluster: { type: 'string' },
      json: { type: 'boolean', default: false },
      now: { type: 'string' },
      ...CONFIG_OPTION,
    },
  });
  if (positionals.length !== 1 || !values.target) throw new PodDoctorError('BAD_INPUT', `expected a playbook id and --target\n${PLAYBOOK_USAGE}`);
  const id = positionals[0]!;
  const config = commandConfig(io.env, values.config, io.stderr);
  const target = parseTarget(values.target);
  let now: (() => Date) | undefined;
  if (values.now) {
    const t = Date.parse(values.now);
    if (Number.isNaN(t)) throw new PodDoctorError('BAD_INPUT', `--now "${values.now}" is not an RFC 3339 time`);
    now = () => new Date(t);
  }
  const kube = new KubeSource(
    loadKubeConfig({
      kubeconfig: values.kubeconfig ?? config.kubeconfig,
      ...(values.kubeconfig ? { kubeconfigFrom: '--kubeconfig' } : {}),
      context: values.context ?? config.kubeContext,
      env: io.env,
    }),
  );
  const cluster = values.cluster ?? config.cluster;
  const agent = agentLookupFromConfig(config);
  const events: RunEvent[] = [];
  // The worker's runner (playbooks, agent actions, diagnosis settings, step limits), with its
  // plans and runs in memory: no chat approval, no Redis, no audit trail.
  const { runner, playbooks } = await runnerFromConfig({
    config: { ...config, cluster, playbookDir: playbookDir(config, values.dir) },
    kube,
    store: new MemoryRunStore(),
    ...(agent ? { agent } : {}),
    ...(now ? { now } : {}),
    onEvent: (e) => {
      events.push(e);
      const line = values.json ? undefined : eventLine(e);
      if (line) io.stdout.write(`${line}\n`);
    },
  });
  const playbook = playbooks.find((p) => p.id === id);
  if (!playbook) throw new PodDoctorError('BAD_INPUT', `no playbook "${id}" (known: ${playbooks.map((p) => p.id).join(', ')})`);

  const diagnosis = await diagnoseTarget(kube, target, {
    ...diagnoseSettings(config),
    cluster,
    ...(agent ? { agent } : { agentSkipReason: 'no node agent token configured (POD_DOCTOR_AGENT_TOKEN)' }),
    ...(now ? { now } : {}),
  });
  const finding = diagnosis.findings.find((f) => playbook.matches.includes(f.rule) || f.merged.some((r) => playbook.matches.includes(r)));
  if (!finding) {
    io.stderr.write(
      `pod-doctor: ${formatTarget(target)} has no finding that ${playbook.id} remediates (${playbook.matches.join(', ')}); ` +
        `found: ${diagnosis.findings.map((f) => f.rule).join(', ') || 'nothing'}\n`,
    );
    return 2;
  }
  const plan = await runner.proposePlan(finding, diagnosis, playbook);
  if (values['dry-run']) {
    io.stdout.write(values.json ? `${JSON.stringify({ plan }, null, 2)}\n` : `${renderPlanText(plan)}\n(dry run: nothing was changed)\n`);
    return 0;
  }
  if (!values.json) io.stdout.write(`${renderPlanText(plan)}\n`);
  const result = await runner.runPlan(plan.id);
  if (values.json) io.stdout.write(`${JSON.stringify({ plan, result, events }, null, 2)}\n`);
  else if (result.status !== 'completed' && result.reason && !events.some((e) => e.type === 'refused' || e.type === 'stopped'))
    io.stdout.write(`${result.status}: ${result.reason}\n`);
  return result.status === 'completed' && result.verification?.outcome === 'fixed' ? 0 : 1;
}
