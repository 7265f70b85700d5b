// The digest: its computation over stored results and audit entries, the schedule's slots, and
// one poster across bot replicas (the slot's lock in real Redis).
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/entry.js';
import { auditKey } from '../../src/audit/stream.js';
import type { Finding } from '../../src/diagnosis/types.js';
import type { DiagnoseResult, Requester } from '../../src/jobs/schemas.js';
import { keys } from '../../src/redis/keys.js';
import { computeDigest, digestMarkdown, gatherDigest, workloadOf } from '../../src/report/digest.js';
import { type DigestSchedule, digestLockKey, digestTick, lastSlot, parseSchedule } from '../../src/report/schedule.js';
import type { StoredResult } from '../../src/report/story.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const T0 = Date.parse('2026-11-16T09:00:00Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

function finding(rule: string, severity: Finding['severity'] = 'error'): Finding {
  return {
    rule,
    severity,
    title: `${rule} title`,
    cause: 'c',
    evidence: [],
    advice: [],
    prevent: [],
    playbook: null,
    subject: 's',
    causeKey: 'k',
    fingerprint: 'f',
    params: {},
    merged: [],
  };
}

let seq = 0;
/** A result of `pod` asked at `asked` s, diagnosed `found` s later; `incident` groups a storm. */
function stored(o: {
  pod: string;
  rule?: string;
  severity?: Finding['severity'];
  asked: number;
  found: number;
  incident?: string;
  plan?: string;
  alert?: Partial<Extract<Requester, { kind: 'alert' }>>;
}): StoredResult {
  const jobId = `j${++seq}`;
  const [namespace, name] = o.pod.split('/') as [string, string];
  const result: DiagnoseResult = {
    job: { v: 1, cluster: 'prod', target: { kind: 'pod', namespace, name }, reason: o.alert ? 'alert' : 'slash', requestedAt: iso(o.asked) },
    jobId,
    status: 'diagnosed',
    diagnosis: {
      target: { kind: 'pod', namespace, name },
      cluster: 'prod',
      findings: o.rule ? [finding(o.rule, o.severity)] : [],
      skipped: [],
      ruleErrors: [],
      at: iso(o.asked + o.found),
    },
    requesters: o.alert
      ? [{ kind: 'alert', groupKey: 'g', fingerprint: 'fp1', status: 'firing', startsAt: iso(o.asked - 60), receiver: 'r', ...o.alert }]
      : [{ kind: 'slack', user: 'U1', channel: 'C1' }],
    ...(o.incident
      ? {
          incident: {
            id: `prod|${o.rule}|${o.incident}`,
            cluster: 'prod',
            rule: o.rule ?? '',
            causeKey: o.incident,
            created: false,
            firstJobId: 'x',
            createdAt: '2026-11-17T09:00:00.000Z',
            count: 1,
            subjects: [],
          },
        }
      : {}),
    ...(o.plan ? { offers: [{ fingerprint: 'f', playbook: 'restart-pod', planId: o.plan }] } : {}),
  };
  return { id: `${T0 + (o.asked + o.found) * 1000}-0`, at: T0 + (o.asked + o.found) * 1000, result };
}

const run = (planId: string, at: number, outcome: AuditEntry['outcome'], playbook = 'restart-pod'): AuditEntry => ({
  at: iso(at),
  cluster: 'prod',
  kind: 'run',
  planId,
  playbook,
  target: { kind: 'pod', namespace: 'shop', name: 'x' },
  actors: ['U1'],
  outcome,
});
const decision = (kind: AuditEntry['kind'], outcome: AuditEntry['outcome']): AuditEntry => ({ ...run('pl_x', 0, 'fixed'), kind, outcome });

