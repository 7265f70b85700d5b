// In-memory object storage, the simulator's etcd: objects in wire form keyed by
// (group, resource, namespace, name), one global monotonically increasing resourceVersion,
// uid/creationTimestamp/generation bookkeeping, secondary indexes for field selectors, and a
// bounded change history that watches replay from.
//
// Stored objects are never mutated: every write stores a fresh object, so callers may hold
// on to what `get`/`list` return but must treat it as read-only.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../diagnosis/types.js';
import { canonicalOrder, clone, deepEqual, formatTime, meta, stableUid } from './json.js';
import { apiVersionOf, fieldGetter, type ResourceDef, ResourceTable, storageKey } from './resources.js';
import { errors } from './status.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  type: ChangeType;
  rv: number;
  /** Storage key of the resource (`/pods`, `apps/deployments`). */
  resource: string;
  object: KubeObject;
  /** The previous state, for MODIFIED and DELETED. */
  previous?: KubeObject;
}

export type ChangeListener = (change: Change) => void;

export interface ListQuery {
  namespace?: string;
  /** Equality constraints (`spec.nodeName=node-1`); indexed ones narrow the scan. */
  equals?: { field: string; value: string }[];
  filter?: (obj: KubeObject) => boolean;
}

interface Bucket {
  def: ResourceDef;
  objects: Map<string, KubeObject>;
  byNamespace: Map<string, Map<string, KubeObject>>;
  /** field → value → object key → object. */
  indexes: Map<string, Map<string, Map<string, KubeObject>>>;
  sortedKeys: string[] | undefined;
}

export interface StoreOptions {
  now?: () => Date;
  /** How many changes watches can replay (older resourceVersions get 410 Expired). */
  historyLimit?: number;
  table?: ResourceTable;
}

function objectKey(def: ResourceDef, namespace: string | undefined, name: string): string {
  return def.namespaced ? `${namespace ?? ''}/${name}` : name;
}

export class ObjectStore {
  readonly table: ResourceTable;
  private readonly now: () => Date;
  private readonly historyLimit: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private history: Change[] = [];
  /** Highest resourceVersion whose change was dropped from history. */
  private compactedRv = 0;
  private rv = 0;

  constructor(opts: StoreOptions = {}) {
    this.now = opts.now ?? (() => new Date());
    this.historyLimit = opts.historyLimit ?? 10_000;
    this.table = opts.table ?? new ResourceTable();
  }

  /** The current global resourceVersion (what a list returns). */
  get resourceVersion(): string {
    return String(this.rv);
  }

  get currentRv(): number {
    return this.rv;
  }

  private bucket(def: ResourceDef): Bucket {
    const key = storageKey(def);
    let b = this.buckets.get(key);
    if (!b) {
      b = { def, objects: new Map(), byNamespace: new Map(), indexes: new Map(), sortedKeys: undefined };
      for (const f of def.indexes ?? []) b.indexes.set(f, new Map());
      this.buckets.set(key, b);
    }
    return b;
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.buckets.get(storageKey(def))?.objects.get(objectKey(def, namespace, name));
  }

  count(def: ResourceDef, namespace?: string): number {
    const b = this.buckets.get(storageKey(def));
    if (!b) return 0;
    return namespace === undefined ? b.objects.size : (b.byNamespace.get(namespace)?.size ?? 0);
  }

  /**
   * Objects in key order (namespace, then name: etcd's order). Uses the narrowest of the
   * namespace map and any matching index, so a field-selector list for one node's pods
   * touches only that node's pods.
   */
  list(def: ResourceDef, q: ListQuery = {}): KubeObject[] {
    const b = this.buckets.get(storageKey(def));
    if (!b) return [];
    const candidates = this.candidates(b, q);
    const out: KubeObject[] = [];
    const keys = candidates === b.objects ? this.sortedKeys(b) : [...candidates.keys()].sort();
    for (const k of keys) {
      const o = candidates.get(k);
      if (!o) continue;
      if (q.namespace !== undefined && o.metadata?.namespace !== q.namespace) continue;
      if (q.filter && !q.filter(o)) continue;
      out.push(o);
    }
    return out;
  }

  /** The candidate set `list` scans (exposed so tests can check that lookups use indexes). */
  scanSize(def: ResourceDef, q: ListQuery = {}): number {
    const b = this.buckets.get(storageKey(def));
    return b ? this.candidates(b, q).size : 0;
  }

