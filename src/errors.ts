// Coded errors: callers branch on `code`, users read `message`, `cause` keeps the origin.
export type ErrorCode =
  | 'BAD_TARGET'
  | 'TARGET_NOT_FOUND'
  | 'CLUSTER_UNREACHABLE'
  | 'BAD_CONFIG'
  | 'BAD_INPUT'
  | 'PLAYBOOK_INVALID'
  | 'PRECONDITION_FAILED'
  | 'NOT_AUTHORIZED';

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
