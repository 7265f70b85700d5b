// Replayed incidents: every scenario in test/fixtures/incidents is diagnosed twice, from the
// saved objects (`--from`) and through the real client against the simulated API server.
// Both must agree, the expected rule must rank first, and negatives must stay quiet.
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseTarget } from '../src/collect/diagnose.js';
import { KubeSource } from '../src/collect/kube-source.js';
import { ObjectsSource } from '../src/collect/objects-source.js';
import { parseTarget } from '../src/diagnosis/target.js';
import { SEVERITY_ORDER, type Diagnosis } from '../src/diagnosis/types.js';
import { loadScenarios, type Scenario } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';

const ROOT = join(import.meta.dirname, 'fixtures/incidents');
const scenarios = await loadScenarios(ROOT);

/** What must be identical between the two paths (everything a user sees). */
function comparable(d: Diagnosis) {
  return d.findings.map((f) => ({ rule: f.rule, severity: f.severity, title: f.title, cause: f.cause, evidence: f.evidence, advice: f.advice, playbook: f.playbook, causeKey: f.causeKey, merged: f.merged }));
}

async function viaFiles(s: Scenario): Promise<Diagnosis> {
  return diagnoseTarget(new ObjectsSource(s.objects), parseTarget(s.meta.target), { cluster: 'fixture', now: () => new Date(s.meta.now) });
}

describe('incident fixtures', () => {
  it('exist: seeds, positives and at least eight negatives', () => {
    expect(scenarios.filter((s) => s.meta.first === null).length).toBeGreaterThanOrEqual(8);
    for (const seed of ['000', '001', '002', '003', '004']) expect(scenarios.some((s) => s.meta.seed === seed), seed).toBe(true);
  });

  describe.each(scenarios.map((s) => [s.slug, s] as const))('%s', (_slug, s) => {
    let sim: Awaited<ReturnType<typeof startSim>>;
    beforeAll(async () => {
      sim = await startSim({ objects: s.objects });
    });
    afterAll(async () => {
      await sim?.close();
    });

    it('diagnoses the same from saved objects and through the API', async () => {
      const kc = new k8s.KubeConfig();
      kc.loadFromString(sim.kubeconfig());
      const live = await diagnoseTarget(new KubeSource(kc), parseTarget(s.meta.target), { cluster: 'fixture', now: () => new Date(s.meta.now) });
      const saved = await viaFiles(s);
      expect(live.ruleErrors).toEqual([]);
      expect(comparable(live)).toEqual(comparable(saved));
    });

    it(s.meta.first ? `ranks ${s.meta.first} first` : 'reports nothing of severity warning or worse', async () => {
      const d = await viaFiles(s);
      expect(d.ruleErrors).toEqual([]);
      const rules = d.findings.map((f) => f.rule);
      if (s.meta.first === null) {
        const loud = d.findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
        expect(loud.map((f) => `${f.rule}: ${f.title}`)).toEqual([]);
      } else {
        expect(rules[0], JSON.stringify(rules)).toBe(s.meta.first);
      }
      // `also` may be reported on its own or folded into the first finding as a symptom.
      const mentioned = d.findings.flatMap((f) => [f.rule, ...f.merged]);
      for (const r of s.meta.also) expect(mentioned).toContain(r);
      for (const r of s.meta.absent) expect(rules).not.toContain(r);
    });
  });
});