  private candidates(b: Bucket, q: ListQuery): Map<string, KubeObject> {
    let best: Map<string, KubeObject> = b.objects;
    if (q.namespace !== undefined && b.def.namespaced) best = b.byNamespace.get(q.namespace) ?? new Map();
    for (const eq of q.equals ?? []) {
      const index = b.indexes.get(eq.field);
      if (!index) continue;
      const hit = index.get(eq.value) ?? new Map<string, KubeObject>();
      if (hit.size < best.size) best = hit;
    }
    return best;
  }

  private sortedKeys(b: Bucket): string[] {
    b.sortedKeys ??= [...b.objects.keys()].sort();
    return b.sortedKeys;
  }

  /**
   * Adds a fixture object as is (uid, resourceVersion and timestamps kept; a missing uid is
   * derived from the object's identity so reruns agree); no watch event. A second object
   * with the same identity replaces the first.
   */
  load(def: ResourceDef, input: KubeObject): KubeObject {
    const obj = clone(input);
    const m = meta(obj);
    if (!m.name) throw new Error(`${def.kind} without metadata.name cannot be loaded`);
    if (!def.namespaced) delete m.namespace;
    else m.namespace ||= 'default';
    m.uid ??= stableUid(`${storageKey(def)}/${m.namespace ?? ''}/${m.name}`);
    m.creationTimestamp ??= formatTime(this.now());
    const given = Number(m.resourceVersion);
    if (m.resourceVersion && Number.isSafeInteger(given) && given > this.rv) this.rv = given;
    if (!m.resourceVersion) m.resourceVersion = String(++this.rv);
    if (def.generation && m.generation === undefined) m.generation = 1;
    const b = this.bucket(def);
    return this.place(b, obj, b.objects.get(objectKey(def, m.namespace, m.name)));
  }

  /** Stores a new object: assigns resourceVersion, and uid/creationTimestamp/generation when missing. */
  create(def: ResourceDef, input: KubeObject): KubeObject {
    const b = this.bucket(def);
    const obj = clone(input);
    const m = meta(obj);
    const key = objectKey(def, m.namespace, m.name ?? '');
    if (b.objects.has(key)) throw errors.alreadyExists({ group: def.group, resource: def.resource }, m.name ?? '');
    m.uid ??= randomUUID();
    m.creationTimestamp ??= formatTime(this.now());
    if (def.generation) m.generation = 1;
    m.resourceVersion = String(++this.rv);
    const stored = this.place(b, obj, undefined);
    this.emit({ type: 'ADDED', rv: this.rv, resource: storageKey(def), object: stored });
    return stored;
  }

  /**
   * Replaces an existing object with a new resourceVersion. metadata.generation follows
   * the stored one, +1 when the spec (or, for custom resources, any non-metadata part)
   * changed, +1 more when `bumpGeneration` (deletion started).
   */
  update(def: ResourceDef, input: KubeObject, opts: { bumpGeneration?: boolean } = {}): KubeObject {
    const b = this.bucket(def);
    const obj = clone(input);
    const m = meta(obj);
    const key = objectKey(def, m.namespace, m.name ?? '');
    const old = b.objects.get(key);
    if (!old) throw errors.notFound({ group: def.group, resource: def.resource }, m.name ?? '');
    if (def.generation) {
      const base = old.metadata?.generation ?? 1;
      m.generation = base + (generationSourceChanged(def, old, obj) ? 1 : 0) + (opts.bumpGeneration ? 1 : 0);
    } else {
      delete m.generation;
    }
    m.resourceVersion = String(++this.rv);
    const stored = this.place(b, obj, old);
    this.emit({ type: 'MODIFIED', rv: this.rv, resource: storageKey(def), object: stored, previous: old });
    return stored;
  }

