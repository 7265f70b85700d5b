// A delivery is retried until it arrives or expires: transient failures (Slack's 5xx, timeouts,
// `invalid_auth` during an incident or a token rotation, `channel_not_found` right after a
// working post, a Redis error while claiming or marking) wait with backoff and go again, for at
// most the delivery's budget (POD_DOCTOR_CHAT_RETRY_SECONDS, counted from when the result was
// written). Only errors that cannot change (`is_archived`, `msg_too_long`, …) stop it at once.
// Either way the caller gets DeliveryDropped and reports it: on the thread or to the person,
// and in pod_doctor_chat_deliveries_dropped_total.
import type { ScopedLogger } from '../../log.js';
import { chatErrorCode, isPermanentChatError } from '../errors.js';
import type { ChatAdapter } from '../types.js';

export type DropReason = 'undeliverable' | 'expired';

export class DeliveryDropped extends Error {
  readonly code = 'delivery-dropped';
  constructor(
    readonly reason: DropReason,
    /** Slack's error code of the last attempt, when it was one. */
    readonly slackError: string | undefined,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(`delivery ${reason} after ${attempts} attempt(s)${slackError ? `: ${slackError}` : ''}`, options);
    this.name = 'DeliveryDropped';
  }
}

export interface RetrySettings {
  /** Give up once the next try would start after this (epoch ms). */
  until: number;
  /** First wait; doubled each time up to `maxBackoffMs` (default 500 ms → 5 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Run `attempt` until it succeeds, a permanent error says it never will (DeliveryDropped
 * 'undeliverable'), or the time is up (DeliveryDropped 'expired'). `channel`: where it goes, so a
 * `channel_not_found` of a channel that took a post lately counts as transient.
 */
export async function untilDelivered<T>(
  o: { adapter: ChatAdapter; log: Pick<ScopedLogger, 'warn'>; channel?: string; what: string },
  settings: RetrySettings,
  attempt: () => Promise<T>,
): Promise<T> {
  const first = settings.backoffMs ?? 500;
  const max = settings.maxBackoffMs ?? 5000;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof DeliveryDropped) throw err;
      const code = chatErrorCode(err);
      const worked = o.channel !== undefined && (o.adapter.postedTo?.(o.channel) ?? false);
      if (isPermanentChatError(err, worked)) throw new DeliveryDropped('undeliverable', code, n, { cause: err });
      // Jittered, so replicas retrying the same outage do not come back in step.
      const wait = Math.min(max, first * 2 ** (n - 1)) * (0.8 + Math.random() * 0.4);
      if (Date.now() + wait > settings.until) throw new DeliveryDropped('expired', code, n, { cause: err });
      o.log.warn({ err, code, attempt: n, retryInMs: Math.round(wait), channel: o.channel }, `${o.what} failed; retrying`);
      await sleep(wait);
    }
  }
}
