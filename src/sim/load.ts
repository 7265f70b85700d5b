// Fixture loading: YAML/JSON files or directories (recursively), multi-document YAML, and
// `List`/`*List` documents (`kubectl get pods,events,nodes -A -o yaml`) flattened into their
// items. Objects keep their uid/resourceVersion/timestamps so diagnoses are reproducible.
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import type { KubeObject } from '../diagnosis/types.js';
import { SimLoadError } from './errors.js';
import { isObject } from './json.js';
import type { PodLog } from './logs.js';

export { SimLoadError, type SimLoadErrorCode } from './errors.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Reads every object from the given files and directories, in a stable order. */
export async function loadObjects(paths: string[]): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const p of paths) {
    const files = await expand(p);
    const walked = files.length !== 1 || files[0] !== p;
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new SimLoadError('SIM_READ', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
      }
      // Inside a directory, files that hold no Kubernetes object at all (a scenario's
      // expected.yaml, notes) are passed over; a file named explicitly must be valid.
      if (walked && !mentionsKind(text, file)) continue;
      out.push(...parseDocuments(text, file));
    }
  }
  return out;
}

function mentionsKind(text: string, file: string): boolean {
  if (extname(file).toLowerCase() === '.json') return /"kind"\s*:/.test(text);
  return /^\s*kind\s*:/m.test(text);
}

async function expand(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new SimLoadError('SIM_READ', `cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const e of entries) {
    const full = join(path, e.name);
    if (e.isDirectory()) files.push(...(await expand(full)));
    else if (EXTENSIONS.has(extname(e.name).toLowerCase())) files.push(full);
  }
  return files;
}

/** Parses one file's text (`source` names it in errors) into flattened objects. */
export function parseDocuments(text: string, source: string): KubeObject[] {
  const docs: unknown[] = [];
  if (extname(source).toLowerCase() === '.json') {
    try {
      docs.push(JSON.parse(text));
    } catch (err) {
      throw new SimLoadError('SIM_PARSE', `${source}: ${(err as Error).message}`, { cause: err });
    }
  } else {
    for (const doc of parseAllDocuments(text)) {
      const first = doc.errors[0];
      if (first) throw new SimLoadError('SIM_PARSE', `${source}: ${first.message}`, { cause: first });
      docs.push(doc.toJS());
    }
  }
  const out: KubeObject[] = [];
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    out.push(...flatten(doc, `${source} document ${i + 1}`));
  });
  return out;
}

function isList(doc: Record<string, unknown>): boolean {
  return typeof doc.kind === 'string' && doc.kind.endsWith('List') && Array.isArray(doc.items);
}

/**
 * Flattens `List` and typed `*List` documents. Items of a typed list (PodList) may omit
 * apiVersion/kind, which are inferred from the list; items of a plain `List` may not.
 */
function flatten(doc: unknown, where: string): KubeObject[] {
  if (!isObject(doc)) throw new SimLoadError('SIM_INVALID', `${where}: expected a Kubernetes object, got ${Array.isArray(doc) ? 'a list' : typeof doc}`);
  if (!isList(doc)) return [checkObject(doc as KubeObject, where)];
  const listKind = String(doc.kind);
  const typed = listKind !== 'List';
  const items = doc.items as unknown[];
  return items.flatMap((item, i) => {
    const at = `${where} item ${i + 1}`;
    if (!isObject(item)) throw new SimLoadError('SIM_INVALID', `${at}: expected a Kubernetes object`);
    const obj = { ...item } as KubeObject;
    if (typed) {
      obj.kind ??= listKind.slice(0, -'List'.length);
      if (obj.apiVersion === undefined && typeof doc.apiVersion === 'string') obj.apiVersion = doc.apiVersion;
    }
    return isList(obj) ? flatten(obj, at) : [checkObject(obj, at)];
  });
}

function checkObject(obj: KubeObject, where: string): KubeObject {
  if (typeof obj.apiVersion !== 'string' || !obj.apiVersion) throw new SimLoadError('SIM_INVALID', `${where}: object has no apiVersion`);
  if (typeof obj.kind !== 'string' || !obj.kind) throw new SimLoadError('SIM_INVALID', `${where}: object has no kind`);
  if (!obj.metadata?.name) throw new SimLoadError('SIM_INVALID', `${where}: ${obj.kind} has no metadata.name`);
  return obj;
}

// --- pod-doctor.dev documents ---

export const SPECIAL_GROUP = 'pod-doctor.dev';

const PodLogSchema = z.object({
  apiVersion: z.literal('pod-doctor.dev/v1'),
  kind: z.literal('PodLog'),
  metadata: z.object({ namespace: z.string().min(1), name: z.string().min(1) }),
  container: z.string().min(1).optional(),
  previous: z.boolean().default(false),
  lines: z.array(z.string()),
});

export interface SplitObjects {
  /** Objects the simulated API serves. */
  api: KubeObject[];
  podLogs: PodLog[];
  /** Every `pod-doctor.dev/*` document, PodLogs included (for future fixture kinds). */
  special: KubeObject[];
}

/** Separates `pod-doctor.dev/*` fixture documents (PodLog...) from API objects. */
export function splitSpecial(objects: KubeObject[]): SplitObjects {
  const out: SplitObjects = { api: [], podLogs: [], special: [] };
  for (const obj of objects) {
    if (!obj.apiVersion?.startsWith(`${SPECIAL_GROUP}/`)) {
      out.api.push(obj);
      continue;
    }
    out.special.push(obj);
    if (obj.kind !== 'PodLog') continue;
    const parsed = PodLogSchema.safeParse(obj);
    if (!parsed.success) {
      throw new SimLoadError('SIM_INVALID', `PodLog ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}: ${z.prettifyError(parsed.error)}`);
    }
    const d = parsed.data;
    out.podLogs.push({
      namespace: d.metadata.namespace,
      pod: d.metadata.name,
      previous: d.previous,
      lines: d.lines,
      ...(d.container ? { container: d.container } : {}),
    });
  }
  return out;
}
