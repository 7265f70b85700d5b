// The registry layer: what k8s.io/apiserver's generic Store and the create/update/patch/
// delete handlers do on top of storage. Admission (NamespaceLifecycle), name generation,
// optimistic concurrency, status isolation, graceful pod deletion, finalizers and
// garbage-collection finalizers, delete-during-update when the last finalizer goes.
import { randomInt, randomUUID } from 'node:crypto';
import type { KubeObject } from '../diagnosis/types.js';
import { type FieldRequirement, type LabelRequirement, matchFields, matchLabels } from '../kube/selectors.js';
import { clone, deepEqual, formatTime, isObject, type JsonObject, type JsonValue, meta } from './json.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patch.js';
import { apiVersionOf, fieldGetter, groupKind, groupResource, type ResourceDef } from './resources.js';
import { ApiError, deletedStatus, errors, failure, required, type StatusBody } from './status.js';
import type { ObjectStore } from './store.js';
import {
  applyDefaults,
  dropEmpty,
  prepareForCreate,
  prepareForFinalize,
  prepareForStatusUpdate,
  prepareForUpdate,
  validateCreate,
  validateUpdate,
} from './strategies.js';
import { type DeleteOptions, validateDeleteOptions } from './validation.js';

export type WriteMode = 'main' | 'status' | 'finalize';

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export interface ListOptions {
  namespace?: string;
  labels?: LabelRequirement[];
  fields?: FieldRequirement[];
  limit?: number;
  continueToken?: string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export interface DeleteResult {
  body: KubeObject | StatusBody;
  /** False when the object is still there (graceful deletion, finalizers, namespace termination). */
  deleted: boolean;
}

export interface RegistryOptions {
  now: () => Date;
  /** Called after a change inside a Terminating namespace (the sim's namespace controller hooks in). */
  onNamespacedChange?: (namespace: string) => void;
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** names.SimpleNameGenerator: generateName + 5 random characters. */
function generateName(base: string): string {
  const prefix = base.length > 58 ? base.slice(0, 58) : base;
  let suffix = '';
  for (let i = 0; i < 5; i += 1) suffix += GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)];
  return prefix + suffix;
}

export class Registry {
  /** Next service ClusterIP (the sim hands them out from 10.96.0.0/12 in order). */
  private nextClusterIp = 10;

  constructor(
    readonly store: ObjectStore,
    private readonly opts: RegistryOptions,
  ) {}

  private now(): Date {
    return this.opts.now();
  }

  /** The namespaces def, for NamespaceLifecycle admission. */
  private get namespaces(): ResourceDef {
    const def = this.store.table.lookup('', 'v1', 'namespaces');
    if (!def) throw new Error('namespaces resource missing from the table');
    return def;
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.get(def, namespace, name);
    if (!obj) throw errors.notFound(groupResource(def), name);
    return obj;
  }

  // --- list ---

  list(def: ResourceDef, o: ListOptions): ListResult {
    const fields = o.fields ?? [];
    const getters = new Map<string, (obj: KubeObject) => string>();
    for (const f of fields) {
      const g = fieldGetter(def, f.field);
      if (!g) throw errors.badRequest(`field label not supported: ${f.field}`);
      getters.set(f.field, g);
    }
    const labels = o.labels ?? [];
    let resourceVersion = this.store.resourceVersion;
    let start: string | undefined;
    if (o.continueToken) {
      const token = decodeContinue(o.continueToken);
      start = token.start;
      resourceVersion = String(token.rv);
    }
    const items = this.store.list(def, {
      ...(def.namespaced && o.namespace !== undefined ? { namespace: o.namespace } : {}),
      equals: fields.filter((f) => f.op === '=').map((f) => ({ field: f.field, value: f.value })),
      filter: (obj) =>
        (start === undefined || keyOf(def, obj) > start) &&
        matchLabels(labels, obj.metadata?.labels) &&
        matchFields(fields, (field) => getters.get(field)?.(obj) ?? ''),
    });
    if (o.limit === undefined || o.limit <= 0 || items.length <= o.limit) return { items, resourceVersion };
    const page = items.slice(0, o.limit);
    const last = page[page.length - 1];
    const result: ListResult = {
      items: page,
      resourceVersion,
      continueToken: encodeContinue(Number(resourceVersion), last ? keyOf(def, last) : ''),
    };
    // The count is only known when no selector filtered the list (as in the real server).
    if (labels.length === 0 && fields.length === 0) result.remainingItemCount = items.length - page.length;
    return result;
  }

