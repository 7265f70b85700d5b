// The config file (`--config <path>` or POD_DOCTOR_CONFIG): one YAML mapping whose keys are the
// settings' names in SETTINGS (`alertRoutes`, `policy`, `cluster`…). A single value goes through
// the same schema as its variable; a structured setting has its own (YAML lists and maps). Every
// problem is reported at once as `<file>: <path>: <message> (line N)`. Pure: the caller reads the file.
import { type Alias, type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, visit } from 'yaml';
import { z } from 'zod';
import type { SettingDef } from './setting.js';

export interface ConfigFileSource {
  /** As the user gave it: problems name it. */
  path: string;
  text: string;
}

export interface ParsedConfigFile {
  path: string;
  /** Setting → its value, for the keys the file sets (an empty value counts as unset); none when it has problems. */
  values: Record<string, unknown>;
  /** The file's settings as written (known keys only), for checks that go on past its problems. */
  raw: Record<string, unknown>;
  /** In the order of their lines. */
  problems: string[];
  /** A problem found later at `path` in the file (an unknown rule id), in the same form. */
  problem(path: readonly PropertyKey[], message: string): string;
}

type Path = readonly PropertyKey[];

/** `policy.channels.C0123.namespaces[0]`, `rules["crash.app-exit"]`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(String(seg))) out += out ? `.${String(seg)}` : String(seg);
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(top level)';
}

/** What a key of the file takes, or why the file may not set it. */
function fileSchemaOf(def: SettingDef): z.ZodType | string {
  if (def.secret) return `a secret: set ${def.env} in the environment (in Kubernetes from the Secret pod-doctor), never in this file`;
  if (def.file === false) return `set only by ${def.env} or a flag`;
  if (def.file) return def.file;
  return z
    .union([z.string(), z.number(), z.boolean()], { error: 'expected a single value (text, a number, true or false)' })
    .transform(String)
    .pipe(def.schema as z.ZodType<unknown, string>);
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The closest known key: same letters ignoring case, `_` and `-`, else at most two edits away. */
export function closest(key: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const same = known.find((k) => norm(k) === norm(key));
  if (same) return same;
  const scored = known.map((k) => ({ k, d: levenshtein(norm(k), norm(key)) })).sort((x, y) => x.d - y.d);
  const best = scored[0];
  return best && best.d <= Math.min(2, Math.floor(key.length / 3)) ? best.k : undefined;
}

/** `POD_DOCTOR_INCIDENT_CHANNEL` → `incidentChannel`. */
const camel = (env: string) =>
  env
    .toLowerCase()
    .replace(/^pod_doctor_/, '')
    .replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Why a top-level key is not a setting of the file, with the one that was probably meant. */
function unknownTopKey(key: string, settings: Record<string, SettingDef>, allowed: readonly string[]): string {
  const byVariable = Object.entries(settings).find(([, d]) => d.env === key || d.deprecatedEnv?.some((e) => e === key || camel(e) === key));
  if (byVariable && allowed.includes(byVariable[0])) return `unknown key; did you mean "${byVariable[0]}"?`;
  const near = closest(key, allowed);
  return near ? `unknown key; did you mean "${near}"?` : 'unknown key';
}

/** The keys an object schema at `path` knows (for "did you mean"), through lists, maps, optionals and pipes. */
function keysAt(schema: z.ZodType, path: Path): string[] {
  const def = schema.def as {
    type: string;
    shape?: Record<string, z.ZodType>;
    element?: z.ZodType;
    valueType?: z.ZodType;
    innerType?: z.ZodType;
    in?: z.ZodType;
  };
  if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type) && def.innerType) return keysAt(def.innerType, path);
  if (def.type === 'pipe' && def.in) return keysAt(def.in, path);
  if (path.length === 0) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
  const [seg, ...rest] = path;
  if (def.type === 'object' && def.shape) return def.shape[String(seg)] ? keysAt(def.shape[String(seg)]!, rest) : [];
  if (def.type === 'array' && def.element) return keysAt(def.element, rest);
  if (def.type === 'record' && def.valueType) return keysAt(def.valueType, rest);
  return [];
}

