// The simulated Kubernetes API server: node:http on loopback speaking the real REST
// protocol, so @kubernetes/client-node and kubectl talk to it unchanged.
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '../diagnosis/types.js';
import { parseFieldSelector, parseLabelSelector, SelectorError } from '../kube/selectors.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, VERSION_INFO } from './discovery.js';
import { evict } from './eviction.js';
import { formatTime, stableUid } from './json.js';
import { splitSpecial } from './load.js';
import { PodLogStore } from './logs.js';
import { NamespaceController } from './namespaces.js';
import { type ListResult, present, Registry, withTypeMeta } from './registry.js';
import {
  boolParam,
  decodeBody,
  deleteOptions,
  intParam,
  isDryRun,
  negotiate,
  parseResourceParts,
  partialMetadata,
  type Representation,
  type ResourcePath,
  readBody,
  sendJson,
  sendStatus,
  sendText,
} from './request.js';
import { apiVersionOf, type ResourceDef, ResourceTable } from './resources.js';
import { getScale, patchScale, updateScale } from './scale.js';
import { ApiError, errors } from './status.js';
import { ObjectStore } from './store.js';
import { toTable } from './tables.js';
import { serveWatch } from './watch.js';

export interface SimOptions {
  /** Fixture objects (API objects and `pod-doctor.dev/v1` documents such as PodLog). */
  objects: KubeObject[];
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  now?: () => Date;
  /**
   * Run a namespace controller (delete content of Terminating namespaces, report
   * conditions, finalize when empty). Off by default: a bare kube-apiserver does not.
   */
  namespaceController?: boolean;
  /** Interval of BOOKMARK events on watches that allow them (default 60 s, like the apiserver). */
  bookmarkIntervalMs?: number;
  /** Changes retained for watch replay (default 10,000). */
  historyLimit?: number;
}

export interface Sim {
  url: string;
  port: number;
  store: ObjectStore;
  registry: Registry;
  logs: PodLogStore;
  close(): Promise<void>;
  /** A kubeconfig (YAML) whose current context points at the sim. */
  kubeconfig(): string;
  writeKubeconfig(path: string): Promise<void>;
}

/** Namespaces every cluster has, created when the fixtures do not define them. */
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Loads fixtures into a fresh store; unknown kinds are served as generic custom resources. */
export function seedStore(store: ObjectStore, objects: KubeObject[], now: () => Date): PodLogStore {
  const { api, podLogs } = splitSpecial(objects);
  const namespaces = new Set(SYSTEM_NAMESPACES);
  for (const obj of api) {
    const apiVersion = obj.apiVersion ?? '';
    const kind = obj.kind ?? '';
    const def = store.table.forKind(apiVersion, kind) ?? store.table.addCustom(apiVersion, kind, Boolean(obj.metadata?.namespace));
    store.load(def, withTypeMeta(def, obj));
    if (def.namespaced) namespaces.add(obj.metadata?.namespace || 'default');
  }
  const nsDef = store.table.lookup('', 'v1', 'namespaces');
  if (nsDef) {
    for (const name of [...namespaces].sort()) {
      if (store.get(nsDef, undefined, name)) continue;
      store.load(nsDef, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, uid: stableUid(`namespace/${name}`), creationTimestamp: formatTime(now()) },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    }
  }
  return new PodLogStore(podLogs);
}

