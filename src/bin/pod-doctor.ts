// The one binary: `pod-doctor <command>`. Each role (bot, worker, agent, sim) is a command.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMMANDS, runCli } from '../cli/main.js';

export { COMMANDS };

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url)) || /bin\/pod-doctor(\.js)?$/.test(process.argv[1] ?? '');
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
  if (code !== null) process.exitCode = code;
}
