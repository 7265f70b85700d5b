// Reads texts (a log tail, a termination message, an event) for the line that decides a failure,
// and says what it means in this pod: the mechanism, its variant for this spec, the knobs. Pure and
// bounded: a cheap needle pass over each line first, and caps on lines and characters, so megabytes
// of log or binary noise cost little and never throw.
import { clipLine } from '../decisive.js';
import { fill } from '../messages.js';
import type { Evidence, MessageData } from '../types.js';
import * as addons from './catalogue/addons.js';
import * as apiVersions from './catalogue/api-versions.js';
import * as cluster from './catalogue/cluster.js';
import * as datastores from './catalogue/datastores.js';
import * as filesystem from './catalogue/filesystem.js';
import * as identity from './catalogue/identity.js';
import * as libraries from './catalogue/libraries.js';
import * as netpath from './catalogue/netpath.js';
import * as network from './catalogue/network.js';
import * as pipelines from './catalogue/pipelines.js';
import * as platforms from './catalogue/platforms.js';
import * as proc from './catalogue/process.js';
import * as runtimes from './catalogue/runtimes.js';
import * as servers from './catalogue/servers.js';
import * as storage from './catalogue/storage.js';
import * as structure from './catalogue/structure.js';
import * as webservers from './catalogue/webservers.js';
import { baseData } from './context.js';
import { SIGNAL_MECHANISMS, signalOfExit } from './signals.js';
import type { Family, Mechanism, Reading, ReadingContext, Signature, Text } from './types.js';

/** The catalogue files, each a family's mechanisms and the signatures that read them. */
const FILES: readonly { MECHANISMS: readonly Mechanism[]; SIGNATURES: readonly Signature[] }[] = [
  filesystem,
  proc,
  network,
  cluster,
  addons,
  apiVersions,
  datastores,
  identity,
  libraries,
  netpath,
  pipelines,
  platforms,
  runtimes,
  servers,
  storage,
  structure,
  webservers,
];
export const MECHANISMS: readonly Mechanism[] = FILES.flatMap((f) => f.MECHANISMS);
// identity first: on a tie (one line, equal family weight) the signature listed first wins, and its Azure line is also an env check's.
const ALL: readonly Signature[] = [identity, ...FILES.filter((f) => f !== identity)].flatMap((f) => f.SIGNATURES);
/** Specific readings first: on one line, the first signature that matches wins a tie. */
export const SIGNATURES: readonly Signature[] = [...ALL.filter((s) => !s.generic), ...ALL.filter((s) => s.generic)];
export const MECHANISM_BY_ID: ReadonlyMap<string, Mechanism> = new Map(MECHANISMS.map((m) => [m.id, m]));

/** A server's or a runtime's own sentence says more than an errno text that happens to be on the same line. */
const FAMILY_WEIGHT: Readonly<Record<Family, number>> = { server: 6, 'kube-api': 6, tls: 5, runtime: 5, dns: 4, signal: 2, errno: 3, banner: 1 };

/** Limits that keep a read bounded whatever the input: lines per text (the last ones), characters per line. */
export const READ_LIMITS = { linesPerText: 2000, lineChars: 4096, quoteChars: 400, around: 8 } as const;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NEEDLES = [...new Set(SIGNATURES.flatMap((s) => s.needles))].sort((a, b) => b.length - a.length);
/** One pass per line decides whether any signature could match it. */
const PREFILTER = new RegExp(NEEDLES.map(escapeRegex).join('|'));

