// `pod-doctor <args>` in this process, its output captured: what the integration suites run.
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { Gap } from '../../src/diagnosis/types.js';

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

/** What `pod-doctor diagnose --json` prints, as far as the integration suites read it. */
export interface FindingJson {
  rule: string;
  severity: string;
  title: string;
  cause: string;
  evidence: Array<{ source: string; text: string }>;
  playbook?: string;
}
export interface DiagnosisJson {
  findings: FindingJson[];
  skipped: Gap[];
}
