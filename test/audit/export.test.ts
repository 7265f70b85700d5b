// `pod-doctor audit export`: the trail as JSON lines, per cluster, within a time window; every
// cluster a multi-cluster bot serves unless --cluster narrows, and stderr says which.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDecision } from '../../src/audit/stream.js';
import { parseWhen } from '../../src/cli/audit.js';
import type { RedisClient } from '../../src/redis/client.js';
import { cli } from '../helpers/cli.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const subject = { planId: 'pl_AbCdEfGhIjKlMnOp', playbook: 'recreate-pod', target: { kind: 'pod', namespace: 'shop', name: 'web-0' } } as const;

describe('pod-doctor audit export', () => {
  let redis: RedisClient;
  let prefix: string;
  let env: Record<string, string>;
  let middle = 0;

  beforeAll(async () => {
    redis = connect();
    prefix = testPrefix('audit-export');
    env = { POD_DOCTOR_REDIS_PREFIX: prefix, POD_DOCTOR_CLUSTER: 'east', LOG_LEVEL: 'silent' };
    await recordDecision(redis, prefix, { cluster: 'east', kind: 'approval', ...subject, actors: ['U0ALICE'], outcome: 'approved' });
    await new Promise((r) => setTimeout(r, 20));
    middle = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await recordDecision(redis, prefix, { cluster: 'east', kind: 'denial', ...subject, actors: ['U0BOB'], outcome: 'denied', reason: 'freeze' });
    await recordDecision(redis, prefix, { cluster: 'west', kind: 'denial', ...subject, actors: ['U0CAROL'], outcome: 'denied' });
  });

  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('prints the default cluster’s entries as JSON lines, oldest first, each with its stream id', async () => {
    const res = await cli(['audit', 'export', '--since', '1h'], env);
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out.map((e) => `${e.cluster} ${e.kind} ${(e.actors as string[]).join(',')}`)).toEqual(['east approval U0ALICE', 'east denial U0BOB']);
    expect(out[1]).toMatchObject({ planId: subject.planId, playbook: 'recreate-pod', target: subject.target, outcome: 'denied', reason: 'freeze' });
    expect(String(out[0]?.id)).toMatch(/^\d+-\d+$/);
    expect(res.stderr.trim()).toBe('pod-doctor audit: 2 entries from east (2); the one served cluster');
  });

  it('exports every cluster a multi-cluster bot serves by default, and says which on one stderr line', async () => {
    const multi = { ...env, POD_DOCTOR_CLUSTERS: 'east,west,north' };
    const res = await cli(['audit', 'export', '--since', '1d'], multi);
    expect(res.code).toBe(0);
    expect(lines(res.stdout).map((e) => `${e.cluster} ${e.kind}`)).toEqual(['east approval', 'east denial', 'west denial']);
    expect(res.stderr.trim().split('\n')).toEqual(['pod-doctor audit: 3 entries from east (2), west (1), north (0); every served cluster, --cluster narrows']);
    // --cluster narrows: repeated, or as a comma list; the line names only those.
    const west = await cli(['audit', 'export', '--since', '1d', '--cluster', 'west'], multi);
    expect(lines(west.stdout).map((e) => e.cluster)).toEqual(['west']);
    expect(west.stderr.trim()).toBe('pod-doctor audit: 1 entry from west (1)');
    const listed = await cli(['audit', 'export', '--since', '1d', '--cluster', 'west,east'], multi);
    expect(lines(listed.stdout).map((e) => e.cluster)).toEqual(['west', 'east', 'east']);
    expect(listed.stderr.trim()).toBe('pod-doctor audit: 3 entries from west (1), east (2)');
  });

  it('takes several clusters and a window (--since/--until as times or durations)', async () => {
    const both = await cli(['audit', 'export', '--since', '1d', '--cluster', 'east', '--cluster', 'west'], env);
    expect(lines(both.stdout).map((e) => e.cluster)).toEqual(['east', 'east', 'west']);
    const before = await cli(['audit', 'export', '--since', '1h', '--until', new Date(middle).toISOString()], env);
    expect(lines(before.stdout).map((e) => e.kind)).toEqual(['approval']);
    const after = await cli(['audit', 'export', '--since', new Date(middle).toISOString()], env);
    expect(lines(after.stdout).map((e) => e.kind)).toEqual(['denial']);
  });

  it('refuses what it cannot read, with exit 2', async () => {
    expect((await cli(['audit', 'export'], env)).code).toBe(2);
    const bad = await cli(['audit', 'export', '--since', 'last tuesday'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "last tuesday"');
    expect((await cli(['audit', 'export', '--since', '1h', '--until', '2h'], env)).code).toBe(2);
    expect((await cli(['audit', 'export', '--since', '1h', '--cluster', 'Not_A_Label'], env)).code).toBe(2);
    expect((await cli(['audit', 'export', '--since', '1h', '--cluster', 'east,'], env)).code).toBe(2);
    expect((await cli(['audit', 'import'], env)).code).toBe(2);
    expect((await cli(['audit', '--help'], env)).stdout).toContain('pod-doctor audit export');
  });

  it.each([
    ['7d', 7 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['30m', 30 * 60_000],
    ['90s', 90_000],
    ['2w', 14 * 86_400_000],
  ])('%s ago', (text, ms) => {
    expect(parseWhen('--since', text, 1_000_000_000_000)).toBe(1_000_000_000_000 - ms);
  });

  it('reads RFC 3339 times as they are', () => {
    expect(parseWhen('--since', '2026-03-01T10:00:00Z', 0)).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(() => parseWhen('--since', '12', 0)).toThrow(/neither a duration/);
  });
});
