// Plain-JSON helpers. The simulator stores and patches objects in wire form, so everything
// here works on JSON values only (no Dates, no undefined inside arrays).
import { createHash } from 'node:crypto';
import type { KubeObject } from '../diagnosis/types.js';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep copy through JSON, which also drops `undefined` members like the wire would. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Structural equality of JSON values (key order does not matter, array order does). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Reads a dotted path (`spec.nodeName`) from an object; undefined when absent. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** The object's metadata, created empty when missing (mutates `obj`). */
export function meta(obj: KubeObject): NonNullable<KubeObject['metadata']> {
  obj.metadata ??= {};
  return obj.metadata;
}

/** RFC 3339 with second precision, as metav1.Time marshals. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A UUID-shaped id derived from `seed`: fixtures without uids still get the same ones every run. */
export function stableUid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'clusterName',
  'managedFields',
];

/**
 * Go's field order for the parts every object shares: kind, apiVersion, metadata (in
 * ObjectMeta order), spec, status, then the rest as given. JSON diffs against a real server
 * then line up.
 */
export function canonicalOrder(obj: KubeObject): KubeObject {
  const out: Record<string, unknown> = {};
  for (const k of ['kind', 'apiVersion']) if (obj[k] !== undefined) out[k] = obj[k];
  if (obj.metadata !== undefined) {
    const m: Record<string, unknown> = {};
    const src = obj.metadata as Record<string, unknown>;
    for (const k of META_ORDER) if (src[k] !== undefined) m[k] = src[k];
    for (const [k, v] of Object.entries(src)) if (!(k in m) && v !== undefined) m[k] = v;
    out.metadata = m;
  }
  for (const k of ['spec', 'status']) if (obj[k] !== undefined) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!(k in out) && v !== undefined) out[k] = v;
  return out as KubeObject;
}