const FATAL = /\b(?:fatal|error|err|panic|exception|emerg|crit(?:ical)?|failed|failure|cannot|can't|unable|refused|denied|aborting|exiting)\b|^[EF]\d{4} /i;
const WARNING_ONLY = /\b(?:warn(?:ing)?|deprecat\w*|retrying|will retry)\b/i;

/** Placeholder values when a line does not name them: the sentence stays readable. */
const DEFAULTS: MessageData = {
  host: 'the host',
  port: 'the port',
  path: 'the path',
  dir: 'the directory it writes',
  limit: 'the current value',
  want: 'the required value',
  user: 'its identity',
  uid: 'the UID',
  verb: 'call',
  resource: 'the resource',
  where: '',
  valid: 'other names',
  sysctl: 'the kernel parameter',
};

/** Where a pattern matched in its line: a long line is quoted around it. */
interface Span {
  index: number;
  length: number;
}

interface Hit {
  signature: Signature;
  groups: Record<string, string>;
  span: Span;
  text: number;
  line: number;
  score: number;
}

/** A long line keeps its start and its end: the error is usually at one of them. */
function bounded(line: string): string {
  const max = READ_LIMITS.lineChars;
  return line.length <= max ? line : `${line.slice(0, max / 2)} … ${line.slice(-max / 2)}`;
}

function linesOf(t: Text): readonly string[] {
  const lines = t.lines ?? (t.text ?? '').split(/\r?\n/);
  return lines.length > READ_LIMITS.linesPerText ? lines.slice(-READ_LIMITS.linesPerText) : lines;
}

/** Lines before a match that a signature's `preceded` may look at (a traceback's frames). */
const PRECEDING = 6;

type Match = { signature: Signature; groups: Record<string, string>; span: Span };

function matchLine(line: string, before: readonly string[] = []): Match[] {
  const lower = line.toLowerCase();
  if (!PREFILTER.test(lower)) return [];
  const out: Match[] = [];
  for (const signature of SIGNATURES) {
    if (!signature.needles.some((n) => lower.includes(n))) continue;
    if (signature.unless?.test(line)) continue;
    const preceded = signature.preceded;
    if (preceded && !before.some((b) => preceded.test(b))) continue;
    for (const pattern of signature.patterns) {
      const m = pattern.exec(line);
      if (!m) continue;
      const groups: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) groups[k] = v;
      out.push({ signature, groups, span: { index: m.index, length: m[0].length } });
      break;
    }
  }
  return out;
}

/** The best line of all the texts: the most specific signature, on a line that says it failed, the latest. */
function bestHit(lines: readonly (readonly string[])[], scope: ReadScope, only?: ReadonlySet<string>): Hit | undefined {
  let best: Hit | undefined;
  lines.forEach((textLines, t) => {
    textLines.forEach((raw, i) => {
      const line = bounded(raw);
      // The cheap pass first: most lines carry no needle, and the lines before one are sliced only when it does.
      if (!PREFILTER.test(line.toLowerCase())) return;
      const before = textLines.slice(Math.max(0, i - PRECEDING), i).map(bounded);
      for (const { signature, groups, span } of matchLine(line, before)) {
        if (only && !only.has(signature.mechanism)) continue;
        if (signature.applies && !signature.applies({ ...scope, line, around: before, groups })) continue;
        // A line that only warns ranks below any that does not, whatever its family; then the more
        // specific wording, then a line that says it failed.
        const fatal = FATAL.test(line);
        const warning = WARNING_ONLY.test(line) && !fatal;
        const score = (warning ? 0 : 1000) + FAMILY_WEIGHT[signature.family] * 10 + (fatal ? 2 : 0);
        // Later texts and later lines win ties (the end of a log explains it); on one line, the
        // signature listed first (the more specific reading of the same errno) wins.
        if (!best || score > best.score || (score === best.score && (t > best.text || (t === best.text && i > best.line)))) {
          best = { signature, groups, span, text: t, line: i, score };
        }
      }
    });
  });
  return best;
}

/** A line some signature of the given mechanisms reads, with its captures. */
export interface Found {
  mechanism: string;
  signature: string;
  groups: Readonly<Record<string, string>>;
  line: string;
}

/**
 * Every line of the texts that a signature of these mechanisms reads (at most `max`, the latest
 * first): what the collector follows up on (the Service a lookup names, the ServiceAccount the API
 * server refused) before the rules run.
 */
export function findLines(texts: readonly Text[], mechanisms: ReadonlySet<string>, max = 8): Found[] {
  const out: Found[] = [];
  for (const t of [...texts].reverse()) {
    const lines = linesOf(t);
    for (let i = lines.length - 1; i >= 0 && out.length < max; i--) {
      const line = bounded(lines[i]!);
      const hit = matchLine(line, lines.slice(Math.max(0, i - PRECEDING), i)).find((m) => mechanisms.has(m.signature.mechanism));
      if (hit) out.push({ mechanism: hit.signature.mechanism, signature: hit.signature.id, groups: hit.groups, line });
    }
  }
  return out;
}

