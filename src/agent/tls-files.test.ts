import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCerts, makeAgentCerts } from '../../test/helpers/agent-tls.js';
import { eventually } from '../../test/helpers/jobs.js';
import type { AgentTls } from './server.js';
import { readTlsFiles, watchTlsFiles } from './tls-files.js';

let certs: AgentCerts;
let dir: string;
beforeAll(() => {
  certs = makeAgentCerts();
  dir = mkdtempSync(join(tmpdir(), 'pd-tls-files-'));
});
afterAll(() => {
  certs?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('the TLS files of the agent', () => {
  it('reads both, or says which one it cannot read', async () => {
    const pair = await readTlsFiles({ certFile: certs.certFile, keyFile: certs.keyFile });
    expect(pair.cert.toString()).toBe(certs.cert);
    expect(pair.key.toString()).toBe(certs.key);
    await expect(readTlsFiles({ certFile: certs.certFile, keyFile: join(dir, 'missing.key') })).rejects.toThrow(
      `cannot read the TLS key ${join(dir, 'missing.key')}: ENOENT`,
    );
  });

  it('applies a renewed pair once, and keeps serving the old one while a read fails', async () => {
    const files = { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
    writeFileSync(files.certFile, certs.cert);
    writeFileSync(files.keyFile, certs.key);
    const lines: string[] = [];
    const log = pino(
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          lines.push(chunk.toString());
          cb();
        },
      }),
    );
    const applied: AgentTls[] = [];
    const watch = watchTlsFiles(files, await readTlsFiles(files), (tls) => void applied.push(tls), log, 10);
    try {
      rmSync(files.keyFile);
      await eventually(async () => lines.some((l) => l.includes('agent TLS certificate not reloaded')), 5000, 10);
      expect(applied).toEqual([]);
      // Each file replaced whole, as the kubelet swaps a Secret's files.
      writeFileSync(`${files.certFile}.new`, certs.otherCert);
      renameSync(`${files.certFile}.new`, files.certFile);
      writeFileSync(`${files.keyFile}.new`, certs.otherKey);
      renameSync(`${files.keyFile}.new`, files.keyFile);
      await eventually(async () => applied.length > 0, 5000, 10);
      // Some more rounds with the files unchanged: not applied again.
      await new Promise((r) => setTimeout(r, 100));
      expect(applied.map((t) => [t.cert.toString(), t.key.toString()])).toEqual([[readFileSync(files.certFile, 'utf8'), certs.otherKey]]);
      expect(lines.filter((l) => l.includes('agent TLS certificate reloaded'))).toHaveLength(1);
    } finally {
      watch.stop();
    }
  });
});
