import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, scoped } from './log.js';

function capture(level: string) {
  const out = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  out.on('data', (b: Buffer) =>
    lines.push(
      ...b
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  return { logger: createLogger({ level, destination: out }), lines };
}

describe('scoped', () => {
  it('makes the child only when something is logged at an enabled level', async () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = scoped(logger, { jobId: 'j1', token: 'xoxb-secret' });
    log.info({ step: 1 }, 'not shown');
    log.debug({ step: 2 }, 'not shown');
    expect(child).not.toHaveBeenCalled();
    log.warn({ step: 3 }, 'shown');
    log.error({ step: 4 }, 'shown too');
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.step, l.jobId, l.token])).toEqual([
      ['shown', 3, 'j1', '[redacted]'],
      ['shown too', 4, 'j1', '[redacted]'],
    ]);
  });
});