/** The line of the deepest part of `path` the document has (a key's own line for a map entry). */
function lineOf(root: Node | null, path: Path, lines: LineCounter): number | undefined {
  let node: unknown = root;
  let offset = (root as Node | null)?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      offset = isScalar(pair.key) ? pair.key.range?.[0] : offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg];
      offset = (node as Node).range?.[0] ?? offset;
    } else break;
  }
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

const lineNumber = (problem: string) => Number(/\(line (\d+)\)$/.exec(problem)?.[1] ?? 0);
/** Problems of the file in the order of their lines. */
export const byLine = (a: string, b: string) => lineNumber(a) - lineNumber(b);

/** Aliases the file may expand (yaml's own default): a few hundred bytes of nested aliases otherwise expand to gigabytes. */
const MAX_ALIAS_COUNT = 100;

/**
 * The document as data, or where the alias limit stopped it: yaml throws a bare ReferenceError
 * that names no place, so each alias of this document notes itself when its expansion fails.
 */
function toData(doc: Document.Parsed): { data: unknown } | { failed: Error; at: Alias | undefined } {
  let at: Alias | undefined;
  visit(doc, {
    Alias(_key, node) {
      const own = node.toJSON.bind(node);
      node.toJSON = (arg, ctx) => {
        try {
          return own(arg, ctx);
        } catch (err) {
          at ??= node;
          throw err;
        }
      };
    },
  });
  try {
    return { data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (err) {
    return { failed: err instanceof Error ? err : new Error(String(err)), at };
  }
}

/** Messages that say what to do: a missing field is "required", not "expected string, received undefined". */
const errorMap = (issue: { code?: string; input?: unknown }) => (issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined);

export function parseConfigFile(source: ConfigFileSource, settings: Record<string, SettingDef>): ParsedConfigFile {
  const lines = new LineCounter();
  const doc = parseDocument(source.text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (path: Path, message: string) => {
    const line = lineOf(doc.contents, path, lines);
    return `${source.path}: ${formatPath(path)}: ${message}${line ? ` (line ${line})` : ''}`;
  };
  const parsed: ParsedConfigFile = { path: source.path, values: {}, raw: {}, problems: [], problem: at };
  if (doc.errors.length > 0) {
    parsed.problems = doc.errors.map((e) => {
      const { line, col } = lines.linePos(e.pos[0]);
      return `${source.path}: line ${line}, column ${col}: ${e.message.split('\n')[0]}`;
    });
    return parsed;
  }
  const js = toData(doc);
  if ('failed' in js) {
    const offset = js.at?.range?.[0];
    const line = offset === undefined ? '' : ` (line ${lines.linePos(offset).line})`;
    const excessive = /excessive alias count/i.test(js.failed.message);
    parsed.problems = [`${source.path}: ${excessive ? 'too many aliases' : js.failed.message}${line}`];
    return parsed;
  }
  const data: unknown = js.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    parsed.problems = [at([], 'expected a mapping of settings (`cluster: prod`, `alertRoutes: [...]`)')];
    return parsed;
  }
  // One schema for the whole file, derived from the settings table.
  const schemas = Object.entries(settings).map(([key, def]) => [key, fileSchemaOf(def)] as const);
  const shape = Object.fromEntries(schemas.flatMap(([key, s]) => (typeof s === 'string' ? [] : [[key, s.optional()]])));
  const allowed = Object.keys(shape);
  const present: Record<string, unknown> = (parsed.raw = {});
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const takes = schemas.find(([k]) => k === key)?.[1];
    if (typeof takes === 'string') parsed.problems.push(at([key], takes));
    else if (!takes) parsed.problems.push(at([key], unknownTopKey(key, settings, allowed)));
    // An empty value counts as unset, as an empty variable does.
    else if (value !== null && value !== '') present[key] = value;
  }
  const schema = z.object(shape);
  const result = schema.safeParse(present, { error: errorMap });
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code !== 'unrecognized_keys') {
        parsed.problems.push(at(issue.path, issue.message));
        continue;
      }
      const known = keysAt(schema, issue.path);
      for (const key of issue.keys) {
        const near = closest(key, known);
        parsed.problems.push(at([...issue.path, key], near ? `unknown key; did you mean "${near}"?` : 'unknown key'));
      }
    }
  }
  if (parsed.problems.length === 0 && result.success) {
    parsed.values = Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined));
  }
  parsed.problems.sort(byLine);
  return parsed;
}