export interface ReadScope extends Omit<ReadingContext, 'line' | 'around' | 'groups'> {}

/**
 * Reads the texts for their decisive line; undefined when no signature knows any line. With `only`, the
 * decisive line among those that signatures of these mechanisms read (a rule that owns a mechanism asks).
 */
export function readTexts(texts: readonly Text[], scope: ReadScope, only?: ReadonlySet<string>): Reading | undefined {
  const lines = texts.map(linesOf);
  const hit = bestHit(lines, scope, only);
  if (!hit) return undefined;
  const own = lines[hit.text]!;
  const line = bounded(own[hit.line]!);
  const around = [...own.slice(hit.line + 1, hit.line + 1 + READ_LIMITS.around), ...own.slice(Math.max(0, hit.line - 3), hit.line)].map(bounded);
  return explain(hit.signature, { ...scope, line, around, groups: hit.groups }, texts[hit.text]!.source, hit.span);
}

/** A signal that is a mechanism by itself, from the exit code alone (nothing printed said more). */
export function readExit(code: number | undefined, scope: ReadScope, source: string): Reading | undefined {
  if (code === undefined) return undefined;
  const signal = signalOfExit(code);
  const mechanism = signal && SIGNAL_MECHANISMS[signal.name];
  if (!signal || !mechanism) return undefined;
  const signature: Signature = {
    id: `signal.exit-${signal.name.toLowerCase()}`,
    family: 'signal',
    mechanism,
    needles: [],
    patterns: [],
    source: 'upstream.json signals (128 + signal number)',
    examples: [],
  };
  return explain(signature, { ...scope, line: `exit code ${code} (${signal.name}: ${signal.text})`, around: [], groups: {} }, source);
}

/** The variant of the signature's mechanism that fits this pod, rendered. */
/**
 * A quote of at most `max` characters that keeps the part a pattern matched: a long klog or JSON
 * line is cut around it (its start and end marked), not in the middle where the match may be.
 */
function quote(line: string, max: number, span?: Span): string {
  const trimmed = line.trim();
  if (trimmed.length <= max || !span) return clipLine(trimmed, max);
  const offset = line.length - line.trimStart().length;
  const center = span.index - offset + Math.min(span.length, max) / 2;
  const start = Math.max(0, Math.min(trimmed.length - max + 2, Math.round(center - max / 2)));
  const end = Math.min(trimmed.length, start + max - 2);
  return `${start > 0 ? '…' : ''}${trimmed.slice(start, end)}${end < trimmed.length ? '…' : ''}`;
}

export function explain(signature: Signature, ctx: ReadingContext, source: string, span?: Span): Reading {
  const mechanism = MECHANISM_BY_ID.get(signature.mechanism);
  if (!mechanism) throw new Error(`signature ${signature.id} names unknown mechanism ${signature.mechanism}`);
  let variant = mechanism.variants[mechanism.variants.length - 1]!;
  let extra: MessageData = {};
  for (const v of mechanism.variants) {
    const got = v.when ? v.when(ctx) : true;
    if (got === false) continue;
    variant = v;
    if (typeof got === 'object') extra = got;
    break;
  }
  const values: MessageData = { ...DEFAULTS, ...baseData(ctx), ...ctx.groups, ...extra };
  const render = (template: string) => fill(template, values).replace(/ {2,}/g, ' ').trim();
  const quoted = quote(ctx.line, READ_LIMITS.quoteChars, span);
  const evidence: Evidence[] = [{ source, text: quoted }, ...(variant.facts?.(ctx, values) ?? [])];
  return {
    mechanism: mechanism.id,
    variant: variant.id,
    signature: signature.id,
    family: signature.family,
    kind: mechanism.kind,
    line: quoted,
    source,
    summary: render(variant.summary),
    explanation: render(variant.explain),
    knobs: variant.knobs.map((k) => `${render(k.path)}: ${render(k.change)}`),
    knobPaths: variant.knobs.map((k) => render(k.path)),
    data: { ...ctx.groups, ...extra },
    evidence,
  };
}
