// The three patch types a kube-apiserver accepts besides server-side apply:
// - application/merge-patch+json (RFC 7386, evanphx/json-patch MergePatch)
// - application/json-patch+json (RFC 6902, evanphx/json-patch v4 semantics and messages)
// - application/strategic-merge-patch+json (k8s.io/apimachinery/pkg/util/strategicpatch),
//   driven by per-kind patch metadata (see smp-schemas.ts).
import { clone, deepEqual, isObject, type JsonObject, type JsonValue } from './json.js';

/**
 * A patch that could not be applied: `bad-request` → 400, `rejected` → 422, `internal` → a
 * bare 500 (strategic-merge errors the apiserver does not classify), like the real server.
 */
export class PatchError extends Error {
  readonly code: 'bad-request' | 'rejected' | 'internal';
  constructor(code: 'bad-request' | 'rejected' | 'internal', message: string) {
    super(message);
    this.name = 'PatchError';
    this.code = code;
  }
}

// --- RFC 7386 merge patch ---

export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

// --- RFC 6902 JSON patch ---

interface Op {
  op: string;
  path: string;
  from?: string;
  value?: JsonValue;
}

function decodePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError('rejected', `JSON pointer must be empty or start with a "/": ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = JsonObject | JsonValue[];

/** Resolves the parent container of `path` and the final key; undefined parent when missing. */
function locate(doc: JsonValue, parts: string[]): { parent: Container | undefined; key: string } {
  let cur: JsonValue | undefined = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(cur)) {
      const i = arrayIndex(part, cur.length - 1);
      cur = i === undefined ? undefined : cur[i];
    } else if (isObject(cur)) {
      cur = cur[part];
    } else {
      cur = undefined;
    }
  }
  const parent = Array.isArray(cur) || isObject(cur) ? cur : undefined;
  return { parent, key: parts[parts.length - 1] ?? '' };
}

function arrayIndex(part: string, max: number): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(part)) return undefined;
  const i = Number(part);
  return i <= max ? i : undefined;
}

function getAt(doc: JsonValue, path: string): JsonValue | undefined {
  const parts = decodePointer(path);
  if (parts.length === 0) return doc;
  const { parent, key } = locate(doc, parts);
  if (Array.isArray(parent)) {
    const i = arrayIndex(key, parent.length - 1);
    return i === undefined ? undefined : parent[i];
  }
  return parent && Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function missing(op: string, path: string): PatchError {
  return new PatchError('rejected', `${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
}

function addAt(doc: JsonValue, path: string, value: JsonValue): JsonValue {
  const parts = decodePointer(path);
  if (parts.length === 0) return clone(value);
  const { parent, key } = locate(doc, parts);
  if (parent === undefined) throw missing('add', path);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : arrayIndex(key, parent.length);
    if (i === undefined) throw new PatchError('rejected', `Unable to access invalid index: ${key}: invalid index referenced`);
    parent.splice(i, 0, clone(value));
  } else {
    parent[key] = clone(value);
  }
  return doc;
}

function removeAt(doc: JsonValue, path: string, opName = 'remove'): { doc: JsonValue; removed: JsonValue } {
  const parts = decodePointer(path);
  const { parent, key } = locate(doc, parts);
  if (parts.length === 0 || parent === undefined) throw missing(opName, path);
  if (Array.isArray(parent)) {
    const i = arrayIndex(key, parent.length - 1);
    if (i === undefined) throw new PatchError('rejected', `Unable to access invalid index: ${key}: invalid index referenced`);
    const [removed] = parent.splice(i, 1);
    return { doc, removed: removed ?? null };
  }
  if (!Object.hasOwn(parent, key)) throw new PatchError('rejected', `Unable to remove nonexistent key: ${key}: missing value`);
  const removed = parent[key] ?? null;
  delete parent[key];
  return { doc, removed };
}

