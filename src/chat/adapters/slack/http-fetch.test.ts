import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ErrorCode, type WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../../test/helpers/fake-slack.js';
import { keepAliveFetch } from './http-fetch.js';

interface Seen {
  method: IncomingMessage['method'];
  headers: IncomingMessage['headers'];
  body: string;
}

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

let server: Server;
let base = '';
let connections = 0;
/** Resolves when the socket of the request that was never answered closes. */
let hungSocketClosed: Promise<void> | undefined;
const routes: Record<string, Route> = {
  '/echo': (req, body, res) => json(res, 200, { method: req.method, headers: req.headers, body } satisfies Seen),
  '/limited': (_req, _body, res) => {
    res.setHeader('retry-after', '30');
    res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
    json(res, 429, { ok: false, error: 'ratelimited' });
  },
  '/moved': (_req, _body, res) => res.writeHead(302, { location: '/echo' }).end(),
  '/empty': (_req, _body, res) => res.writeHead(204).end(),
  '/gzip': (_req, _body, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ ok: true }))),
  '/hang': (req) => {
    hungSocketClosed = new Promise((resolve) => req.socket.once('close', () => resolve()));
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => routes[new URL(req.url ?? '/', 'http://x').pathname]?.(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

// Every test proves which path served it: the keep-alive one, or fetch for what it hands over.
const fetchSpy = vi.spyOn(globalThis, 'fetch');
let delegations = 0;
beforeEach(() => {
  delegations = 0;
  fetchSpy.mockClear();
});
afterEach(() => expect(fetchSpy).toHaveBeenCalledTimes(delegations));

afterAll(async () => {
  fetchSpy.mockRestore();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('keepAliveFetch', () => {
  // WebClient always sends redirect: 'error'; the fast path is only taken with it (or 'manual').
  const post = (fetchFn: typeof fetch, path: string, init: RequestInit = {}) => fetchFn(`${base}${path}`, { method: 'POST', redirect: 'error', ...init });

  it('sends a string body and headers intact and reads the JSON answer', async () => {
    const body = JSON.stringify({ channel: 'C1', text: 'héllo ✓' });
    const res = await post(keepAliveFetch(), '/echo', { headers: { 'Content-Type': 'application/json; charset=utf-8', Authorization: 'Bearer xoxb-1' }, body });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.url).toBe(`${base}/echo`);
    const seen = (await res.json()) as Seen;
    expect(seen).toMatchObject({
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-1', 'content-length': String(Buffer.byteLength(body)) },
    });
  });

  it.each([
    {
      name: 'URLSearchParams',
      body: new URLSearchParams({ channel: 'C1', text: 'a&b' }),
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      sent: 'channel=C1&text=a%26b',
    },
    { name: 'string', body: 'plain', type: 'text/plain;charset=UTF-8', sent: 'plain' },
    { name: 'Buffer', body: Buffer.from('bytes'), type: undefined, sent: 'bytes' },
  ])('gives a $name body the content type fetch would', async ({ body, type, sent }) => {
    const seen = (await (await post(keepAliveFetch(), '/echo', { body })).json()) as Seen;
    expect(seen.body).toBe(sent);
    expect(seen.headers['content-type']).toBe(type);
  });

  it('accepts Headers and header pairs', async () => {
    for (const headers of [new Headers({ 'x-a': '1' }), [['x-a', '1']] satisfies [string, string][]]) {
      const seen = (await (await post(keepAliveFetch(), '/echo', { headers, body: 'x' })).json()) as Seen;
      expect(seen.headers['x-a']).toBe('1');
    }
  });

  it('passes the status and headers through, retry-after and both set-cookie included', async () => {
    const res = await post(keepAliveFetch(), '/limited', { body: '' });
    expect(res.status).toBe(429);
    expect(res.statusText).toBe('Too Many Requests');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await res.json()).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('reuses connections', async () => {
    const fetchFn = keepAliveFetch();
    const before = connections;
    for (let i = 0; i < 20; i++) await (await post(fetchFn, '/echo', { body: String(i) })).text();
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it("rejects a redirect with a TypeError under redirect: 'error'", async () => {
    await expect(post(keepAliveFetch(), '/moved')).rejects.toThrow(TypeError);
  });

  it("returns the redirect itself under redirect: 'manual'", async () => {
    const res = await post(keepAliveFetch(), '/moved', { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/echo');
  });

  it('leaves following redirects (the default) to fetch', async () => {
    delegations = 1;
    const res = await keepAliveFetch()(`${base}/moved`);
    expect(res.redirected).toBe(true);
    expect(((await res.json()) as Seen).method).toBe('GET');
  });

  it('aborts a request the server never answers with the signal reason and closes the socket', async () => {
    await expect(post(keepAliveFetch(), '/hang', { body: 'x', signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(hungSocketClosed).resolves.toBeUndefined();
  });

  it('rejects at once with an already aborted signal', async () => {
    const before = connections;
    const reason = new Error('gave up');
    await expect(post(keepAliveFetch(), '/echo', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(connections).toBe(before);
  });

  it('rejects a refused connection with TypeError whose cause is the network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const err = await keepAliveFetch()(`http://127.0.0.1:${port}/`, { method: 'POST', redirect: 'error' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('answers 204 without a body', async () => {
    const res = await post(keepAliveFetch(), '/empty', { body: 'x' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('decodes a compressed body as fetch does', async () => {
    expect(await (await post(keepAliveFetch(), '/gzip')).json()).toEqual({ ok: true });
  });

  it('hands FormData (file uploads) to globalThis.fetch', async () => {
    delegations = 1;
    const form = new FormData();
    form.append('file', new Blob(['data']), 'a.txt');
    const seen = (await (await post(keepAliveFetch(), '/echo', { body: form })).json()) as Seen;
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.body).toContain('filename="a.txt"');
  });
});

describe('WebClient with keepAliveFetch', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  afterAll(() => slack.close());

  it('posts a message with blocks', async () => {
    const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, fetch: keepAliveFetch(), retryConfig: { retries: 0 } });
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*CrashLoopBackOff* in `shop/web`' } }];
    const res = await client.chat.postMessage({ channel: 'C0TEST', text: 'diagnosis', blocks });
    expect(res.ok).toBe(true);
    expect(res.ts).toMatch(/^\d+\.\d{6}$/);
    expect(slack.messages.at(-1)).toMatchObject({ channel: 'C0TEST', ts: res.ts, text: 'diagnosis', blocks });
  });

  it('surfaces a 429 with Retry-After as the rate-limited error', async () => {
    slack.rateLimit('chat.postMessage', 1, 7);
    const client = new WebClient('xoxb-test', {
      slackApiUrl: slack.apiUrl,
      fetch: keepAliveFetch(),
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    const err = await client.chat.postMessage({ channel: 'C0TEST', text: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 } satisfies Partial<WebAPIRateLimitedError>);
  });
});
