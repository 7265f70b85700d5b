// `?watch=true`: a chunked stream of newline-delimited watch events, as the apiserver's
// watch cache serves them. Without a resourceVersion (or with "0") the stream starts with
// an ADDED event per existing object; with one, it replays the changes after it. Selectors
// are applied per event the way the cacher does: an object entering the selection is ADDED,
// one leaving it is DELETED. A resourceVersion older than the retained history yields an
// ERROR event carrying a 410 Expired Status, then the stream ends.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../diagnosis/types.js';
import { type FieldRequirement, type LabelRequirement, matchFields, matchLabels } from '../kube/selectors.js';
import { present, type Registry } from './registry.js';
import { partialMetadata } from './request.js';
import { apiVersionOf, fieldGetter, type ResourceDef } from './resources.js';
import { ApiError, errors, failure } from './status.js';
import type { Change } from './store.js';

export interface WatchParams {
  def: ResourceDef;
  version: string;
  namespace?: string;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  resourceVersion?: string;
  timeoutSeconds?: number;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  metadataOnly: boolean;
}

/** Streams a watch; returns a function that ends it (used when the server closes). */
export function serveWatch(req: IncomingMessage, res: ServerResponse, registry: Registry, p: WatchParams): () => void {
  const store = registry.store;
  const getters = p.fields.map((f) => {
    const g = fieldGetter(p.def, f.field);
    if (!g) throw errors.badRequest(`field label not supported: ${f.field}`);
    return [f.field, g] as const;
  });
  const byField = new Map(getters);
  const matches = (o: KubeObject): boolean =>
    (p.namespace === undefined || !p.def.namespaced || o.metadata?.namespace === p.namespace) &&
    matchLabels(p.labels, o.metadata?.labels) &&
    matchFields(p.fields, (field) => byField.get(field)?.(o) ?? '');

  let fromRv: number;
  let initial: KubeObject[] = [];
  const rv = p.resourceVersion;
  if (rv === undefined || rv === '' || rv === '0') {
    initial = registry.list(p.def, {
      ...(p.namespace !== undefined ? { namespace: p.namespace } : {}),
      labels: p.labels,
      fields: p.fields,
    }).items;
    fromRv = store.currentRv;
  } else if (/^\d+$/.test(rv)) {
    fromRv = Number(rv);
  } else {
    throw new ApiError(
      failure(500, '', `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`),
    );
  }

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  const render = (o: KubeObject): unknown => (p.metadataOnly ? partialMetadata(o) : present(p.def, p.version, o));
  const send = (type: string, object: unknown): void => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const write = (type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject): void => send(type, render(o));

  let unsubscribe: (() => void) | undefined;
  const timers: NodeJS.Timeout[] = [];
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    unsubscribe?.();
    for (const t of timers) clearTimeout(t);
    if (!res.writableEnded) res.end();
  };
  req.on('close', finish);
  res.on('close', finish);

  for (const o of initial) write('ADDED', o);
  const onChange = (c: Change): void => {
    const now = matches(c.object);
    const before = c.previous ? matches(c.previous) : false;
    if (c.type === 'ADDED') {
      if (now) write('ADDED', c.object);
    } else if (c.type === 'MODIFIED') {
      if (now && before) write('MODIFIED', c.object);
      else if (now) write('ADDED', c.object);
      // Leaving the selection: the cacher sends the previous content at the new resourceVersion.
      else if (before && c.previous)
        write('DELETED', { ...c.previous, metadata: { ...c.previous.metadata, resourceVersion: c.object.metadata?.resourceVersion } });
    } else if (before || now) {
      write('DELETED', c.object);
    }
  };
  try {
    unsubscribe = store.subscribe(p.def, fromRv, onChange);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    send('ERROR', err.status);
    finish();
    return finish;
  }

  if (p.timeoutSeconds !== undefined && p.timeoutSeconds > 0) timers.push(setTimeout(finish, p.timeoutSeconds * 1000));
  if (p.bookmarks) {
    const bookmark = (): void => {
      send('BOOKMARK', { kind: p.def.kind, apiVersion: apiVersionOf(p.def.group, p.version), metadata: { resourceVersion: store.resourceVersion } });
    };
    timers.push(setInterval(bookmark, p.bookmarkIntervalMs));
  }
  return finish;
}
