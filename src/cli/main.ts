// Command dispatch and the one place errors become exit codes: 0 diagnosed, 1 unexpected
// failure (with its stack), 2 an expected one: bad input, a missing target, no kubeconfig, an
// unreachable cluster or Redis, a port in use, a file that cannot be read (one line on stderr).
import { builtin } from '../builtin.js';
import { expectedSystemError, isPodDoctorError } from '../errors.js';
import { SimLoadError } from '../sim/errors.js';
import type { CliIo } from './io.js';

// Built-ins through require(): less resident memory in the node agent (src/builtin.ts).
const { parseArgs } = builtin('node:util') as typeof import('node:util');

type Command = (argv: string[], io: CliIo) => Promise<number | null>;

// Each command loads its own modules when it runs: the node agent on every node must not carry
// the Kubernetes client, Bolt and BullMQ it never uses (about 60 MB of resident memory).
export const COMMANDS: Record<string, { run: Command; summary: string }> = {
  diagnose: {
    run: async (argv, io) => (await import('./diagnose.js')).diagnoseCommand(argv, io),
    summary: 'diagnose a pod, node or namespace (or saved YAML with --from)',
  },
  sim: { run: async (argv, io) => (await import('./sim.js')).simCommand(argv, io), summary: 'serve saved objects as a simulated Kubernetes API on loopback' },
  demo: { run: async (argv, io) => (await import('./demo.js')).demoCommand(argv, io), summary: 'simulated cluster with the seed incidents and console chat' },
  agent: {
    run: async (argv) => (await import('../agent/cli.js')).agentMain(argv),
    summary: 'node agent: serve authenticated probes (DaemonSet), or `agent probe <name>` once',
  },
  worker: {
    run: async (argv, io) => (await import('./worker.js')).workerCommand(argv, io),
    summary: 'run diagnosis and remediation workers for a cluster (BullMQ on Redis)',
  },
  bot: {
    run: async (argv, io) => (await import('./bot.js')).botCommand(argv, io),
    summary: 'Slack bot: /pod-doctor, findings in threads, approve/deny buttons (+ in-process worker)',
  },
  audit: {
    run: async (argv, io) => (await import('./audit.js')).auditCommand(argv, io),
    summary: 'export the audit trail (approvals, denials, expiries, runs) as JSON lines',
  },
  report: {
    run: async (argv, io) => (await import('./report.js')).reportCommand(argv, io),
    summary: 'print the post-incident write-up (Markdown) of a Slack thread link or an incident id',
  },
  digest: {
    run: async (argv, io) => (await import('./digest.js')).digestCommand(argv, io),
    summary: 'print the digest: recurring causes, time to finding and to a fix, fixes run and failed, noisiest workloads',
  },
  playbook: {
    run: async (argv, io) => (await import('./playbook.js')).playbookCommand(argv, io),
    summary: 'list, validate or run remediation playbooks (run: operators with their own kubeconfig)',
  },
  completion: {
    run: async (argv, io) =>
      (await import('./completion.js')).completionCommand(argv, io, Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.summary]))),
    summary: 'print a bash or zsh completion script: source <(pod-doctor completion bash)',
  },
  version: { run: versionCommand, summary: 'print the version, the commit it was built from and the Node.js runtime (--json)' },
};

/** `pod-doctor version [--json]`, also `pod-doctor --version`: what a bug report needs to name the build. */
async function versionCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    io.stdout.write('Usage: pod-doctor version [--json]   (or pod-doctor --version)\n');
    return 0;
  }
  // io.env, not process.env: the commit is the image's POD_DOCTOR_GIT_COMMIT as this command sees it.
  const info = (await import('../version.js')).buildInfo(io.env);
  io.stdout.write(values.json ? `${JSON.stringify(info)}\n` : `pod-doctor ${info.version} (commit ${info.commit}, node ${info.node})\n`);
  return 0;
}

function usage(): string {
  return [
    'Usage: pod-doctor <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`),
    '',
    'Run `pod-doctor <command> --help` for its options, `pod-doctor --version` for the build.',
  ].join('\n');
}

/** Returns the exit code, or null for long-running commands that exit on their own. */
export async function runCli(argv: string[], io: CliIo): Promise<number | null> {
  const [first, ...rest] = argv;
  const name = first === '--version' ? 'version' : first;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`pod-doctor: unknown command "${name}"\n${usage()}\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    const expected = isPodDoctorError(err) || err instanceof SimLoadError ? err : expectedSystemError(err);
    if (expected) {
      io.stderr.write(`pod-doctor: ${expected.message}\n`);
      return 2;
    }
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`pod-doctor: ${(err as Error).message}\n`);
      return 2;
    }
    // A bug, but still one line for the person at the terminal; the stack only when asked for.
    const debug = ['debug', 'trace'].includes(io.env.LOG_LEVEL ?? '');
    const text = err instanceof Error ? ((debug ? err.stack : undefined) ?? err.message) : String(err);
    io.stderr.write(`pod-doctor: unexpected error: ${text}${debug ? '' : ' (LOG_LEVEL=debug shows where)'}\n`);
    return 1;
  }
}
