// Canonical wire form for timestamps. The API sends `2026-11-21T09:30:00Z` (metav1.Time) or
// `...09:37:12.000000Z` (MicroTime); saved YAML may hold either or an offset. Both fact sources
// pass objects through here so findings quote identical text.

/** Fields that hold metav1.Time / MicroTime values in the objects pod-doctor reads. */
export const TIME_KEYS: ReadonlySet<string> = new Set([
  'creationTimestamp',
  'deletionTimestamp',
  'lastTimestamp',
  'firstTimestamp',
  'eventTime',
  'lastObservedTime',
  'startedAt',
  'finishedAt',
  'startTime',
  'lastTransitionTime',
  'lastHeartbeatTime',
  'lastProbeTime',
  'renewTime',
  'acquireTime',
  'timeAdded',
  'lastUpdateTime',
  'completionTime',
  'lastScheduleTime',
  'lastSuccessfulTime',
  'time',
]);

/** RFC 3339 in UTC, second precision when the fraction is zero, else milliseconds. */
export function canonicalTime(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Rewrites every time field of `value` (deeply) with `map`; other fields are kept as they are. */
export function mapTimes<T>(value: T, map: (time: string) => string): T {
  if (Array.isArray(value)) return value.map((v) => mapTimes(v, map)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = TIME_KEYS.has(k) && typeof v === 'string' ? map(v) : mapTimes(v, map);
  }
  return out as T;
}

export function canonicalTimes<T>(value: T): T {
  return mapTimes(value, canonicalTime);
}

/**
 * canonicalTimes for an object nobody else holds (a freshly parsed API answer): rewritten in
 * place, no copy. metav1.Time arrives canonical already (`…:00Z`, 20 characters) and is left
 * alone; MicroTime and fractions are parsed. With `freeze`, every object and array is frozen
 * on the way (answers shared between diagnoses: a stray write throws instead of leaking).
 */
export function canonicalizeInPlace<T>(value: T, freeze = false): T {
  if (Array.isArray(value)) {
    for (const v of value) canonicalizeInPlace(v, freeze);
    if (freeze) Object.freeze(value);
  } else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (typeof v === 'string') {
        if (TIME_KEYS.has(k) && !(v.length === 20 && v.endsWith('Z'))) o[k] = canonicalTime(v);
      } else if (v !== null && typeof v === 'object') canonicalizeInPlace(v, freeze);
    }
    if (freeze) Object.freeze(o);
  }
  return value;
}
