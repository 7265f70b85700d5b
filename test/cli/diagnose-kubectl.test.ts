// `pod-doctor diagnose` as a kubectl user types it, against the simulated API server: -n, the
// kubeconfig context's namespace, pod/NAME, deploy|sts|ds|job/NAME (its unhealthy pods, worst
// first), -o json|yaml (--json kept), and what it refuses before reading anything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { SEVERITY_ORDER, type Severity } from '../../src/diagnosis/types.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { cli } from '../helpers/cli.js';
import { crashedPod, NOW, pod, uid, unscheduledPod, waitingPod } from '../helpers/factories.js';

const owner = (kind: string, name: string, apiVersion = 'apps/v1') => ({
  metadata: { ownerReferences: [{ apiVersion, kind, name, uid: uid(), controller: true }] },
});

function workload(kind: string, name: string, selector: Record<string, string>, spec: Record<string, unknown> = {}, apiVersion = 'apps/v1') {
  return {
    apiVersion,
    kind,
    metadata: { name, namespace: 'shop', uid: uid(), creationTimestamp: NOW },
    spec: { selector: { matchLabels: selector }, ...spec },
  };
}

const RS = 'web-7d9f8c6b5';
const OBJECTS = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
  workload('Deployment', 'web', { app: 'web' }, { replicas: 3 }),
  (() => {
    const rs = workload('ReplicaSet', RS, { app: 'web' }, { replicas: 3 });
    return { ...rs, metadata: { ...rs.metadata, ...owner('Deployment', 'web').metadata } };
  })(),
  pod({ metadata: { name: `${RS}-healthy`, ...owner('ReplicaSet', RS).metadata } }),
  crashedPod({ exitCode: 1, restarts: 9 }, { metadata: { name: `${RS}-crashing`, ...owner('ReplicaSet', RS).metadata } }),
  waitingPod('ImagePullBackOff', 'Back-off pulling image "registry.example.com/shop/web:1.4.3"', {
    metadata: { name: `${RS}-pulling`, ...owner('ReplicaSet', RS).metadata },
  }),
  workload('Deployment', 'api', { app: 'api' }, { replicas: 1 }),
  pod({ metadata: { name: 'api-5c6d7-ok', labels: { app: 'api' }, ...owner('ReplicaSet', 'api-5c6d7').metadata } }),
  workload('StatefulSet', 'db', { app: 'db' }, { replicas: 1 }),
  unscheduledPod('0/3 nodes are available: 3 Insufficient memory.', {
    metadata: { name: 'db-0', labels: { app: 'db' }, ...owner('StatefulSet', 'db').metadata },
  }),
  workload('DaemonSet', 'agent', { app: 'agent' }),
  crashedPod({ exitCode: 2 }, { metadata: { name: 'agent-x1y2z', labels: { app: 'agent' }, ...owner('DaemonSet', 'agent').metadata } }),
  workload('Job', 'migrate', { 'batch.kubernetes.io/job-name': 'migrate' }, {}, 'batch/v1'),
  crashedPod(
    { exitCode: 3, now: 'terminated' },
    {
      metadata: { name: 'migrate-abcde', labels: { 'batch.kubernetes.io/job-name': 'migrate' }, ...owner('Job', 'migrate', 'batch/v1').metadata },
      spec: { restartPolicy: 'Never' },
    },
  ),
  // A pod of the same name in another namespace: -n must pick the right one.
  waitingPod('ErrImagePull', 'rpc error', { metadata: { name: `${RS}-pulling`, namespace: 'default' } }),
];

let sim: Sim;
const dir = mkdtempSync(join(tmpdir(), 'pd-diagnose-kubectl-'));
/** The context names namespace shop; the other names none (so "default"). */
const SHOP = join(dir, 'shop.kubeconfig');
const PLAIN = join(dir, 'plain.kubeconfig');

beforeAll(async () => {
  sim = await startSim({ objects: OBJECTS as never, now: () => new Date(NOW) });
  const kc = sim.kubeconfig();
  expect(kc).toContain('    namespace: default\n');
  writeFileSync(SHOP, kc.replace('    namespace: default\n', '    namespace: shop\n'));
  writeFileSync(PLAIN, kc.replace('    namespace: default\n', ''));
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], kubeconfig = SHOP) => cli(['diagnose', ...args, '--kubeconfig', kubeconfig, '--now', NOW]);

