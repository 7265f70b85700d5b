// Credentials out of text before it is stored or leaves the process: the container log tails the
// collector keeps (and so the findings that quote them, in Redis and in chat), the node agent's
// journal lines, every chat message (the adapters' last pass) and every log record. Pure.
//
// Each shape keeps what makes the evidence useful: the key, the auth scheme, a token's public
// prefix (`ghp_`, `xoxb-`, `AKIA`), the user and host of a URL. Shapes that also occur in prose
// (`token: unexpected status`, `Basic authentication`) are redacted only when the value looks like
// a credential. Speed (a 100-line tail in well under a millisecond): every regex starts with a
// literal or a short alternation V8 can skip to, the token prefixes share one scan, and the checks
// that would need lookbehinds (is `pass` a word of its own) run in the replacer, on matches only.

/** Every shape the patterns know: a `SecretPattern.name`, or the shape of one token prefix. */
export const SECRET_NAMES = [
  'private-key',
  'private-key-tail',
  'url-credentials',
  'dsn-credentials',
  'authorization-header',
  'cookie-header',
  'bearer-token',
  'basic-credentials',
  'secret-assignment',
  'kubernetes-bootstrap-token',
  'aws-access-key-id',
  'github-token',
  'gitlab-token',
  'slack-token',
  'google-api-key',
  'google-oauth-token',
  'stripe-key',
  'ai-api-key',
  'npm-token',
  'sendgrid-key',
  'slack-webhook',
  'jwt',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** A replacement, or the replacement and the shape it redacted when the pattern covers several. */
type Replacement = string | { text: string; name: SecretName };

export interface SecretPattern {
  name: SecretName | 'token-prefix';
  /** Substrings (case as written), one of which must be in the text before a costly regex runs. */
  needles?: readonly string[];
  /** Global; positional groups only (the replacer reads them by index). */
  re: RegExp;
  /**
   * The replacement of one match (`groups[0]` is group 1), or `match` to keep it; `at` is where
   * the match starts in `text`, for the checks on what precedes it.
   */
  replace: (match: string, groups: readonly (string | undefined)[], at: number, text: string) => Replacement;
}

export const REDACTED = '[redacted]';

/** Values that name no secret: placeholders, booleans, what an earlier pass left. */
const NOT_A_SECRET = new RegExp(
  String.raw`^(?:\*+|x{3,}|\[redacted[^\]]*\]?|<[^>]*>|\$\{?[\w.]+\}?|\$\(\w+\)|%[sdv]|\?|` +
    'true|false|null|nil|none|undefined|redacted|required|optional|enabled|disabled)$',
  'i',
);

/** A value that reads like a generated credential rather than a word: long, of mixed character classes. */
export function looksRandom(value: string): boolean {
  if (value.length < 8 || /^[A-Z]?[a-z]+$/.test(value)) return false;
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
  return classes >= 2;
}

/** `user:password` behind a `Basic` scheme: base64 of printable text with a colon. */
function isBasicCredential(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}

/** A word character right before `at`: the match is inside a longer word (`task-…`, `FOO_AKIA…`). */
function midWord(text: string, at: number): boolean {
  return at > 0 && /\w/.test(text[at - 1]!);
}

/**
 * A key whose value is a credential, by its last word: `pass` and `pwd` only as words of their own
 * (not `bypass`, not the shell's `PWD`), `key` only as an API, access, private... key.
 */
const SECRET_KEY = new RegExp(
  '(?:password|passwd|passphrase|(?:^|[^a-z])pass|[_-]pwd|secret|token|' +
    '(?:api|access|account|private|signing|encryption|master|auth|secret)[_-]?key|client[_-]?key[_-]?data|credentials?)$',
  'i',
);

/** The same for an object's key (log records, parsed JSON), where headers count too. */
const SECRET_FIELD = new RegExp(`${SECRET_KEY.source.slice(0, -1)}|authorization|cookie$`, 'i');

/** Is the key that ends in `word` at `at` a credential's? Not in a path (`/etc/passwd:`); query signatures only as parameters. */
function secretKeyAt(word: string, at: number, text: string): boolean {
  const end = at + word.length;
  let start = at;
  while (start > 0 && /[\w.-]/.test(text[start - 1]!)) start--;
  const name = text.slice(start, end);
  const before = start > 0 ? text[start - 1]! : '';
  if (before === '/') return false;
  if (/^(?:sig|x-amz-signature|x-goog-signature)$/i.test(name)) return before === '?' || before === '&' || before === ';';
  return SECRET_KEY.test(name);
}

/** `key=value`, `key: value`, `"key": "value"`: the value, unless it is clearly not a credential. */
function assignment(match: string, g: readonly (string | undefined)[], at: number, text: string): string {
  const [word = '', sep = '', value = ''] = g;
  const quote = /^(?:\\"|["'])/.exec(value)?.[0] ?? '';
  const inner = quote ? value.slice(quote.length, value.length - quote.length) : value;
  if (inner === '' || NOT_A_SECRET.test(inner) || inner.includes(REDACTED) || !secretKeyAt(word, at, text)) return match;
  if (!sep.includes('=')) {
    // After a colon, prose is common (`failed to fetch anonymous token: unexpected status`); a
    // password key, a quoted pair (JSON, YAML) or a random-looking value is not prose.
    const password = /pass|pwd/i.test(word);
    if (!quote && /^[A-Za-z_]\w*:/.test(inner)) return match; // an empty value, then the next `key:`
    if (!password && !(/^\\?["']/.test(sep) && quote) && !looksRandom(inner)) return match;
  }
  return `${word}${sep}${quote}${REDACTED}${quote}`;
}

/** Token prefixes, the shape each names and what must follow it. */
const TOKEN_PREFIXES: readonly { prefix: RegExp; name: SecretName; body: RegExp }[] = [
  { prefix: /^A(?:KIA|SIA|ROA|IDA|GPA|NPA|NVA|IPA|BIA|CCA)$/, name: 'aws-access-key-id', body: /^[A-Z0-9]{16}(?![A-Za-z0-9])/ },
  { prefix: /^AIza$/, name: 'google-api-key', body: /^[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { prefix: /^gh[pousr]_$/, name: 'github-token', body: /^[A-Za-z0-9]{36,251}(?![A-Za-z0-9])/ },
  { prefix: /^github_pat_$/, name: 'github-token', body: /^[A-Za-z0-9_]{22,255}/ },
  { prefix: /^glpat-$/, name: 'gitlab-token', body: /^[A-Za-z0-9_-]{20,}/ },
  { prefix: /^(?:xox[abposre]|xapp)-$/, name: 'slack-token', body: /^[A-Za-z0-9-]{10,}/ },
  { prefix: /^ya29\.$/, name: 'google-oauth-token', body: /^[0-9A-Za-z_-]{20,}/ },
  { prefix: /^[sr]k_(?:live|test)_$/, name: 'stripe-key', body: /^[0-9A-Za-z]{10,}/ },
  { prefix: /^whsec_$/, name: 'stripe-key', body: /^[A-Za-z0-9+/=]{20,}/ },
  // OpenAI (sk-proj-, sk-svcacct-, legacy sk- + 48) and Anthropic (sk-ant-api03-); not `sk-` in a pod name.
  { prefix: /^sk-.+-$/, name: 'ai-api-key', body: /^[A-Za-z0-9_-]{20,}/ },
  { prefix: /^sk-$/, name: 'ai-api-key', body: /^[A-Za-z0-9]{40,}(?![A-Za-z0-9])/ },
  { prefix: /^npm_$/, name: 'npm-token', body: /^[A-Za-z0-9]{36}(?![A-Za-z0-9])/ },
  { prefix: /^SG\.$/, name: 'sendgrid-key', body: /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/ },
];

/** A token by its prefix: the prefix kept, the validated body redacted, anything after it left. */
function tokenPrefix(match: string, g: readonly (string | undefined)[], at: number, text: string): Replacement {
  const [prefix = '', rest = ''] = g;
  if (midWord(text, at)) return match;
  for (const t of TOKEN_PREFIXES) {
    if (!t.prefix.test(prefix)) continue;
    const body = t.body.exec(rest)?.[0];
    if (body) return { text: `${prefix}${REDACTED}${rest.slice(body.length)}`, name: t.name };
  }
  return match;
}

const PEM_BEGIN = '-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----';
const PEM_END = '-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----';

/** The last word of a credential's key; `secretKeyAt` looks at the whole key. */
const KEY_WORD = 'password|passwd|passphrase|pass|pwd|secret|token|key|key[_-]?data|credentials?|sig|signature';
/**
 * A value: double-quoted (JSON), single-quoted, `\"`-quoted (JSON in a string), or bare up to a
 * blank, a quote or a bracket; `&`, `;` and `,` end it only before the next `key=` (a query, a
 * connection string), so `passwd: Tr0ub4dor&3` goes whole.
 */
const BARE = String.raw`[^\s"'\x60\\,;&<>(){}\[\]](?:[^\s"'\x60\\,;&<>)}\]]|[&;,](?![\w .-]*[=:]))*`;
const VALUE = String.raw`"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|\\"(?:[^"\\\n]|\\[^"\n])*\\"|` + BARE;

// Order matters: whole blocks and URLs first, then keyed values (whose key says the most), then
// bare tokens by shape. A later pattern leaves what an earlier one redacted alone.
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private-key',
    needles: ['PRIVATE KEY'],
    // To the END line, or to the end of the text when the tail stops inside the block.
    re: new RegExp(String.raw`(${PEM_BEGIN})[\s\S]*?(?:(${PEM_END})|$)`, 'g'),
    replace: (_m, g) => `${g[0]}${REDACTED}${g[1] ?? ''}`,
  },
  {
    name: 'private-key-tail',
    needles: ['PRIVATE KEY'],
    // A tail that starts inside a block: the base64 lines before its END.
    re: new RegExp(String.raw`^(?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*\r?\n)+[ \t]*(${PEM_END})`, 'gm'),
    replace: (_m, g) => `${REDACTED}${g[0]}`,
  },
  {
    name: 'url-credentials',
    // scheme://user:password@host: postgres, mysql, mongodb+srv, redis (empty user), amqp, https.
    re: /:\/\/([^\s:@/?#"'<>]*):([^\s/"'<>]+)@/g,
    replace: (m, g) => (g[1]?.startsWith(REDACTED) ? m : `://${g[0]}:${REDACTED}@`),
  },
  {
    name: 'dsn-credentials',
    needles: ['@tcp(', '@unix('],
    // Go's MySQL DSN: user:password@tcp(host:3306)/db (the user before the colon stays).
    re: /:([^\s@/"':]+)@(tcp|unix)\(/g,
    replace: (m, g) => (g[0] === REDACTED ? m : `:${REDACTED}@${g[1]}(`),
  },
  {
    name: 'authorization-header',
    re: new RegExp(
      String.raw`\b((?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?)` +
        String.raw`(?:(Bearer|Basic|Digest|Token|Negotiate|NTLM|Bot|ApiKey|AWS4-HMAC-SHA256)[ \t]+)?([^\s"'\\,;]+)`,
      'gi',
    ),
    replace: (m, g) => {
      const [head = '', scheme, value = ''] = g;
      if (value === REDACTED || (!scheme && !looksRandom(value))) return m;
      return `${head}${scheme ? `${scheme} ` : ''}${REDACTED}`;
    },
  },
  {
    name: 'cookie-header',
    re: /\b((?:set-)?cookie[ \t]*:[ \t]*)([^\r\n"']+)/gi,
    replace: (m, g) => (g[1] === REDACTED ? m : `${g[0]}${REDACTED}`),
  },
  {
    name: 'bearer-token',
    re: /\b(Bearer|bearer|BEARER)[ \t]+([A-Za-z0-9._~+/-]+=*)/g,
    replace: (m, g) => (looksRandom(g[1] ?? '') ? `${g[0]} ${REDACTED}` : m),
  },
  {
    name: 'basic-credentials',
    re: /\b(Basic)[ \t]+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/g,
    replace: (m, g) => (isBasicCredential(g[1] ?? '') ? `${g[0]} ${REDACTED}` : m),
  },
  {
    // password=, PGPASSWORD=, "password": "…", passwd:, client_secret=, aws_secret_access_key=, K8S_API_TOKEN=, &sig=.
    name: 'secret-assignment',
    re: new RegExp(String.raw`(${KEY_WORD})(\\?["']?[ \t]*(?::=|=>|[:=])[ \t]*)(${VALUE})`, 'gi'),
    replace: assignment,
  },
  {
    // kubeadm's `--token abcdef.0123456789abcdef` (`token=`/`token:` are secret assignments): the id is public.
    name: 'kubernetes-bootstrap-token',
    re: /(token|Token|TOKEN)([ \t]+["']?)([a-z0-9]{6}\.)([a-z0-9]{16})\b/g,
    replace: (_m, g) => `${g[0]}${g[1]}${g[2]}${REDACTED}`,
  },
  {
    name: 'token-prefix',
    re: new RegExp(
      String.raw`(A(?:KIA|SIA|ROA|IDA|GPA|NPA|NVA|IPA|BIA|CCA|Iza)|gh[pousr]_|github_pat_|glpat-|xox[abposre]-|xapp-|ya29\.|` +
        String.raw`[sr]k_(?:live|test)_|whsec_|sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?|npm_|SG\.)([\w.+/=-]*)`,
      'g',
    ),
    replace: tokenPrefix,
  },
  {
    name: 'slack-webhook',
    re: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]+/g,
    replace: (m, g) => (m.endsWith(REDACTED) ? m : `${g[0]}${REDACTED}`),
  },
  {
    name: 'jwt',
    // Header and payload are base64url JSON (`{"` is `eyJ`): OIDC ID tokens, Kubernetes service account tokens.
    re: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    replace: (m, _g, at, text) => (midWord(text, at) ? m : '[redacted-jwt]'),
  },
];

/**
 * One pattern over `text`. A match the replacer keeps is scanned again from its second character,
 * so a value it rejected (`key: password=hunter2`) still gets its own look.
 */
function apply(text: string, p: SecretPattern, fired?: SecretName[]): string {
  const re = p.re;
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  let changed = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const r = p.replace(m[0], m.slice(1), m.index, text);
    const replaced = typeof r === 'string' ? r : r.text;
    if (replaced === m[0]) {
      re.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(last, m.index) + replaced;
    last = m.index + m[0].length;
    changed = true;
    const name = typeof r === 'string' ? (p.name as SecretName) : r.name;
    if (fired && !fired.includes(name)) fired.push(name);
  }
  return changed ? out + text.slice(last) : text;
}

function run(text: string, fired?: SecretName[]): string {
  let out = text;
  for (const p of SECRET_PATTERNS) if (!p.needles || p.needles.some((n) => out.includes(n))) out = apply(out, p, fired);
  return out;
}

/** `text` (one line or many) with every credential the patterns know replaced. Idempotent. */
export function redactText(text: string): string {
  return run(text);
}

/** The names of the patterns that changed `text`, in the order they ran (for tests and metrics). */
export function secretsIn(text: string): SecretName[] {
  const fired: SecretName[] = [];
  run(text, fired);
  return fired;
}

/**
 * A log tail's lines, redacted as one text so a private key block spanning lines goes as a whole.
 * The same array when nothing changed; otherwise the count may shrink (a block becomes one line).
 */
export function redactLines(lines: readonly string[]): string[] {
  const joined = lines.join('\n');
  const out = run(joined);
  return out === joined ? (lines as string[]) : out.split('\n');
}

/**
 * Every string in a JSON-like value redacted (a string array item by item and as one text), and the
 * string value of a credential-named key (`password`, `apiKey`, `authorization`) replaced whole.
 * Fields `keep` says are identifiers (by key and the object holding them) are left as they are.
 * Returns `value` itself when nothing changed.
 */
export function redactDeep<T>(value: T, keep: KeepField = () => false): T {
  return walk(value, keep, 0) as T;
}

/** Is this field an identifier to leave alone (a button's opaque value, a part's kind)? */
export type KeepField = (key: string, holder: Readonly<Record<string, unknown>>) => boolean;

const MAX_DEPTH = 32;

/**
 * A list of texts (a code part's lines, list items): each on its own, so the list keeps its items,
 * then all together, for a key block whose lines are items of their own.
 */
function redactStrings(list: string[]): string[] {
  let changed = false;
  const each = list.map((s) => {
    const r = run(s);
    if (r !== s) changed = true;
    return r;
  });
  const joined = each.join('\n');
  const whole = run(joined);
  if (whole !== joined) return whole.split('\n');
  return changed ? each : list;
}

/** A credential-named key's value that is one (a number too: a PIN, a numeric key). */
function isSecretValue(v: unknown): boolean {
  return (typeof v === 'string' && v !== '' && !NOT_A_SECRET.test(v)) || typeof v === 'number';
}

function walk(value: unknown, keep: KeepField, depth: number): unknown {
  if (typeof value === 'string') return run(value);
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === 'string')) return redactStrings(value as string[]);
    let changed = false;
    const out = value.map((v) => {
      const r = walk(v, keep, depth + 1);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (keep(k, value as Record<string, unknown>)) continue;
    const r = SECRET_FIELD.test(k) && isSecretValue(v) ? REDACTED : walk(v, keep, depth + 1);
    if (r === v) continue;
    out ??= { ...(value as Record<string, unknown>) };
    out[k] = r;
  }
  return out ?? value;
}
