import { request } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../log.js';
import { type FakeDocker, loadDockerSpec, startFakeDocker } from '../sim/fake-docker.js';
import { type RunningAgent, startAgent } from './server.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const TOKEN = 'test-token-0123456789abcdef';
const POD = {
  uid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b',
  namespace: 'default',
  name: 'httpserver-prod-1-6cb97dfbcc-f9flb',
  containerIds: ['e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9'],
};

interface Res {
  status: number;
  body: string;
  json: () => Record<string, unknown>;
}

function call(agent: RunningAgent, method: string, path: string, options: { token?: string | null; body?: string; auth?: string } = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.auth !== undefined) headers.authorization = options.auth;
    else if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const req = request(`${agent.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body, json: () => JSON.parse(body) as Record<string, unknown> });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const logLines: string[] = [];
const logger = pino(
  { level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
  new Writable({
    write(chunk: Buffer, _enc, cb) {
      logLines.push(chunk.toString());
      cb();
    },
  }),
);

let docker: FakeDocker;
let agent: RunningAgent;
beforeAll(async () => {
  docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '001')));
  agent = await startAgent({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    procRoot: join(FIXTURES, '001', 'proc'),
    hostRoot: join(FIXTURES, '001', 'host'),
    nodeName: 'c3-a05-136-45-4.com',
    probeEnv: { dockerSockets: [docker.socket], containerdSockets: [], logFiles: [join(FIXTURES, '001', 'host/var/log/messages')] },
    logger,
  });
});
afterAll(async () => {
  await agent?.close();
  await docker?.close();
});

describe('agent API: authentication', () => {
  it('healthz needs no token and says nothing else', async () => {
    const res = await call(agent, 'GET', '/healthz', { token: null });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, node: 'c3-a05-136-45-4.com' });
  });
  it('readyz needs no token and checks the host views', async () => {
    const res = await call(agent, 'GET', '/readyz', { token: null });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, checks: { proc: 'ok', host: 'ok' } });
    const blind = await startAgent({ port: 0, host: '127.0.0.1', token: TOKEN, procRoot: '/nonexistent/proc', hostRoot: '/', nodeName: 'n', logger });
    try {
      const notReady = await call(blind, 'GET', '/readyz', { token: null });
      expect(notReady.status).toBe(503);
      expect(notReady.json()).toMatchObject({ ok: false, checks: { host: 'ok' } });
    } finally {
      await blind.close();
    }
  });
  it.each([
    ['no token', { token: null }],
    ['wrong token', { token: 'test-token-0123456789abcdeX' }],
    ['a prefix of the token', { token: TOKEN.slice(0, 10) }],
    ['another scheme', { auth: `Basic ${TOKEN}` }],
  ])('%s → 401', async (_name, opts) => {
    for (const [method, path, body] of [
      ['POST', '/v1/probes', JSON.stringify({ pod: POD })],
      ['GET', '/v1/probes/host', undefined],
      ['GET', '/v1/probes/nope', undefined],
    ] as const) {
      const res = await call(agent, method, path, { ...opts, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).not.toContain('ntpd');
    }
  });
  it('refuses to start without a real token', async () => {
    await expect(startAgent({ port: 0, token: 'short', procRoot: '/proc', hostRoot: '/', nodeName: 'n', logger })).rejects.toThrow(/token/);
  });
});

describe('agent API: input', () => {
  it.each([
    ['pod UID not a UUID', { pod: { ...POD, uid: '../../../etc/passwd' } }],
    ['container id not hex', { pod: { ...POD, containerIds: ['$(reboot)'] } }],
    ['unknown probe', { pod: POD, probes: ['cat'] }],
    ['extra field naming a file', { pod: POD, file: '/etc/shadow' }],
    ['extra pod field naming a command', { pod: { ...POD, command: 'rm -rf /' } }],
    ['bad namespace', { pod: { ...POD, namespace: 'Default;ls' } }],
  ])('%s → 400', async (_name, body) => {
    const res = await call(agent, 'POST', '/v1/probes', { body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
  });
  it('body that is not JSON → 400', async () => {
    expect((await call(agent, 'POST', '/v1/probes', { body: '{pod:' })).status).toBe(400);
  });
  it('body over the limit → 413', async () => {
    const res = await call(agent, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD, pad: 'x'.repeat(64 * 1024) }) });
    expect(res.status).toBe(413);
  });
  it.each([
    ['/v1/probes/mount-holders?match=../../etc/shadow', 400],
    ['/v1/probes/mount-holders?match=%2Fetc%2Fpasswd%00', 400],
    ['/v1/probes/journal?file=/etc/shadow', 400],
    ['/v1/probes/pod-network?pid=1;reboot', 400],
    ['/v1/probes/processes?podUid=not-a-uid', 400],
    ['/v1/probes/processes', 400],
    ['/v1/probes/sh', 404],
    ['/v1/exec', 404],
  ])('GET %s → %i', async (path, status) => {
    const res = await call(agent, 'GET', path);
    expect(res.status).toBe(status);
  });
  it('wrong methods → 405', async () => {
    expect((await call(agent, 'GET', '/v1/probes')).status).toBe(405);
    expect((await call(agent, 'POST', '/v1/probes/host', { body: '{}' })).status).toBe(405);
  });
});

describe('agent API: probes', () => {
  it("POST /v1/probes runs the pipeline: the runtime's layer dir leads mount-holders to ntpd", async () => {
    const res = await call(agent, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD }) });
    expect(res.status).toBe(200);
    const json = res.json() as { node: string; probes: Record<string, { ok: boolean; holders?: { pid: number; unit?: string }[] }> };
    expect(json.node).toBe('c3-a05-136-45-4.com');
    expect(Object.keys(json.probes).sort()).toEqual(['fs-mounts', 'host', 'journal', 'mount-holders', 'pod-network', 'processes', 'runtime']);
    expect(json.probes['mount-holders']?.holders?.[0]).toMatchObject({ pid: 2725007, unit: 'ntpd.service' });
  });
  it('POST with a probe list runs only those', async () => {
    const res = await call(agent, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD, probes: ['host'] }) });
    expect(Object.keys((res.json() as { probes: object }).probes)).toEqual(['host']);
  });
  it('GET /v1/probes/<name> runs one', async () => {
    const res = await call(agent, 'GET', '/v1/probes/mount-holders?match=98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ probes: { 'mount-holders': { ok: true, holders: [{ pid: 2725007 }] } } });
  });
  it('logs each request without the token', () => {
    const text = logLines.join('');
    expect(text).toContain('agent request');
    expect(text).toContain('"status":401');
    expect(text).not.toContain(TOKEN);
  });
});

describe('agent API: actions', () => {
  it('without an action handler: 404, and still behind the token', async () => {
    expect((await call(agent, 'POST', '/v1/actions/restart-unit', { body: '{}' })).status).toBe(404);
    expect((await call(agent, 'POST', '/v1/actions/restart-unit', { token: null, body: '{}' })).status).toBe(401);
    expect((await call(agent, 'GET', '/v1/actions/restart-unit')).status).toBe(405);
  });
  it('with one: the body and the name reach it, its status and body come back', async () => {
    const seen: [string, string][] = [];
    const withActions = await startAgent({
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
      procRoot: join(FIXTURES, '001', 'proc'),
      hostRoot: join(FIXTURES, '001', 'host'),
      nodeName: 'n1',
      logger,
      actions: async (name, body) => {
        seen.push([name, body]);
        return { status: 403, body: { error: 'not allowed' } };
      },
    });
    try {
      const res = await call(withActions, 'POST', '/v1/actions/restart-unit', { body: '{"unit":"ntpd.service"}' });
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ error: 'not allowed' });
      expect(seen).toEqual([['restart-unit', '{"unit":"ntpd.service"}']]);
      expect((await call(withActions, 'POST', '/v1/actions/restart-unit', { body: 'x'.repeat(64 * 1024) })).status).toBe(413);
    } finally {
      await withActions.close();
    }
  });
});

describe('agent API: bounds', () => {
  it('bounds the response: the largest probe result gives way to a failure note', async () => {
    const small = await startAgent({
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
      procRoot: join(FIXTURES, '001', 'proc'),
      hostRoot: join(FIXTURES, '001', 'host'),
      nodeName: 'n1',
      maxResponseBytes: 3000,
      probeEnv: { dockerSockets: [docker.socket], containerdSockets: [] },
      logger,
    });
    try {
      const res = await call(small, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD }) });
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(3000);
      const probes = (res.json() as { probes: Record<string, { ok: boolean; error?: string }> }).probes;
      expect(Object.values(probes).some((p) => !p.ok && /exceeds the agent's response limit/.test(p.error ?? ''))).toBe(true);
    } finally {
      await small.close();
    }
  });
  it('caps concurrent probe runs (429)', async () => {
    const busy = await startAgent({
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
      procRoot: join(FIXTURES, '000', 'proc'),
      hostRoot: join(FIXTURES, '000', 'host'),
      nodeName: 'n0',
      maxConcurrent: 1,
      probeEnv: { statCommand: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'], statTimeoutMs: 400 },
      logger,
    });
    try {
      const [a, b] = await Promise.all([call(busy, 'GET', '/v1/probes/fs-mounts'), call(busy, 'GET', '/v1/probes/fs-mounts')]);
      expect([a.status, b.status].sort()).toEqual([200, 429]);
      const ok = [a, b].find((r) => r.status === 200)!;
      expect(ok.json()).toMatchObject({ probes: { 'fs-mounts': { ok: true, hung: 2 } } });
    } finally {
      await busy.close();
    }
  });
});
