import { describe, expect, it } from 'vitest';
import { redisErrorListener } from './client.js';

/** A logger that records each call's level, fields and message. */
function recorder() {
  const calls: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => void calls.push({ level, fields, msg });
  return { calls, logger: { warn: at('warn'), error: at('error') } as never };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

describe('redisErrorListener', () => {
  it('says once per cause, without a stack, that Redis is away; says every other error as it comes', () => {
    const { calls, logger } = recorder();
    const listen = redisErrorListener(logger, { queue: 'diagnose.c1' }, 'worker error');
    for (let i = 0; i < 5; i++) listen(refused());
    listen(new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    listen(new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    const bug = new TypeError('Cannot read properties of undefined');
    listen(bug);
    listen(bug);
    listen(refused());
    expect(calls.map((c) => [c.level, c.msg, (c.fields.err as { message: string }).message])).toEqual([
      ['warn', 'worker error', 'connect ECONNREFUSED 127.0.0.1:6379'],
      ['warn', 'worker error', 'WRONGPASS invalid username-password pair or user is disabled.'],
      ['error', 'worker error', 'Cannot read properties of undefined'],
      ['error', 'worker error', 'Cannot read properties of undefined'],
      // Redis went away again after another error: said again.
      ['warn', 'worker error', 'connect ECONNREFUSED 127.0.0.1:6379'],
    ]);
    expect(calls[0]!.fields).toEqual({ queue: 'diagnose.c1', err: { message: 'connect ECONNREFUSED 127.0.0.1:6379' } });
    expect(calls[2]!.fields.err).toBe(bug);
  });
});
