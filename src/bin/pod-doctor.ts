// The one binary: `pod-doctor <command>`. Each role (bot, worker, agent, sim) is a command.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { builtin } from '../builtin.js';
import { COMMANDS, runCli } from '../cli/main.js';

// Built-ins through require(): less resident memory in the node agent (src/builtin.ts).
const { realpathSync } = builtin('node:fs') as typeof import('node:fs');

export { COMMANDS };

/** How long a finished command's process may take to wind down on its own (inside every grace period's margin). */
const EXIT_GRACE_MS = 1000;

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url)) || /bin\/pod-doctor(\.js)?$/.test(process.argv[1] ?? '');
  } catch {
    return false;
  }
})();

/**
 * `node dist/bin/pod-doctor.js` (the image's entrypoint) and `tsx src/bin/pod-doctor.ts` do not pass
 * through bin/: the same Node.js check, from bin/node-check.js where the package has it (the image,
 * built on Node 24, does not ship bin/).
 */
function checkNode(): void {
  try {
    createRequire(import.meta.url)('../../bin/node-check.js');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
  }
}

if (invokedDirectly) {
  checkNode();
  const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
  if (code !== null) {
    process.exitCode = code;
    // The command is done, so is the process: a handle some library left open (a socket still
    // reconnecting, a thread that would not stop) must not keep a stopped pod Terminating until
    // SIGKILL. Unref'd: a clean command exits before it fires.
    const exitWhenFlushed = () => {
      // Output still on its way to a slow reader (`diagnose ... | less`: pipes write
      // asynchronously) is not a leak; exiting would cut it.
      if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) {
        setTimeout(exitWhenFlushed, 100).unref();
        return;
      }
      // After an expected failure (exit 2) its one line is all the user needs: a role that failed
      // half-way through starting leaves connections behind, which are no news.
      if (code !== 2) process.stderr.write(`pod-doctor: exiting with handles still open: ${process.getActiveResourcesInfo().join(', ')}\n`);
      process.exit();
    };
    setTimeout(exitWhenFlushed, EXIT_GRACE_MS).unref();
  }
}
