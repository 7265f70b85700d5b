// The replication barrier: Redis Cluster's key hash, no wait without replicas, one WAIT shared
// by concurrent callers, and 503 from the webhook when no replica confirms in time (a replica
// stopped with SIGSTOP stands in for a failing one).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { clusterTag, keyPattern, keys, sharedTag } from '../../src/redis/keys.js';
import { keySlot, ReplicaBarrier, ReplicationError } from '../../src/redis/replication.js';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { connect, eventually, freePort, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { cli } from '../helpers/redis-topology.js';

describe('keys and slots', () => {
  it.each([
    ['123456789', 12739],
    ['{user1000}.following', keySlot('user1000')],
    ['foo{}{bar}', keySlot('foo{}{bar}')],
  ])('keySlot(%s) = %i (Redis Cluster CRC16, hash tags)', (key, slot) => {
    expect(keySlot(key)).toBe(slot);
  });

  it('puts a cluster`s keys and its BullMQ prefix in one slot, and shared chat keys in another', () => {
    const tag = clusterTag('pod-doctor', 'prod-eu');
    expect(tag).toBe('{pod-doctor:prod-eu}');
    expect(clusterTag('{pod-doctor}', 'prod-eu')).toBe(tag);
    const slots = new Set(
      [
        keys.dedup('pod-doctor', 'prod-eu', 'pod/a/b'),
        keys.incidents('pod-doctor', 'prod-eu'),
        keys.results('pod-doctor', 'prod-eu'),
        `${tag}:diagnose.prod-eu:wait`,
      ].map(keySlot),
    );
    expect(slots.size).toBe(1);
    expect(keys.chatBucket('pod-doctor', 'C1')).toBe('{pod-doctor}:chat:bucket:C1');
    expect(keySlot(keys.chatPause('pod-doctor', 'C1'))).toBe(keySlot(sharedTag('pod-doctor')));
    expect(keySlot(tag)).not.toBe(keySlot(clusterTag('pod-doctor', 'prod-us')));
    expect(keyPattern('pod-doctor')).toBe('{pod-doctor[:}]*');
  });
});

describe('ReplicaBarrier', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-repl-'));
  const procs: ChildProcess[] = [];
  let primaryPort: number;
  let replica: ChildProcess;
  let redis: RedisClient;

  beforeAll(async () => {
    primaryPort = await freePort();
    const replicaPort = await freePort();
    const server = (port: number, extra: string[]) => {
      const p = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--dbfilename', `d-${port}.rdb`, ...extra],
        { stdio: 'ignore' },
      );
      procs.push(p);
      return p;
    };
    server(primaryPort, []);
    await eventually(async () => (await cli(primaryPort, 'ping').catch(() => '')) === 'PONG', 10_000);
    replica = server(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]);
    await eventually(async () => /master_link_status:up/.test(await cli(replicaPort, 'info', 'replication').catch(() => '')), 10_000);
    redis = redisFromUrl(`redis://127.0.0.1:${primaryPort}`, {}, { role: 'producer' });
    // A freshly synced replica streams writes after its first ACK (within a second).
    await eventually(async () => {
      await redis.set('warm', '1');
      return Number(await (redis as import('ioredis').Redis).wait(1, 200)) === 1;
    }, 10_000);
  }, 30_000);

  afterAll(() => {
    redis?.disconnect();
    for (const p of procs) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not wait on a Redis without replicas', async () => {
    const single = connect();
    try {
      expect(await new ReplicaBarrier(single, { replicas: 1, timeoutMs: 100 }).confirm('{x}')).toEqual({ needed: 0, acked: 0 });
    } finally {
      single.disconnect();
    }
  });

  it('confirms with the replica, and concurrent callers share WAITs', async () => {
    const barrier = new ReplicaBarrier(redis, { replicas: 1, timeoutMs: 1000 });
    const calls = async () => Number(/cmdstat_wait:calls=(\d+)/.exec(await cli(primaryPort, 'info', 'commandstats'))?.[1] ?? 0);
    const before = await calls();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await redis.set(`k${i}`, String(i));
        return barrier.confirm(`k${i}`);
      }),
    );
    expect(outcomes.every((o) => o.needed === 1 && o.acked === 1)).toBe(true);
    const waits = (await calls()) - before;
    expect(waits).toBeGreaterThan(0);
    expect(waits).toBeLessThan(50);
  });

  it('throws ReplicationError when the replica does not confirm, and the webhook answers 503', async () => {
    const prefix = testPrefix('repl');
    const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix, waitMs: 200 });
    const handler = createAlertmanagerHandler({ queues, cluster: 'c1', token: TOKEN, logger: silent });
    const server = await startAlertmanagerServer({ handler });
    try {
      expect((await post(`${server.url}/alertmanager`, JSON.stringify(payload([podAlert('shop', 'web-1')])))).status).toBe(200);
      replica.kill('SIGSTOP');
      await enqueueDiagnosis(queues, { cluster: 'c1', target: { kind: 'pod', namespace: 'shop', name: 'web-2' }, reason: 'slash' });
      await expect(queues.confirmReplicated('c1')).rejects.toBeInstanceOf(ReplicationError);
      const r = await post(`${server.url}/alertmanager`, JSON.stringify(payload([podAlert('shop', 'web-3')])));
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      // Off: the same enqueue is acknowledged without waiting.
      const off = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix, waitReplicas: 0 });
      expect(await off.confirmReplicated('c1')).toEqual({ needed: 0, acked: 0 });
      await off.close();
    } finally {
      replica.kill('SIGCONT');
      await server.close();
      await handler.close();
      await queues.close();
    }
  });
});
