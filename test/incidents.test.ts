// Replayed incidents: every scenario in test/fixtures/incidents is diagnosed twice, from the
// saved objects (`--from`) and through the real client against the simulated API server.
// Both must agree, the expected rule must rank first, and negatives must stay quiet.
// Scenarios with a node tree (`node:`) run in a simulated cluster with that node's agent: through
// the client with the agent the rule `first` must rank first; without it (saved objects, and the
// client once more for the comparison) the API half ranks `firstWithoutAgent ?? first`.
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentLookup } from '../src/collect/agent-client.js';
import { KubeSource } from '../src/collect/kube-source.js';
import { ObjectsSource } from '../src/collect/objects-source.js';
import { type Diagnosis, SEVERITY_ORDER } from '../src/diagnosis/types.js';
import { parseTarget } from '../src/kube/target.js';
import { startScenarioCluster } from '../src/sim/cluster.js';
import { loadScenarios, type Scenario } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { diagnoseTarget } from '../src/usecases/diagnose.js';

const ROOT = join(import.meta.dirname, 'fixtures/incidents');
const scenarios = await loadScenarios(ROOT);

/** What must be identical between the two paths (everything a user sees). */
function comparable(d: Diagnosis) {
  return d.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    title: f.title,
    cause: f.cause,
    evidence: f.evidence,
    advice: f.advice,
    playbook: f.playbook,
    causeKey: f.causeKey,
    merged: f.merged,
  }));
}

async function viaFiles(s: Scenario): Promise<Diagnosis> {
  return diagnoseTarget(new ObjectsSource(s.objects), parseTarget(s.meta.target), { cluster: 'fixture', now: () => new Date(s.meta.now) });
}

/** The expected rule first (`null`: nothing of severity warning or worse), then `also` and `absent`. */
function expectRanked(d: Diagnosis, first: string | null, also: readonly string[], absent: readonly string[]): void {
  expect(d.ruleErrors).toEqual([]);
  const rules = d.findings.map((f) => f.rule);
  if (first === null) {
    const loud = d.findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
    expect(loud.map((f) => `${f.rule}: ${f.title}`)).toEqual([]);
  } else {
    expect(rules[0], JSON.stringify(rules)).toBe(first);
  }
  // `also` may be reported on its own or folded into the first finding as a symptom.
  const mentioned = d.findings.flatMap((f) => [f.rule, ...f.merged]);
  for (const r of also) expect(mentioned).toContain(r);
  for (const r of absent) expect(rules).not.toContain(r);
}

describe('incident fixtures', () => {
  it('exist: seeds, positives and at least eight negatives', () => {
    expect(scenarios.filter((s) => s.meta.first === null).length).toBeGreaterThanOrEqual(8);
    for (const seed of ['000', '001', '002', '003', '004'])
      expect(
        scenarios.some((s) => s.meta.seed === seed),
        seed,
      ).toBe(true);
  });

  describe.each(scenarios.map((s) => [s.slug, s] as const))('%s', (_slug, s) => {
    let sim: { kubeconfig(): string; close(): Promise<void> } | undefined;
    let agentUrls: Record<string, string> = {};
    let agentToken = '';
    beforeAll(async () => {
      if (s.meta.node) {
        const cluster = await startScenarioCluster([s]);
        sim = cluster;
        ({ agentUrls, agentToken } = cluster);
      } else {
        sim = await startSim({ objects: s.objects });
      }
    });
    afterAll(async () => {
      await sim?.close();
    });
    const viaApi = (withAgent: boolean) => {
      const kc = new k8s.KubeConfig();
      kc.loadFromString(sim!.kubeconfig());
      const agent = withAgent ? createAgentLookup({ agentUrls, agentToken, agentTimeoutMs: 10_000, transport: { plainHttp: true } }) : undefined;
      return diagnoseTarget(new KubeSource(kc), parseTarget(s.meta.target), { cluster: 'fixture', now: () => new Date(s.meta.now), agent });
    };
    // Without an agent the API half may rank another rule (or nothing: null) first.
    const apiFirst = s.meta.node && s.meta.firstWithoutAgent !== undefined ? s.meta.firstWithoutAgent : s.meta.first;

    it('diagnoses the same from saved objects and through the API', async () => {
      const live = await viaApi(false);
      const saved = await viaFiles(s);
      expect(live.ruleErrors).toEqual([]);
      expect(comparable(live)).toEqual(comparable(saved));
    });

    it(`${apiFirst ? `ranks ${apiFirst} first` : 'reports nothing of severity warning or worse'}${s.meta.node ? ' without the node agent' : ''}`, async () => {
      // `also` is what the full diagnosis reports; it holds without the agent when the ranking does not change.
      expectRanked(await viaFiles(s), apiFirst, apiFirst === s.meta.first ? s.meta.also : [], s.meta.absent);
    });

    if (s.meta.node) {
      it(`ranks ${s.meta.first ?? 'nothing'} first through the API with the node agent of ${s.meta.node}`, async () => {
        const d = await viaApi(true);
        expect(d.skipped, 'every node check ran').toEqual([]);
        expectRanked(d, s.meta.first, s.meta.also, s.meta.absent);
      });
    }
  });
});
