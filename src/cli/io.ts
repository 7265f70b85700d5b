// The streams and environment a CLI command runs with (tests pass their own).
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}
