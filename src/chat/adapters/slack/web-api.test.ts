// SlackApi against a local HTTP server: the request Slack documents for JSON methods, one
// kept-alive connection, and errors with WebClient's shapes (the adapter and the chat service
// read `code`, `data.error` and `retryAfter` whichever caller made the call).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatErrorCode } from '../../errors.js';
import { SlackApi, SlackApiError } from './web-api.js';

describe('SlackApi', () => {
  let server: http.Server;
  let base = '';
  let connections = 0;
  const seen: { url: string; auth?: string; type?: string; body: unknown }[] = [];
  /** Answers to give, in order; then `{ ok: true, ts }`. */
  let script: { status: number; body: unknown; headers?: Record<string, string> }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', auth: req.headers.authorization, type: req.headers['content-type'], body: JSON.parse(raw) });
        const next = script.shift() ?? { status: 200, body: { ok: true, channel: 'C1', ts: `1700000000.${String(seen.length).padStart(6, '0')}` } };
        res.writeHead(next.status, { 'content-type': 'application/json; charset=utf-8', ...next.headers });
        res.end(typeof next.body === 'string' ? next.body : JSON.stringify(next.body));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
    script = [];
  });

  it('posts JSON with the bot token to <apiUrl><method>, over one kept-alive connection', async () => {
    const api = new SlackApi({ token: 'xoxb-1', apiUrl: base });
    const before = connections;
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'ünïcode ✓' } }];
    for (let i = 0; i < 5; i++) {
      const res = await api.call('chat.postMessage', { channel: 'C1', text: 'hi', blocks });
      expect(res.ts).toMatch(/^1700000000\.\d{6}$/);
    }
    expect(connections - before).toBe(1);
    expect(seen[0]).toEqual({
      url: '/api/chat.postMessage',
      auth: 'Bearer xoxb-1',
      type: 'application/json; charset=utf-8',
      body: { channel: 'C1', text: 'hi', blocks },
    });
    api.close();
  });

  it('throws platform errors as WebClient does: code slack_webapi_platform_error, data.error', async () => {
    const api = new SlackApi({ token: 'xoxb-1', apiUrl: base });
    script = [{ status: 200, body: { ok: false, error: 'not_in_channel' } }];
    const err = await api.call('chat.postMessage', { channel: 'C9', text: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlackApiError);
    expect((err as SlackApiError).code).toBe(ErrorCode.PlatformError);
    expect(chatErrorCode(err)).toBe('not_in_channel');
    expect(seen).toHaveLength(1);
    api.close();
  });

  it('hands a 429 to the caller at once, with Retry-After in seconds', async () => {
    const api = new SlackApi({ token: 'xoxb-1', apiUrl: base });
    script = [{ status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '7' } }];
    const err = (await api.call('chat.update', { channel: 'C1', ts: '1.2', text: 'x' }).catch((e: unknown) => e)) as SlackApiError;
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    expect(err.retryAfter).toBe(7);
    expect(seen).toHaveLength(1);
    api.close();
  });

  it('retries 5xx answers with backoff, then gives up with an HTTP error', async () => {
    const api = new SlackApi({ token: 'xoxb-1', apiUrl: base, attempts: 3, retryDelayMs: 5 });
    script = [
      { status: 503, body: 'upstream' },
      { status: 200, body: { ok: true, ts: '1.1' } },
    ];
    expect((await api.call('chat.postMessage', { channel: 'C1', text: 'x' })).ts).toBe('1.1');
    expect(seen).toHaveLength(2);
    script = [500, 502, 503].map((status) => ({ status, body: 'down' }));
    const err = (await api.call('chat.postMessage', { channel: 'C1', text: 'x' }).catch((e: unknown) => e)) as SlackApiError;
    expect(err.code).toBe(ErrorCode.HTTPError);
    expect(err.statusCode).toBe(503);
    expect(seen).toHaveLength(5);
    api.close();
  });

  it('reports an unreachable API as a request error after its attempts', async () => {
    const api = new SlackApi({ token: 'xoxb-1', apiUrl: 'http://127.0.0.1:1/api/', attempts: 2, retryDelayMs: 5 });
    const err = (await api.call('chat.postMessage', { channel: 'C1', text: 'x' }).catch((e: unknown) => e)) as SlackApiError;
    expect(err.code).toBe(ErrorCode.RequestError);
    expect((err.original as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    api.close();
  });
});
