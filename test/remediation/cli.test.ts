// `pod-doctor playbook list|validate|run`: exit codes, file and field on a corrupted playbook,
// and an operator run against the simulated cluster (dry run changes nothing; a run re-checks,
// acts and verifies).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { defaultPlaybookDir } from '../../src/remediation/load.js';
import { type Cluster, kubeletStandIn, scenarioCluster, targetPod } from '../helpers/remediation.js';

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runCli(args, { stdout, stderr, env: { NO_COLOR: '1', LOG_LEVEL: 'silent', ...env } });
  return { code, out, err };
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pd-cli-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('pod-doctor playbook list / validate', () => {
  it('lists the playbooks as JSON', async () => {
    const { code, out } = await run(['playbook', 'list', '--json']);
    expect(code).toBe(0);
    const list = JSON.parse(out) as { id: string; risk: string; approvals: number; matches: string[] }[];
    expect(list).toHaveLength(12);
    expect(list.find((p) => p.id === 'contain-cascade')).toMatchObject({ risk: 'high', approvals: 2, matches: ['node.notready-cascade'] });
  });

  it('validates the shipped playbooks', async () => {
    const { code, out } = await run(['playbook', 'validate']);
    expect(code).toBe(0);
    expect(out).toMatch(/^ok: 12 playbooks in /);
  });

  it('exits non-zero naming the file and the field of a corrupted playbook', async () => {
    const dir = join(tmp, 'bad');
    const src = defaultPlaybookDir();
    // A copy with one step kind nobody registered and one wrongly typed field.
    mkdirSync(dir);
    for (const f of readdirSync(src)) copyFileSync(join(src, f), join(dir, f));
    writeFileSync(
      join(dir, 'unhang-fuse-mount.yaml'),
      readFileSync(join(src, 'unhang-fuse-mount.yaml'), 'utf8').replace('action: lazy-unmount', 'action: umount-everything'),
    );
    writeFileSync(join(dir, 'restart-kubelet.yaml'), readFileSync(join(src, 'restart-kubelet.yaml'), 'utf8').replace('approvals: 1', 'approvals: 3'));
    const { code, err } = await run(['playbook', 'validate', dir]);
    expect(code).toBe(1);
    expect(err).toContain(`${join(dir, 'unhang-fuse-mount.yaml')}: steps[0].action: unknown step kind "umount-everything"`);
    expect(err).toContain(`${join(dir, 'restart-kubelet.yaml')}: approvals: `);
    expect(err).toMatch(/2 problems in 2 file\(s\)/);
    // The same directory refuses to load for list/run.
    expect((await run(['playbook', 'list', '--dir', dir])).code).toBe(2);
  });
});

describe('pod-doctor playbook run (operator, own kubeconfig)', () => {
  let cluster: Cluster;
  let kubeconfig: string;
  let standIn: { stop(): void };
  beforeAll(async () => {
    cluster = await scenarioCluster('seed-003-finalizers');
    kubeconfig = join(tmp, 'kubeconfig');
    await cluster.sim.writeKubeconfig(kubeconfig);
    standIn = kubeletStandIn(cluster.kube);
  });
  afterAll(async () => {
    standIn.stop();
    await cluster.close();
  });

  it('--dry-run prints the plan and changes nothing', async () => {
    const p = targetPod(cluster);
    const ref = `${p.metadata?.namespace}/${p.metadata?.name}`;
    const { code, out, err } = await run([
      'playbook',
      'run',
      'remove-finalizers',
      '--target',
      ref,
      '--dry-run',
      '--kubeconfig',
      kubeconfig,
      '--now',
      '2026-11-21T10:00:00Z',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(`1. PATCH pod ${ref}: remove finalizers [${(p.metadata?.finalizers ?? []).join(', ')}]`);
    expect(out).toContain('(dry run: nothing was changed)');
    expect((await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? ''))?.metadata?.finalizers).toEqual(p.metadata?.finalizers);
  });

  it('refuses a playbook for which the target has no finding', async () => {
    const p = targetPod(cluster);
    const { code, err } = await run([
      'playbook',
      'run',
      'force-delete-pod',
      '--target',
      `${p.metadata?.namespace}/${p.metadata?.name}`,
      '--kubeconfig',
      kubeconfig,
      '--now',
      '2026-11-21T10:00:00Z',
    ]);
    expect(code).toBe(2);
    expect(err).toMatch(/has no finding that force-delete-pod remediates \(terminating.node-lost\); found: terminating.finalizers/);
  });

  it('runs: re-checks, acts, verifies (exit 0 when fixed)', async () => {
    const p = targetPod(cluster);
    const ref = `${p.metadata?.namespace}/${p.metadata?.name}`;
    const { code, out } = await run(['playbook', 'run', 'remove-finalizers', '--target', ref, '--kubeconfig', kubeconfig, '--now', '2026-11-21T10:00:00Z']);
    expect(out).toMatch(/step 1 done: removed finalizers/);
    expect(out).toMatch(/verified: FIXED \(the target is gone\)/);
    expect(code).toBe(0);
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).toBeNull();
  });
});
