// `pod-doctor <args>` in this process, its output captured: what the integration suites run.
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        append(String(chunk));
        cb();
      },
    });
  const code = await runCli(args, {
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    env: { NO_COLOR: '1', ...env },
  });
  return { code, stdout, stderr };
}
