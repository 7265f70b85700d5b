import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCerts, makeAgentCerts } from '../../test/helpers/agent-tls.js';
import { REDACT_PATHS } from '../log.js';
import { type FakeDocker, loadDockerSpec, startFakeDocker } from '../sim/fake-docker.js';
import { createAgentMetrics } from './metrics.js';
import { type AgentOptions, type RunningAgent, refusalOf, startAgent } from './server.js';

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

let certs: AgentCerts;

/** One request on a new connection; an https:// agent is checked against the test CA and the agents' name. */
function call(
  agent: RunningAgent,
  method: string,
  path: string,
  options: { token?: string | null; body?: string; auth?: string; ca?: string } = {},
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.auth !== undefined) headers.authorization = options.auth;
    else if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const https = agent.url.startsWith('https:');
    const request = https ? httpsRequest : httpRequest;
    const tls = https ? { ca: options.ca ?? certs.ca, servername: certs.serverName, agent: false } : {};
    const req = request(`${agent.url}${path}`, { method, headers, ...tls }, (res) => {
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
/** The agent as deployed: HTTPS, with its metrics. */
let agent: RunningAgent;
const metrics = createAgentMetrics({ defaultMetrics: false });
/** The certificate every other agent here serves (they test other things than transport). */
const tls = () => ({ tls: { cert: certs.cert, key: certs.key } });
beforeAll(async () => {
  certs = makeAgentCerts();
  docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '001')));
  agent = await startAgent({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    ...tls(),
    procRoot: join(FIXTURES, '001', 'proc'),
    hostRoot: join(FIXTURES, '001', 'host'),
    nodeName: 'c3-a05-136-45-4.com',
    probeEnv: { dockerSockets: [docker.socket], containerdSockets: [], logFiles: [join(FIXTURES, '001', 'host/var/log/messages')] },
    logger,
    metrics,
  });
});
afterAll(async () => {
  await agent?.close();
  await docker?.close();
  certs?.cleanup();
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
    const blind = await startAgent({ port: 0, host: '127.0.0.1', token: TOKEN, ...tls(), procRoot: '/nonexistent/proc', hostRoot: '/', nodeName: 'n', logger });
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
    await expect(startAgent({ port: 0, token: 'short', ...tls(), procRoot: '/proc', hostRoot: '/', nodeName: 'n', logger })).rejects.toThrow(/token/);
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
      ...tls(),
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
      ...tls(),
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
      ...tls(),
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

describe('agent transport: HTTPS unless plain HTTP is asked for', () => {
  const base = (): AgentOptions => ({ port: 0, host: '127.0.0.1', token: TOKEN, procRoot: '/proc', hostRoot: '/', nodeName: 'n', logger });

  it('refuses to start without a certificate, saying how to give one or to ask for plain HTTP', async () => {
    await expect(startAgent(base())).rejects.toThrow(
      /needs a certificate and key \(POD_DOCTOR_AGENT_TLS_CERT, POD_DOCTOR_AGENT_TLS_KEY\).*POD_DOCTOR_AGENT_PLAIN_HTTP=true/,
    );
  });

  it('refuses a certificate and plain HTTP at once', async () => {
    await expect(startAgent({ ...base(), ...tls(), plainHttp: true })).rejects.toThrow(/choose one/);
  });

  it('serves plain HTTP when asked, and warns about it', async () => {
    const plain = await startAgent({ ...base(), plainHttp: true });
    try {
      expect(plain.url).toMatch(/^http:\/\//);
      expect((await call(plain, 'GET', '/healthz', { token: null })).status).toBe(200);
      expect(logLines.join('')).toMatch(/"level":40.*agent serving plain HTTP/);
    } finally {
      await plain.close();
    }
  });

  it('a renewed certificate is served to new connections', async () => {
    const renewed = await startAgent({ ...base(), ...tls() });
    try {
      expect((await call(renewed, 'GET', '/healthz', { token: null })).status).toBe(200);
      renewed.reloadTls({ cert: certs.otherCert, key: certs.otherKey });
      await expect(call(renewed, 'GET', '/healthz', { token: null })).rejects.toThrow(/unable to verify|issuer/i);
      expect((await call(renewed, 'GET', '/healthz', { token: null, ca: certs.otherCa })).status).toBe(200);
      // A key that does not match its certificate is refused; the renewed pair stays.
      expect(() => renewed.reloadTls({ cert: certs.cert, key: certs.otherKey })).toThrow();
      expect((await call(renewed, 'GET', '/healthz', { token: null, ca: certs.otherCa })).status).toBe(200);
    } finally {
      await renewed.close();
    }
  });
});

describe('agent metrics', () => {
  const scrape = async () => {
    const res = await call(agent, 'GET', '/metrics', { token: null });
    expect(res.status).toBe(200);
    return res.body;
  };
  const sample = (text: string, series: string) =>
    Number(new RegExp(`^${series.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

  it('/metrics needs no token and names no pod, path or token', async () => {
    await call(agent, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD, probes: ['host'] }) });
    const text = await scrape();
    expect(text).toContain('pod_doctor_build_info{');
    expect(text).not.toContain(POD.uid);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(FIXTURES);
  });

  it('counts refusals by reason', async () => {
    const before = await scrape();
    await call(agent, 'GET', '/v1/probes/host', { token: 'test-token-0123456789abcdeX' });
    await call(agent, 'POST', '/v1/probes', { body: '{pod:' });
    await call(agent, 'GET', '/v1/exec');
    await call(agent, 'POST', '/v1/actions/restart-unit', { body: '{}' });
    const after = await scrape();
    const delta = (reason: string) =>
      sample(after, `pod_doctor_agent_refusals_total{reason="${reason}"}`) - sample(before, `pod_doctor_agent_refusals_total{reason="${reason}"}`);
    expect({
      unauthenticated: delta('unauthenticated'),
      bad_request: delta('bad_request'),
      not_allowed: delta('not_allowed'),
      out_of_scope: delta('out_of_scope'),
    }).toEqual({
      unauthenticated: 1,
      bad_request: 2,
      not_allowed: 1,
      out_of_scope: 0,
    });
  });

  it('times each probe run by probe and outcome', async () => {
    const before = await scrape();
    const res = await call(agent, 'POST', '/v1/probes', { body: JSON.stringify({ pod: POD }) });
    const probes = (res.json() as { probes: Record<string, { ok: boolean; timedOut?: boolean }> }).probes;
    const after = await scrape();
    for (const [probe, outcome] of Object.entries(probes)) {
      const label = outcome.ok ? 'ok' : outcome.timedOut ? 'timeout' : 'failed';
      const series = `pod_doctor_agent_probe_duration_seconds_count{probe="${probe}",outcome="${label}"}`;
      expect((sample(after, series) || 0) - (sample(before, series) || 0), series).toBe(1);
    }
  });

  it.each([
    [401, 'unauthenticated'],
    [403, 'out_of_scope'],
    [409, 'not_allowed'],
    [400, 'bad_request'],
    [413, 'bad_request'],
    [429, undefined],
    [502, undefined],
    [200, undefined],
  ])('status %i is the refusal %s', (status, reason) => {
    expect(refusalOf(status)).toBe(reason);
  });
});
