// The write-up over a timeline stored in Redis the way the bot and workers store it: results,
// alert-group events, audit entries and run events, read back by the story and written as Markdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertGroupEvent } from '../../src/alerts/group-events.js';
import { alertKeys } from '../../src/alerts/keys.js';
import type { AuditEntry } from '../../src/audit/entry.js';
import { auditKey } from '../../src/audit/stream.js';
import { parseReportRef, reportFor } from '../../src/cli/report.js';
import type { Diagnosis, Finding } from '../../src/diagnosis/types.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { keys } from '../../src/redis/keys.js';
import type { RunEvent } from '../../src/remediation/results.js';
import { runEventsKey } from '../../src/remediation/run-events.js';
import { gatherStory, mayBelong, type Story } from '../../src/report/story.js';
import { changesOf, recurrenceOf, timelineOf, writeUp } from '../../src/report/writeup.js';
import { cli } from '../helpers/cli.js';
import { cleanup, connect, REDIS_URL, testPrefix } from '../helpers/jobs.js';

const CLUSTER = 'prod';
const INCIDENT = 'prod|terminating.finalizers|pod/reports/report-1:foregroundDeletion';
const PLAN = 'pl_aaaaaaaaaaaaaaaa';
const FP = 'abc123';
const GROUP = 'f'.repeat(32);
const T0 = Date.now() - 3_600_000;
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

const finding = (pod: string): Finding => ({
  rule: 'terminating.finalizers',
  severity: 'error',
  title: 'Pod deletion blocked by finalizer foregroundDeletion',
  cause: 'The pod carries a finalizer no controller removes.',
  evidence: [{ source: 'pod.metadata.finalizers', text: `[foregroundDeletion] key=${AWS_KEY}` }],
  advice: ['Remove the finalizer once its owner is gone.'],
  prevent: ['Delete owners with propagationPolicy=Background.'],
  playbook: 'remove-finalizers',
  subject: `pod/reports/${pod}`,
  causeKey: 'foregroundDeletion',
  fingerprint: `terminating.finalizers|pod/reports/${pod}|foregroundDeletion`,
  params: {},
  merged: [],
});

function result(jobId: string, pod: string, incidentId: string, at: number, extra: Partial<DiagnoseResult> = {}): DiagnoseResult {
  const diagnosis: Diagnosis & { changes?: unknown } = {
    target: { kind: 'pod', namespace: 'reports', name: pod },
    cluster: CLUSTER,
    findings: [finding(pod)],
    skipped: [],
    ruleErrors: [],
    at: iso(at),
    changes: [
      { at: iso(-360), kind: 'rollout', object: 'Deployment report', text: 'revision 2: image report 1.0 → 1.1', by: 'argocd-controller', explains: 300 },
    ],
  };
  return {
    job: { v: 1, cluster: CLUSTER, target: diagnosis.target, reason: 'alert', requestedAt: iso(at - 2) },
    jobId,
    status: 'diagnosed',
    diagnosis,
    requesters: [
      {
        kind: 'alert',
        groupKey: 'g',
        fingerprint: FP,
        status: 'firing',
        startsAt: iso(0),
        receiver: 'slack',
        groupId: GROUP,
        alertname: 'KubePodStuckTerminating',
      },
    ],
    incident: {
      id: incidentId,
      cluster: CLUSTER,
      rule: 'terminating.finalizers',
      causeKey: 'x',
      created: true,
      firstJobId: jobId,
      createdAt: iso(at),
      count: 1,
      subjects: [`pod/reports/${pod}`],
    },
    offers: [{ fingerprint: 'f', playbook: 'remove-finalizers', planId: PLAN }],
    ...extra,
  };
}

const audit = (at: number, e: Omit<AuditEntry, 'at' | 'cluster' | 'planId' | 'playbook' | 'target'>): AuditEntry => ({
  at: iso(at),
  cluster: CLUSTER,
  planId: PLAN,
  playbook: 'remove-finalizers',
  target: { kind: 'pod', namespace: 'reports', name: 'report-1' },
  ...e,
});

