// Extracts the operating system's error and signal texts as the C libraries, Go and libuv (Node.js)
// print them, and writes src/diagnosis/mechanisms/upstream.json. The mechanism catalogue
// (src/diagnosis/mechanisms/errno.ts, signals.ts) recognises errors by these texts, and
// test/mechanism-coverage.test.ts fails when an entry is neither mapped to a mechanism nor set aside
// with a reason, or when a text the catalogue relies on is not what upstream prints.
//
//   npx tsx scripts/mechanisms/extract.ts --musl <musl-source-dir> --go <goroot> [--out <file>] [--check]
//
// Sources, all read-only:
// - glibc: strerror(3)/strsignal(3) of the running system, through Python's os.strerror and
//   signal.strsignal (Debian 12: glibc 2.36).
// - musl (Alpine images): src/errno/__strerror.h and src/string/strsignal.c of `apt-get source musl`
//   (Debian 12: 1.2.3), with the errno numbers of arch/generic/bits/errno.h.
// - Go: the `errors` and `signals` tables of $GOROOT/src/syscall/zerrors_linux_amd64.go (what
//   syscall.Errno.Error() and syscall.Signal.String() print; Debian 12's golang-1.19).
// - libuv (Node.js): util.getSystemErrorMap() of the Node that runs this script (`code: message`,
//   as Node prints `Error: EACCES: permission denied, open '/x'`).
// `--check` writes nothing and exits 1 when the file differs from what the sources give.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getSystemErrorMap } from 'node:util';

import type { Upstream, UpstreamErrno, UpstreamSignal } from '../../src/diagnosis/mechanisms/errno.js';

const SIGNAL_NAMES = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGSTKFLT',
  'SIGCHLD',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGVTALRM',
  'SIGPROF',
  'SIGWINCH',
  'SIGIO',
  'SIGPWR',
  'SIGSYS',
] as const;

function python(code: string): string {
  return execFileSync('python3', ['-c', code], { encoding: 'utf8' });
}

/** errno name → number and glibc text, from the system's C library. */
function glibc(): { errno: Map<string, { number: number; text: string }>; signals: Map<number, string>; version: string } {
  const out = JSON.parse(
    python(
      'import errno, os, signal, json, platform\n' +
        'e = {n: [v, os.strerror(v)] for v, n in errno.errorcode.items()}\n' +
        's = {int(v): signal.strsignal(v) for v in signal.Signals if 0 < int(v) < 32}\n' +
        'print(json.dumps({"e": e, "s": s, "v": " ".join(platform.libc_ver())}))',
    ),
  ) as { e: Record<string, [number, string]>; s: Record<string, string>; v: string };
  return {
    errno: new Map(Object.entries(out.e).map(([name, [number, text]]) => [name, { number, text }])),
    signals: new Map(Object.entries(out.s).map(([n, text]) => [Number(n), text])),
    version: out.v,
  };
}

/** musl's texts: `E(EACCES, "Permission denied")` entries and its signal string table. */
function musl(dir: string): { errno: Map<string, string>; signals: Map<number, string> } {
  const errno = new Map<string, string>();
  for (const m of readFileSync(join(dir, 'src/errno/__strerror.h'), 'utf8').matchAll(/^E\((E[A-Z0-9]+),\s*"([^"]+)"\)/gm)) errno.set(m[1]!, m[2]!);
  const source = readFileSync(join(dir, 'src/string/strsignal.c'), 'utf8');
  const table = /static const char strings\[\] =([\s\S]*?);/.exec(source)?.[1] ?? '';
  // The table is one string of NUL-separated texts; the #if for signal 16 keeps its first branch (SIGSTKFLT).
  const kept = table.replace(/#elif[\s\S]*?#endif/g, '').replace(/#if[^\n]*\n/g, '');
  const texts = [...kept.matchAll(/"((?:[^"\\]|\\.)*)"/g)]
    .map((m) => m[1]!)
    .join('')
    .split('\\0');
  const signals = new Map<number, string>();
  for (const [i, t] of texts.slice(1, 32).entries()) signals.set(i + 1, t);
  return { errno, signals };
}

/** Go's syscall tables: `ENOENT = Errno(0x2)` constants and the `errors` / `signals` string arrays. */
function go(goroot: string): { errno: Map<string, string>; signals: Map<number, string> } {
  const source = readFileSync(join(goroot, 'src/syscall/zerrors_linux_amd64.go'), 'utf8');
  const numbers = new Map<number, string[]>();
  for (const m of source.matchAll(/^\s*(E[A-Z0-9]+)\s*=\s*Errno\(0x([0-9a-f]+)\)/gm)) {
    const n = Number.parseInt(m[2]!, 16);
    numbers.set(n, [...(numbers.get(n) ?? []), m[1]!]);
  }
  const table = (name: string) => {
    const body = new RegExp(`var ${name} = \\[\\.\\.\\.\\]string\\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1] ?? '';
    return new Map([...body.matchAll(/^\s*(\d+):\s*"([^"]*)"/gm)].map((m) => [Number(m[1]), m[2]!]));
  };
  const errno = new Map<string, string>();
  for (const [n, text] of table('errors')) for (const name of numbers.get(n) ?? []) errno.set(name, text);
  return { errno, signals: table('signals') };
}

export function extract(muslDir: string, goroot: string): Upstream {
  const g = glibc();
  const m = musl(muslDir);
  const o = go(goroot);
  const uv = new Map([...getSystemErrorMap().values()].map(([name, text]) => [name, text]));
  const errno: UpstreamErrno[] = [...g.errno.entries()]
    .map(([name, { number, text }]) => ({
      name,
      number,
      glibc: text,
      ...(m.errno.has(name) ? { musl: m.errno.get(name)! } : {}),
      ...(o.errno.has(name) ? { go: o.errno.get(name)! } : {}),
      ...(uv.has(name) ? { libuv: uv.get(name)! } : {}),
    }))
    .sort((a, b) => a.number - b.number || a.name.localeCompare(b.name));
  const signals: UpstreamSignal[] = SIGNAL_NAMES.map((name, i) => {
    const number = i + 1;
    return {
      name,
      number,
      ...(g.signals.has(number) ? { glibc: g.signals.get(number)! } : {}),
      ...(m.signals.has(number) ? { musl: m.signals.get(number)! } : {}),
      ...(o.signals.has(number) ? { go: o.signals.get(number)! } : {}),
    };
  });
  const goVersion = readFileSync(join(goroot, 'VERSION'), 'utf8').split('\n')[0]!.trim();
  return {
    sources: {
      glibc: `strerror/strsignal of ${g.version}`,
      musl: `musl ${safeRead(join(muslDir, 'VERSION')).trim()} src/errno/__strerror.h, src/string/strsignal.c`,
      go: `${goVersion} src/syscall/zerrors_linux_amd64.go`,
      libuv: `util.getSystemErrorMap() of Node ${process.version} (libuv ${process.versions.uv})`,
    },
    errno,
    signals,
  };
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function main(argv: string[]): void {
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(arg('--out') ?? join(here, '../../src/diagnosis/mechanisms/upstream.json'));
  const muslDir = arg('--musl');
  const goroot = arg('--go') ?? '/usr/lib/go-1.19';
  if (!muslDir) throw new Error('--musl <musl-source-dir> is required (apt-get source musl)');
  const text = `${JSON.stringify(extract(muslDir, goroot), null, 1)}\n`;
  if (argv.includes('--check')) {
    const same = safeRead(out) === text;
    console.log(same ? 'upstream.json is current' : 'upstream.json differs from the sources');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