describe('computeDigest', () => {
  const results = [
    // The same cause on shop/web three times (two alone, one a storm of two pods): recurring.
    stored({ pod: 'shop/web-7d9f8c6b5-x2k4q', rule: 'crash.oom', asked: 0, found: 30, plan: 'pl_1' }),
    stored({ pod: 'shop/web-7d9f8c6b5-aaaaa', rule: 'crash.oom', asked: 86_400, found: 10, incident: 'node-1', alert: { workload: 'deployment/shop/web' } }),
    stored({
      pod: 'shop/web-7d9f8c6b5-bbbbb',
      rule: 'crash.oom',
      asked: 86_405,
      found: 20,
      incident: 'node-1',
      alert: { workload: 'deployment/shop/web', fingerprint: 'fp2' },
    }),
    stored({ pod: 'shop/web-7d9f8c6b5-ccccc', rule: 'crash.oom', asked: 200_000, found: 90, plan: 'pl_3' }),
    // Once only: not recurring.
    stored({ pod: 'db/pg-0', rule: 'volume.mount-busy', asked: 1000, found: 50, plan: 'pl_2' }),
    // No problem, and an info finding: diagnoses, not incidents.
    stored({ pod: 'shop/api-5c8d7b6f9-zzzzz', asked: 5000, found: 5 }),
    stored({ pod: 'shop/api-5c8d7b6f9-zzzzz', rule: 'info.note', severity: 'info', asked: 6000, found: 5 }),
  ];
  const audit = [
    run('pl_1', 600, 'fixed'),
    run('pl_2', 4000, 'not-fixed', 'release-mount-holder'),
    run('pl_3', 200_400, 'failed'),
    run('pl_9', 9000, 'refused'),
    decision('approval', 'approved'),
    decision('approval', 'partial'),
    decision('denial', 'denied'),
    decision('expiry', 'expired'),
  ];
  const d = computeDigest({ sinceMs: T0, untilMs: T0 + 7 * 86_400_000, clusters: ['prod'], results, audit });

  it('counts a storm once: incidents are causes, diagnoses are results', () => {
    expect(d.diagnoses).toBe(7);
    expect(d.incidents).toBe(4);
  });

  it('names the cause that came back to the same workload, and not the one that did not', () => {
    expect(d.recurring).toEqual([{ cluster: 'prod', rule: 'crash.oom', title: 'crash.oom title', workload: 'shop/web', occurrences: 3, lastAt: iso(200_090) }]);
  });

  it('measures time to first finding from whoever asked first (the alert before its job) and time to a verified fix', () => {
    // 30 s, 70 s (alert fired 60 s before the job, found 10 s after), 50 s, 90 s.
    expect(d.toFirstFinding).toEqual({ count: 4, medianMs: 50_000, p90Ms: 90_000 });
    // Only pl_1 was verified fixed: 600 s after the command.
    expect(d.toVerifiedFix).toEqual({ count: 1, medianMs: 600_000, p90Ms: 600_000 });
  });

  it('counts fixes run and how they ended, by playbook; a refused run is not a run', () => {
    expect(d.fixes).toEqual([
      { playbook: 'restart-pod', run: 2, fixed: 1, notFixed: 0, failed: 2 },
      { playbook: 'release-mount-holder', run: 1, fixed: 0, notFixed: 1, failed: 0 },
    ]);
    expect(d.decisions).toEqual({ approved: 1, denied: 1, expired: 1 });
  });

  it('ranks the noisiest workloads by diagnoses with a problem and alerts', () => {
    // The alert's workload (deployment/shop/web) and its pods' names name the same workload.
    expect(d.noisiest).toEqual([
      { cluster: 'prod', workload: 'shop/web', diagnoses: 4, alerts: 2 },
      { cluster: 'prod', workload: 'db/pg', diagnoses: 1, alerts: 0 },
    ]);
  });

  it('prints every section', () => {
    const md = digestMarkdown(d);
    for (const h of ['## Recurring causes', '## Response', '## Fixes: 3 run, 1 verified fixed, 3 failed or not fixed', '## Noisiest workloads'])
      expect(md).toContain(h);
    expect(md).toContain('crash.oom title [crash.oom] on shop/web: 3 times');
  });

  it.each([
    ['shop/web-7d9f8c6b5-x2k4q', 'shop/web'],
    ['db/pg-12', 'db/pg'],
    ['kube-system/fluentd-x7k2p', 'kube-system/fluentd'],
    ['shop/standalone', 'shop/standalone'],
  ])('workload of pod %s is %s', (pod, want) => {
    expect(workloadOf(stored({ pod, rule: 'x', asked: 0, found: 1 }).result)).toBe(want);
  });

  it('takes the workload the diagnosis names over the pod name', () => {
    const r = stored({ pod: 'shop/web-7d9f8c6b5-x2k4q', rule: 'x', asked: 0, found: 1 }).result;
    expect(workloadOf({ ...r, diagnosis: { ...r.diagnosis!, workload: 'Deployment storefront' } as typeof r.diagnosis })).toBe('shop/storefront');
  });
});