  /** Removes an object; the DELETED event carries its last state at the deletion revision. */
  remove(def: ResourceDef, namespace: string | undefined, name: string): KubeObject | undefined {
    const b = this.buckets.get(storageKey(def));
    const key = objectKey(def, namespace, name);
    const old = b?.objects.get(key);
    if (!b || !old) return undefined;
    this.unindex(b, key, old);
    b.objects.delete(key);
    b.sortedKeys = undefined;
    const ns = old.metadata?.namespace ?? '';
    const nsMap = b.byNamespace.get(ns);
    nsMap?.delete(key);
    if (nsMap?.size === 0) b.byNamespace.delete(ns);
    this.rv += 1;
    const last: KubeObject = { ...old, metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.emit({ type: 'DELETED', rv: this.rv, resource: storageKey(def), object: last, previous: old });
    return old;
  }

  private place(b: Bucket, input: KubeObject, old: KubeObject | undefined): KubeObject {
    const obj = canonicalOrder(input);
    const key = objectKey(b.def, obj.metadata?.namespace, obj.metadata?.name ?? '');
    if (old) this.unindex(b, key, old);
    else b.sortedKeys = undefined;
    b.objects.set(key, obj);
    const ns = obj.metadata?.namespace ?? '';
    let nsMap = b.byNamespace.get(ns);
    if (!nsMap) b.byNamespace.set(ns, (nsMap = new Map()));
    nsMap.set(key, obj);
    for (const [field, index] of b.indexes) {
      const value = fieldGetter(b.def, field)?.(obj) ?? '';
      let set = index.get(value);
      if (!set) index.set(value, (set = new Map()));
      set.set(key, obj);
    }
    return obj;
  }

  private unindex(b: Bucket, key: string, old: KubeObject): void {
    for (const [field, index] of b.indexes) {
      const value = fieldGetter(b.def, field)?.(old) ?? '';
      const set = index.get(value);
      set?.delete(key);
      if (set?.size === 0) index.delete(value);
    }
  }

  // --- object-addressed helpers (for tests and in-process controllers) ---

  /** The resource serving `apiVersion`/`kind`; throws for kinds the table does not know. */
  defFor(obj: { apiVersion?: string; kind?: string }): ResourceDef {
    const def = this.table.forKind(obj.apiVersion ?? '', obj.kind ?? '');
    if (!def) throw new Error(`no resource serves ${obj.apiVersion ?? '?'} ${obj.kind ?? '?'}`);
    return def;
  }

  find(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const def = this.defFor({ apiVersion, kind });
    return this.get(def, def.namespaced ? namespace : undefined, name);
  }

  /**
   * Creates or replaces an object out of band, with watch events, bypassing API semantics
   * (what a kubelet or controller would have written). Identity fields of an existing
   * object are kept.
   */
  apply(input: KubeObject): KubeObject {
    const def = this.defFor(input);
    const m = input.metadata ?? {};
    const existing = this.get(def, def.namespaced ? m.namespace : undefined, m.name ?? '');
    if (!existing) return this.create(def, { ...input, apiVersion: apiVersionOf(def.group, def.versions[0] ?? ''), kind: def.kind });
    const om = existing.metadata ?? {};
    return this.update(def, { ...input, metadata: { ...m, uid: om.uid, creationTimestamp: om.creationTimestamp } });
  }

  // --- change feed ---

  private emit(change: Change): void {
    this.history.push(change);
    if (this.history.length > this.historyLimit * 2) {
      const drop = this.history.length - this.historyLimit;
      this.compactedRv = this.history[drop - 1]?.rv ?? this.compactedRv;
      this.history = this.history.slice(drop);
    }
    for (const l of this.listeners.get(change.resource) ?? []) l(change);
  }

  /**
   * Calls `listener` for every change of `def` after resourceVersion `fromRv` (replayed
   * from history), then for live changes. Versions older than the retained history throw
   * 410 Expired. Versions older than the first change the sim saw (e.g. a fixture object's
   * own resourceVersion) replay everything retained, since no change was lost.
   */
  subscribe(def: ResourceDef, fromRv: number, listener: ChangeListener): () => void {
    if (fromRv < this.compactedRv) {
      throw errors.expired(`too old resource version: ${fromRv} (${this.compactedRv + 1})`);
    }
    const resource = storageKey(def);
    for (const c of this.history) if (c.resource === resource && c.rv > fromRv) listener(c);
    let set = this.listeners.get(resource);
    if (!set) this.listeners.set(resource, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }
}

function generationSourceChanged(def: ResourceDef, old: KubeObject, next: KubeObject): boolean {
  if (def.generation === 'spec') return !deepEqual(old.spec, next.spec);
  const strip = (o: KubeObject): Record<string, unknown> => {
    const { metadata: _m, status, ...rest } = o;
    return def.statusSubresource ? rest : { ...rest, status };
  };
  return !deepEqual(strip(old), strip(next));
}
