import { describe, expect, it } from 'vitest';
import { bounded } from './bounded.js';
import { createLogger } from './log.js';
import { DOWN_BUDGET_MS, embeddedWorkerDeadlineMs, SHUTDOWN_DEFAULT_SECONDS, shutdown, shutdownDeadlineMs } from './shutdown.js';

const logger = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const never = () => new Promise<never>(() => undefined);
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('shutdown', () => {
  it('runs every step in order, cuts one that overruns its budget, and always runs the hard stops', async () => {
    const seen: string[] = [];
    const started = Date.now();
    const report = await shutdown({
      logger,
      deadlineMs: 5000,
      steps: [
        { name: 'quick', budgetMs: 1000, run: () => void seen.push('quick') },
        {
          name: 'hangs',
          budgetMs: 200,
          run: () => {
            seen.push('hangs');
            return never();
          },
        },
        {
          name: 'fails',
          budgetMs: 1000,
          run: async () => {
            seen.push('fails');
            throw new Error('boom');
          },
        },
        { name: 'last', budgetMs: 1000, run: () => void seen.push('last') },
      ],
      hardStops: [() => seen.push('hard 1'), () => Promise.reject(new Error('late')), () => seen.push('hard 2')],
    });
    expect(seen).toEqual(['quick', 'hangs', 'fails', 'last', 'hard 1', 'hard 2']);
    expect(report.unfinished).toEqual(['hangs', 'fails']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('ends by its deadline: later steps are skipped, the hard stops still run', async () => {
    const hard: string[] = [];
    const started = Date.now();
    const report = await shutdown({
      logger,
      deadlineMs: 300,
      steps: [
        { name: 'slow', budgetMs: 10_000, run: never },
        { name: 'after', budgetMs: 1000, run: () => undefined },
      ],
      hardStops: [() => hard.push('disconnect')],
    });
    expect(Date.now() - started).toBeLessThan(600);
    expect(report.unfinished).toEqual(['slow', 'after']);
    expect(hard).toEqual(['disconnect']);
  });

  it('gives a step without a budget what is left after the budgets behind it, at least half', async () => {
    const budgets: number[] = [];
    await shutdown({
      logger,
      deadlineMs: 10_000,
      steps: [
        { name: 'jobs', run: (ms) => void budgets.push(ms) },
        { name: 'streams', budgetMs: 3000, run: () => undefined },
        { name: 'redis', budgetMs: 2000, run: () => undefined },
      ],
    });
    await shutdown({
      logger,
      deadlineMs: 4000,
      steps: [
        { name: 'jobs', run: (ms) => void budgets.push(ms) },
        { name: 'streams', budgetMs: 3000, run: () => undefined },
      ],
    });
    expect(budgets[0]).toBeGreaterThan(4900);
    expect(budgets[0]).toBeLessThanOrEqual(5000);
    expect(budgets[1]).toBeGreaterThan(1900);
    expect(budgets[1]).toBeLessThanOrEqual(2000);
  });

  it('gives a step that waits on Redis DOWN_BUDGET_MS while Redis is down, its budget while up', async () => {
    let up = false;
    const budgets: Record<string, number> = {};
    const report = await shutdown({
      logger,
      deadlineMs: 60_000,
      redisUp: () => up,
      steps: [
        {
          name: 'jobs',
          needsRedis: true,
          run: (ms) => {
            budgets.jobs = ms;
            return never();
          },
        },
        { name: 'traces', budgetMs: 2000, run: (ms) => void (budgets.traces = ms) },
        {
          name: 'redis back',
          budgetMs: 1000,
          run: () => {
            up = true;
          },
        },
        { name: 'queues', budgetMs: 2000, needsRedis: true, run: (ms) => void (budgets.queues = ms) },
      ],
    });
    expect(budgets).toEqual({ jobs: DOWN_BUDGET_MS, traces: 2000, queues: 2000 });
    expect(report.unfinished).toEqual(['jobs']);
    expect(report.ms).toBeLessThan(DOWN_BUDGET_MS + 500);
  });

  it('cuts a step that waits on Redis short when Redis goes while it runs (up when it started)', async () => {
    let up = true;
    const report = await shutdown({
      logger,
      deadlineMs: 60_000,
      redisUp: () => up,
      steps: [
        {
          name: 'jobs',
          needsRedis: true,
          run: () => {
            // Redis is lost a moment after the step began: what it waits for never comes.
            setTimeout(() => (up = false), 200);
            return never();
          },
        },
      ],
    });
    expect(report.unfinished).toEqual(['jobs']);
    expect(report.ms).toBeGreaterThanOrEqual(200 + DOWN_BUDGET_MS - 50);
    expect(report.ms).toBeLessThan(200 + DOWN_BUDGET_MS + 1000);
  });
  it('leaves no timer behind once a step is done', async () => {
    const before = timers();
    await shutdown({ logger, deadlineMs: 60_000, steps: [{ name: 'quick', budgetMs: 60_000, run: () => sleep(10) }] });
    expect(timers()).toBe(before);
    expect(await bounded(60_000, () => 'done')).toEqual({ status: 'done', value: 'done' });
    expect(timers()).toBe(before);
  });
});

describe('deadlines', () => {
  it('come from POD_DOCTOR_SHUTDOWN_SECONDS or the role; the bot’s worker thread gets half the bot’s', () => {
    expect(shutdownDeadlineMs('bot', undefined)).toBe(SHUTDOWN_DEFAULT_SECONDS.bot * 1000);
    expect(shutdownDeadlineMs('agent', 3)).toBe(3000);
    expect(embeddedWorkerDeadlineMs(shutdownDeadlineMs('bot', 110))).toBe(55_000);
  });
});