const base = {
  v: 1 as const,
  cluster: CLUSTER,
  channel: 'C0ALERTS',
  groupKey: 'g',
  groupId: GROUP,
  episode: 1,
  receiver: 'slack',
  externalURL: '',
  notificationReason: null,
  groupLabels: {},
};
const summary = { firing: 1, resolved: 0, diagnosable: 1, notDiagnosable: 0, truncatedAlerts: 0, byAlertname: {}, byNamespace: {} };
const item = {
  fingerprint: FP,
  alertname: 'KubePodStuckTerminating',
  status: 'firing' as const,
  startsAt: iso(0),
  endsAt: null,
  severity: 'warning',
  namespace: 'reports',
  summary: 'Pod stuck terminating',
  description: null,
  generatorURL: null,
  labels: {},
  target: null,
  jobIds: ['j1'],
  expansionJobId: null,
};

describe('the write-up of a stored incident', () => {
  const redis = connect();
  const prefix = testPrefix('writeup');
  let story: Story;

  beforeAll(async () => {
    const add = (key: string, at: number, ...fields: string[]) => redis.xadd(key, `${T0 + at * 1000}-0`, ...fields);
    const alerts: [number, AlertGroupEvent][] = [
      [1, { type: 'alerts-added', ...base, at: iso(1), summary, alerts: [item], notDiagnosable: [], omitted: 0 }],
      [
        700,
        { type: 'alerts-resolved', ...base, at: iso(700), summary, alerts: [{ ...item, status: 'resolved', endsAt: iso(690), cancelledJobs: 0 }], omitted: 0 },
      ],
      // Another group's alert: not this incident's.
      [
        702,
        {
          type: 'alerts-added',
          ...base,
          groupId: 'e'.repeat(32),
          at: iso(702),
          summary,
          alerts: [{ ...item, fingerprint: 'zzz', alertname: 'Unrelated' }],
          notDiagnosable: [],
          omitted: 0,
        },
      ],
    ];
    for (const [at, e] of alerts) await add(alertKeys.stream(prefix, CLUSTER), at, 'type', e.type, 'groupId', e.groupId, 'event', JSON.stringify(e));
    await add(keys.results(prefix, CLUSTER), 10, 'jobId', 'j1', 'result', JSON.stringify(result('j1', 'report-1', INCIDENT, 10)));
    // Another incident in the same window: not in this write-up.
    await add(
      keys.results(prefix, CLUSTER),
      20,
      'jobId',
      'j9',
      'result',
      JSON.stringify(result('j9', 'other-1', 'prod|crash.oom|x', 20, { offers: [], requesters: [] })),
    );
    const decisions: [number, AuditEntry][] = [
      [100, audit(100, { kind: 'denial', actors: ['U0BOB'], outcome: 'denied' })],
      [110, audit(110, { kind: 'approval', actors: ['U0CAROL'], outcome: 'approved' })],
      [200, audit(200, { kind: 'run', actors: ['U0CAROL'], outcome: 'fixed' })],
    ];
    for (const [at, e] of decisions) await add(auditKey(prefix, CLUSTER), at, 'entry', JSON.stringify(e));
    const runs: RunEvent[] = [
      {
        type: 'run-started',
        runId: PLAN,
        at: iso(120),
        planId: PLAN,
        playbook: 'remove-finalizers',
        target: { kind: 'pod', namespace: 'reports', name: 'report-1' },
        resumed: false,
      },
      {
        type: 'step-finished',
        runId: PLAN,
        at: iso(130),
        index: 0,
        action: 'remove-finalizers',
        state: 'done',
        detail: 'removed [foregroundDeletion]',
        durationMs: 40,
      },
      { type: 'verified', runId: PLAN, at: iso(190), outcome: 'fixed', remaining: [], findings: [], targetGone: true },
      { type: 'run-finished', runId: PLAN, at: iso(191), status: 'completed' },
    ];
    for (const [i, e] of runs.entries()) await add(runEventsKey(prefix, CLUSTER), 120 + i, 'event', JSON.stringify({ cluster: CLUSTER, event: e }));
    story = await gatherStory(redis, prefix, { cluster: CLUSTER, incidentId: INCIDENT, sinceMs: T0 - 60_000, untilMs: Date.now() });
  });

  afterAll(async () => {
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('reads only what belongs to the incident: its result, its plan, its alert', () => {
    expect(story.results.map((r) => r.result.jobId)).toEqual(['j1']);
    expect(story.planIds).toEqual([PLAN]);
    expect(story.audit).toHaveLength(3);
    expect(story.runs).toHaveLength(4);
    expect(story.alerts.map((a) => a.event.type)).toEqual(['alerts-added', 'alerts-resolved']);
  });

  it('puts every stored event on the timeline, in time order, with who decided', () => {
    const t = timelineOf(story, { names: { U0CAROL: 'Carol' } });
    expect(t.map((e) => e.kind)).toEqual(['alert-fired', 'finding', 'denial', 'approval', 'run', 'step', 'verification', 'run', 'alert-resolved']);
    expect(t.map((e) => Date.parse(e.at))).toEqual([...t.map((e) => Date.parse(e.at))].sort((a, b) => a - b));
    expect(t.find((e) => e.kind === 'approval')?.text).toContain('Carol (@U0CAROL)');
    expect(t.find((e) => e.kind === 'denial')?.text).toContain('@U0BOB');
    expect(t.find((e) => e.kind === 'alert-resolved')?.at).toBe(iso(690));
  });

  it('writes every section, every timeline entry, the quoted evidence and what changed — redacted', () => {
    const md = writeUp(story, { now: T0 + 800_000, where: 'C0ALERTS / 1.2' });
    for (const h of ['Summary', 'Impact', 'Timeline', 'Root cause', 'What changed', 'What was done', 'Prevention', 'Follow-ups'])
      expect(md).toContain(`## ${h}`);
    for (const e of timelineOf(story)) expect(md).toContain(e.text.replace(/\|/g, '\\|'));
    expect(md).toContain('> [foregroundDeletion]');
    expect(md).not.toContain(AWS_KEY);
    expect(md).toContain('revision 2: image report 1.0 → 1.1 (by argocd-controller)');
    expect(md).toMatch(/Ran \*\*remove-finalizers\*\* \(plan pl_a+\), approved by @U0CAROL .* verified fixed/);
    expect(md).toContain('- Alerts: 1 — KubePodStuckTerminating');
    expect(md).toContain('- Delete owners with propagationPolicy=Background.');
    expect(md).not.toContain('other-1');
    expect(md).not.toContain('Unrelated');
  });

  it('reads "what changed" defensively: a diagnosis without it, or with a shape it does not know, has none', () => {
    expect(changesOf({})).toEqual([]);
    expect(changesOf({ changes: 'yes' })).toEqual([]);
    expect(changesOf({ changes: [{ at: 'x' }, { at: iso(0), kind: 'config', object: 'ConfigMap a', text: 'edited' }] })).toHaveLength(1);
  });

  it("pod-doctor report: a thread link or an incident id; the incident's write-up is the one the story gives", async () => {
    expect(parseReportRef('https://acme.slack.com/archives/C0INCIDENT/p1700000000000100')).toEqual({
      kind: 'thread',
      channel: 'C0INCIDENT',
      ts: '1700000000.000100',
    });
    // A reply's link names its thread.
    expect(parseReportRef('https://acme.slack.com/archives/C0INCIDENT/p1700000009000200?thread_ts=1700000000.000100&cid=C0INCIDENT')).toMatchObject({
      ts: '1700000000.000100',
    });
    expect(parseReportRef(INCIDENT)).toEqual({ kind: 'incident', id: INCIDENT, cluster: CLUSTER });
    for (const bad of ['', 'reports/report-1', 'https://evil.test/archives/nope', 'Prod|x|y']) expect(parseReportRef(bad), bad).toBeUndefined();
    const now = T0 + 800_000;
    const md = await reportFor(redis, prefix, parseReportRef(INCIDENT)!, { now, sinceMs: T0 - 60_000 });
    expect(md).toBe(writeUp(story, { now }));
    await expect(reportFor(redis, prefix, { kind: 'incident', id: 'prod|crash.oom|nothing', cluster: CLUSTER }, { now, sinceMs: T0 - 60_000 })).rejects.toThrow(
      /no diagnosis of incident/,
    );
    await expect(reportFor(redis, prefix, { kind: 'thread', channel: 'C0NONE', ts: '1.2' }, { now, sinceMs: 0 })).rejects.toThrow(/no pod-doctor thread/);
  });

  it('says when it happened before, when the result carries a recurrence (and nothing for a first time or an unknown shape)', () => {
    const again = { count: 3, days: 7, previous: [{ jobId: 'j0', at: iso(-86_400) }] };
    expect(recurrenceOf({ recurrence: again })).toEqual(again);
    expect(recurrenceOf({ recurrence: { ...again, count: 1 } })).toBeUndefined();
    expect(recurrenceOf({ recurrence: 'often' })).toBeUndefined();
    const first = story.results[0]!;
    const md = writeUp({ ...story, results: [{ ...first, result: { ...first.result, recurrence: again } as typeof first.result }] }, { now: T0 });
    expect(md).toContain('It happened before: the 3rd time in 7 days');
    expect(md).toMatch(/- \[ \] This cause came back \(3 times in 7 days\)/);
    expect(writeUp(story, { now: T0 })).not.toContain('It happened before');
  });

  it('pod-doctor report and pod-doctor digest print from Redis; bad input is one line and exit 2', async () => {
    const env = { REDIS_URL, POD_DOCTOR_REDIS_PREFIX: prefix, POD_DOCTOR_CLUSTER: CLUSTER };
    const report = await cli(['report', INCIDENT, '--since', '3h'], env);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('# Post-incident report: Pod deletion blocked by finalizer foregroundDeletion');
    expect(report.stdout).toContain('approved by @U0CAROL');
    const bad = await cli(['report', 'shop/web'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^pod-doctor: expected one thread link or incident id, not "shop\/web"/);
    const digest = await cli(['digest', '--since', '3h'], env);
    expect(digest.code).toBe(0);
    expect(digest.stdout).toMatch(/^# pod-doctor digest .* \(prod\): 2 incidents, 2 diagnoses/);
    expect(digest.stdout).toContain('remove-finalizers: 1 run, 1 fixed');
  });

  it('parses only results whose raw JSON can belong to the scope (ids matched as JSON writes them)', () => {
    const raw = (r: DiagnoseResult) => JSON.stringify(r);
    const mine = result('j1', 'report-1', 'prod|rule|key "quoted"', 10);
    const other = result('j2', 'other-1', 'prod|crash.oom|x', 10, { requesters: [] });
    const byIncident = mayBelong({ cluster: CLUSTER, incidentId: 'prod|rule|key "quoted"', sinceMs: 0, untilMs: 1 }, false);
    expect([byIncident(raw(mine)), byIncident(raw(other))]).toEqual([true, false]);
    const byGroup = mayBelong({ cluster: CLUSTER, groupId: GROUP, sinceMs: 0, untilMs: 1 }, false);
    expect([byGroup(raw(mine)), byGroup(raw(other))]).toEqual([true, false]);
    const thread = { channel: 'C0X', ts: '1.2' };
    const slack = result('j3', 'x', 'i', 10, { requesters: [{ kind: 'slack', user: 'U1', channel: 'C0X' }] });
    expect(mayBelong({ cluster: CLUSTER, thread, sinceMs: 0, untilMs: 1 }, false)(raw(slack))).toBe(false);
    expect(mayBelong({ cluster: CLUSTER, thread, sinceMs: 0, untilMs: 1 }, true)(raw(slack))).toBe(true);
  });
});
