// The Alertmanager silence client against a local HTTP server that answers like Alertmanager
// (and like a broken one): requests as sent, answers validated, errors with what was said.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AlertmanagerSilences, SilenceError } from './silences.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

const ID = '1a0d9433-e8e3-4441-b4d1-d6cf0f94b6c0';
const input = {
  matchers: [{ name: 'alertname', value: 'KubePodCrashLooping', isRegex: false, isEqual: true }],
  startsAt: new Date('2026-11-21T10:00:00Z'),
  endsAt: new Date('2026-11-21T11:00:00Z'),
  createdBy: 'alice (U0ALICE)',
  comment: 'from the thread',
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function catchSilenceError(p: Promise<unknown>): Promise<SilenceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SilenceError) return err;
    throw err;
  }
  throw new Error('expected a SilenceError');
}

describe('AlertmanagerSilences', () => {
  let server: Server;
  let url = '';
  const seen: Seen[] = [];
  let reply: Reply = (_req, res) => json(res, 200, { silenceID: ID });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
        });
        reply(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    reply = (_req, res) => json(res, 200, { silenceID: ID });
  });

  it('creates a silence: POST /api/v2/silences with the matchers, times, author and comment; bearer auth', async () => {
    const client = new AlertmanagerSilences({ url: `${url}/am/`, auth: { kind: 'bearer', token: 'tok-123' } });
    expect(await client.create(input)).toEqual({ id: ID });
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req).toMatchObject({ method: 'POST', url: '/am/api/v2/silences', authorization: 'Bearer tok-123', contentType: 'application/json' });
    expect(JSON.parse(req.body)).toEqual({
      matchers: input.matchers,
      startsAt: '2026-11-21T10:00:00.000Z',
      endsAt: '2026-11-21T11:00:00.000Z',
      createdBy: 'alice (U0ALICE)',
      comment: 'from the thread',
    });
  });

  it('sends basic auth when configured so, and none when not', async () => {
    await new AlertmanagerSilences({ url, auth: { kind: 'basic', username: 'pd', password: 'p:w' } }).create(input);
    await new AlertmanagerSilences({ url }).create(input);
    expect(seen.map((s) => s.authorization)).toEqual([`Basic ${Buffer.from('pd:p:w').toString('base64')}`, undefined]);
  });

  it('refuses a silence Alertmanager would refuse before sending it (no matcher, ends before it starts)', async () => {
    const client = new AlertmanagerSilences({ url });
    const none = await catchSilenceError(client.create({ ...input, matchers: [] }));
    expect(none.kind).toBe('rejected');
    expect(none.message).toMatch(/at least one matcher/);
    const backwards = await catchSilenceError(client.create({ ...input, endsAt: input.startsAt }));
    expect(backwards.message).toMatch(/endsAt must be after startsAt/);
    expect(seen).toEqual([]);
  });

  it("a 400 is `rejected` with Alertmanager's message (its body is a JSON string)", async () => {
    reply = (_req, res) => json(res, 400, 'Failed to create silence: start time must be before end time');
    const err = await catchSilenceError(new AlertmanagerSilences({ url }).create(input));
    expect(err).toMatchObject({ kind: 'rejected', status: 400 });
    expect(err.message).toBe('Alertmanager answered POST /silences with 400: Failed to create silence: start time must be before end time');
  });

  it('a 422 from the API schema is `rejected` with its message', async () => {
    reply = (_req, res) => json(res, 422, { code: 612, message: 'matchers in body should have at least 1 items' });
    const err = await catchSilenceError(new AlertmanagerSilences({ url }).create(input));
    expect(err).toMatchObject({ kind: 'rejected', status: 422 });
    expect(err.message).toMatch(/: matchers in body should have at least 1 items$/);
  });

  it('a 500 is `failed`, with the body as text when it is not JSON', async () => {
    reply = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('raft: no leader');
    };
    const err = await catchSilenceError(new AlertmanagerSilences({ url }).create(input));
    expect(err).toMatchObject({ kind: 'failed', status: 500 });
    expect(err.message).toMatch(/with 500: raft: no leader$/);
  });

  it('a 200 it cannot read is `bad-response`, never a silence id', async () => {
    reply = (_req, res) => json(res, 200, { id: ID });
    expect(await catchSilenceError(new AlertmanagerSilences({ url }).create(input))).toMatchObject({ kind: 'bad-response', status: 200 });
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    };
    expect(await catchSilenceError(new AlertmanagerSilences({ url }).create(input))).toMatchObject({ kind: 'bad-response' });
  });

  it('gives up after its deadline with `timeout`', async () => {
    reply = () => undefined; // never answers
    const started = Date.now();
    const err = await catchSilenceError(new AlertmanagerSilences({ url, timeoutMs: 300 }).create(input));
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an address nobody listens on is `unreachable`', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    expect(await catchSilenceError(new AlertmanagerSilences({ url: `http://127.0.0.1:${port}` }).create(input))).toMatchObject({ kind: 'unreachable' });
  });

  it('expires with DELETE /api/v2/silence/{id}; an unknown id is `not-found` (404, or 500 "silence not found" before v0.27)', async () => {
    const client = new AlertmanagerSilences({ url, auth: { kind: 'bearer', token: 't' } });
    reply = (_req, res) => {
      res.writeHead(200);
      res.end();
    };
    expect(await client.expire(ID)).toBe('expired');
    expect(seen[0]).toMatchObject({ method: 'DELETE', url: `/api/v2/silence/${ID}`, authorization: 'Bearer t' });
    reply = (_req, res) => json(res, 404, { code: 404, message: 'silence not found' });
    expect(await client.expire(ID)).toBe('not-found');
    reply = (_req, res) => json(res, 500, 'silence not found');
    expect(await client.expire(ID)).toBe('not-found');
    reply = (_req, res) => json(res, 500, 'snapshot failed');
    expect(await catchSilenceError(client.expire(ID))).toMatchObject({ kind: 'failed', status: 500 });
    expect(seen.map((s) => s.url)).toEqual(Array(4).fill(`/api/v2/silence/${ID}`));
  });

  it('reads silences back, validated', async () => {
    const silence = {
      id: ID,
      status: { state: 'active' },
      updatedAt: '2026-11-21T10:00:00.000Z',
      comment: 'c',
      createdBy: 'alice',
      endsAt: '2026-11-21T11:00:00.000Z',
      matchers: [{ isEqual: true, isRegex: false, name: 'alertname', value: 'X' }],
      startsAt: '2026-11-21T10:00:00.000Z',
    };
    reply = (req, res) => (req.url?.endsWith('/silences') ? json(res, 200, [silence]) : json(res, 200, silence));
    const client = new AlertmanagerSilences({ url });
    expect(await client.list()).toEqual([silence]);
    expect(await client.get(ID)).toEqual(silence);
    reply = (_req, res) => json(res, 200, [{ ...silence, status: { state: 'weird' } }]);
    expect(await catchSilenceError(client.list())).toMatchObject({ kind: 'bad-response' });
  });
});
