// The agent's certificate and key, from files (a mounted Secret). cert-manager renews the
// certificate in the Secret and the kubelet swaps the mounted files in place, so the files are
// read again now and then and a changed pair is served to new connections, without a restart.

import type { Logger } from 'pino';
import { builtin } from '../builtin.js';
import type { AgentTls } from './server.js';

// Built-ins through require(): less resident memory in the node agent (src/builtin.ts).
const { readFile } = builtin('node:fs/promises') as typeof import('node:fs/promises');

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** Both files, read together. Rejects with a one-line reason naming the file. */
export async function readTlsFiles(files: TlsFiles): Promise<{ cert: Buffer; key: Buffer }> {
  const read = (what: string, file: string) =>
    readFile(file).catch((err: unknown) => {
      throw new Error(`cannot read the TLS ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    });
  // Both reads start together; when both fail, the certificate's reason is the one told (always
  // the same line for the same mistake, not whichever read failed first).
  const cert = read('certificate', files.certFile);
  const key = read('key', files.keyFile);
  key.catch(() => undefined);
  return { cert: await cert, key: await key };
}

/**
 * Reads the files every `intervalMs` and calls `apply` when they changed. A failed read or a
 * pair `apply` rejects (a key that does not match its certificate) keeps the one being served.
 */
export function watchTlsFiles(
  files: TlsFiles,
  current: { cert: Buffer; key: Buffer },
  apply: (tls: AgentTls) => void,
  log: Logger,
  intervalMs = 60_000,
): { stop(): void } {
  let served = current;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    readTlsFiles(files)
      .then((next) => {
        if (next.cert.equals(served.cert) && next.key.equals(served.key)) return;
        apply(next);
        served = next;
        log.info({ certFile: files.certFile }, 'agent TLS certificate reloaded');
      })
      .catch((err: unknown) => log.warn({ certFile: files.certFile, reason: (err as Error).message }, 'agent TLS certificate not reloaded'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