  // --- create ---

  /** POST to a collection. */
  create(def: ResourceDef, namespace: string | undefined, body: unknown, o: { dryRun?: boolean } = {}): KubeObject {
    const obj = this.decode(def, body);
    const m = meta(obj);
    if (def.namespaced) {
      if (m.namespace && m.namespace !== namespace)
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      m.namespace = namespace ?? '';
    } else {
      delete m.namespace;
    }
    if (def.namespaced) this.admitNamespace(def, m.namespace ?? '', m.name ?? '');
    if (!m.name && m.generateName) m.name = generateName(m.generateName);
    if (!m.name) throw errors.invalid(groupKind(def), '', [required('metadata.name', 'name or generateName is required')]);
    // FillObjectMetaSystemFields: the server owns uid and creationTimestamp.
    delete m.uid;
    m.creationTimestamp = formatTime(this.now());
    prepareForCreate(def, obj);
    if (def.group === '' && def.resource === 'services') this.allocateClusterIp(obj);
    dropEmpty(def, obj);
    const errs = validateCreate(def, obj);
    if (errs.length) throw errors.invalid(groupKind(def), m.name, errs);
    if (m.resourceVersion) throw new ApiError(failure(500, '', 'resourceVersion should not be set on objects to be created'));
    if (this.store.get(def, m.namespace, m.name)) throw errors.alreadyExists(groupResource(def), m.name);
    if (o.dryRun) return { ...obj, metadata: { ...m, uid: m.uid ?? randomUUID() } };
    const created = this.store.create(def, obj);
    this.touched(def, created);
    return created;
  }

  /** The service IP allocator: a ClusterIP service gets the next free address. */
  private allocateClusterIp(svc: KubeObject): void {
    const spec = svc.spec ?? {};
    if (spec.type === 'ExternalName') return;
    let ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
    if (!ip) {
      const n = this.nextClusterIp++;
      ip = `10.${96 + Math.floor(n / 65536)}.${Math.floor(n / 256) % 256}.${n % 256}`;
    }
    svc.spec = { ...spec, clusterIP: ip, clusterIPs: [ip] };
  }

