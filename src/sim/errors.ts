// The error of loading saved objects, on its own: the CLI's error handling names it without
// loading the YAML parser and the loader (every command, the node agent included, starts there).
export type SimLoadErrorCode = 'SIM_READ' | 'SIM_PARSE' | 'SIM_INVALID';

export class SimLoadError extends Error {
  readonly code: SimLoadErrorCode;
  constructor(code: SimLoadErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SimLoadError';
    this.code = code;
  }
}
