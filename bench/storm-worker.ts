// One worker process of bench:storm: exactly what `pod-doctor worker` runs.
import { workerCommand } from '../src/cli/worker.js';

const code = await workerCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exit(code);
