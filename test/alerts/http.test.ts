// The webhook edge: each refusal has its own status (so Alertmanager's retry rule does the
// right thing), 200 only after the jobs are in Redis, 503 when Redis is not there.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AlertmanagerHandler, type AlertmanagerServer, createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import { alertmanagerOptionsFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { payload, podAlert, post, postJson, TOKEN } from '../helpers/alerts.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const MAX = 64 * 1024;

describe('alertmanager handler', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let handler: AlertmanagerHandler;
  let server: AlertmanagerServer;
  let url: string;

  beforeEach(async () => {
    redis = connect();
    prefix = testPrefix('alerts-http');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    handler = createAlertmanagerHandler({ queues, cluster: 'c1', token: TOKEN, maxBytes: MAX, logger: silent });
    server = await startAlertmanagerServer({ handler });
    url = `${server.url}/alertmanager`;
  });

  afterEach(async () => {
    await server.close();
    await handler.close();
    await queues.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const waiting = async () => (await queues.diagnose('c1').getJobCounts('waiting')).waiting;
  const valid = () => JSON.stringify(payload([podAlert('shop', 'web-1')]));

  it('answers 200 once the diagnosis is queued', async () => {
    const r = await post(url, valid());
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ status: 'queued', alerts: 1, added: 1, jobs: 1 });
    expect(await waiting()).toBe(1);
    expect(r.headers['x-request-id']).toBeTruthy();
  });

  it.each([
    ['no Authorization header', { 'content-type': 'application/json' }, 401],
    ['a wrong token of the same length', { 'content-type': 'application/json', authorization: `Bearer ${TOKEN.replace(/.$/, 'X')}` }, 401],
    ['the token as Basic auth', { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, 401],
    ['the token with a suffix', { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}x` }, 401],
    ['text/plain', { 'content-type': 'text/plain', authorization: `Bearer ${TOKEN}` }, 415],
    ['no content type', { authorization: `Bearer ${TOKEN}` }, 415],
    ['a latin1 charset', { 'content-type': 'application/json; charset=iso-8859-1', authorization: `Bearer ${TOKEN}` }, 415],
    ['gzip encoding', { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${TOKEN}` }, 415],
  ])('refuses %s', async (_name, headers, status) => {
    const r = await post(url, valid(), headers as Record<string, string>);
    expect(r.status).toBe(status);
    if (status === 401) expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await waiting()).toBe(0);
  });

  it('accepts the scheme in any case and a utf-8 charset', async () => {
    const r = await post(url, valid(), { 'content-type': 'Application/JSON; charset=UTF-8', authorization: `bearer ${TOKEN}` });
    expect(r.status).toBe(200);
  });

  it('refuses other methods with 405', async () => {
    const r = await post(url, '', { authorization: `Bearer ${TOKEN}` }, 'GET');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const big = JSON.stringify(payload([podAlert('shop', 'web-1', { annotations: { description: 'x'.repeat(MAX) } })]));
    expect((await post(url, big)).status).toBe(413);
    // Chunked, no Content-Length: cut off while reading.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' }, agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 10; i++) req.write('x'.repeat(MAX / 4));
      req.end();
    });
    expect(streamed).toBe(413);
    expect(await waiting()).toBe(0);
  });

  it('explains bad JSON and bad payloads with 400', async () => {
    const notJson = await post(url, '{"version": "4",');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error).toMatch(/^invalid JSON/);
    const bad = await postJson(url, payload([{ ...podAlert('shop', 'web-1'), startsAt: 'soon' }], { version: '3' }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/version: .*alerts\.0\.startsAt: not an RFC 3339 time/);
    expect(await waiting()).toBe(0);
  });

  it('answers 503 when Redis is unreachable, so Alertmanager retries', async () => {
    const down = redisFromUrl('redis://127.0.0.1:1', { retryStrategy: () => 50 }, { role: 'producer' });
    down.on('error', () => undefined);
    const downQueues = new JobQueues(down, { ...DEFAULT_JOB_SETTINGS, prefix });
    const h = createAlertmanagerHandler({ queues: downQueues, cluster: 'c1', token: TOKEN, logger: silent, timeoutMs: 3000 });
    const s = await startAlertmanagerServer({ handler: h });
    try {
      const r = await post(`${s.url}/alertmanager`, valid());
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
    } finally {
      await s.close();
      await h.close().catch(() => undefined);
      await downQueues.close().catch(() => undefined);
      down.disconnect();
    }
  });

  it('serves /healthz and 404 elsewhere on the standalone server', async () => {
    expect((await post(`${server.url}/healthz`, '', {}, 'GET')).status).toBe(200);
    expect((await post(`${server.url}/other`, valid())).status).toBe(404);
  });

  it('builds its options from the configuration, and refuses to start without a token', () => {
    const config = loadConfig({ ALERTMANAGER_TOKEN: 'a-long-enough-token-123', POD_DOCTOR_ALERTMANAGER_PATH: '/hooks/am', POD_DOCTOR_ALERT_CHANNEL: 'C0AL' });
    const opts = alertmanagerOptionsFromConfig(config, { queues, logger: silent });
    expect(opts).toMatchObject({ token: 'a-long-enough-token-123', path: '/hooks/am', defaultChannel: 'C0AL', maxBytes: 4 * 1024 * 1024, cluster: 'default' });
    expect(() => alertmanagerOptionsFromConfig(loadConfig({}), { queues, logger: silent })).toThrow(/ALERTMANAGER_TOKEN/);
  });
});
