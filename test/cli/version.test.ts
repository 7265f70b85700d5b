// `pod-doctor --version` as its own process: one line naming the package version, the commit the
// image was built from (POD_DOCTOR_GIT_COMMIT, a Dockerfile ARG) and the Node.js runtime.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../..');
const BIN = join(REPO, 'src/bin/pod-doctor.ts');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

function podDoctor(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('pod-doctor --version', () => {
  it.each([['--version'], ['version']])('`%s` prints version, commit and runtime, and exits 0', (arg) => {
    const r = podDoctor([arg], { POD_DOCTOR_GIT_COMMIT: 'abc1234' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The child runs this same Node binary, so its runtime is ours.
    expect(r.stdout).toBe(`pod-doctor ${VERSION} (commit abc1234, node ${process.version})\n`);
  });

  it('says "unknown" for a build without a commit (a checkout)', () => {
    const r = podDoctor(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`pod-doctor ${VERSION} (commit unknown, node ${process.version})\n`);
  });

  it('prints JSON for scripts with --json', () => {
    const r = podDoctor(['--version', '--json'], { POD_DOCTOR_GIT_COMMIT: '0123456789abcdef0123456789abcdef01234567' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: VERSION, commit: '0123456789abcdef0123456789abcdef01234567', node: process.version });
  });

  it('lists itself in the usage', () => {
    const r = podDoctor(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}version {4}/m);
    expect(r.stdout).toContain('pod-doctor --version');
  });

  it('refuses an argument it does not take, with exit code 2', () => {
    const r = podDoctor(['--version', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pod-doctor: .*extra/);
    expect(r.stdout).toBe('');
  });
});
