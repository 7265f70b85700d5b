// Exit codes and the signals behind them. A shell reports a child killed by signal N as exit code
// 128+N; the names and texts are upstream's (upstream.json: glibc/musl strsignal, Go's table).
// A code says little on its own: what the process printed wins over it (the catalogue reads the
// lines first); a code of a signal that is itself a mechanism (SIGILL, SIGBUS, SIGSEGV, SIGABRT)
// is read when nothing printed says more.
import { UPSTREAM } from './errno.js';

const SIGNALS = new Map(UPSTREAM.signals.map((s) => [s.number, s]));

/** What a container's exit code means in a pod, for the codes whose meaning is a container matter. */
const EXIT_MEANING: Readonly<Record<number, string>> = {
  0: 'the process finished successfully, yet the pod restarts it (restartPolicy Always): a service must not exit, and a one-off task belongs in a Job',
  1: 'a generic application error',
  2: 'bad arguments or a shell usage error',
  126: 'the command exists but is not executable (permissions, wrong file)',
  127: 'the command was not found in the image',
  128: 'the runtime could not start the process at all (StartError)',
  134: 'SIGABRT: the process aborted (failed assertion, native crash)',
  137: 'SIGKILL: it was killed from outside (out of memory, a failed liveness probe, or a kill on the node), not a voluntary exit',
  139: 'SIGSEGV: a segmentation fault',
  143: 'SIGTERM: it was asked to stop and did',
};

/** The signal a 128+N exit code reports, for real signal numbers only (255 and the like are the app's own codes). */
export function signalOfExit(code: number): { name: string; number: number; text: string } | undefined {
  if (code <= 128 || code > 128 + 64) return undefined;
  const s = SIGNALS.get(code - 128);
  if (!s) return code - 128 <= 64 ? { name: `SIG${code - 128}`, number: code - 128, text: `signal ${code - 128}` } : undefined;
  return { name: s.name, number: s.number, text: s.glibc ?? s.go ?? s.name };
}

export function exitMeaning(code: number): string {
  const known = EXIT_MEANING[code];
  if (known) return known;
  const s = signalOfExit(code);
  return s ? `killed by signal ${s.number} (${s.name}: ${s.text})` : 'an application-defined error code';
}

/** Signals that are a mechanism by themselves, read from the exit code when no line says more. */
export const SIGNAL_MECHANISMS: Readonly<Record<string, string>> = {
  SIGILL: 'cpu-instruction-set',
  SIGBUS: 'bus-error',
  SIGSEGV: 'native-crash',
  SIGABRT: 'native-crash',
};
