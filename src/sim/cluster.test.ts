// The seed incidents in one simulated cluster (as the demo serves them): one API server, a node
// agent per node fixture tree, each incident diagnosed through the real client and agent client.
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentLookup } from '../collect/agent-client.js';
import { KubeSource } from '../collect/kube-source.js';
import type { Diagnosis, KubeObject } from '../diagnosis/types.js';
import { parseTarget } from '../kube/target.js';
import { diagnoseTarget } from '../usecases/diagnose.js';
import { type ScenarioCluster, startScenarioCluster } from './cluster.js';
import { loadScenarios, type Scenario } from './scenarios.js';

const ROOT = join(import.meta.dirname, '../../test/fixtures/incidents');
const seeds = (await loadScenarios(ROOT)).filter((s) => s.meta.seed !== undefined);

function diagnoseIn(cluster: ScenarioCluster, s: Scenario, now: Date): Promise<Diagnosis> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  const agent = createAgentLookup({ agentUrls: cluster.agentUrls, agentToken: cluster.agentToken, agentTimeoutMs: 10_000, transport: { plainHttp: true } });
  return diagnoseTarget(new KubeSource(kc), parseTarget(s.meta.target), { cluster: 'sim', now: () => now, agent });
}

const rulesOf = (d: Diagnosis) => d.findings.map((f) => f.rule);

describe('startScenarioCluster: the seed incidents in one cluster', () => {
  let cluster: ScenarioCluster;
  beforeAll(async () => {
    cluster = await startScenarioCluster(seeds);
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('serves one agent per node fixture tree, on loopback, behind a token', async () => {
    expect(Object.keys(cluster.agentUrls).sort()).toEqual(['c3-a05-136-45-4.com', 'dev-slave-107', 'kube-cluster-node-xxx', 'node-172-16-3-21']);
    for (const url of Object.values(cluster.agentUrls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cluster.agentToken.length).toBeGreaterThanOrEqual(32);
    const res = await fetch(`${cluster.agentUrls['dev-slave-107']}/v1/probes`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });

  it('holds every pod of every seed scenario, shared ones once', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(cluster.kubeconfig());
    const pods = await kc.makeApiClient(k8s.CoreV1Api).listPodForAllNamespaces();
    const served = pods.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).sort();
    const defined = new Set(seeds.flatMap((s) => s.objects.filter((o) => o.kind === 'Pod').map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)));
    expect(served).toEqual([...defined].sort());
  });

  it.each(seeds.map((s) => [s.slug, s] as const))('%s: the expected rule ranks first', async (_slug, s) => {
    const d = await diagnoseIn(cluster, s, new Date(s.meta.now));
    expect(d.ruleErrors).toEqual([]);
    expect(rulesOf(d)[0], JSON.stringify(rulesOf(d))).toBe(s.meta.first);
    if (s.meta.node) expect(d.skipped, 'every node check ran').toEqual([]);
    const mentioned = d.findings.flatMap((f) => [f.rule, ...f.merged]);
    for (const r of s.meta.also) expect(mentioned).toContain(r);
  });
});

describe('startScenarioCluster: time shift', () => {
  it('moves API objects and the node tree together, so the holder still started after the container', async () => {
    const s = seeds.find((x) => x.slug === 'seed-001-ntpd-mount-busy')!;
    const shiftMs = Date.parse('2030-06-01T00:00:00Z') - Date.parse(s.meta.now);
    const cluster = await startScenarioCluster([s], { shiftMs: () => shiftMs });
    try {
      const d = await diagnoseIn(cluster, s, new Date(Date.parse(s.meta.now) + shiftMs));
      const first = d.findings[0]!;
      expect(first.rule).toBe('terminating.mount-busy');
      const text = [first.cause, ...first.evidence.map((e) => e.text)].join('\n');
      // ntpd started 2019-01-07T03:12:00Z in the tree; the container 2018-12-11T06:20:01Z.
      const ntpdStart = new Date(Date.parse('2019-01-07T03:12:00Z') + shiftMs).toISOString();
      expect(text).toContain(`started ${ntpdStart}`);
      expect(text).toMatch(/after the container had started/);
      expect(text).toContain(`${new Date(Date.parse('2019-01-30T06:57:00Z') + shiftMs).toISOString().replace('.000Z', 'Z')} (5h past the grace period)`);
    } finally {
      await cluster.close();
    }
  });
});

describe('startScenarioCluster: scenarios that do not fit one cluster', () => {
  const nodeObj = (name: string, kernel: string): KubeObject =>
    ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { nodeInfo: { kernelVersion: kernel } } }) as KubeObject;
  const scenario = (slug: string, objects: KubeObject[], extra: Partial<Scenario['meta']> = {}): Scenario => ({
    slug,
    dir: join(ROOT, slug),
    meta: { title: slug, target: 'node/n1', now: '2026-11-21T10:00:00Z', first: null, also: [], absent: [], ...extra },
    objects,
  });

  it('reports two different definitions of one object, naming both scenarios, the object and the field', async () => {
    const a = scenario('alpha', [nodeObj('n1', '5.10.0')]);
    const b = scenario('beta', [nodeObj('n1', '6.1.0')]);
    const refused = startScenarioCluster([a, b]);
    await expect(refused).rejects.toThrow(
      'scenarios alpha and beta define Node n1 differently (status.nodeInfo.kernelVersion: "5.10.0" vs "6.1.0"); one cluster cannot hold both',
    );
    // A load error the CLI prints as one line (exit 2), not an unexpected error with a stack.
    await expect(refused).rejects.toMatchObject({ name: 'SimLoadError', code: 'SIM_INVALID' });
  });

  it('keeps identical objects once', async () => {
    const cluster = await startScenarioCluster([scenario('alpha', [nodeObj('n1', '5.10.0')]), scenario('beta', [nodeObj('n1', '5.10.0')])]);
    try {
      expect(cluster.agentUrls).toEqual({});
      const kc = new k8s.KubeConfig();
      kc.loadFromString(cluster.kubeconfig());
      const nodes = await kc.makeApiClient(k8s.CoreV1Api).listNode();
      expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['n1']);
    } finally {
      await cluster.close();
    }
  });

  it('refuses two node trees for one node', async () => {
    const a = scenario('alpha', [nodeObj('n1', '5.10.0')], { node: '../../nodes/001' });
    const b = scenario('beta', [], { node: '../../nodes/002' });
    await expect(startScenarioCluster([a, b])).rejects.toThrow(/scenarios alpha and beta both put node n1 in the cluster with different trees/);
  });
});

describe('every incident fixture in one cluster (demo --all)', () => {
  it('holds them all: no two fixtures define one object differently', async () => {
    const all = await loadScenarios(ROOT);
    const cluster = await startScenarioCluster(all);
    try {
      const kc = new k8s.KubeConfig();
      kc.loadFromString(cluster.kubeconfig());
      const pods = await kc.makeApiClient(k8s.CoreV1Api).listPodForAllNamespaces();
      expect(pods.items.length).toBeGreaterThan(all.length / 2);
    } finally {
      await cluster.close();
    }
  });
});
