// Expected failures, each in its own process as a user meets it: exit code 2 and one line saying
// what is wrong and where it looked, never a stack trace (issue 33.7). The roles log JSON lines on
// stderr as they start; the line for the person is the one that is not a log entry.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, REDIS_URL, testPrefix } from '../helpers/jobs.js';

const REPO = join(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin/pod-doctor.js');
const dir = mkdtempSync(join(tmpdir(), 'pd-expected-'));
const home = join(dir, 'home');
const FIXTURE = join(REPO, 'test/fixtures/incidents/seed-003-finalizers');
const KUBECONFIG = join(dir, 'kubeconfig');
const TOKEN = join(dir, 'token');

let blocker: Server;
let taken: number;

beforeAll(async () => {
  mkdirSync(home);
  mkdirSync(join(dir, 'a-directory'));
  writeFileSync(TOKEN, 'expected-errors-token-0123456789\n');
  writeFileSync(
    KUBECONFIG,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]',
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: staging, context: {cluster: c, user: u}}, {name: prod-eu, context: {cluster: c, user: u}}]',
      'current-context: staging',
      '',
    ].join('\n'),
  );
  // A port some other program holds, on every address (as the bot and the agent listen).
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
  taken = (blocker.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function podDoctor(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      // Exactly this environment: no KUBECONFIG, REDIS_URL or config of the machine running the tests.
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pod-doctor ${args.join(' ')} did not exit within 30 s; stderr: ${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** stderr without the roles' JSON log entries: what a person reads. */
function humanLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.trim() !== '')
    .filter((l) => {
      try {
        return typeof (JSON.parse(l) as { level?: unknown }).level !== 'number';
      } catch {
        return true;
      }
    });
}

function expectOneLine(r: { code: number | null; stderr: string }, says: RegExp) {
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.code, r.stderr).toBe(2);
  const lines = humanLines(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(says);
}

describe('an expected failure is one line and exit code 2', () => {
  it('no kubeconfig: says where it looked', async () => {
    expectOneLine(
      await podDoctor(['diagnose', 'shop/web']),
      /^pod-doctor: no kubeconfig: KUBECONFIG is not set and ~\/\.kube\/config \(.*home\/\.kube\/config\)/,
    );
  });

  it('no file of $KUBECONFIG exists: names them', async () => {
    const r = await podDoctor(['diagnose', 'shop/web'], { KUBECONFIG: `${join(dir, 'gone-1')}:${join(dir, 'gone-2')}` });
    expectOneLine(r, /^pod-doctor: no kubeconfig: no file of .*gone-1:.*gone-2 \(\$KUBECONFIG\) exists/);
  });

  it('--kubeconfig names a file that is not there', async () => {
    expectOneLine(
      await podDoctor(['diagnose', 'shop/web', '--kubeconfig', join(dir, 'gone')]),
      /^pod-doctor: no kubeconfig: .*gone \(--kubeconfig\) does not exist/,
    );
  });

  it('an unknown --context: lists the contexts there are', async () => {
    const r = await podDoctor(['diagnose', 'shop/web', '--context', 'prod-us'], { KUBECONFIG });
    expectOneLine(r, /^pod-doctor: context "prod-us" is not in the kubeconfig .*; its contexts: staging, prod-eu$/);
  });

  it('Redis unreachable (audit export): names the URL without its password', async () => {
    const port = await freePort();
    const r = await podDoctor(['audit', 'export', '--since', '1d'], { REDIS_URL: `redis://user:s3cret@127.0.0.1:${port}/2` });
    expectOneLine(r, new RegExp(`^pod-doctor: cannot reach Redis at redis://127\\.0\\.0\\.1:${port}/2 \\(REDIS_URL\\): .*ECONNREFUSED`));
    expect(r.stderr).not.toContain('s3cret');
  });

  it("the bot's port is in use", async () => {
    const r = await podDoctor(['bot', '--no-worker'], {
      PORT: String(taken),
      SLACK_BOT_TOKEN: 'xoxb-expected-errors',
      SLACK_SIGNING_SECRET: 'expected-errors-secret',
      // An address nothing answers on: the bot fails at its port, not at Slack's.
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      REDIS_URL,
      POD_DOCTOR_REDIS_PREFIX: testPrefix('expected-errors'),
    });
    expectOneLine(r, new RegExp(`^pod-doctor: cannot listen on 0\\.0\\.0\\.0:${taken}: the port is already in use`));
  });

  it("the agent's port is in use", async () => {
    const r = await podDoctor(['agent', '--port', String(taken), '--plain-http', '--token-file', TOKEN]);
    expectOneLine(r, new RegExp(`^cannot start the agent: cannot listen on 0\\.0\\.0\\.0:${taken}: the port is already in use`));
  });

  it.each([
    [['diagnose', 'shop/web', '--config', join(dir, 'gone.yaml')], /^pod-doctor: cannot read the config file .*gone\.yaml \(--config\): no such file/],
    [['diagnose', 'shop/web', '--config', join(dir, 'a-directory')], /^pod-doctor: cannot read the config file .*a-directory \(--config\): a directory/],
    [['diagnose', 'shop/web', '--from', join(dir, 'gone.yaml')], /^pod-doctor: cannot read .*gone\.yaml: .*no such file/i],
    [['sim', join(dir, 'gone.yaml')], /^pod-doctor: cannot read .*gone\.yaml: .*no such file/i],
  ])('a file that cannot be read: %j', async (args, says) => {
    expectOneLine(await podDoctor(args), says);
  });

  it('a healthy run still works (the same process, the same fixture)', async () => {
    const r = await podDoctor(['diagnose', 'reports/report-6f7d8-xk2lq', '--from', FIXTURE, '--now', '2026-11-21T10:00:00Z']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
