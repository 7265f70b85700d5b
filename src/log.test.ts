import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, redactRecord, scoped } from './log.js';

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

describe('records are redacted by shape', () => {
  it('redacts credentials in messages, nested fields and errors, and writes valid JSON', async () => {
    const { logger, lines } = capture('info');
    logger.info({ job: { dsn: 'postgres://app:S3cr3t!@db:5432/shop', headers: { 'x-api-key': 'k1' } }, pin: 1234 }, 'connecting with password=hunter2');
    logger.error({ err: new Error('auth failed for xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy') }, 'slack call failed');
    logger.warn({ line: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----' }, 'quoted log line');
    await new Promise((r) => setImmediate(r));
    const all = JSON.stringify(lines);
    for (const secret of ['S3cr3t!', 'hunter2', 'pdFZKVeTuE8sk7oOcBrzbqgy', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '"k1"']) expect(all).not.toContain(secret);
    expect(lines[0]).toMatchObject({ msg: 'connecting with password=[redacted]', job: { dsn: 'postgres://app:[redacted]@db:5432/shop' }, pin: 1234 });
    expect(lines[1]?.err).toMatchObject({ message: 'auth failed for xoxb-[redacted]' });
    expect(lines[2]?.line).toBe('-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----');
  });

  it('writes a record without credentials as pino made it', () => {
    const line = '{"level":30,"msg":"token bucket refilled","tokens":5}\n';
    expect(redactRecord(line)).toBe(line);
  });

  it('redacts a number under a credential key and keeps the line JSON', () => {
    expect(JSON.parse(redactRecord('{"level":30,"api_key":12345678901,"msg":"x"}\n'))).toEqual({ level: 30, api_key: '[redacted]', msg: 'x' });
  });
});
