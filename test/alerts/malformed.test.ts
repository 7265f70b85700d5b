// 1,000+ generated malformed requests: every one gets a 4xx (the right one for its kind),
// the server keeps serving, and nothing at all is queued or announced for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertmanagerHandler, type AlertmanagerServer, createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import { alertKeys } from '../../src/alerts/keys.js';
import { PAYLOAD_LIMITS } from '../../src/alerts/schema.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { RedisClient } from '../../src/redis/client.js';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const MAX = 256 * 1024;

/** mulberry32: the same cases on every run, so a failure can be replayed. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  kind: string;
  body: string | Buffer;
  headers: Record<string, string>;
  method?: string;
  expect: number;
}

const json = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

function generate(count: number): Case[] {
  const rand = rng(20261121);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const validBody = () => payload(Array.from({ length: 1 + int(4) }, (_, i) => podAlert('shop', `web-${int(1000)}-${i}`)));

  const topWrong: Record<string, unknown[]> = {
    version: [4, null, '3', '', ['4'], { v: '4' }],
    receiver: [1, null, '', {}, [], true],
    status: ['FIRING', 'pending', 1, null, {}],
    alerts: ['x', {}, null, [], [1], ['a'], 7],
    groupKey: [1, null, '', [], {}],
    truncatedAlerts: ['0', -1, 1.5, null, {}, 'many'],
    groupLabels: ['x', 1, ['a'], { a: 1 }, { a: null }],
    commonLabels: ['x', 2, [1], { a: false }],
    commonAnnotations: ['x', 3, { a: {} }],
    externalURL: [1, {}, [], false],
    notification_reason: [1, {}, []],
    routeLabels: ['x', 1, { a: 2 }],
  };
  const alertWrong: Record<string, unknown[]> = {
    status: ['FIRING', 2, null, ''],
    labels: [null, 'x', { a: 1 }, { a: null }, [], 5],
    annotations: [{ a: 2 }, 'x', null, [1]],
    startsAt: ['', 'now', 0, '2026-13-45T99:00:00Z', '21/11/2026', null, '2026-11-21 10:00:00'],
    endsAt: [5, 'x', {}, '2026-11-21'],
    generatorURL: [1, {}, null],
    fingerprint: ['', 'zz-zz', 1, 'a'.repeat(65), null, '../x', 'abc def'],
  };
  const required = ['version', 'receiver', 'status', 'alerts', 'groupKey'];
  const alertRequired = ['status', 'labels', 'startsAt', 'fingerprint'];

  const generators: (() => Case)[] = [
    // not JSON
    () => {
      const v = JSON.stringify(validBody());
      const body = pick([
        () => v.slice(0, 1 + int(v.length - 2)),
        () => Buffer.from(Array.from({ length: 1 + int(200) }, () => int(256))).toString('latin1'),
        () => `{${v}`,
        () => v.replace(/"/g, "'"),
        () => '',
        () => 'null,',
        () => '{"version":"4",}',
        () => `${v}}`,
      ])();
      return { kind: 'not-json', body, headers: json, expect: 400 };
    },
    // valid JSON, not a payload
    () => ({ kind: 'not-a-payload', body: JSON.stringify(pick([null, 1, 'x', true, [], [validBody()], {}, { alerts: [] }])), headers: json, expect: 400 }),
    // wrong types at the top
    () => {
      const b: Record<string, unknown> = validBody();
      const field = pick(Object.keys(topWrong));
      b[field] = pick(topWrong[field]!);
      return { kind: `wrong-type:${field}`, body: JSON.stringify(b), headers: json, expect: 400 };
    },
    // wrong types inside an alert
    () => {
      const b = validBody() as unknown as { alerts: Record<string, unknown>[] };
      const field = pick(Object.keys(alertWrong));
      const alert = b.alerts[int(b.alerts.length)]!;
      alert[field] = pick(alertWrong[field]!);
      return { kind: `wrong-type:alerts.${field}`, body: JSON.stringify(b), headers: json, expect: 400 };
    },
    // missing fields
    () => {
      const b: Record<string, unknown> = validBody();
      if (rand() < 0.5) {
        delete b[pick(required)];
        return { kind: 'missing:top', body: JSON.stringify(b), headers: json, expect: 400 };
      }
      const alerts = b.alerts as Record<string, unknown>[];
      delete alerts[int(alerts.length)]![pick(alertRequired)];
      return { kind: 'missing:alert', body: JSON.stringify(b), headers: json, expect: 400 };
    },
    // huge values that still fit the byte limit
    () => {
      const b = validBody();
      const which = int(4);
      if (which === 0)
        b.alerts[0]!.labels = {
          ...b.alerts[0]!.labels,
          [pick(['pod', 'namespace', 'big', 'alertname'])]: 'x'.repeat(PAYLOAD_LIMITS.labelValue + 1 + int(5000)),
        };
      else if (which === 1) b.alerts[0]!.labels = { ...b.alerts[0]!.labels, ['l'.repeat(PAYLOAD_LIMITS.labelName + 1)]: 'v' };
      else if (which === 2) b.alerts[0]!.labels = Object.fromEntries(Array.from({ length: PAYLOAD_LIMITS.labelsPerAlert + 1 }, (_, i) => [`l${i}`, 'v']));
      else (b as Record<string, unknown>).groupKey = 'k'.repeat(PAYLOAD_LIMITS.groupKey + 1);
      return { kind: 'huge-value', body: JSON.stringify(b), headers: json, expect: 400 };
    },
    // wrong content type (a valid body: only the header is wrong)
    () => {
      const type = pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/jsonp',
        '',
      ]);
      const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
      if (type) headers['content-type'] = type;
      return { kind: 'content-type', body: JSON.stringify(validBody()), headers, expect: 415 };
    },
    // no token
    () => ({ kind: 'no-token', body: JSON.stringify(validBody()), headers: { 'content-type': 'application/json' }, expect: 401 }),
    // wrong token
    () => {
      const auth = pick([
        () => `Bearer ${TOKEN.split('').reverse().join('')}`,
        () => `Bearer ${TOKEN.slice(0, int(TOKEN.length))}`,
        () => `Bearer ${TOKEN}${'x'.repeat(1 + int(10))}`,
        () => `Token ${TOKEN}`,
        () => `Basic ${Buffer.from(`alertmanager:${TOKEN}`).toString('base64')}`,
        () => 'Bearer',
        () => `Bearer ${'A'.repeat(TOKEN.length)}`,
      ])();
      return { kind: 'wrong-token', body: JSON.stringify(validBody()), headers: { 'content-type': 'application/json', authorization: auth }, expect: 401 };
    },
    // oversized body (valid JSON, too big)
    () => {
      const b = validBody();
      b.alerts[0]!.annotations = { ...b.alerts[0]!.annotations, description: 'd'.repeat(MAX + int(MAX)) };
      return { kind: 'oversized', body: JSON.stringify(b), headers: json, expect: 413 };
    },
    // wrong method
    () => ({ kind: 'method', body: JSON.stringify(validBody()), headers: json, method: pick(['PUT', 'PATCH', 'DELETE', 'GET']), expect: 405 }),
  ];
  return Array.from({ length: count }, (_, i) => generators[i % generators.length]!());
}

describe('malformed webhook requests', () => {
  let redis: RedisClient;
  let prefix: string;
  let queues: JobQueues;
  let handler: AlertmanagerHandler;
  let server: AlertmanagerServer;

  beforeAll(async () => {
    redis = connect();
    prefix = testPrefix('alerts-fuzz');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    handler = createAlertmanagerHandler({ queues, cluster: 'c1', token: TOKEN, maxBytes: MAX, logger: silent });
    server = await startAlertmanagerServer({ handler });
  });

  afterAll(async () => {
    await server.close();
    await handler.close();
    await queues.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('answers each of 1,100 with its 4xx, queues nothing, and keeps serving', { timeout: 120_000 }, async () => {
    const cases = generate(1100);
    const url = `${server.url}/alertmanager`;
    const got: { kind: string; status: number; expect: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const r = await post(url, c.body, c.headers, c.method);
          got.push({ kind: c.kind, status: r.status, expect: c.expect });
        }
      }),
    );
    expect(got).toHaveLength(1100);
    const wrong = got.filter((g) => g.status !== g.expect);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(got.every((g) => g.status >= 400 && g.status < 500)).toBe(true);
    expect(new Set(got.map((g) => g.kind.split(':')[0])).size).toBeGreaterThanOrEqual(10);

    // Nothing queued, nothing announced, no group state.
    const counts = await queues.diagnose('c1').getJobCounts('waiting', 'delayed', 'active', 'prioritized', 'completed', 'failed');
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    expect(await redis.xlen(alertKeys.stream(prefix, 'c1'))).toBe(0);
    expect(await redis.keys(`{${prefix}:c1}:alert-group:*`)).toEqual([]);

    // Still serving: a valid notification afterwards is queued.
    const ok = await post(url, JSON.stringify(payload([podAlert('shop', 'web-after')])));
    expect(ok.status).toBe(200);
    expect((await queues.diagnose('c1').getJobCounts('waiting')).waiting).toBe(1);
  });
});
