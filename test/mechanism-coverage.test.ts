// The mechanism catalogue against its sources (as test/reason-coverage.test.ts does for reasons):
// every errno of upstream.json is read by some signature or set aside with a reason; the texts
// signatures rely on are upstream's; every signature's examples read as that signature and its
// mechanism; every mechanism is reachable, names knobs with paths, and renders without a leftover
// placeholder for a bare pod.
import { describe, expect, it } from 'vitest';
import { SET_ASIDE, UPSTREAM, USED_ERRNO } from '../src/diagnosis/mechanisms/errno.js';
import { explain, MECHANISMS, readTexts, SIGNATURES } from '../src/diagnosis/mechanisms/index.js';
import { SIGNAL_MECHANISMS } from '../src/diagnosis/mechanisms/signals.js';
import type { Pod } from '../src/diagnosis/types.js';

const pod = {
  metadata: { name: 'web-0', namespace: 'shop' },
  spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'registry.example.com/shop/app:1' }] },
} satisfies Pod;
const scope = { pod, container: pod.spec.containers[0]!, init: false };

describe('the errno table', () => {
  it('reads or sets aside every errno upstream prints', () => {
    const missing = UPSTREAM.errno.map((e) => e.name).filter((n) => !USED_ERRNO.has(n) && !(n in SET_ASIDE));
    expect(missing).toEqual([]);
  });
  it('sets aside only errnos upstream has, and none it also reads', () => {
    const names = new Set(UPSTREAM.errno.map((e) => e.name));
    expect(Object.keys(SET_ASIDE).filter((n) => !names.has(n))).toEqual([]);
    expect(Object.keys(SET_ASIDE).filter((n) => USED_ERRNO.has(n))).toEqual([]);
  });
  it('carries the texts of four C-library and runtime families for the errnos it reads', () => {
    for (const name of USED_ERRNO) {
      const e = UPSTREAM.errno.find((x) => x.name === name)!;
      expect([e.glibc, e.musl, e.go].every(Boolean), name).toBe(true);
    }
  });
  it('names its sources', () => {
    expect(Object.keys(UPSTREAM.sources).sort()).toEqual(['glibc', 'go', 'libuv', 'musl']);
  });
});

describe('signatures', () => {
  it('have unique ids, a source, examples and needles in lower case', () => {
    const ids = SIGNATURES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SIGNATURES) {
      expect(s.source.length, s.id).toBeGreaterThan(10);
      expect(s.examples.length, s.id).toBeGreaterThan(0);
      expect(
        s.needles.every((n) => n === n.toLowerCase() && n.length > 0),
        s.id,
      ).toBe(true);
    }
  });
  it('name mechanisms that exist', () => {
    const known = new Set(MECHANISMS.map((m) => m.id));
    expect(SIGNATURES.filter((s) => !known.has(s.mechanism)).map((s) => s.id)).toEqual([]);
    expect(Object.values(SIGNAL_MECHANISMS).filter((m) => !known.has(m))).toEqual([]);
  });
  for (const s of SIGNATURES) {
    it(`${s.id}: every example reads as ${s.mechanism}, quoting its line`, () => {
      for (const example of s.examples) {
        // A needle is what lets the line through the cheap pass; the example must carry one.
        expect(
          s.needles.some((n) => example.toLowerCase().includes(n)),
          `${s.id} needle in: ${example}`,
        ).toBe(true);
        const r = readTexts([{ text: example, source: 'logs app' }], scope);
        expect(r?.mechanism, `${s.id}: ${example}`).toBe(s.mechanism);
        // The decisive line is one of the example's lines (a multi-line example carries the frames a signature needs).
        const lines = example.split('\n').map((l) => l.trim());
        if (example.length <= 400) expect(lines).toContain(r?.line);
        // What the line captures fills the templates: nothing is left as a placeholder.
        for (const text of [r?.summary, r?.explanation, ...(r?.knobs ?? [])]) expect(text, `${s.id}: ${example}`).not.toMatch(/\{\{/);
      }
    });
  }
  const withNearMisses = SIGNATURES.filter((s) => (s.nearMisses?.length ?? 0) > 0);
  it('carry near misses (real look-alike lines) where the wording is shared', () => {
    expect(withNearMisses.length).toBeGreaterThanOrEqual(20);
  });
  for (const s of withNearMisses) {
    it(`${s.id}: no near miss reads as ${s.mechanism}`, () => {
      for (const line of s.nearMisses ?? []) {
        // A near miss looks alike: it passes this signature's cheap pass, so its patterns (or unless) decide.
        expect(
          s.needles.some((n) => line.toLowerCase().includes(n)),
          `${s.id} needle in near miss: ${line}`,
        ).toBe(true);
        const r = readTexts([{ text: line, source: 'logs app' }], scope);
        expect(r?.mechanism, `${s.id} near miss: ${line}`).not.toBe(s.mechanism);
      }
    });
  }
});

describe('mechanisms', () => {
  it('are each reached by some signature or signal', () => {
    const reached = new Set([...SIGNATURES.map((s) => s.mechanism), ...Object.values(SIGNAL_MECHANISMS)]);
    expect(MECHANISMS.map((m) => m.id).filter((id) => !reached.has(id))).toEqual([]);
  });
  it('end with a general variant, and every variant names knobs with a path and a change', () => {
    for (const m of MECHANISMS) {
      expect(m.variants.at(-1)?.when === undefined || m.variants.length >= 1, m.id).toBe(true);
      expect(new Set(m.variants.map((v) => v.id)).size, m.id).toBe(m.variants.length);
      for (const v of m.variants) {
        expect(v.knobs.length, `${m.id}/${v.id}`).toBeGreaterThan(0);
        for (const k of v.knobs) expect(k.path.length > 3 && k.change.length > 3, `${m.id}/${v.id}`).toBe(true);
      }
    }
  });
  it('render every variant without a leftover placeholder, even on a bare pod with an empty line', () => {
    for (const m of MECHANISMS) {
      const signature = SIGNATURES.find((s) => s.mechanism === m.id) ?? { ...SIGNATURES[0]!, mechanism: m.id };
      const r = explain(signature, { ...scope, line: '', around: [], groups: {} }, 'logs app');
      for (const text of [r.summary, r.explanation, ...r.knobs]) expect(text, `${m.id}/${r.variant}`).not.toMatch(/\{\{/);
    }
  });
});
