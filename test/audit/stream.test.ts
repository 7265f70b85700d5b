// The audit stream on a real Redis: entries validated on the way in, read back in order across
// pages and time windows, trimmed by age, unreadable ones skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/entry.js';
import { appendAudit, auditKey, readAudit, recordDecision } from '../../src/audit/stream.js';
import type { RedisClient } from '../../src/redis/client.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const subject = { planId: 'pl_AbCdEfGhIjKlMnOp', playbook: 'recreate-pod', target: { kind: 'pod', namespace: 'shop', name: 'web-0' } } as const;

async function all(redis: RedisClient, prefix: string, cluster: string, range: { sinceMs?: number; untilMs?: number; pageSize?: number } = {}) {
  const out = [];
  for await (const r of readAudit(redis, prefix, cluster, { sinceMs: range.sinceMs ?? 0, untilMs: range.untilMs ?? Date.now() + 1000, ...range })) out.push(r);
  return out;
}

describe('audit stream', () => {
  let redis: RedisClient;
  let prefix: string;

  beforeAll(() => {
    redis = connect();
    prefix = testPrefix('audit-stream');
  });
  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('records decisions under the cluster hash tag and reads them back, oldest first, with their stream ids', async () => {
    const cluster = 'decide';
    await recordDecision(redis, prefix, { cluster, kind: 'approval', ...subject, actors: ['U0ALICE'], outcome: 'partial' });
    await recordDecision(redis, prefix, { cluster, kind: 'approval', ...subject, actors: ['U0ALICE', 'U0BOB'], outcome: 'approved' });
    await recordDecision(redis, prefix, {
      cluster,
      kind: 'denial',
      ...subject,
      uid: 'u-1',
      actors: ['U0CAROL'],
      outcome: 'explained',
      reason: 'x'.repeat(1200),
    });
    expect(auditKey(prefix, cluster)).toBe(`{${prefix}:${cluster}}:audit`);
    const read = await all(redis, prefix, cluster);
    expect(read.map((r) => `${r.entry.kind}/${r.entry.outcome}/${r.entry.actors.join('+')}`)).toEqual([
      'approval/partial/U0ALICE',
      'approval/approved/U0ALICE+U0BOB',
      'denial/explained/U0CAROL',
    ]);
    expect(read.every((r) => /^\d+-\d+$/.test(r.id))).toBe(true);
    expect(read[2]?.entry.reason).toHaveLength(1000);
    expect(read[2]?.entry.uid).toBe('u-1');
    expect(Date.parse(read[0]!.entry.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses an entry that does not validate (nothing is appended)', async () => {
    const cluster = 'invalid';
    const bad = { at: new Date().toISOString(), cluster, kind: 'run', ...subject, actors: [], outcome: 'approved' } as unknown as AuditEntry;
    await expect(appendAudit(redis, prefix, bad)).rejects.toThrow();
    await expect(recordDecision(redis, prefix, { cluster: 'Not A Label', kind: 'denial', ...subject, actors: ['U1'], outcome: 'denied' })).rejects.toThrow();
    expect(await redis.exists(auditKey(prefix, cluster))).toBe(0);
  });

  it('reads across pages and within a window of stream ids; skips entries this release cannot read', async () => {
    const cluster = 'pages';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await recordDecision(redis, prefix, { cluster, kind: 'denial', ...subject, actors: [`U${i}`], outcome: 'denied' }));
      if (i === 1) await redis.xadd(auditKey(prefix, cluster), '*', 'entry', '{"not":"an entry"}');
      if (i === 2) await redis.xadd(auditKey(prefix, cluster), '*', 'other', 'field');
      await new Promise((r) => setTimeout(r, 5));
    }
    const paged = await all(redis, prefix, cluster, { pageSize: 2 });
    expect(paged.map((r) => r.id)).toEqual(ids);
    const ms = (id: string) => Number(id.split('-')[0]);
    const window = await all(redis, prefix, cluster, { sinceMs: ms(ids[1]!), untilMs: ms(ids[3]!), pageSize: 2 });
    expect(window.map((r) => r.entry.actors[0])).toEqual(['U1', 'U2', 'U3']);
  });

  it('trims entries older than the retention as new ones come', async () => {
    const cluster = 'retention';
    await recordDecision(redis, prefix, { cluster, kind: 'denial', ...subject, actors: ['U0OLD'], outcome: 'denied' });
    await new Promise((r) => setTimeout(r, 120));
    await recordDecision(redis, prefix, { cluster, kind: 'denial', ...subject, actors: ['U0NEW'], outcome: 'denied' }, { retentionMs: 60 });
    expect((await all(redis, prefix, cluster)).map((r) => r.entry.actors[0])).toEqual(['U0NEW']);
    // The default keeps a month: nothing recent goes.
    await recordDecision(redis, prefix, { cluster, kind: 'denial', ...subject, actors: ['U0NEXT'], outcome: 'denied' });
    expect(await redis.xlen(auditKey(prefix, cluster))).toBe(2);
  });
});
