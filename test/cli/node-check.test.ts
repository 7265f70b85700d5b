// Every entry point checks the Node.js runtime before it loads anything that needs Node 24: an
// older Node gets one line saying what is needed and how to get it, and exit code 2 (not undici's
// stack trace from deep inside an import). Run with an older Node found on PATH when this machine
// has one, and always with this Node reporting an older version.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../..');
const ENTRIES = Object.values((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin);
const { nodeProblem, requiredMajor } = createRequire(import.meta.url)('../../bin/node-check.js') as {
  nodeProblem: (version: string) => string | null;
  requiredMajor: () => number;
};

const dir = mkdtempSync(join(tmpdir(), 'pd-node-check-'));
const PRETEND_OLD = join(dir, 'old.cjs');
writeFileSync(PRETEND_OLD, "Object.defineProperty(process, 'version', { value: 'v20.11.1' });\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `node` on PATH older than required (the system one on a machine with Node 20), if any. */
function olderNode(): { path: string; version: string } | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(d, 'node');
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    const version = spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
    if (major > 0 && major < requiredMajor()) return { path: file, version };
  }
  return undefined;
}
const older = olderNode();

function run(node: string, args: string[], cwd = dir) {
  const r = spawnSync(node, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: dir }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectOneLineRefusal(r: ReturnType<typeof run>, found: string) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`needs Node.js >= ${requiredMajor()} (found ${found}`);
  expect(lines[0]).toContain('put it first on PATH');
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('the Node.js check of every entry point', () => {
  it('asks for the major version package.json engines names', () => {
    const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${requiredMajor()}`);
    expect(requiredMajor()).toBeGreaterThanOrEqual(24);
  });

  it.each([
    ['v20.11.1', false],
    [`v${requiredMajor() - 1}.99.0`, false],
    [`v${requiredMajor()}.0.0`, true],
    [`v${requiredMajor() + 1}.2.3`, true],
  ])('%s is enough: %s', (version, enough) => {
    expect(nodeProblem(version) === null).toBe(enough);
  });

  it.each(ENTRIES)('%s refuses an older Node in one line, exit 2', (entry) => {
    expectOneLineRefusal(run(process.execPath, ['--require', PRETEND_OLD, join(REPO, entry), 'diagnose', 'shop/web']), 'v20.11.1');
  });

  it.skipIf(!older).each(ENTRIES)('%s refuses the older node on PATH in one line, exit 2', (entry) => {
    expectOneLineRefusal(run(older!.path, [join(REPO, entry), '--version']), older!.version);
  });

  it('src/bin/pod-doctor.ts (what the image and tsx run) refuses an older Node the same way', () => {
    const r = run(process.execPath, ['--require', PRETEND_OLD, '--import', 'tsx', join(REPO, 'src/bin/pod-doctor.ts'), '--version'], REPO);
    expectOneLineRefusal(r, 'v20.11.1');
  });

  it.each(ENTRIES)('%s runs on this Node', (entry) => {
    const r = run(process.execPath, [join(REPO, entry), '--version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`node ${process.version}`);
  });
});
