// The recurrence store survives a Redis crash with AOF (appendfsync always): the incidents
// recorded before the kill still count after the restart, and their retention is kept.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Diagnosis, Finding } from '../../src/diagnosis/types.js';
import { recordRecurrence } from '../../src/jobs/recurrence.js';
import type { Incident } from '../../src/jobs/schemas.js';
import { redisFromUrl } from '../../src/redis/client.js';
import { keys } from '../../src/redis/keys.js';
import { freePort, redisUp, startAofRedis } from '../helpers/jobs.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-recur-aof-'));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const finding = { rule: 'crash.oomkilled', subject: 'pod/shop/web-1' } as Finding;
const diagnosis = { workload: 'Deployment web', node: 'node-1' } as Diagnosis;
const incident = (job: string, daysAgo: number) => ({ firstJobId: job, createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString() }) as Incident;

it('keeps the recorded incidents across a kill -9 and restart', async () => {
  const port = await freePort();
  server = startAofRedis(port, dir);
  await redisUp(port);
  const redis = redisFromUrl(`redis://127.0.0.1:${port}`, {}, { role: 'worker' });
  redis.on('error', () => undefined);
  const settings = { prefix: 'pdt-recur', retentionSeconds: 90 * 86_400, windowDays: 7 };
  const record = (job: string, daysAgo: number) => recordRecurrence(redis, settings, { cluster: 'c1', diagnosis, finding, incident: incident(job, daysAgo) });
  try {
    await record('j-1', 4);
    expect((await record('j-2', 2))?.count).toBe(2);

    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    server = startAofRedis(port, dir);
    await redisUp(port);

    const third = await record('j-3', 0);
    expect(third?.count).toBe(3);
    expect(third?.previous.map((p) => p.jobId)).toEqual(['j-2', 'j-1']);
    expect(await redis.pttl(keys.recurrence('pdt-recur', 'c1', 'crash.oomkilled|Deployment web|node-1'))).toBeGreaterThan(89 * 86_400_000);
  } finally {
    redis.disconnect();
  }
}, 30_000);
