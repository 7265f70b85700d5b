// `pod-doctor agent` (serve the probe API) and `pod-doctor agent probe <name>` (run one probe on
// this node and print its outcome): the same probes, the same input checks, no server needed.
import { builtin } from '../builtin.js';
import { expectedSystemError } from '../errors.js';
import { log } from '../log.js';
import { SHUTDOWN_SECONDS_RANGE, shutdown, shutdownDeadlineMs, untilSignal } from '../shutdown.js';
import type { HostExecOptions } from './actions/host-exec.js';
import { RUNTIME_CHOICES, type RuntimeChoice } from './actions/host-exec-runtime.js';
import { type CliIo, defaultIo, envOptions, probeEnvFrom } from './cli-common.js';
import { type RunningAgent, startAgent } from './server.js';
import { readTlsFiles, type TlsFiles, watchTlsFiles } from './tls-files.js';

// Built-ins through require(): less resident memory in the node agent (src/builtin.ts).
const { readFile } = builtin('node:fs/promises') as typeof import('node:fs/promises');
const { hostname } = builtin('node:os') as typeof import('node:os');
const { parseArgs } = builtin('node:util') as typeof import('node:util');

export type { CliIo } from './cli-common.js';

// Serving checks its few settings by hand, not with zod: zod is about 6 MB resident and the agent
// on every node must stay within 60 MB idle (bench:rss); it loads with the first probe request.
// Each check accepts exactly what its zod form (named beside it) would; cli.test.ts compares them.

/** `z.coerce.number().int().min(min).max(max)`: the number, or undefined when it is not one of these. */
export function wholeNumberIn(raw: string, min: number, max: number): number | undefined {
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `pod-doctor agent probe ...` (probe-cli.ts): the probes load only for it. */
export async function runProbeCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  return (await import('./probe-cli.js')).runProbeCli(argv, io);
}

const SERVE_USAGE = `usage: pod-doctor agent [--port 9477] [--host 0.0.0.0] --token-file FILE [--proc-root /proc] [--host-root /]
       [--node-name NAME] [--docker-socket PATH]... [--log-file PATH]...
       --tls-cert FILE --tls-key FILE   (HTTPS, the default; env POD_DOCTOR_AGENT_TLS_CERT, POD_DOCTOR_AGENT_TLS_KEY)
       | --plain-http                   (plain HTTP, only when asked: the token crosses the network readable;
                                         env POD_DOCTOR_AGENT_PLAIN_HTTP=true)
       [--actions]   (also serve the allow-listed node actions, POST /v1/actions/<name>)
       [--runtime auto|docker|cri] [--cri-socket PATH]...   (the runtime the actions use; default auto:
                     Docker if its socket answers, else the first CRI socket that answers; env
                     POD_DOCTOR_AGENT_RUNTIME, POD_DOCTOR_AGENT_CRI_SOCKET=PATH[,PATH...])
       pod-doctor agent probe <name> ... (run one probe here; see \`pod-doctor agent probe --help\`)
`;

/**
 * The runtime the actions use: `--runtime` / `--cri-socket` first, then POD_DOCTOR_AGENT_RUNTIME
 * and POD_DOCTOR_AGENT_CRI_SOCKET (comma-separated paths). A string is the usage error.
 */
export function runtimeOptionsFrom(
  values: { runtime?: string; 'cri-socket'?: string[] },
  env: Record<string, string | undefined> = process.env,
): Pick<HostExecOptions, 'runtime' | 'criSockets'> | string {
  const raw = values.runtime ?? (env.POD_DOCTOR_AGENT_RUNTIME || undefined);
  // z.enum(RUNTIME_CHOICES).optional()
  const known = raw === undefined || (RUNTIME_CHOICES as readonly string[]).includes(raw);
  if (!known) return `--runtime (or POD_DOCTOR_AGENT_RUNTIME): expected one of ${RUNTIME_CHOICES.join(', ')}, got "${raw ?? ''}"`;
  const sockets =
    values['cri-socket'] ??
    env.POD_DOCTOR_AGENT_CRI_SOCKET?.split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  if (sockets?.some((p) => !p.startsWith('/'))) return '--cri-socket (or POD_DOCTOR_AGENT_CRI_SOCKET): expected absolute paths';
  return { ...(raw ? { runtime: raw as RuntimeChoice } : {}), ...(sockets && sockets.length > 0 ? { criSockets: sockets } : {}) };
}

