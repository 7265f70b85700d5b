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
  merged?: string[];
}
export interface DiagnosisJson {
  findings: FindingJson[];
  skipped: Gap[];
}

/** What `pod-doctor playbook run --json` prints, as far as the integration suites read it. */
export interface PlaybookRunJson {
  code: number | null;
  result: any;
  events: any[];
  plan: any;
}

/**
 * `pod-doctor playbook run <id> --target <target> --json <args>`, with a one-line account of the
 * run (status, steps, verification) written through `log`.
 */
export async function runPlaybook(
  id: string,
  target: string,
  args: string[],
  env: Record<string, string>,
  log: (label: string, value: unknown) => void,
): Promise<PlaybookRunJson> {
  const res = await cli(['playbook', 'run', id, '--target', target, '--json', ...args], env);
  if (!res.stdout.trim().startsWith('{')) throw new Error(`pod-doctor playbook run ${id} exited ${res.code}: ${res.stderr}${res.stdout}`);
  const out = JSON.parse(res.stdout) as Omit<PlaybookRunJson, 'code'>;
  log(`playbook ${id} on ${target}`, {
    code: res.code,
    status: out.result.status,
    steps: out.result.steps.map((s: any) => `${s.action}: ${s.state}${s.detail ? ` (${s.detail})` : ''}${s.error ? ` (${s.error})` : ''}`),
    verification: out.result.verification?.outcome,
  });
  return { code: res.code, ...out };
}
