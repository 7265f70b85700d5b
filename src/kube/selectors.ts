// Label and field selectors with the grammar of k8s.io/apimachinery/pkg/labels and
// pkg/fields: `a=b,c!=d,e in (x,y),f notin (z),g,!h` and `spec.nodeName=node-1`.
import { isQualifiedName, isValidLabelValue } from './names.js';

/** A selector the API server refuses; its message is the server's (the simulator answers it as a 400 BadRequest). */
export class SelectorError extends Error {
  readonly code = 'BAD_SELECTOR';
}

export type LabelOp = 'in' | 'notin' | 'exists' | '!' | '=' | '!=' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export type Labels = Record<string, string> | undefined;

// --- label selectors: a port of labels.Lexer / labels.Parser (error texts included) ---

type Tok = 'id' | 'eos' | 'err' | '!' | '(' | ')' | ',' | '=' | '==' | '!=' | 'in' | 'notin' | '>' | '<';
interface Scanned {
  tok: Tok;
  lit: string;
}

const SYMBOLS = new Set(['=', '!', '(', ')', ',', '>', '<']);
const KEYWORDS: Record<string, Tok> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

function lex(s: string): Scanned[] {
  const out: Scanned[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isSpace(s[i] ?? '')) i += 1;
    if (i >= s.length) {
      out.push({ tok: 'eos', lit: '' });
      return out;
    }
    if (SYMBOLS.has(s[i] ?? '')) {
      // Longest run of symbols that still forms an operator ("!=", "==").
      let buf = '';
      let last: Scanned | undefined;
      while (i < s.length && SYMBOLS.has(s[i] ?? '')) {
        buf += s[i];
        const tok = KEYWORDS[buf];
        if (tok) last = { tok, lit: buf };
        else if (last) break;
        i += 1;
      }
      out.push(last ?? { tok: 'err', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let j = i;
    while (j < s.length && !SYMBOLS.has(s[j] ?? '') && !isSpace(s[j] ?? '')) j += 1;
    const word = s.slice(i, j);
    out.push({ tok: KEYWORDS[word] ?? 'id', lit: word });
    i = j;
  }
}

class LabelParser {
  private pos = 0;
  constructor(private readonly items: Scanned[]) {}

  /** In a values context the keywords `in`/`notin` are plain identifiers. */
  private look(values: boolean): Scanned {
    const it = this.items[this.pos] ?? { tok: 'eos', lit: '' };
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private take(values: boolean): Scanned {
    const it = this.look(values);
    if (this.pos < this.items.length - 1) this.pos += 1;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (err) {
        throw new SelectorError(`unable to parse requirement: ${(err as Error).message}`);
      }
      const sep = this.take(true);
      if (sep.tok === 'eos') return reqs;
      if (sep.tok !== ',') throw new SelectorError(`found '${sep.lit}', expected: ',' or 'end of string'`);
      const after = this.look(true);
      if (after.tok !== 'id' && after.tok !== '!') throw new SelectorError(`found '${after.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let { tok, lit } = this.take(true);
    let op: LabelOp | undefined;
    if (tok === '!') {
      op = '!';
      ({ tok, lit } = this.take(true));
    }
    if (tok !== 'id') throw new Error(`found '${lit}', expected: identifier`);
    const key = lit;
    checkKey(key);
    const next = this.look(true).tok;
    if (next === 'eos' || next === ',') return { key, op: op ?? 'exists', values: [] };
    if (op === '!') return { key, op, values: [] };
    const opTok = this.take(false);
    let values: string[];
    switch (opTok.tok) {
      case 'in':
      case 'notin':
        values = this.values();
        if (values.length === 0) throw new Error("for 'in', 'notin' operators, values set can't be empty");
        for (const v of values) checkValue(key, v);
        return { key, op: opTok.tok, values };
      case '=':
      case '==':
      case '!=':
      case '>':
      case '<': {
        const v = this.exactValue();
        if (opTok.tok === '>' || opTok.tok === '<') {
          if (!/^[+-]?\d+$/.test(v)) throw new Error("for 'Gt', 'Lt' operators, the value must be an integer");
          checkValue(key, v);
          return { key, op: opTok.tok === '>' ? 'gt' : 'lt', values: [v] };
        }
        checkValue(key, v);
        return { key, op: opTok.tok === '!=' ? '!=' : '=', values: [v] };
      }
      default:
        throw new Error(`found '${opTok.lit}', expected: '=', '!=', '==', 'in', notin'`);
    }
  }

  private values(): string[] {
    const open = this.take(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.look(true);
    if (tok === ')') {
      this.take(true);
      return [''];
    }
    if (tok !== 'id' && tok !== ',') throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
    const set = new Set<string>();
    for (;;) {
      const it = this.take(true);
      if (it.tok === 'id') {
        set.add(it.lit);
        const after = this.look(true);
        if (after.tok === ',') continue;
        if (after.tok === ')') break;
        throw new Error(`found '${after.lit}', expected: ',' or ')'`);
      } else if (it.tok === ',') {
        if (set.size === 0) set.add('');
        const after = this.look(true);
        if (after.tok === ')') {
          set.add('');
          break;
        }
        if (after.tok === ',') {
          this.take(true);
          set.add('');
        }
      } else {
        throw new Error(`found '${it.lit}', expected: ',', or identifier`);
      }
    }
    const close = this.take(true);
    if (close.tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
    return [...set].sort();
  }

  private exactValue(): string {
    const { tok } = this.look(true);
    if (tok === 'eos' || tok === ',') return '';
    const it = this.take(true);
    if (it.tok === 'id') return it.lit;
    throw new Error(`found '${it.lit}', expected: identifier`);
  }
}

function checkKey(key: string): void {
  const errs = isQualifiedName(key);
  if (errs.length) throw new Error(`invalid label key ${JSON.stringify(key)}: ${errs.join('; ')}`);
}

function checkValue(key: string, value: string): void {
  const errs = isValidLabelValue(value);
  if (errs.length) throw new Error(`invalid label value: ${JSON.stringify(value)}: at key: ${JSON.stringify(key)}: ${errs.join('; ')}`);
}

/** Parses a `labelSelector` query value; throws a SelectorError with the real server's message. */
export function parseLabelSelector(selector: string | undefined): LabelRequirement[] {
  if (!selector) return [];
  return new LabelParser(lex(selector)).parse();
}

export function matchLabels(reqs: LabelRequirement[], labels: Labels): boolean {
  for (const r of reqs) {
    const has = labels !== undefined && Object.hasOwn(labels, r.key);
    const v = has ? labels[r.key] : undefined;
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case '!':
        if (has) return false;
        break;
      case '=':
      case 'in':
        if (!has || !r.values.includes(v ?? '')) return false;
        break;
      // `!=` and `notin` also match objects that lack the label (labels.Requirement.Matches).
      case '!=':
      case 'notin':
        if (has && r.values.includes(v ?? '')) return false;
        break;
      case 'gt':
      case 'lt': {
        if (!has || !/^-?\d+$/.test(v ?? '')) return false;
        const n = Number(v);
        const bound = Number(r.values[0]);
        if (r.op === 'gt' ? !(n > bound) : !(n < bound)) return false;
        break;
      }
    }
  }
  return true;
}

// --- metav1.LabelSelector (matchLabels / matchExpressions) ---

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function requirementsFromSelector(sel: LabelSelectorObject | undefined): LabelRequirement[] {
  if (!sel) return [];
  const reqs: LabelRequirement[] = Object.entries(sel.matchLabels ?? {}).map(([key, v]) => ({ key, op: '=' as const, values: [v] }));
  for (const e of sel.matchExpressions ?? []) {
    const op: LabelOp | undefined = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' }[e.operator] as LabelOp | undefined;
    if (op) reqs.push({ key: e.key, op, values: [...(e.values ?? [])].sort() });
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** labels.Selector.String() of a LabelSelector: what Scale.status.selector carries. */
export function formatSelector(sel: LabelSelectorObject | undefined): string {
  return requirementsFromSelector(sel)
    .map((r) => {
      switch (r.op) {
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'in':
          return `${r.key} in (${r.values.join(',')})`;
        case 'notin':
          return `${r.key} notin (${r.values.join(',')})`;
        case '=':
          return `${r.key}=${r.values[0] ?? ''}`;
        default:
          return `${r.key}${r.op === '!=' ? '!=' : r.op === 'gt' ? '>' : '<'}${r.values[0] ?? ''}`;
      }
    })
    .join(',');
}

// --- field selectors ---

/** Splits on an unescaped separator; `\,` `\=` `\!` `\\` escape as in fields.ParseSelector. */
function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] ?? '';
    if (c === '\\' && i + 1 < s.length) {
      cur += c + (s[i + 1] ?? '');
      i += 1;
    } else if (c === sep) {
      parts.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  parts.push(cur);
  return parts;
}

function unescapeValue(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** Parses a `fieldSelector` query value (syntax only; supported labels are checked per resource). */
export function parseFieldSelector(selector: string | undefined): FieldRequirement[] {
  if (!selector?.trim()) return [];
  const reqs: FieldRequirement[] = [];
  for (const term of splitUnescaped(selector, ',')) {
    if (!term) continue;
    let matched = false;
    // Operator precedence as in fields.parseSelector: != before == before =.
    for (const op of ['!=', '==', '='] as const) {
      const idx = indexOfUnescaped(term, op);
      if (idx < 0) continue;
      const field = unescapeValue(term.slice(0, idx)).trim();
      const value = unescapeValue(term.slice(idx + op.length));
      reqs.push({ field, op: op === '!=' ? '!=' : '=', value });
      matched = true;
      break;
    }
    if (!matched) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${term}'`);
  }
  return reqs;
}

function indexOfUnescaped(s: string, needle: string): number {
  for (let i = 0; i + needle.length <= s.length; i += 1) {
    if (s[i] === '\\') {
      i += 1;
      continue;
    }
    if (s.startsWith(needle, i)) return i;
  }
  return -1;
}

export function matchFields(reqs: FieldRequirement[], get: (field: string) => string): boolean {
  for (const r of reqs) {
    const v = get(r.field);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

/** Whether `labels` satisfy the label selector string (`app=web,tier!=db`); throws on bad syntax. */
export function matchesLabelSelector(selector: string, labels: Labels): boolean {
  return matchLabels(parseLabelSelector(selector), labels);
}
