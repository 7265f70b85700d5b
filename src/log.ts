// One pino root for every role. Child loggers carry {jobId, target, ruleId, requestId};
// anything that looks like a credential is redacted before it leaves the process: the paths
// below by name, and every record's text (messages, errors, quoted log lines) by shape.
import { type Logger, pino } from 'pino';
import { redactDeep, redactText } from './redact.js';

export const REDACT_PATHS = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["x-slack-signature"]',
  'botToken',
  'appToken',
  'signingSecret',
  '*.botToken',
  '*.appToken',
  '*.signingSecret',
  'password',
  '*.password',
];

/**
 * The last look at a serialized record (pino's `streamWrite` hook): a record with nothing that
 * looks like a credential is written as it is; one with something is parsed, redacted field by
 * field (JSON stays valid, escaped text is redacted as the text it stands for) and written again.
 */
export function redactRecord(line: string): string {
  const quick = redactText(line);
  if (quick === line) return line;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return quick; // not JSON (a custom format): the text pass is all there is
  }
  const clean = redactDeep(record);
  if (clean !== record) return `${JSON.stringify(clean)}\n`;
  // Only the text pass saw something (a number under a credential's key): keep it if it is still JSON.
  try {
    JSON.parse(quick);
    return quick;
  } catch {
    return line;
  }
}

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino(
    { name: options.name ?? 'pod-doctor', level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, hooks: { streamWrite: redactRecord } },
    options.destination ? (options.destination as pino.DestinationStream) : pino.destination(2),
  );
}

/** The process-wide logger; logs go to stderr so CLI output on stdout stays clean. */
export const log: Logger = createLogger();

type Level = 'debug' | 'info' | 'warn' | 'error';
export type ScopedLogger = Record<Level, (obj: unknown, msg?: string) => void>;

/**
 * `logger.child(bindings)` made on first use: pino serializes and redacts a child's bindings
 * when the child is created, so a child per job or command costs CPU on every one of a burst
 * even when nothing is logged at the level set.
 */
export function scoped(logger: Logger, bindings: Record<string, unknown>): ScopedLogger {
  let child: Logger | undefined;
  const at = (level: Level) => (obj: unknown, msg?: string) => {
    if (!logger.isLevelEnabled(level)) return;
    child ??= logger.child(bindings);
    child[level](obj, msg);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
