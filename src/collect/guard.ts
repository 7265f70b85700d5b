// One read of a snapshot, guarded: a call that fails or takes too long becomes a Gap (what could
// not be checked, and why) and the collection goes on with a fallback. Every collector takes the
// same Guard, so a forbidden read of StorageClasses and a timed-out log read say so the same way.

import { withDeadline } from '../bounded.js';
import { type Event, type Gap, type GapKind, gapKindOfStatus } from '../diagnosis/types.js';
import { UnanswerableError } from './source.js';

export class CallTimeout extends Error {}

/** Run one call; on failure record a gap and return the fallback. */
export type Guard = <T>(check: string, run: () => Promise<T>, fallback: T, origin?: Gap['origin']) => Promise<T>;

export function makeGuard(gaps: Gap[], timeoutMs: number): Guard {
  return async <T>(check: string, run: () => Promise<T>, fallback: T, origin: Gap['origin'] = 'api'): Promise<T> => {
    try {
      return await withDeadline(timeoutMs, run, () => new CallTimeout(`timed out after ${timeoutMs} ms`));
    } catch (err) {
      gaps.push({ check, reason: describeError(err), kind: gapKindOf(err), origin });
      return fallback;
    }
  };
}

export function describeError(err: unknown): string {
  if (err instanceof CallTimeout) return err.message;
  const e = err as { code?: number; body?: unknown; message?: string };
  if (typeof e?.code === 'number') {
    let reason = '';
    try {
      const body = typeof e.body === 'string' ? (JSON.parse(e.body) as { message?: string }) : (e.body as { message?: string } | undefined);
      reason = body?.message ?? '';
    } catch {
      reason = String(e.body ?? '');
    }
    return `HTTP ${e.code}${e.code === 403 ? ' (forbidden)' : ''}${reason ? `: ${reason}` : ''}`;
  }
  return e?.message ?? String(err);
}

/** What kind of failure a collection error is, decided here so that nothing parses gap text later. */
export function gapKindOf(err: unknown): GapKind {
  if (err instanceof CallTimeout) return 'timeout';
  if (err instanceof UnanswerableError) return err.gapKind;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'number') return gapKindOfStatus(code);
  if (isUnreachable(err)) return 'unreachable';
  return /timed? ?out|ETIMEDOUT/i.test(`${String(code ?? '')} ${(err as Error)?.message ?? ''}`) ? 'timeout' : 'failed';
}

/** Network-level failures that mean "the cluster is not there", not "this call failed". */
export function isUnreachable(err: unknown): boolean {
  const text = `${(err as { code?: unknown })?.code ?? ''} ${(err as Error)?.message ?? ''} ${String((err as { cause?: { code?: string } })?.cause?.code ?? '')}`;
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EAI_AGAIN|socket hang up|request to .* failed/i.test(text);
}

/** Oldest first, by the last time each event was seen. */
export function sortEvents(events: Event[]): Event[] {
  const t = (e: Event) =>
    Date.parse(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp ?? '') || 0;
  return [...events].sort((a, b) => t(a) - t(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}
