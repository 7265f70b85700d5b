// `kubectl pod-doctor ...` runs `pod-doctor ...`: installed the way npm installs a bin (a link
// named kubectl-pod_doctor on PATH to bin/kubectl-pod_doctor.js), run by kubectl. A real kubectl
// when this machine has one; always also a stand-in that does what kubectl does with a command it
// does not know, so the suite means the same on a machine without kubectl.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../..');
const FIXTURE = join(REPO, 'test/fixtures/incidents/seed-003-finalizers');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

// kubectl's plugin lookup (KEP-2379): the words before the first flag, each word's "-" → "_",
// joined with "-"; the longest name found on PATH wins and is executed with the remaining
// arguments; kubectl exits with the plugin's exit code.
const FAKE_KUBECTL = `#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
const args = process.argv.slice(2);
const words = [];
for (const a of args) {
  if (a.startsWith('-')) break;
  words.push(a.replaceAll('-', '_'));
}
for (let n = words.length; n > 0; n--) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, 'kubectl-' + words.slice(0, n).join('-'));
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    process.exit(spawnSync(file, args.slice(n), { stdio: 'inherit' }).status ?? 1);
  }
}
process.stderr.write('error: unknown command "' + args[0] + '" for "kubectl"\\n');
process.exit(1);
`;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A kubectl from the envtest build's cache, else one on PATH, else none. */
function realKubectl(): string | undefined {
  const cache = process.env.POD_DOCTOR_ENVTEST_CACHE ?? join(homedir(), '.cache/pod-doctor/envtest');
  const cached = globSync(join(cache, '*/bin/kubectl')).filter(executable);
  if (cached[0]) return cached[0];
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'kubectl'))
    .find(executable);
}

const dir = mkdtempSync(join(tmpdir(), 'pd-kubectl-plugin-'));
const plugins = join(dir, 'bin');
const fake = join(dir, 'fake', 'kubectl');

const kubectls: Array<[string, string]> = [['a stand-in kubectl', fake]];
const real = realKubectl();
if (real) kubectls.unshift([`kubectl (${real})`, real]);

function run(kubectl: string, args: string[]) {
  const r = spawnSync(kubectl, args, {
    cwd: dir,
    // The plugin's `#!/usr/bin/env node` finds this Node first (the system one may be older).
    env: { PATH: [plugins, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter), HOME: dir, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

beforeAll(() => {
  // What `npm install -g pod-doctor` puts on PATH: a link named after the plugin.
  mkdirSync(plugins);
  symlinkSync(join(REPO, 'bin/kubectl-pod_doctor.js'), join(plugins, 'kubectl-pod_doctor'));
  mkdirSync(dirname(fake));
  writeFileSync(fake, FAKE_KUBECTL, { mode: 0o755 });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(kubectls)('kubectl pod-doctor, run by %s', (_name, kubectl) => {
  it('answers --version', () => {
    const r = run(kubectl, ['pod-doctor', '--version']);
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`pod-doctor ${VERSION} (commit unknown, node ${process.version})\n`);
  });

  it('diagnoses saved objects with every argument passed through', () => {
    const r = run(kubectl, ['pod-doctor', 'diagnose', 'reports/report-6f7d8-xk2lq', '--from', FIXTURE, '--json', '--now', '2026-11-21T10:00:00Z']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { target: unknown; findings: Array<{ rule: string; playbook: string | null }> };
    expect(json.target).toEqual({ kind: 'pod', namespace: 'reports', name: 'report-6f7d8-xk2lq' });
    expect(json.findings[0]).toMatchObject({ rule: 'terminating.finalizers', playbook: 'remove-finalizers' });
  });

  it("exits with pod-doctor's exit code and one clear line for a target that is not there", () => {
    const r = run(kubectl, ['pod-doctor', 'diagnose', 'reports/no-such-pod', '--from', FIXTURE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pod-doctor: pod "reports\/no-such-pod" not found/);
    expect(r.stdout).toBe('');
  });
});
