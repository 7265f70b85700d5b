// `pod-doctor sim <FILE|DIR>... [--port N] [--write-kubeconfig F]`: serve saved objects as a
// Kubernetes API on loopback until stopped.
import { parseArgs } from 'node:util';
import { PodDoctorError } from '../errors.js';
import { loadObjects } from '../sim/load.js';
import { startSim } from '../sim/server.js';
import type { CliIo } from './io.js';

export const SIM_USAGE = `Usage: pod-doctor sim <FILE|DIR>... [--port N] [--write-kubeconfig FILE] [--token T]
  Serves the objects (YAML/JSON, multi-document or List) as a Kubernetes API on 127.0.0.1.
  --port N                 port (0 = a free one; default 0)
  --write-kubeconfig FILE  write a kubeconfig for it once it listens
  --token T                require this bearer token`;

export async function simCommand(argv: string[], io: CliIo): Promise<number | null> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '0' },
      'write-kubeconfig': { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(`${SIM_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new PodDoctorError('BAD_INPUT', `sim needs at least one file or directory\n${SIM_USAGE}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new PodDoctorError('BAD_INPUT', `--port "${values.port}" is not a port number`);
  const objects = await loadObjects(positionals);
  const sim = await startSim({ objects, port, token: values.token });
  if (values['write-kubeconfig']) await sim.writeKubeconfig(values['write-kubeconfig']);
  io.stdout.write(
    `simulated cluster: ${sim.url} (${objects.length} objects)${values['write-kubeconfig'] ? `, kubeconfig ${values['write-kubeconfig']}` : ''}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sim.close();
  return 0;
}
