// Coded errors: callers branch on `code`, users read `message`, `cause` keeps the origin.
export type ErrorCode =
  | 'BAD_TARGET'
  | 'TARGET_NOT_FOUND'
  | 'CLUSTER_UNREACHABLE'
  | 'BAD_CONFIG'
  | 'BAD_INPUT'
  | 'PLAYBOOK_INVALID'
  | 'PRECONDITION_FAILED'
  | 'NOT_AUTHORIZED'
  | 'NO_KUBECONFIG'
  | 'UNKNOWN_CONTEXT'
  | 'REDIS_UNREACHABLE'
  | 'CANNOT_LISTEN'
  | 'FILE_UNREADABLE';

export class PodDoctorError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PodDoctorError';
    this.code = code;
  }
}

export function isPodDoctorError(err: unknown, code?: ErrorCode): err is PodDoctorError {
  return err instanceof PodDoctorError && (code === undefined || err.code === code);
}

/** What a user reads for the errno of a file or a socket they named. */
const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/** `no such file (ENOENT)` for a system error a person can act on, else its code or message. */
export function errnoText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return ERRNO_WORDS[code] ? `${ERRNO_WORDS[code]} (${code})` : code;
  return err instanceof Error ? err.message : String(err);
}

const FILE_SYSCALLS = new Set(['open', 'stat', 'lstat', 'scandir', 'opendir', 'access', 'read', 'readlink', 'realpath']);

/**
 * A failure of the system that the user causes and fixes (a port already taken, a file that is not
 * there) as a coded error with one line to read; undefined for anything else, which is a bug and
 * keeps its stack.
 */
export function expectedSystemError(err: unknown): PodDoctorError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (typeof e.code !== 'string') return undefined;
  if (e.syscall === 'listen') {
    const where = e.port === undefined ? (e.address ?? 'its address') : `${e.address ?? ''}:${e.port}`;
    const why =
      e.code === 'EADDRINUSE'
        ? 'the port is already in use (another pod-doctor, or another program): stop it or choose another port'
        : e.code === 'EACCES'
          ? 'permission denied (a port below 1024 needs privileges): choose another port'
          : e.code === 'EADDRNOTAVAIL'
            ? 'no such address on this machine'
            : e.code;
    return new PodDoctorError('CANNOT_LISTEN', `cannot listen on ${where}: ${why}`, { cause: err });
  }
  if (e.path !== undefined && e.syscall !== undefined && FILE_SYSCALLS.has(e.syscall) && ERRNO_WORDS[e.code])
    return new PodDoctorError('FILE_UNREADABLE', `cannot read ${e.path}: ${errnoText(err)}`, { cause: err });
  return undefined;
}
