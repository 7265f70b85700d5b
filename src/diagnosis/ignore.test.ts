import { describe, expect, it } from 'vitest';
import { crashedPod, ownerFact, snapshot } from '../../test/helpers/factories.js';
import { diagnose } from './engine.js';
import { markObject } from './ignore.js';
import { RULES } from './rules/index.js';

const crash = (annotations?: Record<string, string>) => crashedPod({ exitCode: 1, restarts: 6 }, annotations ? { metadata: { annotations } } : {});

describe('pod-doctor.io/ignore', () => {
  it('reports the finding without the annotation', () => {
    expect(diagnose(snapshot(crash()), { rules: RULES }).findings.map((f) => f.rule)).toContain('crash.app-exit');
  });

  it('leaves out the rules the pod names, says so, and the catch-all stays quiet', () => {
    const d = diagnose(snapshot(crash({ 'pod-doctor.io/ignore': 'crash.app-exit, image.not-found' })), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).not.toContain('crash.app-exit');
    expect(d.findings.map((f) => f.rule)).not.toContain('pod.unexplained');
    expect(d.ignored).toEqual([{ rule: 'crash.app-exit', by: 'pod shop/web-7d9f8c6b5-x2k4q' }]);
  });

  it("reads the owner's annotation too (a Deployment marks all its pods)", () => {
    const owners = [
      ownerFact('ReplicaSet', 'web-7d9f8c6b5'),
      ownerFact('Deployment', 'web', { metadata: { annotations: { 'pod-doctor.io/ignore': 'crash.app-exit' } } }),
    ];
    const d = diagnose(snapshot(crash(), { owners }), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).not.toContain('crash.app-exit');
    expect(d.ignored).toEqual([{ rule: 'crash.app-exit', by: 'Deployment web' }]);
  });

  it('ignores nothing for an annotation naming other rules', () => {
    const d = diagnose(snapshot(crash({ 'pod-doctor.io/ignore': 'crash.oomkilled' })), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toContain('crash.app-exit');
    expect(d.ignored).toBeUndefined();
  });
});

describe('Not a problem marks', () => {
  const mark = { rule: 'crash.app-exit', user: 'U0BOB', at: '2026-11-29T00:00:00.000Z', until: '2026-12-29T00:00:00.000Z' };

  it('leave out the marked rule on the workload and say who marked it until when', () => {
    const owners = [ownerFact('ReplicaSet', 'web-7d9f8c6b5'), ownerFact('Deployment', 'web')];
    const d = diagnose(snapshot(crash(), { owners }), { rules: RULES, marks: [mark] });
    expect(d.findings.map((f) => f.rule)).not.toContain('crash.app-exit');
    expect(d.findings.map((f) => f.rule)).not.toContain('pod.unexplained');
    expect(d.ignored).toEqual([{ rule: 'crash.app-exit', by: 'shop/Deployment web', mark: { user: 'U0BOB', until: mark.until } }]);
  });

  it('leave other rules alone, and a pod without owner is its own object', () => {
    const d = diagnose(snapshot(crash()), { rules: RULES, marks: [{ ...mark, rule: 'crash.oomkilled' }] });
    expect(d.findings.map((f) => f.rule)).toContain('crash.app-exit');
    expect(d.ignored).toBeUndefined();
    expect(markObject({ kind: 'pod', namespace: 'shop', name: 'web-1' }, undefined)).toBe('shop/Pod web-1');
    expect(markObject({ kind: 'namespace', name: 'shop' }, undefined)).toBeUndefined();
  });
});
