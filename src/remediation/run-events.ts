// Remediation as a job: a worker runs an approved plan (job id = plan id, so it runs once)
// and publishes the run's events on a Redis stream that the bot turns into thread messages.
// The bot only enqueues; workers change the cluster.
import type { Logger } from 'pino';
import type { RemediateProcessor } from '../jobs/worker.js';
import type { RedisClient } from '../redis/client.js';
import { clusterTag } from '../redis/keys.js';
import { consumeStream, jsonField, type StreamConsumer } from '../redis/streams.js';
import type { Plan } from './plan.js';
import type { RunEvent, Runner, RunResult } from './runner.js';

/** A run event on its way to the chat, with the run's final reason on `run-finished`. */
export interface ChatRunEvent {
  cluster: string;
  event: RunEvent;
  /** Set on the last event of a run: its status and why. */
  result?: { status: RunResult['status']; reason?: string; alreadyRan?: boolean };
}

export interface RunEventSink {
  publish(e: ChatRunEvent): Promise<void>;
}

export function runEventsKey(prefix: string, cluster: string): string {
  return `${clusterTag(prefix, cluster)}:run-events`;
}

export class RedisRunEventSink implements RunEventSink {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly maxLen = 100_000,
  ) {}

  async publish(e: ChatRunEvent): Promise<void> {
    await this.redis.xadd(runEventsKey(this.prefix, e.cluster), 'MAXLEN', '~', String(this.maxLen), '*', 'event', JSON.stringify(e));
  }
}

/**
 * The `remediate.<cluster>` job processor: run the plan, forwarding every event. A run that
 * emits nothing (unknown or expired plan, a run that already happened) still ends with a
 * `run-finished` carrying the reason, so the thread never waits forever.
 */
/** A verified run of a plan: where "last fix: …" is recorded (the worker's recurrence store). */
export type FixRecorder = (plan: Plan, outcome: 'fixed' | 'not-fixed') => Promise<void>;

export function remediateProcessor(
  runner: Pick<Runner, 'runPlan'> & Partial<Pick<Runner, 'getPlan'>>,
  sink: RunEventSink,
  cluster: string,
  recordFix?: FixRecorder,
): RemediateProcessor {
  return async (job, { logger }) => {
    let finished: (RunEvent & { type: 'run-finished' }) | undefined;
    const result = await runner.runPlan(job.proposalId, {
      onEvent: async (event) => {
        if (event.type === 'run-finished') {
          finished = event;
          return;
        }
        await sink.publish({ cluster, event });
      },
    });
    const event: RunEvent = finished ?? { type: 'run-finished', runId: result.runId, at: new Date().toISOString(), status: result.status };
    await sink.publish({
      cluster,
      event,
      result: { status: result.status, ...(result.reason ? { reason: result.reason } : {}), ...(result.alreadyRan ? { alreadyRan: true } : {}) },
    });
    const outcome = result.verification?.outcome;
    if (recordFix && outcome && !result.alreadyRan && runner.getPlan) {
      const plan = await runner.getPlan(job.proposalId);
      // The fix is reported either way; only "last fix: …" of a later recurrence would lack it.
      if (plan?.recurrence) await recordFix(plan, outcome).catch((err: unknown) => logger.warn({ err }, 'last fix not recorded'));
    }
    logger.info({ planId: job.proposalId, status: result.status, outcome: result.verification?.outcome }, 'remediation job finished');
    return { status: result.status, outcome: result.verification?.outcome ?? null };
  };
}

export interface ConsumeRunEventsOptions {
  /** A dedicated connection (XREADGROUP blocks it). */
  redis: RedisClient;
  prefix: string;
  cluster: string;
  group: string;
  consumer: string;
  handler: (e: ChatRunEvent) => Promise<void>;
  logger?: Logger;
  claimIdleMs?: number;
  blockMs?: number;
}

/**
 * Reads run events with a consumer group, in order, acknowledging each after its handler
 * resolved; a crashed bot's pending events are claimed by another after `claimIdleMs`.
 */
export function consumeRunEvents(options: ConsumeRunEventsOptions): StreamConsumer {
  return consumeStream({
    ...options,
    stream: runEventsKey(options.prefix, options.cluster),
    decode: jsonField<ChatRunEvent>('event'),
    handler: (e) => options.handler(e),
    label: 'run events',
  });
}