interface DiagnosisOut {
  target: { kind: string; namespace?: string; name: string };
  findings: { rule: string; severity: Severity }[];
}
interface WorkloadOut {
  workload: { kind: string; namespace: string; name: string };
  pods: { total: number; unhealthy: number; desired?: number };
  diagnoses: (DiagnosisOut & { reason: string | null })[];
}

const worst = (d: DiagnosisOut) => Math.max(0, ...d.findings.map((f) => SEVERITY_ORDER[f.severity]));

describe('diagnose with kubectl conventions', () => {
  it('deploy/NAME diagnoses its unhealthy pods, worst first, in the context namespace', async () => {
    const r = await run(['deploy/web', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as WorkloadOut;
    expect(out.workload).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(out.pods).toEqual({ total: 3, unhealthy: 2, desired: 3 });
    expect(out.diagnoses.map((d) => d.target.name).sort()).toEqual([`${RS}-crashing`, `${RS}-pulling`]);
    expect(out.diagnoses.every((d) => d.findings.length > 0)).toBe(true);
    const order = out.diagnoses.map(worst);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    expect(Object.fromEntries(out.diagnoses.map((d) => [d.target.name, d.reason]))).toEqual({
      [`${RS}-crashing`]: 'CrashLoopBackOff',
      [`${RS}-pulling`]: 'ImagePullBackOff',
    });
  });

  it('-o yaml prints what -o json does; --json is -o json', async () => {
    const json = await run(['deployment/web', '-n', 'shop', '-o', 'json'], PLAIN);
    const yaml = await run(['deployment/web', '-n', 'shop', '-o', 'yaml'], PLAIN);
    const legacy = await run(['deployment/web', '-n', 'shop', '--json'], PLAIN);
    expect(yaml.code).toBe(0);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect(JSON.parse(legacy.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it.each([
    [['sts/db'], 'StatefulSet', 'db-0', 'Pending'],
    [['ds/agent'], 'DaemonSet', 'agent-x1y2z', 'CrashLoopBackOff'],
    [['job/migrate'], 'Job', 'migrate-abcde', 'Failed'],
  ])('%j diagnoses its pod', async (args, kind, podName, reason) => {
    const r = await run([...args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as WorkloadOut;
    expect(out.workload.kind).toBe(kind);
    expect(out.diagnoses.map((d) => [d.target.name, d.reason])).toEqual([[podName, reason]]);
  });

  it.each([
    ['pod/NAME in the context namespace', [`pod/${RS}-pulling`], SHOP, 'shop'],
    ['a bare NAME in the context namespace', [`${RS}-pulling`], SHOP, 'shop'],
    ['-n over the context namespace', [`po/${RS}-pulling`, '-n', 'default'], SHOP, 'default'],
    ['--namespace', [`${RS}-pulling`, '--namespace', 'shop'], PLAIN, 'shop'],
    ['"default" when the context names none', [`pod/${RS}-pulling`], PLAIN, 'default'],
    ['<namespace>/<pod> as before', [`shop/${RS}-pulling`], PLAIN, 'shop'],
  ])('%s', async (_name, args, kubeconfig, namespace) => {
    const r = await run([...args, '-o', 'json'], kubeconfig);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as DiagnosisOut).target).toEqual({ kind: 'pod', namespace, name: `${RS}-pulling` });
  });

  it('says so when a workload has no unhealthy pod', async () => {
    const r = await run(['deploy/api']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pod-doctor: deployment shop\/api on cluster \S+: 1 of 1 pods exist, none unhealthy; nothing to diagnose\.$/m);
  });

  it.each([
    [['deploy/nope'], /^pod-doctor: Deployment shop\/nope not found$/],
    [['deploy/web', '-o', 'wide'], /^pod-doctor: -o "wide" is not an output format: json or yaml/],
    [['deploy/web', '-o', 'yaml', '--json'], /^pod-doctor: --json and -o yaml ask for different outputs/],
    [[`shop/${RS}-pulling`, '-n', 'default'], /^pod-doctor: "shop\/.*" names namespace shop, but -n says default/],
    [['rs/web'], /^pod-doctor: "rs\/web" is not a valid target/],
    [['deploy/web', '-n', 'Shop'], /^pod-doctor: -n "Shop" is not a valid namespace name/],
  ])('%j: one line, exit 2', async (args, says) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')[0]).toMatch(says);
  });
});