function parseOps(ops: unknown): Op[] {
  if (!Array.isArray(ops)) throw new PatchError('bad-request', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  return ops.map((raw) => {
    if (!isObject(raw)) throw new PatchError('bad-request', 'json: cannot unmarshal into Go value of type jsonpatch.Operation');
    const op = typeof raw.op === 'string' ? raw.op : '';
    const path = typeof raw.path === 'string' ? raw.path : undefined;
    if (path === undefined) throw new PatchError('rejected', `operation missing path field: missing value`);
    return { op, path, ...(typeof raw.from === 'string' ? { from: raw.from } : {}), ...(Object.hasOwn(raw, 'value') ? { value: raw.value ?? null } : {}) };
  });
}

/** Applies RFC 6902 operations to a copy of `doc`. */
export function applyJsonPatch(doc: JsonValue, ops: unknown): JsonValue {
  let cur = clone(doc);
  for (const op of parseOps(ops)) {
    switch (op.op) {
      case 'add':
        cur = addAt(cur, op.path, op.value ?? null);
        break;
      case 'remove':
        cur = removeAt(cur, op.path).doc;
        break;
      case 'replace': {
        const parts = decodePointer(op.path);
        if (parts.length === 0) {
          cur = clone(op.value ?? null);
          break;
        }
        const { parent, key } = locate(cur, parts);
        const exists = Array.isArray(parent) ? arrayIndex(key, parent.length - 1) !== undefined : parent !== undefined && Object.hasOwn(parent, key);
        if (!exists) throw new PatchError('rejected', `replace operation does not apply: doc is missing key: ${op.path}: missing value`);
        if (Array.isArray(parent)) parent[Number(key)] = clone(op.value ?? null);
        else if (parent) parent[key] = clone(op.value ?? null);
        break;
      }
      case 'move': {
        if (op.from === undefined) throw new PatchError('rejected', 'move operation missing from field: missing value');
        const { doc: next, removed } = removeAt(cur, op.from, 'move');
        cur = addAt(next, op.path, removed);
        break;
      }
      case 'copy': {
        if (op.from === undefined) throw new PatchError('rejected', 'copy operation missing from field: missing value');
        const value = getAt(cur, op.from);
        if (value === undefined) throw missing('copy', op.from);
        cur = addAt(cur, op.path, value);
        break;
      }
      case 'test': {
        const actual = getAt(cur, op.path);
        if (actual === undefined ? op.value !== null && op.value !== undefined : !deepEqual(actual, op.value ?? null)) {
          throw new PatchError('rejected', `testing value ${op.path} failed: test failed`);
        }
        break;
      }
      default:
        throw new PatchError('rejected', `Unexpected kind: ${op.op}`);
    }
  }
  return cur;
}

// --- strategic merge patch ---

/** Patch metadata of one field, as the Go struct tags `patchStrategy`/`patchMergeKey` declare. */
export interface SmpField {
  /** `merge` merges lists (by mergeKey for lists of maps, as a set for primitives); default replaces lists. */
  strategy?: 'merge' | 'retainKeys' | 'merge,retainKeys';
  mergeKey?: string;
  /** Schema of a nested map, or of each element of a list of maps. */
  fields?: SmpSchema;
}

export type SmpSchema = Record<string, SmpField>;

const DELETE_FROM_PRIMITIVE = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

function isDirectiveKey(k: string): boolean {
  return k === '$patch' || k === '$retainKeys' || k.startsWith(DELETE_FROM_PRIMITIVE) || k.startsWith(SET_ELEMENT_ORDER);
}

/** Applies a strategic merge patch. Unknown fields merge maps and replace lists, like JSON merge. */
export function applyStrategicMergePatch(original: JsonObject, patch: unknown, schema: SmpSchema | undefined): JsonObject {
  if (!isObject(patch)) throw new PatchError('bad-request', 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  return mergeMap(original, patch, schema) ?? {};
}

/** Returns undefined when the patch deletes the whole map (`$patch: delete`). */
function mergeMap(original: JsonObject, patch: JsonObject, schema: SmpSchema | undefined): JsonObject | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripDirectives(patch) as JsonObject;
  if (directive !== undefined && directive !== 'merge') throw new PatchError('internal', `Unknown patch type: ${String(directive)} in map: ${goMap(patch)}`);

  const out: JsonObject = { ...original };
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
  for (const [k, pv] of Object.entries(patch)) {
    if (isDirectiveKey(k)) continue;
    if (pv === null) {
      delete out[k];
      continue;
    }
    const field = schema?.[k];
    const ov = out[k];
    if (isObject(pv)) {
      const merged = mergeMap(isObject(ov) ? ov : {}, pv, field?.fields);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else if (Array.isArray(pv)) {
      const order = patch[`${SET_ELEMENT_ORDER}${k}`];
      out[k] = field?.strategy?.includes('merge')
        ? mergeList(Array.isArray(ov) ? ov : [], pv, field, Array.isArray(order) ? order : undefined)
        : (stripDirectives(pv) as JsonValue[]);
    } else {
      out[k] = pv;
    }
  }
  // `$deleteFromPrimitiveList/<field>: [values]` removes values from a set-like list (finalizers).
  for (const [k, pv] of Object.entries(patch)) {
    if (!k.startsWith(DELETE_FROM_PRIMITIVE)) continue;
    const target = k.slice(DELETE_FROM_PRIMITIVE.length);
    if (!Array.isArray(pv)) throw new PatchError('bad-request', 'invalid patch format of primitive list');
    const cur = out[target];
    if (Array.isArray(cur)) out[target] = cur.filter((v) => !pv.some((d) => deepEqual(d, v)));
  }
  return out;
}

function mergeList(original: JsonValue[], patch: JsonValue[], field: SmpField, setOrder: JsonValue[] | undefined): JsonValue[] {
  // `[{ "$patch": "replace" }, ...]` replaces the whole list with the remaining elements.
  if (patch.some((e) => isObject(e) && e.$patch === 'replace')) {
    return patch.filter((e) => !(isObject(e) && e.$patch === 'replace')).map((e) => stripDirectives(e));
  }
  const mergeKey = field.mergeKey;
  if (!mergeKey) {
    // Set-like list of primitives (e.g. metadata.finalizers): union without duplicates.
    const out: JsonValue[] = [];
    for (const v of [...original, ...patch]) if (!out.some((o) => deepEqual(o, v))) out.push(v);
    return normalizeOrder(out, patch, setOrder, original, (v) => v);
  }
  const out = original.map((e) => clone(e));
  for (const pe of patch) {
    if (!isObject(pe)) throw new PatchError('internal', `unable to find api field in struct for the merge key: ${mergeKey}`);
    if (!Object.hasOwn(pe, mergeKey)) throw new PatchError('internal', `map: ${goMap(pe)} does not contain declared merge key: ${mergeKey}`);
    const key = pe[mergeKey];
    const idx = out.findIndex((e) => isObject(e) && deepEqual(e[mergeKey], key));
    if (pe.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    const existing = idx >= 0 ? out[idx] : undefined;
    const merged = mergeMap(isObject(existing) ? existing : {}, pe, field.fields);
    if (merged === undefined) {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) {
      out[idx] = merged;
    } else {
      out.push(merged);
    }
  }
  return normalizeOrder(out, patch, setOrder, original, (v) => (isObject(v) ? (v[mergeKey] ?? null) : null));
}

/**
 * strategicpatch.normalizeElementOrder: items named by the patch keep the patch's order,
 * the others keep the server's, and the two runs are interleaved by server position; an
 * item new to the server goes before the server-only items still to place. (So adding a
 * finalizer or container through a strategic patch puts it first, as on a real server.)
 */
function normalizeOrder(
  merged: JsonValue[],
  patch: JsonValue[],
  setOrder: JsonValue[] | undefined,
  server: JsonValue[],
  id: (v: JsonValue) => JsonValue,
): JsonValue[] {
  const indexIn = (list: JsonValue[], v: JsonValue): number => list.findIndex((x) => deepEqual(id(x), id(v)));
  const patchOrder = setOrder ?? patch;
  const named = (v: JsonValue): boolean => indexIn(patch, v) >= 0 || (setOrder !== undefined && indexIn(setOrder, v) >= 0);
  const byOrder = (order: JsonValue[]) => (a: JsonValue, b: JsonValue) => indexIn(order, a) - indexIn(order, b);
  const patchItems = merged.filter(named).sort(byOrder(patchOrder));
  const serverOnly = merged.filter((v) => !named(v)).sort(byOrder(server));
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    const left = serverOnly[i];
    const right = patchItems[j];
    if (right === undefined) {
      out.push(left as JsonValue);
      i += 1;
    } else if (left === undefined) {
      out.push(right);
      j += 1;
    } else {
      const li = indexIn(server, left);
      const ri = indexIn(server, right);
      if (li >= 0 && ri >= 0 && li < ri) {
        out.push(left);
        i += 1;
      } else {
        out.push(right);
        j += 1;
      }
    }
  }
  return out;
}

function goMap(o: JsonObject): string {
  return `map[${Object.entries(o)
    .map(([k, v]) => `${k}:${isObject(v) || Array.isArray(v) ? JSON.stringify(v) : String(v)}`)
    .join(' ')}]`;
}

/** Removes `$patch`-style directives from a value that is being used verbatim. */
function stripDirectives(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (!isDirectiveKey(k)) out[k] = stripDirectives(x);
  return out;
}
