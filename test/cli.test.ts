// The CLI contract: exit codes, one-line errors, the --json shape, and the same answer from
// saved files and from a simulated cluster.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS, runCli } from '../src/cli/main.js';
import { SimLoadError } from '../src/sim/errors.js';
import { loadScenario } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/incidents/seed-003-finalizers');

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runCli(args, { stdout, stderr, env: { NO_COLOR: '1', ...env } });
  return { code, out, err };
}

describe('pod-doctor diagnose', () => {
  it('prints JSON findings from saved objects', async () => {
    const { code, out, err } = await run(['diagnose', 'reports/report-6f7d8-xk2lq', '--from', FIXTURE, '--json', '--now', '2026-11-21T10:00:00Z']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(out) as {
      target: unknown;
      findings: { rule: string; evidence: { source: string; text: string }[]; advice: string[]; playbook: string | null }[];
      skipped: unknown[];
    };
    expect(json.target).toEqual({ kind: 'pod', namespace: 'reports', name: 'report-6f7d8-xk2lq' });
    expect(json.findings[0]?.rule).toBe('terminating.finalizers');
    expect(json.findings[0]?.playbook).toBe('remove-finalizers');
    expect(json.findings[0]?.evidence[0]).toHaveProperty('source');
    expect(Array.isArray(json.skipped)).toBe(true);
  });

  it('prints readable text', async () => {
    const { code, out } = await run(['diagnose', 'reports/report-6f7d8-xk2lq', '--from', FIXTURE, '--now', '2026-11-21T10:00:00Z']);
    expect(code).toBe(0);
    expect(out).toMatch(/foregroundDeletion/);
    expect(out).toMatch(/Playbook: remove-finalizers/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is checked
    expect(out).not.toMatch(/\x1b\[/); // no colour when not a TTY
  });

  it('gives the same findings against the simulated cluster', async () => {
    const scenario = await loadScenario(FIXTURE);
    const sim = await startSim({ objects: scenario.objects });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'pd-cli-'));
      const kubeconfig = join(dir, 'kubeconfig');
      await writeFile(kubeconfig, sim.kubeconfig());
      const live = await run(['diagnose', 'reports/report-6f7d8-xk2lq', '--kubeconfig', kubeconfig, '--json', '--now', '2026-11-21T10:00:00Z']);
      const saved = await run(['diagnose', 'reports/report-6f7d8-xk2lq', '--from', FIXTURE, '--json', '--now', '2026-11-21T10:00:00Z']);
      expect(live.code).toBe(0);
      expect(JSON.parse(live.out).findings).toEqual(JSON.parse(saved.out).findings);
    } finally {
      await sim.close();
    }
  });

  it.each([
    [['diagnose', 'Not A Target'], /not a valid target/],
    [['diagnose', 'reports/no-such-pod', '--from', FIXTURE], /pod "reports\/no-such-pod" not found/],
    [['diagnose'], /expected one target/],
    [['diagnose', 'a/b', '--bogus'], /Unknown option/],
    [['nope'], /unknown command "nope"/],
  ])('exits 2 with one clear line: %j', async (args, message) => {
    const { code, err, out } = await run(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')[0]).toMatch(/^pod-doctor: /);
    expect(out).toBe('');
  });

  it('prints a bug as one line, without a stack unless LOG_LEVEL=debug', async () => {
    COMMANDS.boom = {
      summary: 'throws',
      run: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'spec')");
      },
    };
    try {
      const plain = await run(['boom']);
      expect(plain.code).toBe(1);
      expect(plain.err).toBe("pod-doctor: unexpected error: Cannot read properties of undefined (reading 'spec') (LOG_LEVEL=debug shows where)\n");
      const debug = await run(['boom'], { LOG_LEVEL: 'debug' });
      expect(debug.err).toMatch(/^pod-doctor: unexpected error: TypeError: Cannot read properties[^\n]*\n\s+at /);
    } finally {
      delete COMMANDS.boom;
    }
  });

  it('names the two incident fixtures that collide in one line when one cluster cannot hold them', async () => {
    COMMANDS.collide = {
      summary: 'collides',
      run: async () => {
        throw new SimLoadError('SIM_INVALID', 'scenarios a and b define Namespace shop differently (metadata.uid: "1" vs "2"); one cluster cannot hold both');
      },
    };
    try {
      const { code, err } = await run(['collide']);
      expect(code).toBe(2);
      expect(err).toBe('pod-doctor: scenarios a and b define Namespace shop differently (metadata.uid: "1" vs "2"); one cluster cannot hold both\n');
    } finally {
      delete COMMANDS.collide;
    }
  });

  it('exits 2 when the cluster is unreachable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pd-cli-'));
    const kubeconfig = join(dir, 'kubeconfig');
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    await writeFile(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:9", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    const { code, err } = await run(['diagnose', 'shop/web', '--kubeconfig', kubeconfig]);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot reach the cluster at http:\/\/127\.0\.0\.1:9/);
  });
});
