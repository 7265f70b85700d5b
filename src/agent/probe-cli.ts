// `pod-doctor agent probe <name> ...`: run one probe on this node and print its outcome, with the
// same input checks as the server's `GET /v1/probes/<name>`.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { isProbeName, PROBE_NAMES, runNamedProbe } from '../probes/index.js';
import { type CliIo, defaultIo, envOptions, probeEnvFrom } from './cli-common.js';
import { paramsFromQuery, probeQuerySchema } from './probe-requests.js';

export const PROBE_USAGE = `usage: pod-doctor agent probe <name> [--proc-root D] [--host-root D] [--pod-uid U] [--match TEXT]...
       [--container-id ID]... [--namespace NS] [--name POD] [--pod-ip IP] [--pid N]
       [--docker-socket PATH]... [--log-file PATH]... [--timeout-ms N] [--json]
probes: ${PROBE_NAMES.join(', ')}
`;

/** `pod-doctor agent probe <name> ...`: 0 when the probe succeeded, 1 when it failed, 2 on bad usage. */
export async function runProbeCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        ...envOptions,
        'pod-uid': { type: 'string' },
        match: { type: 'string', multiple: true },
        'container-id': { type: 'string', multiple: true },
        namespace: { type: 'string' },
        name: { type: 'string' },
        'pod-ip': { type: 'string' },
        pid: { type: 'string' },
        'timeout-ms': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.stderr(`${err instanceof Error ? err.message : String(err)}\n${PROBE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(PROBE_USAGE);
    return 0;
  }
  const name = positionals[0];
  if (!name || positionals.length > 1 || !isProbeName(name)) {
    io.stderr(`${name ? `unknown probe "${name}"\n` : ''}${PROBE_USAGE}`);
    return 2;
  }
  const query = probeQuerySchema.safeParse({
    podUid: values['pod-uid'],
    match: values.match,
    containerId: values['container-id'],
    namespace: values.namespace,
    name: values.name,
    podIp: values['pod-ip'],
    pid: values.pid,
  });
  if (!query.success) {
    io.stderr(`${query.error.issues.map((i) => `--${String(i.path[0] ?? '')}: ${i.message}`).join('\n')}\n`);
    return 2;
  }
  const timeout = z.coerce.number().int().positive().max(600_000).optional().safeParse(values['timeout-ms']);
  if (!timeout.success) {
    io.stderr('--timeout-ms: expected a positive number of milliseconds\n');
    return 2;
  }
  const env = probeEnvFrom(values);
  if (timeout.data) env.timeouts = { [name]: timeout.data };
  const outcome = await runNamedProbe(name, paramsFromQuery(name, query.data), env);
  io.stdout(values.json ? `${JSON.stringify(outcome)}\n` : `${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.ok && outcome.error.startsWith('bad parameters')) return 2;
  return outcome.ok ? 0 : 1;
}
