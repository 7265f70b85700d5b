// The decisive line of a message, a termination message or a log tail. What explains a failure
// is almost always at the end (the last log line, the innermost error of a Go error chain such as
// `failed to create shim task: OCI runtime create failed: ...: not a directory: unknown`) or on a
// line that says it is an error (`panic:`, a glog `F0214` line, an exception head), while the
// start is a banner. So a quote keeps the end and those lines, and elides the middle: never the end.

/** Marks what was left out, so a reader knows the quote is not the whole text. */
export const ELISION = '…';

// ANSI colour codes (a colourised app log) are noise in a quote.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Lines that start a failure report: the line the rest is about. */
const HEAD_LINE = new RegExp(
  String.raw`^\s*(?:panic: |fatal error: |Traceback \(most recent call last\)|Caused by: |Exception in thread |Unhandled exception|\[FATAL\]|` +
    String.raw`FATAL[: ]|F\d{4} \d\d:\d\d|([A-Za-z_$][\w$]*\.)*[A-Z]\w*(?:Exception|Error)(?::|$))`,
);

/** Lines that carry an error: levels, glog severities, error words. */
const ERROR_LINE = new RegExp(
  [
    String.raw`(?:^|[\s[("'=|:])(?:E\d{4} \d\d:\d\d|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|PANIC|EMERG)\b`,
    'level=(?:error|fatal|panic|crit)',
    String.raw`"(?:level|severity)"\s*:\s*"(?:error|fatal|panic|critical)"`,
    String.raw`\b(?:error|errors|fatal|panic|exception|failed|failure|fails|refused|denied|cannot|can't|unable to|not found|no such file|not a directory|` +
      String.raw`too many|already in use|out of memory|exited|killed|invalid|timed out|timeout|deadline exceeded|forbidden|unauthorized)\b`,
  ].join('|'),
  'i',
);

/** A line's weight as evidence: failure heads first, then error lines, then the rest. */
function weight(line: string): number {
  if (HEAD_LINE.test(line)) return 2;
  if (ERROR_LINE.test(line)) return 1;
  return 0;
}

/**
 * One line of at most `max` characters. A long line is cut in the middle: its start says what
 * was being done, its end says why it failed (Go wraps errors outward, so the cause is last).
 */
export function clipLine(line: string, max = 300): string {
  if (line.length <= max) return line;
  const keep = max - 3;
  const head = Math.floor(keep / 3);
  return `${line.slice(0, head)} ${ELISION} ${line.slice(line.length - (keep - head))}`;
}

export interface DecisiveOptions {
  /** Lines to keep at most (elision markers not counted). */
  maxLines?: number;
  /** The last lines are always kept. */
  tail?: number;
  /** Characters per line. */
  lineChars?: number;
}

/**
 * The lines of a log tail or a multi-line message worth quoting, in their order: the last
 * `tail` lines, then failure heads and error lines (the latest first) up to `maxLines`. Left-out
 * runs are replaced by one `… (N lines)` marker, so the quote shows where it skipped.
 */
export function decisiveLines(input: readonly string[], options: DecisiveOptions = {}): string[] {
  const { maxLines = 10, tail = 3, lineChars = 300 } = options;
  const lines = input.map((l) => l.replace(ANSI, '').trimEnd()).filter((l) => l.trim().length > 0);
  if (lines.length <= maxLines) return lines.map((l) => clipLine(l, lineChars));
  const keep = new Set<number>();
  for (let i = Math.max(0, lines.length - tail); i < lines.length; i++) keep.add(i);
  // Heads (panic:, Traceback, an exception) before plain error lines; within a weight, latest first.
  const candidates = lines
    .map((line, i) => ({ i, w: weight(line) }))
    .filter((c) => c.w > 0 && !keep.has(c.i))
    .sort((a, b) => b.w - a.w || b.i - a.i);
  for (const c of candidates) {
    if (keep.size >= maxLines) break;
    keep.add(c.i);
  }
  const out: string[] = [];
  let skipped = 0;
  lines.forEach((line, i) => {
    if (!keep.has(i)) {
      skipped++;
      return;
    }
    if (skipped > 0) out.push(`${ELISION} (${skipped} line${skipped === 1 ? '' : 's'})`);
    skipped = 0;
    out.push(clipLine(line, lineChars));
  });
  return out;
}

/**
 * A quotable excerpt of any message in at most about `max` characters: a multi-line text by its
 * decisive lines, a single long line cut in the middle. Never cuts the end away.
 */
export function excerpt(text: string, max = 600): string {
  const trimmed = text.replace(ANSI, '').trim();
  if (trimmed.length <= max) return trimmed;
  const lines = trimmed.split(/\r?\n/);
  if (lines.length === 1) return clipLine(trimmed, max);
  const lineChars = Math.min(300, max);
  let maxLines = Math.max(2, Math.floor(max / 80));
  let picked = decisiveLines(lines, { maxLines, lineChars });
  // Shrink until it fits; the end and the heads stay, since they are kept first.
  while (picked.join('\n').length > max && maxLines > 2) {
    maxLines--;
    picked = decisiveLines(lines, { maxLines, tail: Math.min(3, maxLines), lineChars });
  }
  const joined = picked.join('\n');
  return joined.length <= max ? joined : clipLine(joined.replace(/\n/g, ' ⏎ '), max);
}

/**
 * The innermost error of a Go error chain (`a: b: c: not a directory: unknown` → `not a
 * directory`), for a title: the runtime's trailing `unknown` (the gRPC code) says nothing.
 */
export function innermostError(message: string): string {
  const parts = message
    .trim()
    .replace(/[.\s]+$/, '')
    .split(/: (?=\S)/);
  while (parts.length > 1 && /^(?:unknown|Unknown)$/.test(parts[parts.length - 1]!.trim())) parts.pop();
  return parts[parts.length - 1]!.trim();
}
