// HTTP plumbing shared by the handlers: path → request info (RequestInfoFactory rules),
// query parameters, content negotiation (including PartialObjectMetadata), bodies, replies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { readBody as readLimited } from '../body.js';
import { isObject } from './json.js';
import { ApiError, errors, failure, type StatusBody } from './status.js';
import type { DeleteOptions } from './validation.js';

export interface ResourcePath {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** Legacy `/watch/` prefix. */
  watchPrefix: boolean;
}

/** apiserver's namespaceSubresources: `namespaces/<name>/{status,finalize}` address the namespace itself. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Splits the part after `/api/v1` or `/apis/<g>/<v>` like k8s.io/apiserver RequestInfoFactory. */
export function parseResourceParts(group: string, version: string, parts: string[]): ResourcePath | undefined {
  let rest = parts;
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) return undefined;
  const [resource = '', name, subresource] = rest;
  const out: ResourcePath = { group, version, resource, watchPrefix };
  // `/namespaces/<x>` names the namespace; it is not a namespace scope.
  if (namespace !== undefined && !(resource === 'namespaces' && name === namespace)) out.namespace = namespace;
  if (name !== undefined) out.name = name;
  if (subresource !== undefined) out.subresource = subresource;
  return out;
}

// --- query parameters ---

export function intParam(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw errors.badRequest(`invalid value for ${name}: ${JSON.stringify(raw)}`);
  return Number(raw);
}

export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (raw === '' || raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw errors.badRequest(`invalid value for ${name}: ${JSON.stringify(raw)}`);
}

export function isDryRun(q: URLSearchParams): boolean {
  const values = q.getAll('dryRun');
  for (const v of values)
    if (v !== 'All')
      throw errors.invalid({ group: 'meta.k8s.io', kind: 'CreateOptions' }, '', [
        { type: 'FieldValueNotSupported', field: 'dryRun', value: v, detail: 'supported values: "All"' },
      ]);
  return values.length > 0;
}

/**
 * DeleteOptions come from the body when there is one, otherwise from the query (the
 * delete handler decodes one or the other, never both).
 */
export function deleteOptions(body: unknown, q: URLSearchParams): DeleteOptions {
  if (isObject(body)) {
    const o: DeleteOptions = {};
    if (typeof body.gracePeriodSeconds === 'number') o.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') o.propagationPolicy = body.propagationPolicy;
    if (typeof body.orphanDependents === 'boolean') o.orphanDependents = body.orphanDependents;
    if (isObject(body.preconditions)) {
      const p = body.preconditions;
      o.preconditions = {
        ...(typeof p.uid === 'string' ? { uid: p.uid } : {}),
        ...(typeof p.resourceVersion === 'string' ? { resourceVersion: p.resourceVersion } : {}),
      };
    }
    if (Array.isArray(body.dryRun)) o.dryRun = body.dryRun.map(String);
    return o;
  }
  const o: DeleteOptions = {};
  const grace = intParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) o.gracePeriodSeconds = grace;
  const policy = q.get('propagationPolicy');
  if (policy) o.propagationPolicy = policy;
  const orphan = boolParam(q, 'orphanDependents');
  if (orphan !== undefined) o.orphanDependents = orphan;
  const dry = q.getAll('dryRun');
  if (dry.length) o.dryRun = dry;
  return o;
}

// --- content negotiation ---

export type Representation = { as: 'object' } | { as: 'metadata' } | { as: 'table'; version: 'v1' | 'v1beta1' };

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((clause) => {
      const [type = '', ...rawParams] = clause.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of rawParams) {
        const i = p.indexOf('=');
        if (i > 0) params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim();
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q);
}

/**
 * Picks the response representation from Accept: plain JSON, PartialObjectMetadata(List)
 * (`application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`) or a Table for
 * gets and lists (watches skip Table, so kubectl falls back to plain objects). Nothing
 * acceptable is 406, as on the real server.
 */
export function negotiate(accept: string | undefined, mode: 'get' | 'list' | 'watch'): Representation {
  if (!accept) return { as: 'object' };
  for (const r of parseAccept(accept)) {
    const jsonish = r.type === 'application/json' || r.type === 'application/*' || r.type === '*/*';
    if (!jsonish) continue;
    const as = r.params.as;
    if (as === undefined) return { as: 'object' };
    const version = r.params.v;
    if (r.params.g !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) continue;
    if (as === (mode === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata')) return { as: 'metadata' };
    if (as === 'Table' && mode !== 'watch') return { as: 'table', version };
  }
  throw errors.notAcceptable();
}

export function partialMetadata(obj: { metadata?: unknown }): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {} };
}

// --- bodies and replies ---

const MAX_BODY = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const read = await readLimited(req, MAX_BODY);
  if (read.ok) return read.body.toString('utf8');
  if (read.reason === 'too-large') throw new ApiError(failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY}`));
  throw new Error('request body aborted');
}

/**
 * Decodes a JSON (or YAML) request body; empty → undefined. Protobuf bodies (kubectl's
 * `create namespace`/`create configmap` generators send them) are not simulated: 415.
 */
export function decodeBody(raw: string, contentType: string | undefined): unknown {
  if (!raw.trim()) return undefined;
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type && type !== 'application/json' && type !== 'application/yaml' && type !== '*/*') {
    throw errors.unsupportedMediaType(['application/json', 'application/yaml']);
  }
  try {
    if (contentType?.includes('yaml')) return parseYaml(raw) as unknown;
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendStatus(res: ServerResponse, status: StatusBody): void {
  sendJson(res, status.code ?? 500, status);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
