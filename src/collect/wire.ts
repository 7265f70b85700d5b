// Canonical wire form for timestamps. The API sends `2026-11-21T09:30:00Z` (metav1.Time) or
// `...09:37:12.000000Z` (MicroTime); client-node turns both into Date and back into
// `...000Z`. Both fact sources pass objects through here so findings quote identical text.

/** Fields that hold metav1.Time / MicroTime values in the objects pod-doctor reads. */
export const TIME_KEYS: ReadonlySet<string> = new Set([
  'creationTimestamp', 'deletionTimestamp', 'lastTimestamp', 'firstTimestamp', 'eventTime', 'lastObservedTime',
  'startedAt', 'finishedAt', 'startTime', 'lastTransitionTime', 'lastHeartbeatTime', 'lastProbeTime',
  'renewTime', 'acquireTime', 'timeAdded', 'lastUpdateTime', 'completionTime', 'lastScheduleTime', 'lastSuccessfulTime', 'time',
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
 * client-node model objects → wire JSON in one pass: Dates become canonical strings, unset
 * fields disappear. The generated models use the JSON field names for every kind pod-doctor
 * reads (only CRD schemas, ListMeta.continue and a few others are renamed); a test checks
 * this against client-node's own ObjectSerializer.
 */
export function fromClient<T>(value: unknown): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().replace('.000Z', 'Z');
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const raw = (value as Record<string, unknown>)[key];
    // MicroTime fields (lease renewTime, event eventTime) stay strings in client-node.
    const v = typeof raw === 'string' && TIME_KEYS.has(key) ? canonicalTime(raw) : copy(raw);
    if (v !== undefined) out[key] = v;
  }
  return out;
}
