// Operating-system errors as programs print them. The texts are upstream's (upstream.json, from
// glibc's and musl's strerror, Go's syscall table and libuv's messages: scripts/mechanisms/extract.ts);
// this file adds how languages wrap them (Python's `[Errno 13]`, Node's `EACCES:` code, the JVM's
// NIO exception names from OpenJDK's sun/nio/fs/UnixException.java) and says, for every errno,
// which mechanisms it can mean in a container — or why it is set aside.
// test/mechanism-coverage.test.ts fails on an errno of upstream.json that is neither.
import upstreamJson from './upstream.json' with { type: 'json' };

/** One errno as each family prints it (scripts/mechanisms/extract.ts writes these). */
export interface UpstreamErrno {
  name: string;
  number: number;
  glibc?: string;
  musl?: string;
  go?: string;
  libuv?: string;
}

export interface UpstreamSignal {
  name: string;
  number: number;
  glibc?: string;
  musl?: string;
  go?: string;
}

/** The shape of upstream.json. */
export interface Upstream {
  sources: Record<'glibc' | 'musl' | 'go' | 'libuv', string>;
  errno: UpstreamErrno[];
  signals: UpstreamSignal[];
}

export const UPSTREAM = upstreamJson as Upstream;

const BY_NAME = new Map(UPSTREAM.errno.map((e) => [e.name, e]));

/** OpenJDK's UnixException.translateToIOException: the NIO exception class an errno becomes. */
const JAVA_NIO: Readonly<Record<string, string>> = {
  EACCES: 'java.nio.file.AccessDeniedException',
  ENOENT: 'java.nio.file.NoSuchFileException',
  EEXIST: 'java.nio.file.FileAlreadyExistsException',
};

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Errno names whose texts some signature reads (filled as the catalogue loads; the coverage test reads it). */
export const USED_ERRNO = new Set<string>();

/**
 * A regular-expression source matching an errno however it is printed: any upstream text (case
 * folded by the pattern's `i` flag), the symbolic name, Python's `[Errno N]`, the JVM's NIO class.
 */
export function errnoSource(name: string, options: { code?: boolean } = {}): string {
  const e = BY_NAME.get(name);
  if (!e) throw new Error(`unknown errno ${name}`);
  USED_ERRNO.add(name);
  const texts = [...new Set([e.glibc, e.musl, e.go, e.libuv].filter((t): t is string => Boolean(t)).map((t) => t.toLowerCase()))];
  // Longest first: "too many open files in system" before "too many open files".
  texts.sort((a, b) => b.length - a.length);
  const parts = texts.map(escapeRegex);
  if (options.code !== false) parts.push(`\\b${name}\\b`);
  parts.push(`\\[Errno ${e.number}\\]`);
  const nio = JAVA_NIO[name];
  if (nio) parts.push(escapeRegex(nio));
  return `(?:${parts.join('|')})`;
}

/** Lower-case needles for an errno: its texts and its name (for the cheap pass). */
export function errnoNeedles(name: string): string[] {
  const e = BY_NAME.get(name);
  if (!e) throw new Error(`unknown errno ${name}`);
  const texts = [e.glibc, e.musl, e.go, e.libuv].filter((t): t is string => Boolean(t)).map((t) => t.toLowerCase());
  return [...new Set([...texts, name.toLowerCase(), `[errno ${e.number}]`, ...(JAVA_NIO[name] ? [JAVA_NIO[name].toLowerCase()] : [])])];
}

/**
 * Errnos that are not a container's failure mechanism on their own, and why. Every other errno of
 * upstream.json must be read by some signature.
 */
export const SET_ASIDE: Readonly<Record<string, string>> = {
  ...group('STREAMS, XENIX, RFS and other interfaces Linux containers do not use', [
    'ECHRNG',
    'EL2NSYNC',
    'EL3HLT',
    'EL3RST',
    'ELNRNG',
    'EUNATCH',
    'ENOCSI',
    'EL2HLT',
    'EBADE',
    'EBADR',
    'EXFULL',
    'ENOANO',
    'EBADRQC',
    'EBADSLT',
    'EBFONT',
    'ENOSTR',
    'ETIME',
    'ENOSR',
    'ENONET',
    'ENOPKG',
    'EREMOTE',
    'ENOLINK',
    'EADV',
    'ESRMNT',
    'ECOMM',
    'EMULTIHOP',
    'EDOTDOT',
    'ENOTUNIQ',
    'EREMCHG',
    'ESTRPIPE',
    'EUSERS',
    'ENOTNAM',
    'ENAVAIL',
    'EISNAM',
    'ERESTART',
    'ELIBACC',
    'ELIBBAD',
    'ELIBSCN',
    'ELIBMAX',
    'ELIBEXEC',
    'ERFKILL',
    'ENOMEDIUM',
    'EMEDIUMTYPE',
    'ETOOMANYREFS',
  ]),
  ...group("a program's own misuse of an API (a bug, not a limit or a permission of the pod)", [
    'EBADF',
    'EFAULT',
    'EINVAL',
    'ENOTTY',
    'ESPIPE',
    'EDOM',
    'ERANGE',
    'EDEADLOCK',
    'ENOTSOCK',
    'EDESTADDRREQ',
    'EPROTOTYPE',
    'ENOPROTOOPT',
    'ESOCKTNOSUPPORT',
    'EPFNOSUPPORT',
    'EISCONN',
    // ENOTCONN is read (catalogue/storage.ts fuse-disconnected) only with a path: a dead FUSE mount. A socket's names no path.
    'ESHUTDOWN',
    'EALREADY',
    'EINPROGRESS',
    'EBADFD',
    'EILSEQ',
    'EOVERFLOW',
    'ECHILD',
    'ENOMSG',
    'EIDRM',
    'EBADMSG',
    'EMSGSIZE',
    'ENODATA',
    'EPROTO',
    'ENOTSUP',
    'EPROTONOSUPPORT',
  ]),
  ...group('normal control flow, or printed after the cause it follows (the cause is the line to read)', [
    'EINTR',
    'ESRCH',
    'EEXIST',
    'ENOTEMPTY',
    'EPIPE',
    'ECONNRESET',
    'ECONNABORTED',
    'ENETRESET',
    'ECANCELED',
    'EOWNERDEAD',
    'ENOTRECOVERABLE',
    'ENXIO',
    'ENODEV',
    'ENOTBLK',
    'EMLINK',
    'ENAMETOOLONG',
    'ELOOP',
    'ENOBUFS',
    'ENETDOWN',
    'EHOSTDOWN',
    'EREMOTEIO',
    'ENOKEY',
    'EKEYEXPIRED',
    'EKEYREVOKED',
    'EKEYREJECTED',
    // EFBIG is read by catalogue/storage.ts (file-size-limit).
  ]),
  ...group('read by a dedicated rule (image and runtime errors), not by an app', ['ENOEXEC']),
  ...group('read by its wording in catalogue/storage.ts (fs-corrupted), not through errnoSource: musl prints no text for it', ['EUCLEAN']),
};

function group(reason: string, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, reason]));
}