  /** NamespaceLifecycle admission for creates of namespaced objects. */
  private admitNamespace(def: ResourceDef, namespace: string, name: string): void {
    const ns = this.store.get(this.namespaces, undefined, namespace);
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.status?.phase === 'Terminating') {
      throw errors.forbidden(groupResource(def), name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
        { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
      ]);
    }
  }

  /** Decodes a request body into the resource's kind (apiVersion/kind defaulted, checked when given). */
  private decode(def: ResourceDef, body: unknown): KubeObject {
    if (!isObject(body)) throw errors.badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
    const obj = clone(body) as KubeObject;
    if (obj.apiVersion !== undefined && !def.versions.some((v) => apiVersionOf(def.group, v) === obj.apiVersion)) {
      throw errors.badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(def.group, def.versions[0] ?? '')})`,
      );
    }
    if (obj.kind !== undefined && obj.kind !== def.kind) {
      throw errors.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${def.kind})`);
    }
    const typed = withTypeMeta(def, obj);
    applyDefaults(def, typed);
    return typed;
  }

  // --- update ---

  /**
   * PUT of the main resource, `status` or `finalize`. Returns the stored object and whether
   * it was created (allowCreateOnUpdate resources).
   */
  update(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    body: unknown,
    mode: WriteMode = 'main',
    o: { dryRun?: boolean } = {},
  ): { object: KubeObject; created: boolean } {
    const next = this.decode(def, body);
    checkName(def, next, namespace, name);
    const existing = this.store.get(def, namespace, name);
    if (!existing) {
      if (mode === 'main' && def.allowCreateOnUpdate) return { object: this.create(def, namespace, next, o), created: true };
      throw errors.notFound(groupResource(def), name);
    }
    return { object: this.applyUpdate(def, existing, next, mode, o), created: false };
  }

  /** The GuaranteedUpdate body shared by PUT and PATCH. */
  private applyUpdate(def: ResourceDef, existing: KubeObject, next: KubeObject, mode: WriteMode, o: { dryRun?: boolean }): KubeObject {
    const name = existing.metadata?.name ?? '';
    const wantRv = next.metadata?.resourceVersion;
    if (wantRv && wantRv !== existing.metadata?.resourceVersion) throw errors.modified(groupResource(def), name);
    const prepared =
      mode === 'status'
        ? prepareForStatusUpdate(def, next, existing)
        : mode === 'finalize'
          ? prepareForFinalize(next, existing)
          : prepareForUpdate(def, next, existing);
    meta(prepared).resourceVersion = existing.metadata?.resourceVersion ?? '';
    dropEmpty(def, prepared);
    const errs = validateUpdate(def, prepared, existing);
    if (errs.length) throw errors.invalid(groupKind(def), name, errs);
    if (shouldDeleteDuringUpdate(def, prepared, existing)) {
      // deleteWithoutFinalizers: the object goes; the client still gets the updated object.
      if (!o.dryRun) {
        this.store.remove(def, existing.metadata?.namespace, name);
        this.touched(def, existing);
      }
      return prepared;
    }
    // A write that changes nothing is a no-op in etcd: same resourceVersion, no watch event.
    if (deepEqual(prepared, existing)) return existing;
    if (o.dryRun) return prepared;
    const stored = this.store.update(def, prepared);
    this.touched(def, stored);
    return stored;
  }

  // --- patch ---

  patch(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    version: string,
    contentType: string,
    rawBody: string,
    mode: WriteMode = 'main',
    o: { dryRun?: boolean } = {},
  ): KubeObject {
    const type = patchType(def, contentType);
    const existing = this.get(def, namespace, name);
    const current = present(def, version, existing);
    const patched = applyPatch(def, type, current as JsonObject, rawBody);
    const next = this.decode(def, patched);
    checkName(def, next, namespace, name);
    return this.applyUpdate(def, existing, next, mode, o);
  }

  // --- delete ---

  delete(def: ResourceDef, namespace: string | undefined, name: string, options: DeleteOptions): DeleteResult {
    const existing = this.get(def, namespace, name);
    const errs = validateDeleteOptions(options);
    if (errs.length) throw errors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
    if (def.group === '' && def.resource === 'namespaces') return this.deleteNamespace(def, existing, options);
    return this.deleteObject(def, existing, options);
  }

  /** genericregistry.Store.Delete. */
  deleteObject(def: ResourceDef, existing: KubeObject, options: DeleteOptions): DeleteResult {
    const m = existing.metadata ?? {};
    checkPreconditions(def, existing, options);
    const dry = options.dryRun?.includes('All') ?? false;

    const next = clone(existing);
    const nm = meta(next);
    let graceful = false;
    let bumpGeneration = false;
    let grace = options.gracePeriodSeconds;
    if (grace !== undefined && grace < 0) grace = 1;

    if (def.graceful) {
      // rest.BeforeDelete with podStrategy.CheckGracefulDelete.
      if (m.deletionTimestamp) {
        const current = m.deletionGracePeriodSeconds;
        if (current !== undefined && current !== 0) {
          if (grace === undefined || grace >= current) return { body: this.deletedResponse(def, existing), deleted: false };
          // Only a shorter grace period may be given: move deletionTimestamp earlier.
          const at = Date.parse(m.deletionTimestamp) - current * 1000 + grace * 1000;
          nm.deletionTimestamp = formatTime(new Date(at));
          nm.deletionGracePeriodSeconds = grace;
          graceful = true;
        }
      } else {
        let period = grace ?? (typeof existing.spec?.terminationGracePeriodSeconds === 'number' ? existing.spec.terminationGracePeriodSeconds : 30);
        // An unscheduled or terminated pod has no kubelet to wait for.
        if (!existing.spec?.nodeName) period = 0;
        const phase = existing.status?.phase;
        if (phase === 'Succeeded' || phase === 'Failed') period = 0;
        nm.deletionTimestamp = formatTime(new Date(this.now().getTime() + period * 1000));
        nm.deletionGracePeriodSeconds = period;
        graceful = true;
        bumpGeneration = m.generation !== undefined && m.generation > 0;
      }
    }

    const gc = gcFinalizers(def, m.finalizers ?? [], options);
    if (gc) nm.finalizers = gc;
    const pendingFinalizers = (nm.finalizers ?? []).length > 0;

    if (graceful || pendingFinalizers || gc) {
      if (!graceful) {
        if (!pendingFinalizers) return this.removeNow(def, existing, dry);
        // markAsDeleting: deletion starts now, nothing to wait for but the finalizers.
        if (!m.deletionTimestamp) bumpGeneration = m.generation !== undefined && m.generation > 0;
        if (!m.deletionTimestamp || Date.parse(m.deletionTimestamp) > this.now().getTime()) nm.deletionTimestamp = formatTime(this.now());
        nm.deletionGracePeriodSeconds = 0;
      }
      dropEmpty(def, next);
      const updated = dry || deepEqual(next, existing) ? next : this.store.update(def, next, { bumpGeneration });
      if (!dry) this.touched(def, updated);
      // Still there (waiting for the kubelet or finalizers): the client gets the object.
      if (pendingFinalizers || (nm.deletionGracePeriodSeconds ?? 0) > 0) return { body: updated, deleted: false };
      return this.removeNow(def, updated, dry);
    }
    return this.removeNow(def, existing, dry);
  }

  private removeNow(def: ResourceDef, obj: KubeObject, dry: boolean): DeleteResult {
    if (!dry) {
      this.store.remove(def, obj.metadata?.namespace, obj.metadata?.name ?? '');
      this.touched(def, obj);
    }
    return { body: this.deletedResponse(def, obj), deleted: true };
  }

  /** finalizeDelete: the object (ReturnDeletedObject stores) or a Success Status. */
  private deletedResponse(def: ResourceDef, obj: KubeObject): KubeObject | StatusBody {
    if (def.returnsDeletedObject) return obj;
    return deletedStatus(groupResource(def), obj.metadata?.name ?? '', obj.metadata?.uid);
  }

  /** pkg/registry/core/namespace/storage REST.Delete: start termination, or purge when finalized. */
  private deleteNamespace(def: ResourceDef, ns: KubeObject, options: DeleteOptions): DeleteResult {
    const name = ns.metadata?.name ?? '';
    const uid = ns.metadata?.uid ?? '';
    const pre = options.preconditions;
    if (pre?.uid !== undefined && pre.uid !== uid) {
      throw errors.conflict(groupResource(def), name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== ns.metadata?.resourceVersion) {
      throw errors.conflict(
        groupResource(def),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${ns.metadata?.resourceVersion ?? ''}`,
      );
    }
    const dry = options.dryRun?.includes('All') ?? false;
    if (!ns.metadata?.deletionTimestamp) {
      const next = clone(ns);
      meta(next).deletionTimestamp = formatTime(this.now());
      next.status = { ...next.status, phase: 'Terminating' };
      const gc = gcFinalizers(def, ns.metadata?.finalizers ?? [], options);
      if (gc) meta(next).finalizers = gc;
      if (dry) return { body: next, deleted: false };
      const updated = this.store.update(def, next);
      this.opts.onNamespacedChange?.(name);
      return { body: updated, deleted: false };
    }
    // 1.20 answers a repeated delete with the Terminating namespace (older releases said 409
    // "The system is ensuring all content is removed from this namespace").
    const specFinalizers = ns.spec?.finalizers;
    if (Array.isArray(specFinalizers) && specFinalizers.length > 0) return { body: ns, deleted: false };
    return this.deleteObject(def, ns, { ...options, preconditions: { ...options.preconditions, uid } });
  }

  /** Store.DeleteCollection: deletes each selected object with the same options; answers with them as listed. */
  deleteCollection(def: ResourceDef, list: ListOptions, options: DeleteOptions): KubeObject[] {
    const errs = validateDeleteOptions(options);
    if (errs.length) throw errors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
    const { items } = this.list(def, { ...list, limit: 0 });
    for (const item of items) this.delete(def, item.metadata?.namespace, item.metadata?.name ?? '', options);
    return items;
  }

  /** Lets the namespace controller know something changed inside a namespace. */
  private touched(def: ResourceDef, obj: KubeObject): void {
    const ns = obj.metadata?.namespace;
    if (def.namespaced && ns) this.opts.onNamespacedChange?.(ns);
    else if (def.group === '' && def.resource === 'namespaces' && obj.metadata?.name) this.opts.onNamespacedChange?.(obj.metadata.name);
  }
}

/** checkName of the update/patch handlers: the body must name the URL's object. */
function checkName(def: ResourceDef, obj: KubeObject, namespace: string | undefined, name: string): void {
  const m = meta(obj);
  if (m.name !== name) throw errors.badRequest(`the name of the object (${m.name ?? ''}) does not match the name on the URL (${name})`);
  if (def.namespaced) {
    if (m.namespace && m.namespace !== namespace)
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    m.namespace = namespace ?? '';
  } else {
    delete m.namespace;
  }
}

/** rest.BeforeDelete's early precondition check (the conflict names the Kind, as upstream). */
function checkPreconditions(def: ResourceDef, obj: KubeObject, options: DeleteOptions): void {
  const pre = options.preconditions;
  const gr = { group: def.group, resource: def.kind };
  const name = obj.metadata?.name ?? '';
  if (pre?.uid !== undefined && pre.uid !== obj.metadata?.uid) {
    throw errors.conflict(
      gr,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${obj.metadata?.uid ?? ''}). ` +
        'The object might have been deleted and then recreated',
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata?.resourceVersion) {
    throw errors.conflict(
      gr,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) ` +
        `does not match the ResourceVersion in record (${obj.metadata?.resourceVersion ?? ''}). ` +
        'The object might have been modified',
    );
  }
}

/**
 * deletionFinalizersForGarbageCollection: the orphan/foregroundDeletion finalizers a delete
 * adds or removes. Returns the new list, or undefined when nothing changes.
 */
function gcFinalizers(def: ResourceDef, finalizers: readonly string[], o: DeleteOptions): string[] | undefined {
  if (def.gcUnsupported) return undefined;
  const has = (f: string): boolean => finalizers.includes(f);
  let orphan: boolean;
  let foreground: boolean;
  if (o.orphanDependents !== undefined) {
    orphan = o.orphanDependents;
    foreground = false;
  } else if (o.propagationPolicy !== undefined) {
    orphan = o.propagationPolicy === 'Orphan';
    foreground = o.propagationPolicy === 'Foreground';
  } else {
    orphan = !!(has('orphan') && !has('foregroundDeletion'));
    foreground = has('foregroundDeletion') && !orphan;
  }
  const next = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (orphan) next.push('orphan');
  if (foreground) next.push('foregroundDeletion');
  const same = next.length === finalizers.length && next.every((f) => finalizers.includes(f));
  return same ? undefined : next;
}

/**
 * ShouldDeleteDuringUpdate: the update removed the last finalizer of an object whose
 * deletion already started and has no grace period left to wait for (for namespaces, the
 * spec finalizers must be gone too).
 */
function shouldDeleteDuringUpdate(def: ResourceDef, next: KubeObject, old: KubeObject): boolean {
  if ((next.metadata?.finalizers ?? []).length > 0) return false;
  if (!old.metadata?.deletionTimestamp) return false;
  if (def.group === '' && def.resource === 'namespaces') {
    const specFinalizers = next.spec?.finalizers;
    if (Array.isArray(specFinalizers) && specFinalizers.length > 0) return false;
  }
  const grace = old.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === 0;
}

// --- presentation & patch helpers ---

/** Puts kind/apiVersion first (Go's field order) with the stored apiVersion. */
export function withTypeMeta(def: ResourceDef, obj: KubeObject, version = def.versions[0] ?? 'v1'): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return { kind: def.kind, apiVersion: apiVersionOf(def.group, version), ...rest };
}

/** The object as served at `version` (all served versions share one schema here). */
export function present(def: ResourceDef, version: string, obj: KubeObject): KubeObject {
  return withTypeMeta(def, obj, version);
}

/**
 * The patch type of a PATCH's Content-Type. A type the route does not consume is go-restful's
 * bare 415; strategic merge on a custom resource is the patch handler's 415 listing what it
 * accepts. Server-side apply is not simulated and is refused the same way.
 */
export function patchType(def: ResourceDef, contentType: string): 'json' | 'merge' | 'strategic' {
  const ct = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (ct === PATCH_TYPES.json) return 'json';
  if (ct === PATCH_TYPES.merge) return 'merge';
  if (ct === PATCH_TYPES.strategic && def.smp) return 'strategic';
  if (ct !== PATCH_TYPES.strategic && ct !== PATCH_TYPES.apply) throw new ApiError(failure(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {}));
  const accepted = def.smp ? [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.strategic] : [PATCH_TYPES.json, PATCH_TYPES.merge];
  throw errors.unsupportedMediaType(accepted);
}

function applyPatch(def: ResourceDef, type: 'json' | 'merge' | 'strategic', current: JsonObject, rawBody: string): JsonValue {
  let patch: JsonValue;
  try {
    patch = JSON.parse(rawBody) as JsonValue;
  } catch (err) {
    throw errors.badRequest(type === 'merge' ? 'Invalid JSON Patch' : (err as Error).message);
  }
  try {
    if (type === 'json') return applyJsonPatch(current, patch);
    if (type === 'merge') {
      if (!isObject(patch)) throw new PatchError('bad-request', 'Invalid JSON Patch');
      return applyMergePatch(current, patch);
    }
    return applyStrategicMergePatch(current, patch, def.smp);
  } catch (err) {
    if (err instanceof PatchError) throw patchFailure(err);
    throw err;
  }
}

/** The Status a PatchError becomes. */
export function patchFailure(err: PatchError): ApiError {
  if (err.code === 'bad-request') return errors.badRequest(err.message);
  if (err.code === 'rejected') return errors.patchRejected(err.message);
  return new ApiError(failure(500, '', err.message));
}

// --- continue tokens (storage/etcd3 continueToken: base64url of {"v","rv","start"}) ---

function keyOf(def: ResourceDef, obj: KubeObject): string {
  const name = obj.metadata?.name ?? '';
  return def.namespaced ? `${obj.metadata?.namespace ?? ''}/${name}` : name;
}

function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (isObject(parsed) && parsed.v === 'meta.k8s.io/v1' && typeof parsed.rv === 'number' && typeof parsed.start === 'string') {
      // `start` is the last key plus "\0": everything strictly after the last key.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the token's own NUL separator
      return { rv: parsed.rv, start: parsed.start.replace(/\u0000$/, '') };
    }
  } catch {
    // fall through
  }
  throw errors.badRequest('continue key is not valid: continue key is not valid');
}