/** POD_DOCTOR_AGENT_PLAIN_HTTP's spellings (unset is false). */
export const PLAIN_HTTP_VALUES = ['true', 'false', '1', '0', 'yes', 'no', ''] as const;

/**
 * HTTPS from a certificate and key file (flags first, then POD_DOCTOR_AGENT_TLS_CERT / _KEY),
 * or plain HTTP when asked (--plain-http, POD_DOCTOR_AGENT_PLAIN_HTTP=true). A string is the
 * one-line usage error: neither, both, or half a pair.
 */
export function transportFrom(
  values: { 'tls-cert'?: string; 'tls-key'?: string; 'plain-http'?: boolean },
  env: Record<string, string | undefined> = process.env,
): { tls: TlsFiles } | { plainHttp: true } | string {
  const raw = env.POD_DOCTOR_AGENT_PLAIN_HTTP;
  if (raw !== undefined && !(PLAIN_HTTP_VALUES as readonly string[]).includes(raw))
    return `POD_DOCTOR_AGENT_PLAIN_HTTP: expected true or false, got "${env.POD_DOCTOR_AGENT_PLAIN_HTTP}"`;
  const plainHttp = Boolean(values['plain-http']) || raw === 'true' || raw === '1' || raw === 'yes';
  const certFile = values['tls-cert'] ?? (env.POD_DOCTOR_AGENT_TLS_CERT || undefined);
  const keyFile = values['tls-key'] ?? (env.POD_DOCTOR_AGENT_TLS_KEY || undefined);
  if (Boolean(certFile) !== Boolean(keyFile))
    return 'the TLS certificate and key go together: --tls-cert and --tls-key (POD_DOCTOR_AGENT_TLS_CERT, POD_DOCTOR_AGENT_TLS_KEY)';
  if (certFile && keyFile && plainHttp) return 'both a TLS certificate and plain HTTP (POD_DOCTOR_AGENT_PLAIN_HTTP) are set: choose one';
  if (certFile && keyFile) return { tls: { certFile, keyFile } };
  if (plainHttp) return { plainHttp: true };
  return (
    'the agent serves HTTPS: set POD_DOCTOR_AGENT_TLS_CERT and POD_DOCTOR_AGENT_TLS_KEY (--tls-cert, --tls-key) to its certificate and key files, ' +
    'or POD_DOCTOR_AGENT_PLAIN_HTTP=true (--plain-http) to serve plain HTTP'
  );
}