export async function startSim(opts: SimOptions): Promise<Sim> {
  const now = opts.now ?? (() => new Date());
  const host = opts.host ?? '127.0.0.1';
  const store = new ObjectStore({ now, table: new ResourceTable(), ...(opts.historyLimit ? { historyLimit: opts.historyLimit } : {}) });
  const logs = seedStore(store, opts.objects, now);
  let controller: NamespaceController | undefined;
  const nsDef = store.table.lookup('', 'v1', 'namespaces');
  const registry = new Registry(store, {
    now,
    onNamespacedChange: (ns) => {
      if (controller && nsDef && store.get(nsDef, undefined, ns)?.status?.phase === 'Terminating') controller.notify(ns);
    },
  });
  if (opts.namespaceController) controller = new NamespaceController(registry, now);

  const watches = new Set<() => void>();
  let address = '';
  const ctx: HandlerContext = {
    registry,
    logs,
    now,
    token: opts.token,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    watches,
    address: () => address,
  };
  const server = createServer((req, res) => {
    handle(ctx, req, res).catch((err: unknown) => fail(res, err));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  address = `${host}:${port}`;
  const url = `http://${address}`;

  const kubeconfig = (): string => renderKubeconfig(url, opts.token);
  return {
    url,
    port,
    store,
    registry,
    logs,
    kubeconfig,
    writeKubeconfig: (path) => writeFile(path, kubeconfig(), { mode: 0o600 }),
    close: async () => {
      controller?.close();
      for (const stop of [...watches]) stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function rootPaths(table: ResourceTable): string[] {
  const paths = ['/api', '/api/v1', '/apis', '/apis/', '/healthz', '/livez', '/readyz', '/version'];
  for (const g of table.groupVersions()) {
    if (!g.group) continue;
    paths.push(`/apis/${g.group}`, ...g.versions.map((v) => `/apis/${g.group}/${v}`));
  }
  return paths.sort();
}

function renderKubeconfig(url: string, token: string | undefined): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: pod-doctor-sim',
    '  cluster:',
    `    server: ${url}`,
    // client-node refuses plain http unless TLS verification is explicitly skipped.
    '    insecure-skip-tls-verify: true',
    'contexts:',
    '- name: pod-doctor-sim',
    '  context:',
    '    cluster: pod-doctor-sim',
    '    user: pod-doctor-sim',
    '    namespace: default',
    'current-context: pod-doctor-sim',
    'preferences: {}',
    'users:',
    '- name: pod-doctor-sim',
    token ? `  user:\n    token: ${JSON.stringify(token)}` : '  user: {}',
    '',
  ].join('\n');
}

interface HandlerContext {
  registry: Registry;
  logs: PodLogStore;
  now: () => Date;
  token: string | undefined;
  bookmarkIntervalMs: number;
  watches: Set<() => void>;
  address: () => string;
}

function fail(res: ServerResponse, err: unknown): void {
  const status = err instanceof ApiError ? err.status : errors.internal(err instanceof Error ? err.message : String(err)).status;
  if (res.headersSent) {
    res.end();
    return;
  }
  sendStatus(res, status);
}

async function handle(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (ctx.token !== undefined && req.headers.authorization !== `Bearer ${ctx.token}`) throw errors.unauthorized();
  const url = new URL(req.url ?? '/', 'http://sim');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  const table = ctx.registry.store.table;

  switch (path) {
    case '/version':
      return sendJson(res, 200, VERSION_INFO);
    case '/healthz':
    case '/livez':
    case '/readyz':
      return sendText(res, 200, 'ok');
    case '/api':
      return sendJson(res, 200, apiVersions(ctx.address()));
    case '/apis':
      return sendJson(res, 200, apiGroupList(table));
  }
  const seg = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (seg[0] === 'api' && seg.length >= 2) {
    group = '';
    version = seg[1] ?? '';
    rest = seg.slice(2);
  } else if (seg[0] === 'apis' && seg.length >= 2) {
    group = seg[1] ?? '';
    if (seg.length === 2) {
      const doc = apiGroup(table, group);
      return doc ? sendJson(res, 200, doc) : sendText(res, 404, '404 page not found\n');
    }
    version = seg[2] ?? '';
    rest = seg.slice(3);
  } else {
    // The root 404 lists the paths the server serves, as kube-apiserver's does.
    return sendJson(res, 404, { paths: rootPaths(table) });
  }
  if (!table.groupVersions().some((g) => g.group === group && g.versions.includes(version))) return sendText(res, 404, '404 page not found\n');
  if (rest.length === 0) {
    if (method !== 'GET') throw errors.methodNotAllowed();
    return sendJson(res, 200, apiResourceList(table, group, version));
  }

  const rp = parseResourceParts(group, version, rest);
  const def = rp && table.lookup(group, version, rp.resource);
  if (!rp || !def) throw errors.notFoundGeneric();
  if (!def.namespaced && rp.namespace !== undefined) throw errors.notFoundGeneric();
  if (def.namespaced && rp.name !== undefined && rp.namespace === undefined) throw errors.notFoundGeneric();
  if (rp.subresource !== undefined && !def.subresources.some((sub) => sub === rp.subresource)) throw errors.notFoundGeneric();
  return dispatch(ctx, req, res, method, url.searchParams, def, rp);
}

async function dispatch(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  q: URLSearchParams,
  def: ResourceDef,
  rp: ResourcePath,
): Promise<void> {
  const { registry } = ctx;
  const ns = rp.namespace;
  const name = rp.name;
  const version = rp.version;
  const accept = req.headers.accept;

  if (rp.subresource === undefined || rp.subresource === 'status' || rp.subresource === 'finalize') {
    const mode = rp.subresource ?? 'main';
    const watch = rp.watchPrefix || (method === 'GET' && (boolParam(q, 'watch') ?? false));
    if (method === 'GET' && (watch || name === undefined)) {
      if (mode !== 'main') throw errors.methodNotAllowed();
      return watch ? startWatch(ctx, req, res, q, def, rp) : list(ctx, res, q, def, rp, accept);
    }
    if (name === undefined) {
      if (method === 'POST') return sendJson(res, 201, present(def, version, registry.create(def, ns, await body(req), { dryRun: isDryRun(q) })));
      if (method === 'DELETE') {
        const options = deleteOptions(await body(req), q);
        const items = registry.deleteCollection(def, selection(q, ns), options);
        return sendJson(res, 200, listBody(ctx, def, version, { items, resourceVersion: registry.store.resourceVersion }, { as: 'object' }));
      }
      throw errors.methodNotAllowed();
    }
    switch (method) {
      case 'GET': {
        if (mode === 'finalize') throw errors.methodNotAllowed();
        const repr = negotiate(accept, 'get');
        const obj = registry.get(def, ns, name);
        if (repr.as === 'table')
          return sendJson(res, 200, toTable(def, [obj], ctx.now(), { resourceVersion: obj.metadata?.resourceVersion ?? '' }, repr.version));
        return sendJson(res, 200, repr.as === 'metadata' ? partialMetadata(obj) : present(def, version, obj));
      }
      case 'PUT': {
        const { object, created } = registry.update(def, ns, name, await body(req), mode, { dryRun: isDryRun(q) });
        return sendJson(res, created ? 201 : 200, present(def, version, object));
      }
      case 'PATCH': {
        if (mode === 'finalize') throw errors.methodNotAllowed();
        const raw = await readBody(req);
        const obj = registry.patch(def, ns, name, version, req.headers['content-type'] ?? '', raw, mode, { dryRun: isDryRun(q) });
        return sendJson(res, 200, present(def, version, obj));
      }
      case 'DELETE': {
        if (mode !== 'main') throw errors.methodNotAllowed();
        const options = deleteOptions(await body(req), q);
        const result = registry.delete(def, ns, name, options);
        // 202 only for the deprecated orphanDependents=false on an object that is not gone yet.
        const code = !result.deleted && options.orphanDependents === false ? 202 : 200;
        return sendJson(res, code, result.body.kind === 'Status' ? result.body : present(def, version, result.body as KubeObject));
      }
      default:
        throw errors.methodNotAllowed();
    }
  }

  if (name === undefined || ns === undefined) throw errors.notFoundGeneric();
  switch (`${rp.subresource} ${method}`) {
    case 'scale GET':
      return sendJson(res, 200, getScale(registry, def, ns, name));
    case 'scale PUT':
      return sendJson(res, 200, updateScale(registry, def, ns, name, await body(req), isDryRun(q)));
    case 'scale PATCH':
      return sendJson(res, 200, patchScale(registry, def, ns, name, req.headers['content-type'] ?? '', await readBody(req), isDryRun(q)));
    case 'log GET': {
      const pod = registry.get(def, ns, name);
      const text = ctx.logs.read(pod, {
        ...(q.get('container') ? { container: q.get('container') ?? '' } : {}),
        previous: boolParam(q, 'previous') ?? false,
        ...optionalInt(q, 'tailLines'),
        ...optionalInt(q, 'limitBytes'),
      });
      if (text === undefined) {
        res.writeHead(204);
        res.end();
        return;
      }
      return sendText(res, 200, text);
    }
    case 'eviction POST': {
      const status = evict(registry, def, ns, name, await body(req), ctx.now);
      return sendJson(res, status.code ?? 201, status);
    }
    default:
      throw errors.methodNotAllowed();
  }
}

function optionalInt(q: URLSearchParams, key: 'tailLines' | 'limitBytes'): { tailLines?: number; limitBytes?: number } {
  const v = intParam(q, key);
  return v === undefined ? {} : { [key]: v };
}

async function body(req: IncomingMessage): Promise<unknown> {
  return decodeBody(await readBody(req), req.headers['content-type']);
}

function selection(
  q: URLSearchParams,
  namespace: string | undefined,
): { namespace?: string; labels: ReturnType<typeof parseLabelSelector>; fields: ReturnType<typeof parseFieldSelector> } {
  try {
    return {
      ...(namespace !== undefined ? { namespace } : {}),
      labels: parseLabelSelector(q.get('labelSelector') ?? undefined),
      fields: parseFieldSelector(q.get('fieldSelector') ?? undefined),
    };
  } catch (err) {
    // The real server answers a selector it cannot parse with 400 BadRequest and this message.
    if (err instanceof SelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}

function list(ctx: HandlerContext, res: ServerResponse, q: URLSearchParams, def: ResourceDef, rp: ResourcePath, accept: string | undefined): void {
  const repr = negotiate(accept, 'list');
  const limit = intParam(q, 'limit');
  const cont = q.get('continue');
  const result = ctx.registry.list(def, {
    ...selection(q, rp.namespace),
    ...(limit !== undefined ? { limit } : {}),
    ...(cont ? { continueToken: cont } : {}),
  });
  sendJson(res, 200, listBody(ctx, def, rp.version, result, repr));
}

/** A <Kind>List (items without apiVersion/kind, as typed lists encode), a PartialObjectMetadataList or a Table. */
function listBody(ctx: HandlerContext, def: ResourceDef, version: string, r: ListResult, repr: Representation): unknown {
  const metadata = {
    resourceVersion: r.resourceVersion,
    ...(r.continueToken ? { continue: r.continueToken } : {}),
    ...(r.remainingItemCount !== undefined ? { remainingItemCount: r.remainingItemCount } : {}),
  };
  if (repr.as === 'metadata') return { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata, items: r.items.map(partialMetadata) };
  if (repr.as === 'table') return toTable(def, r.items, ctx.now(), metadata, repr.version);
  const items = r.items.map((i) => {
    if (def.custom) return present(def, version, i);
    const { kind: _k, apiVersion: _a, ...rest } = i;
    return rest;
  });
  return { kind: `${def.kind}List`, apiVersion: apiVersionOf(def.group, version), metadata, items };
}

function startWatch(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, q: URLSearchParams, def: ResourceDef, rp: ResourcePath): void {
  const sel = selection(q, rp.namespace);
  if (rp.name !== undefined) sel.fields.push({ field: 'metadata.name', op: '=', value: rp.name });
  const rv = q.get('resourceVersion');
  const timeout = intParam(q, 'timeoutSeconds');
  const stop = serveWatch(req, res, ctx.registry, {
    def,
    version: rp.version,
    ...(rp.namespace !== undefined ? { namespace: rp.namespace } : {}),
    labels: sel.labels,
    fields: sel.fields,
    ...(rv !== null ? { resourceVersion: rv } : {}),
    ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
    bookmarks: boolParam(q, 'allowWatchBookmarks') ?? false,
    bookmarkIntervalMs: ctx.bookmarkIntervalMs,
    metadataOnly: negotiate(req.headers.accept, 'watch').as === 'metadata',
  });
  ctx.watches.add(stop);
  res.on('close', () => ctx.watches.delete(stop));
}
