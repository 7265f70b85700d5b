// Both fact sources must quote the same timestamps: saved objects go through canonicalTimes
// (a copy), API answers through canonicalizeInPlace (no copy). They must agree on every
// fixture object, and both must turn MicroTime and offsets into the canonical form.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../sim/scenarios.js';
import { canonicalizeInPlace, canonicalTime, canonicalTimes } from './wire.js';

const scenarios = await loadScenarios(join(import.meta.dirname, '../../test/fixtures/incidents'));
const objects = scenarios.flatMap((s) => s.objects);

describe('canonical times', () => {
  it('canonicalizeInPlace equals canonicalTimes on every fixture object', () => {
    expect(objects.length).toBeGreaterThan(100);
    for (const o of objects) {
      const copy = structuredClone(o);
      expect(canonicalizeInPlace(copy), `${o.kind} ${o.metadata?.name}`).toEqual(canonicalTimes(o));
    }
  });

  it('with freeze, also freezes every object and array on the way (answers shared between diagnoses)', () => {
    const isDeepFrozen = (v: unknown): boolean => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(isDeepFrozen));
    for (const o of objects.slice(0, 40)) {
      const frozen = canonicalizeInPlace(structuredClone(o), true);
      expect(frozen).toEqual(canonicalTimes(o));
      expect(isDeepFrozen(frozen), `${o.kind} ${o.metadata?.name}`).toBe(true);
    }
    expect(Object.isFrozen(canonicalizeInPlace({ a: {} }))).toBe(false);
  });

  it('rewrites MicroTime, fractions and offsets; keeps canonical values and non-time fields', () => {
    const raw = {
      metadata: { name: '2026-11-21T10:00:00.5Z', creationTimestamp: '2026-11-21T10:00:00Z', deletionTimestamp: '2026-11-21T11:00:00+01:00' },
      eventTime: '2026-11-21T09:37:12.000000Z',
      series: { lastObservedTime: '2026-11-21T09:37:12.250000Z' },
      items: [{ lastTimestamp: '2026-11-21T09:00:00.000Z' }, null, 3],
      note: null,
    };
    const expected = {
      metadata: { name: '2026-11-21T10:00:00.5Z', creationTimestamp: '2026-11-21T10:00:00Z', deletionTimestamp: '2026-11-21T10:00:00Z' },
      eventTime: '2026-11-21T09:37:12Z',
      series: { lastObservedTime: '2026-11-21T09:37:12.250Z' },
      items: [{ lastTimestamp: '2026-11-21T09:00:00Z' }, null, 3],
      note: null,
    };
    expect(canonicalTimes(raw)).toEqual(expected);
    expect(canonicalizeInPlace(raw)).toBe(raw);
    expect(raw).toEqual(expected);
    expect(canonicalTime('not a time')).toBe('not a time');
  });
});
