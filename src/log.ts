// One pino root for every role. Child loggers carry {jobId, target, ruleId, requestId};
// anything that looks like a credential is redacted before it leaves the process.
import { type Logger, pino } from 'pino';

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

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino(
    { name: options.name ?? 'pod-doctor', level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
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
