import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { jobSettingsFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import { isPodDoctorError } from '../../src/errors.js';
import { diagnoseJobOptions } from '../../src/jobs/queues.js';
import { DiagnoseJobSchema, parseDiagnoseJob, parseRemediateJob } from '../../src/jobs/schemas.js';
import { targetKey } from '../../src/kube/target.js';
import { redisFromUrl } from '../../src/redis/client.js';

describe('redisFromUrl', () => {
  it.each([
    ['redis://127.0.0.1:6380/2', 'worker', { host: '127.0.0.1', port: 6380, db: 2, maxRetriesPerRequest: null }],
    ['redis://:s3cret@redis.internal:6379', 'producer', { host: 'redis.internal', password: 's3cret', maxRetriesPerRequest: 3 }],
    ['rediss://redis.example.com:6380', 'worker', { host: 'redis.example.com', port: 6380, tls: expect.anything() }],
  ] as const)('%s (%s)', (url, role, expected) => {
    const r = redisFromUrl(url, { lazyConnect: true }, { role });
    try {
      expect(r).toBeInstanceOf(Redis);
      expect((r as Redis).options).toMatchObject(expected);
    } finally {
      r.disconnect();
    }
  });

  it('passes Sentinel options through to ioredis', () => {
    const r = redisFromUrl('redis://:pw@unused:6379', {
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'mymaster',
      lazyConnect: true,
    });
    try {
      expect(r).toBeInstanceOf(Redis);
      expect((r as Redis).options).toMatchObject({
        name: 'mymaster',
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
        ],
        password: 'pw',
        maxRetriesPerRequest: null,
      });
    } finally {
      r.disconnect();
    }
  });

  it("builds an ioredis Cluster from a node list, with the URL's credentials and TLS on every node", () => {
    const r = redisFromUrl('rediss://app:pw@unused:6379', { clusterNodes: ['r1:7000', { host: 'r2', port: 7001 }], lazyConnect: true, scaleReads: 'master' });
    try {
      expect(r).toBeInstanceOf(Cluster);
      const c = r as Cluster;
      expect((c as unknown as { startupNodes: unknown }).startupNodes).toEqual([
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
      ]);
      expect(c.options).toMatchObject({
        scaleReads: 'master',
        maxRetriesPerRequest: null,
        redisOptions: { username: 'app', password: 'pw', tls: {}, maxRetriesPerRequest: null },
      });
    } finally {
      r.disconnect();
    }
  });
});

describe('job settings from configuration', () => {
  it('has defaults that need nothing but a Redis URL', () => {
    const c = loadConfig({});
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.redisOptions).toEqual({});
    const s = jobSettingsFromConfig(c);
    expect(s).toMatchObject({ prefix: 'pod-doctor', attempts: 5, backoffMs: 2000, dedupWindowMs: 120_000 });
    expect(diagnoseJobOptions(s)).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 2000 } });
  });

  it('reads every job setting and reports bad ones together', () => {
    const c = loadConfig({
      REDIS_URL: 'rediss://r:6380',
      POD_DOCTOR_REDIS_OPTIONS: '{"clusterNodes":["r1:7000"]}',
      POD_DOCTOR_REDIS_PREFIX: '{pod-doctor}',
      POD_DOCTOR_JOB_ATTEMPTS: '3',
      POD_DOCTOR_DEDUP_WINDOW_SECONDS: '30',
      POD_DOCTOR_API_RATE: '7.5',
    });
    expect(c).toMatchObject({
      redisUrl: 'rediss://r:6380',
      redisOptions: { clusterNodes: ['r1:7000'] },
      redisPrefix: '{pod-doctor}',
      jobAttempts: 3,
      apiRatePerSecond: 7.5,
    });
    expect(jobSettingsFromConfig(c).dedupWindowMs).toBe(30_000);
    let error: unknown;
    try {
      loadConfig({ REDIS_URL: 'http://nope', POD_DOCTOR_REDIS_OPTIONS: '[1,2]', POD_DOCTOR_WORKER_CONCURRENCY: '0' });
    } catch (err) {
      error = err;
    }
    expect(isPodDoctorError(error, 'BAD_CONFIG')).toBe(true);
    for (const name of ['REDIS_URL', 'POD_DOCTOR_REDIS_OPTIONS', 'POD_DOCTOR_WORKER_CONCURRENCY']) expect((error as Error).message).toContain(name);
  });
});

describe('job payloads', () => {
  const valid = {
    v: 1,
    cluster: 'prod',
    target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
    reason: 'slash',
    requester: { kind: 'slack', user: 'U1', channel: 'C1' },
    requestedAt: '2026-11-21T10:00:00Z',
  };

  it('accepts a version 1 payload', () => {
    expect(parseDiagnoseJob(valid)).toEqual(valid);
    expect(parseRemediateJob({ v: 1, cluster: 'prod', proposalId: 'p_1' })).toEqual({ v: 1, cluster: 'prod', proposalId: 'p_1' });
  });

  it.each([
    ['another version', { ...valid, v: 2 }],
    ['a cluster that is not a DNS label', { ...valid, cluster: 'Prod EU' }],
    ['a pod name that is not DNS-1123', { ...valid, target: { kind: 'pod', namespace: 'shop', name: 'web_1' } }],
    ['an unknown reason', { ...valid, reason: 'cron' }],
    ['an unknown requester kind', { ...valid, requester: { kind: 'email', to: 'x' } }],
    ['a bad time', { ...valid, requestedAt: 'yesterday' }],
  ])('refuses %s as unrecoverable', (_name, data) => {
    expect(() => parseDiagnoseJob(data)).toThrow(expect.objectContaining({ name: 'UnrecoverableError' }));
  });

  it('refuses a proposal id that could smuggle a key or a path', () => {
    for (const proposalId of ['a:b', '../x', '', 'x'.repeat(200)]) expect(() => parseRemediateJob({ v: 1, cluster: 'prod', proposalId })).toThrow();
  });

  it('keys targets structurally', () => {
    const t = DiagnoseJobSchema.parse(valid).target;
    expect([targetKey(t), targetKey({ kind: 'node', name: 'n1' }), targetKey({ kind: 'namespace', name: 'shop' })]).toEqual([
      'pod/shop/web-1',
      'node/n1',
      'namespace/shop',
    ]);
  });
});
