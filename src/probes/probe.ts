// What every node probe shares: the environment it reads (a proc tree and a host root that
// tests point at fixture trees), strict input schemas, and the wrapper that turns a probe run
// into an outcome that is never a throw and never longer than its time limit.
import { z } from 'zod';
import { bounded } from '../bounded.js';
import { labelSchema, subdomainSchema } from '../kube/names.js';

/** Where a probe looks and how long it may take. Server-side configuration, never request input. */
export interface ProbeEnv {
  /** `/proc` of the host (the agent runs with hostPID). */
  procRoot: string;
  /** The host's root filesystem as the agent sees it (`/host` in the DaemonSet, `/` on the node). */
  hostRoot: string;
  /** Time limit of this probe run (ms). */
  timeoutMs: number;
  /** Aborted when the time limit passes; long probes check it between steps. */
  signal?: AbortSignal;
  /** Docker API sockets tried in order (default `<hostRoot>/var/run/docker.sock`, `<hostRoot>/run/docker.sock`). */
  dockerSockets?: string[];
  /** containerd sockets (default `<hostRoot>/run/containerd/containerd.sock`). */
  containerdSockets?: string[];
  /** Time limit of one runtime API call (ms, default 2000). */
  runtimeCallTimeoutMs?: number;
  /** Command that checks one mount (path appended as last argument). Default `stat -c %i`. */
  statCommand?: readonly string[];
  /** Time limit of one mount check (ms, default 2000). */
  statTimeoutMs?: number;
  /** Log files the journal probe reads (default: messages/syslog/kubelet logs under `<hostRoot>/var/log`). */
  logFiles?: string[];
  /** Read the systemd journal too: `journalctl --directory <dir>` (off by default; tests use files). */
  journalctl?: { command?: string; directory?: string; sinceMinutes?: number } | false;
  /** Concurrent file reads (default 64). */
  concurrency?: number;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A pod UID (Kubernetes UIDs are UUIDs). */
export const podUidSchema = z.string().regex(UUID_RE, 'expected a pod UID (UUID form)');

/** A container or sandbox id: 12 to 64 lower-case hex digits (a `docker://` prefix is dropped). */
export const containerIdSchema = z
  .string()
  .transform((s) => s.replace(/^[a-z-]+:\/\//, ''))
  .pipe(z.string().regex(/^[0-9a-f]{12,64}$/, 'expected a container id (12-64 hex digits)'));

/**
 * Text searched for in mount tables and logs: a container id, a UUID, or a path made of safe
 * characters. It is only ever compared with, never opened or run.
 */
export const matchSchema = z
  .string()
  .min(3)
  .max(256)
  .regex(/^[A-Za-z0-9._/~:@+-]+$/, 'expected an id, UUID or path of [A-Za-z0-9._/~:@+-]')
  .refine((s) => !s.split('/').includes('..'), 'must not contain ".."');

export const namespaceSchema = labelSchema('expected a namespace name');
export const podNameSchema = subdomainSchema('expected a pod name');
export const ipv4Schema = z.string().regex(/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/, 'expected an IPv4 address');

/** Outcome of a failed probe: the rules say which node check could not run and why. */
export const probeFailureSchema = z.object({
  ok: z.literal(false),
  error: z.string(),
  durationMs: z.number(),
  timedOut: z.boolean().optional(),
});
export type ProbeFailure = z.infer<typeof probeFailureSchema>;

/** `ok: true` plus the probe's result fields, or a failure. */
export function outcomeSchema<R extends z.ZodObject>(result: R) {
  return z.discriminatedUnion('ok', [result.extend({ ok: z.literal(true), durationMs: z.number() }), probeFailureSchema]);
}

export interface ProbeDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  params: P;
  result: R;
  /** Default time limit (ms) when the caller gives none. */
  timeoutMs: number;
  run(params: z.output<P>, env: ProbeEnv): Promise<z.input<R>>;
}

export function defineProbe<P extends z.ZodType, R extends z.ZodObject>(probe: ProbeDefinition<P, R>): ProbeDefinition<P, R> {
  return probe;
}

export type Outcome<R> = ({ ok: true; durationMs: number } & R) | ProbeFailure;

/**
 * Run a probe under its time limit. A timeout aborts the probe's signal and resolves at once:
 * the caller never waits for a stuck read (child processes the probe started are killed by it).
 */
export async function runProbe<P extends z.ZodType, R extends z.ZodObject>(
  probe: ProbeDefinition<P, R>,
  rawParams: unknown,
  env: ProbeEnv,
): Promise<Outcome<z.output<R>>> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const parsed = probe.params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: `bad parameters: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ')}`,
      durationMs: elapsed(),
    };
  }
  const timeoutMs = env.timeoutMs > 0 ? env.timeoutMs : probe.timeoutMs;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(env.signal?.reason);
  env.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    // bounded() swallows a late rejection after the time limit: it must not crash the agent.
    const first = await bounded(timeoutMs, () => probe.run(parsed.data, { ...env, timeoutMs, signal: controller.signal }));
    if (first.status === 'timeout') {
      controller.abort(new Error('probe time limit'));
      return { ok: false, error: `${probe.name} did not finish within ${timeoutMs}ms`, durationMs: elapsed(), timedOut: true };
    }
    if (first.status === 'failed') throw first.error;
    const checked = probe.result.safeParse(first.value);
    if (!checked.success)
      return { ok: false, error: `${probe.name} produced an invalid result: ${checked.error.issues[0]?.message ?? ''}`, durationMs: elapsed() };
    return { ...(checked.data as z.output<R>), ok: true, durationMs: elapsed() };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), durationMs: elapsed() };
  } finally {
    env.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** Throw when the probe's time is up, so loops stop early instead of finishing unseen work. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error('aborted: probe time limit');
}

/** Keep at most `max` items; report whether anything was dropped. */
export function capped<T>(items: readonly T[], max: number): { items: T[]; truncated: boolean } {
  return items.length <= max ? { items: [...items], truncated: false } : { items: items.slice(0, max), truncated: true };
}

/** Cut a string to `max` characters, marking the cut. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
