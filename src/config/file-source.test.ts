import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import { ConfigFileUnreadable, MAX_CONFIG_BYTES, readConfigText } from './file-source.js';

describe('readConfigText', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-config-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text = '') => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const reason = (path: string, maxBytes?: number) => {
    const err = catchError(() => readConfigText(path, maxBytes));
    expect(err).toBeInstanceOf(ConfigFileUnreadable);
    return (err as ConfigFileUnreadable).reason;
  };

  it('reads a regular file up to the limit, and one byte more is refused', () => {
    expect(readConfigText(file('ok.yaml', 'cluster: prod\n'))).toBe('cluster: prod\n');
    expect(readConfigText(file('at-limit.yaml', 'x'.repeat(64)), 64)).toHaveLength(64);
    expect(reason(file('over.yaml', 'x'.repeat(65)), 64)).toBe('65 bytes, larger than the 64 bytes a config file may be: not read');
  });

  it('refuses a 64 MiB file by its size, before reading it', () => {
    const path = file('huge.yaml');
    truncateSync(path, 64 * 1024 * 1024); // sparse: nothing written
    const before = process.memoryUsage().arrayBuffers;
    expect(reason(path)).toBe('64 MiB, larger than the 1 MiB a config file may be: not read');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * MAX_CONFIG_BYTES);
  });

  it('refuses what is not a regular file without blocking or reading it: a FIFO, /dev/zero, a directory', () => {
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    // A blocking open of a FIFO without a writer never returns: this test would hang, not fail.
    expect(reason(fifo)).toBe('a FIFO, not a regular file');
    expect(reason('/dev/zero')).toBe('a character device, not a regular file');
    expect(reason(dir)).toBe('a directory, not a regular file');
  });

  it('names the errno of a file it cannot open', () => {
    expect(reason(join(dir, 'missing.yaml'))).toBe('no such file (ENOENT)');
  });
});
