// Reading the config file, bounded: whatever path a person (or a ConfigMap mount) gives, the
// read ends quickly and small. A FIFO would block the open until a writer comes, /dev/zero never
// ends, and a 64 MiB file is read whole before YAML even starts: only a regular file of at most
// MAX_CONFIG_BYTES is read (a ConfigMap holds 1 MiB at most, so a real config is far below it).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { errnoText } from '../errors.js';

export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Why a config file was not read; `reason` is one line for the person who gave the path. */
export class ConfigFileUnreadable extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${reason}`, options);
    this.name = 'ConfigFileUnreadable';
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** `64 MiB`, `1.5 MiB`, `512 bytes`. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB` : `${bytes} bytes`;
}

/**
 * The text of the file at `path`, if it is a regular file of at most `maxBytes`. Opened without
 * blocking (a FIFO opens at once, then is refused), checked on the open descriptor (no race with
 * a rename), and read no further than `maxBytes` + 1 (a file that grows meanwhile is refused).
 */
export function readConfigText(path: string, maxBytes = MAX_CONFIG_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ConfigFileUnreadable(path, errnoText(err), { cause: err });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ConfigFileUnreadable(path, `${kindOf(st)}, not a regular file`);
    const tooLarge = () =>
      new ConfigFileUnreadable(
        path,
        `${st.size > maxBytes ? `${sizeText(st.size)}, ` : ''}larger than the ${sizeText(maxBytes)} a config file may be: not read`,
      );
    if (st.size > maxBytes) throw tooLarge();
    const buf = Buffer.alloc(maxBytes + 1);
    let size = 0;
    while (size < buf.length) {
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
    }
    if (size > maxBytes) throw tooLarge();
    return buf.toString('utf8', 0, size);
  } catch (err) {
    if (err instanceof ConfigFileUnreadable) throw err;
    throw new ConfigFileUnreadable(path, errnoText(err), { cause: err });
  } finally {
    closeSync(fd);
  }
}
