// The chat side of remediation. Findings get plans from the playbook runner (proposePlan);
// an approved plan is a `remediate.<cluster>` job (job id = plan id) that a worker runs with
// runPlan; the run's events travel back to the bot on a Redis stream and become thread
// messages. The bot only enqueues; workers change the cluster.
import type { Logger } from 'pino';
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import type { RedisClient } from '../jobs/queues.js';
import type { RemediateProcessor } from '../jobs/worker.js';
import type { Plan } from '../remediation/plan.js';
import type { RunEvent, Runner, RunResult } from '../remediation/runner.js';
import type { Playbook } from '../remediation/schema.js';

/** What the chat flows need from the remediation side. */
export interface RemediationPort {
  playbook(id: string): Playbook | undefined;
  proposePlan(finding: Finding, diagnosis: Diagnosis): Promise<Plan>;
  getPlan(planId: string): Promise<Plan | null>;
}

export function remediationPort(runner: Pick<Runner, 'proposePlan' | 'getPlan'>, playbooks: readonly Playbook[]): RemediationPort {
  const byId = new Map(playbooks.map((p) => [p.id, p]));
  return {
    playbook: (id) => byId.get(id),
    proposePlan: (finding, diagnosis) => {
      const playbook = finding.playbook ? byId.get(finding.playbook) : undefined;
      if (!playbook) return Promise.reject(new Error(`no playbook ${finding.playbook ?? '(none)'} is installed`));
      return runner.proposePlan(finding, diagnosis, playbook);
    },
    getPlan: (planId) => runner.getPlan(planId),
  };
}

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
  return `${prefix}:${cluster}:run-events`;
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
export function remediateProcessor(runner: Pick<Runner, 'runPlan'>, sink: RunEventSink, cluster: string): RemediateProcessor {
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
    await sink.publish({ cluster, event, result: { status: result.status, ...(result.reason ? { reason: result.reason } : {}), ...(result.alreadyRan ? { alreadyRan: true } : {}) } });
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
export function consumeRunEvents(options: ConsumeRunEventsOptions): { stop: () => Promise<void>; done: Promise<void> } {
  const { redis, group, consumer, handler } = options;
  const stream = runEventsKey(options.prefix, options.cluster);
  const claimIdleMs = options.claimIdleMs ?? 60_000;
  const blockMs = options.blockMs ?? 2000;
  let stopped = false;

  const handle = async (entries: [string, string[]][]) => {
    for (const [id, fields] of entries) {
      const i = fields.indexOf('event');
      const raw = i >= 0 ? fields[i + 1] : undefined;
      try {
        if (raw) await handler(JSON.parse(raw) as ChatRunEvent);
        await redis.xack(stream, group, id);
      } catch (err) {
        options.logger?.error({ err, entry: id }, 'run event handler failed');
      }
    }
  };

  const done = (async () => {
    try {
      await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    }
    let lastClaim = 0;
    while (!stopped) {
      try {
        if (Date.now() - lastClaim > claimIdleMs / 2) {
          lastClaim = Date.now();
          const claimed = (await redis.xautoclaim(stream, group, consumer, claimIdleMs, '0-0', 'COUNT', 100)) as [string, [string, string[]][]];
          await handle(claimed[1] ?? []);
        }
        const res = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', 100, 'BLOCK', blockMs, 'STREAMS', stream, '>')) as [string, [string, string[]][]][] | null;
        if (res) for (const [, entries] of res) await handle(entries);
      } catch (err) {
        if (stopped) break;
        options.logger?.error({ err }, 'run events read failed');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();

  return {
    done,
    stop: async () => {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}