const SERVE_OPTIONS = {
  ...envOptions,
  port: { type: 'string' },
  host: { type: 'string' },
  'token-file': { type: 'string' },
  'node-name': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'plain-http': { type: 'boolean' },
  actions: { type: 'boolean' },
  runtime: { type: 'string' },
  'cri-socket': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

type ServeValues = ReturnType<typeof parseArgs<{ args: string[]; options: typeof SERVE_OPTIONS }>>['values'];

/** Everything serving needs, checked before anything listens; a string is the usage error. */
async function serveSettings(values: ServeValues) {
  const port = values.port === undefined ? 9477 : wholeNumberIn(values.port, 0, 65535);
  if (port === undefined) return '--port: expected a port number';
  const runtime = runtimeOptionsFrom(values);
  if (typeof runtime === 'string') return runtime;
  const rawShutdown = process.env.POD_DOCTOR_SHUTDOWN_SECONDS || undefined;
  const shutdownSeconds = rawShutdown === undefined ? undefined : wholeNumberIn(rawShutdown, SHUTDOWN_SECONDS_RANGE.min, SHUTDOWN_SECONDS_RANGE.max);
  if (rawShutdown !== undefined && shutdownSeconds === undefined) return 'POD_DOCTOR_SHUTDOWN_SECONDS: expected a whole number of seconds (1-3600)';
  let token = process.env.POD_DOCTOR_AGENT_TOKEN;
  if (values['token-file']) {
    try {
      token = (await readFile(values['token-file'], 'utf8')).trim();
    } catch (err) {
      return `cannot read --token-file: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  if (!token) return `a bearer token is required: --token-file FILE (or POD_DOCTOR_AGENT_TOKEN)\n${SERVE_USAGE.trimEnd()}`;
  const transport = transportFrom(values);
  if (typeof transport === 'string') return transport;
  let tls: { files: TlsFiles; pair: { cert: Buffer; key: Buffer } } | undefined;
  if ('tls' in transport) {
    try {
      tls = { files: transport.tls, pair: await readTlsFiles(transport.tls) };
    } catch (err) {
      return (err as Error).message;
    }
  }
  return { port, runtime, deadlineMs: shutdownDeadlineMs('agent', shutdownSeconds), token, tls };
}

/** `pod-doctor agent [...]` and `pod-doctor agent probe <name> [...]`. Serving resolves on SIGTERM/SIGINT. */
export async function agentMain(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const args = argv[0] === 'agent' ? argv.slice(1) : argv;
  if (args[0] === 'probe') return runProbeCli(args.slice(1), io);
  let values: ServeValues;
  try {
    values = parseArgs({ args, allowPositionals: false, strict: true, options: SERVE_OPTIONS }).values;
  } catch (err) {
    io.stderr(`${err instanceof Error ? err.message : String(err)}\n${SERVE_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout(SERVE_USAGE);
    return 0;
  }
  const settings = await serveSettings(values);
  if (typeof settings === 'string') {
    io.stderr(`${settings}\n`);
    return 2;
  }
  const { runtime, deadlineMs, tls } = settings;
  const env = probeEnvFrom(values);
  const nodeName = values['node-name'] ?? process.env.NODE_NAME ?? hostname();
  const logger = log.child({ role: 'agent', node: nodeName });
  // Actions change the node (restart a unit, unmount): only when the operator turns them on.
  // Loaded only then: their schemas and the runtime clients are no weight on a read-only agent.
  const actionsModule = values.actions ? await import('./actions/index.js') : undefined;
  const actions = actionsModule
    ? actionsModule.createActionHandler({
        exec: actionsModule.createHostExec({ hostRoot: env.hostRoot, dockerSockets: env.dockerSockets, ...runtime }),
        probeEnv: env,
        nodeName,
        log: logger,
      })
    : undefined;
  // prom-client is loaded here, by the serving agent only.
  const { createAgentMetrics } = await import('./metrics.js');
  let agent: RunningAgent;
  try {
    agent = await startAgent({
      port: settings.port,
      host: values.host,
      token: settings.token,
      ...(tls ? { tls: tls.pair } : { plainHttp: true }),
      procRoot: env.procRoot,
      hostRoot: env.hostRoot,
      nodeName,
      probeEnv: env,
      actions,
      metrics: createAgentMetrics(),
    });
  } catch (err) {
    // A port in use is the operator's to fix (exit 2, one line); anything else is a bug.
    const expected = expectedSystemError(err);
    io.stderr(`cannot start the agent: ${expected ? expected.message : err instanceof Error ? err.message : String(err)}\n`);
    return expected ? 2 : 1;
  }
  const renewals = tls ? watchTlsFiles(tls.files, tls.pair, (next) => agent.reloadTls(next), logger) : undefined;
  const signal = await untilSignal();
  renewals?.stop();
  logger.info({ signal, deadlineMs }, 'agent stopping');
  await shutdown({
    logger,
    deadlineMs,
    // Probes and node actions in flight get their answers; whatever is still open at the
    // deadline is dropped (the worker sees a failed request and records a gap).
    steps: [{ name: 'answer requests in flight', run: () => agent.drain() }],
    hardStops: [() => agent.close()],
  });
  return 0;
}
