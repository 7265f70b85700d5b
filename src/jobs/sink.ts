// Where results go. The chat side implements ResultSink (or reads the Redis stream the
// worker writes to, when bot and worker are separate processes). Delivery is at-least-once:
// a job re-run after its worker died delivers again with the same job id and incident, so
// consumers make posting idempotent by job id.
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';
import { consumeStream, jsonField, type StreamConsumer } from '../redis/streams.js';
import type { DiagnoseResult } from './schemas.js';

export interface ResultSink {
  deliver(result: DiagnoseResult): Promise<void>;
}

/** Keeps results in memory (tests, the console demo). */
export class MemorySink implements ResultSink {
  readonly results: DiagnoseResult[] = [];
  private waiters: (() => void)[] = [];

  async deliver(result: DiagnoseResult): Promise<void> {
    this.results.push(result);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolve once `predicate` holds over the results delivered so far. */
  async waitFor(predicate: (results: DiagnoseResult[]) => boolean, timeoutMs = 15_000): Promise<DiagnoseResult[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.results)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`MemorySink: condition not met within ${timeoutMs} ms (${this.results.length} results)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.results;
  }
}

/** Appends each result to `<prefix>:<cluster>:results` (field `result`: JSON). */
export class RedisStreamSink implements ResultSink {
  constructor(
    private readonly redis: RedisClient,
    readonly prefix: string,
    readonly maxLen = 100_000,
  ) {}

  async deliver(result: DiagnoseResult): Promise<void> {
    await this.redis.xadd(
      keys.results(this.prefix, result.job.cluster),
      'MAXLEN',
      '~',
      String(this.maxLen),
      '*',
      'jobId',
      result.jobId,
      'result',
      JSON.stringify(result),
    );
  }
}

export interface ConsumeResultsOptions {
  /** A dedicated connection: XREADGROUP blocks it. */
  redis: RedisClient;
  prefix: string;
  cluster: string;
  /** Consumer group (one per bot deployment) and this process' name within it. */
  group: string;
  consumer: string;
  /** `id`: the stream entry's id (its time says when the result was written). */
  handler: (result: DiagnoseResult, id: string) => Promise<void>;
  logger?: Logger;
  /** Entries another consumer took but did not ack for this long are taken over (ms). */
  claimIdleMs?: number;
  blockMs?: number;
  /** Results delivered at once (default 16): each delivery waits on Slack and Redis. */
  concurrency?: number;
  /** The budget a result waits for (its channel, private replies): see consumeStream's lanes. */
  lane?: (result: DiagnoseResult) => string;
  /** Results of one lane delivered at once (default: `concurrency`). */
  laneConcurrency?: number;
}

/**
 * Reads the results stream with a consumer group: each result is handled by one bot process
 * and acknowledged after its handler resolves; a crashed consumer's entries are claimed by
 * another after `claimIdleMs`. Returns a stop function.
 */
export function consumeResults(options: ConsumeResultsOptions): StreamConsumer {
  return consumeStream({
    concurrency: 16,
    ...options,
    stream: keys.results(options.prefix, options.cluster),
    decode: jsonField<DiagnoseResult>('result'),
    handler: (result, id) => options.handler(result, id),
    label: 'results',
  });
}
