// The bot's route table: exact method + path to a handler, 404 and 405 in plain text otherwise,
// a failing handler answered 500 without its stack, and close() that does not wait for idle
// keep-alive sockets.
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { silent } from '../../test/helpers/logger.js';
import { createHttpServer, type HttpServer, type Route } from './server.js';

describe('createHttpServer', () => {
  const servers: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close(0)));
  });

  async function start(...routes: Route[]) {
    const server = createHttpServer({ logger: silent });
    server.mount(...routes);
    servers.push(server);
    const port = await server.listen(0, '127.0.0.1');
    const call = async (method: string, path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method });
      return { status: res.status, allow: res.headers.get('allow'), type: res.headers.get('content-type'), body: await res.text() };
    };
    return { server, port, call };
  }

  it('routes by method and exact path (the query aside), and answers 404 and 405 in plain text otherwise', async () => {
    const { call } = await start(
      { method: 'GET', path: '/healthz', handler: (_req, res) => res.writeHead(200).end('ok\n') },
      { method: 'POST', path: '/hook', handler: (req, res) => res.writeHead(202).end(`${req.method}\n`) },
      { method: 'PUT', path: '/hook', handler: (_req, res) => res.writeHead(204).end() },
    );
    const cases: { method: string; path: string; status: number; body?: string; allow?: string }[] = [
      { method: 'GET', path: '/healthz', status: 200, body: 'ok\n' },
      { method: 'GET', path: '/healthz?verbose=1', status: 200, body: 'ok\n' },
      { method: 'POST', path: '/hook', status: 202, body: 'POST\n' },
      { method: 'PUT', path: '/hook', status: 204 },
      { method: 'GET', path: '/healthz/', status: 404, body: 'not found\n' },
      { method: 'GET', path: '/nothing', status: 404, body: 'not found\n' },
      { method: 'POST', path: '/healthz', status: 405, body: 'method not allowed\n', allow: 'GET' },
      { method: 'GET', path: '/hook', status: 405, body: 'method not allowed\n', allow: 'POST, PUT' },
    ];
    for (const c of cases) {
      const r = await call(c.method, c.path);
      expect(r.status, `${c.method} ${c.path}`).toBe(c.status);
      if (c.body !== undefined) expect(r.body, `${c.method} ${c.path}`).toBe(c.body);
      if (c.allow) expect(r.allow).toBe(c.allow);
      if (c.status >= 400) expect(r.type).toMatch(/^text\/plain/);
    }
  });

  it('answers 500 without the stack when a handler throws or its promise rejects, and keeps serving', async () => {
    const { call } = await start(
      {
        method: 'GET',
        path: '/throws',
        handler: () => {
          throw new Error('secret detail at handler (/app/src/x.ts:1:1)');
        },
      },
      { method: 'GET', path: '/rejects', handler: async () => Promise.reject(new TypeError('undefined is not a function')) },
      { method: 'GET', path: '/ok', handler: (_req, res) => res.writeHead(200).end('ok\n') },
    );
    for (const path of ['/throws', '/rejects']) {
      const r = await call('GET', path);
      expect(r.status, path).toBe(500);
      expect(r.body, path).toBe('internal error\n');
    }
    expect((await call('GET', '/ok')).status).toBe(200);
  });

  it('refuses a method and path mounted twice', () => {
    const server = createHttpServer({ logger: silent });
    const route = { method: 'POST', path: '/slack/events', handler: () => undefined } as const;
    server.mount(route);
    expect(() => server.mount(route)).toThrow(/POST \/slack\/events is mounted twice/);
  });

  it('closes without waiting for an idle keep-alive socket (whose timeout here is a minute)', async () => {
    const server = createHttpServer({ logger: silent, keepAliveTimeoutMs: 60_000 });
    server.mount({ method: 'GET', path: '/healthz', handler: (_req, res) => res.writeHead(200).end('ok\n') });
    const port = await server.listen(0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/healthz', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    const started = Date.now();
    await server.close();
    // Far below the keep-alive timeout (and the grace for requests in flight): the idle socket went at once.
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });
});