describe('the digest schedule', () => {
  it.each([
    ['mon 09:00', '2026-11-18T12:00:00Z', '2026-11-16T09:00:00.000Z'],
    ['mon 09:00', '2026-11-16T08:59:00Z', '2026-11-09T09:00:00.000Z'],
    ['mon 09:00', '2026-11-16T09:00:00Z', '2026-11-16T09:00:00.000Z'],
    ['sun 23:30', '2026-11-16T09:00:00Z', '2026-11-15T23:30:00.000Z'],
    ['daily 08:30', '2026-11-16T08:00:00Z', '2026-11-15T08:30:00.000Z'],
  ])('%s: the slot due at %s is %s', (text, now, want) => {
    expect(new Date(lastSlot(parseSchedule(text)!, Date.parse(now))).toISOString()).toBe(want);
  });

  it('refuses what is not a schedule', () => {
    for (const bad of ['monday 09:00', 'mon 9:00', 'mon 24:00', 'weekly', '']) expect(parseSchedule(bad), bad).toBeUndefined();
  });
});

describe('one digest poster across replicas (the slot lock in Redis)', () => {
  const redis = connect();
  const prefix = testPrefix('digest');
  const schedule: DigestSchedule = { day: 'mon', hour: 9, minute: 0 };
  const slot = Date.parse('2026-11-16T09:00:00Z');
  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('five replicas looking at once: one posts the week before the slot, the others find it taken, and later looks do nothing', async () => {
    const posts: { sinceMs: number; untilMs: number }[] = [];
    const replica = () => digestTick({ redis, prefix, schedule, now: () => slot + 30_000, post: async (w) => void posts.push(w) });
    const outs = await Promise.all(Array.from({ length: 5 }, replica));
    expect(outs.filter((o) => o === 'posted')).toHaveLength(1);
    expect(outs.filter((o) => o === 'taken')).toHaveLength(4);
    expect(posts).toEqual([{ sinceMs: slot - 7 * 86_400_000, untilMs: slot }]);
    expect(await replica()).toBe('taken');
    expect(await redis.get(digestLockKey(prefix, slot))).toBe('posted');
    expect(posts).toHaveLength(1);
  });

  it('a failed post gives the slot back: the next look (another replica) posts it', async () => {
    const at = slot + 7 * 86_400_000;
    let calls = 0;
    const failing = await digestTick({
      redis,
      prefix,
      schedule,
      now: () => at,
      post: async () => {
        calls++;
        throw new Error('slack down');
      },
    });
    expect(failing).toBe('failed');
    const ok = await digestTick({ redis, prefix, schedule, now: () => at + 60_000, post: async () => void calls++ });
    expect(ok).toBe('posted');
    expect(calls).toBe(2);
  });

  it('a slot missed by more than the late limit is skipped, not posted days late', async () => {
    let posted = false;
    const out = await digestTick({ redis, prefix, schedule, now: () => slot + 2 * 86_400_000, post: async () => void (posted = true) });
    expect(out).toBe('not-due');
    expect(posted).toBe(false);
  });

  it('gathers its input from the stored results and audit stream of each cluster', async () => {
    const r = stored({ pod: 'shop/web-7d9f8c6b5-x2k4q', rule: 'crash.oom', asked: 0, found: 30, plan: 'pl_1' });
    await redis.xadd(keys.results(prefix, 'prod'), r.id, 'jobId', r.result.jobId, 'result', JSON.stringify(r.result));
    await redis.xadd(auditKey(prefix, 'prod'), `${T0 + 600_000}-0`, 'entry', JSON.stringify(run('pl_1', 600, 'fixed')));
    const input = await gatherDigest(redis, prefix, ['prod', 'empty'], T0, T0 + 86_400_000);
    expect(input.results.map((x) => x.result.jobId)).toEqual([r.result.jobId]);
    expect(computeDigest(input).toVerifiedFix).toEqual({ count: 1, medianMs: 600_000, p90Ms: 600_000 });
  });
});
