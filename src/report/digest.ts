// The weekly digest: what a week of incidents says about the clusters, computed from the stored
// results and the audit stream (nothing is recorded for it): causes that came back, how long it
// took to the first finding and to a verified fix, fixes run and how they ended, and the noisiest
// workloads. `computeDigest` is pure; `gatherDigest` reads its input from Redis.
import type { AuditEntry } from '../audit/entry.js';
import { readAudit } from '../audit/stream.js';
import type { DiagnoseResult } from '../jobs/schemas.js';
import type { RedisClient } from '../redis/client.js';
import { readResults, type StoredResult } from './story.js';

export interface DigestInput {
  sinceMs: number;
  untilMs: number;
  clusters: string[];
  results: StoredResult[];
  audit: AuditEntry[];
}

export interface Spread {
  count: number;
  medianMs: number;
  p90Ms: number;
}

export interface Digest {
  sinceMs: number;
  untilMs: number;
  clusters: string[];
  /** Occurrences of a cause: a storm-grouped incident, or one diagnosis that found a problem. */
  incidents: number;
  diagnoses: number;
  recurring: { cluster: string; rule: string; title: string; workload: string; occurrences: number; lastAt: string }[];
  toFirstFinding: Spread | null;
  toVerifiedFix: Spread | null;
  fixes: { playbook: string; run: number; fixed: number; notFixed: number; failed: number }[];
  decisions: { approved: number; denied: number; expired: number };
  noisiest: { cluster: string; workload: string; diagnoses: number; alerts: number }[];
}

const TOP = 5;

/**
 * The workload a pod belongs to, from what the result says: the workload alert that found it, else
 * its name without the suffixes controllers add (ReplicaSet hash and pod suffix, a StatefulSet's
 * ordinal, a DaemonSet's or Job's suffix). Nodes and namespaces are their own workload.
 */
export function workloadOf(r: DiagnoseResult): string {
  // `deployment/shop/web` → `shop/web`: the same key as its pods' names give.
  for (const q of r.requesters ?? []) if (q.kind === 'alert' && q.workload) return q.workload.split('/').slice(1).join('/') || q.workload;
  const t = r.job.target;
  // `Deployment web`, when the diagnosis names the pod's top workload (read defensively).
  const named = (r.diagnosis as { workload?: unknown } | undefined)?.workload;
  if (t.kind === 'pod' && typeof named === 'string' && /^\w+ \S+$/.test(named)) return `${t.namespace}/${named.split(' ')[1]}`;
  if (t.kind === 'node') return `node/${t.name}`;
  if (t.kind === 'namespace') return `ns/${t.name}`;
  const name = t.name
    .replace(/-[a-z0-9]{6,10}-[a-z0-9]{5}$/, '')
    .replace(/-\d+$/, '')
    .replace(/-[a-z0-9]{5}$/, '');
  return `${t.namespace}/${name}`;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function spread(values: number[]): Spread | null {
  const v = values.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  return v.length ? { count: v.length, medianMs: percentile(v, 50), p90Ms: percentile(v, 90) } : null;
}

const primaryOf = (r: DiagnoseResult) => {
  const f = r.diagnosis?.findings[0];
  return f && f.severity !== 'info' ? f : undefined;
};

interface Occurrence {
  cluster: string;
  rule: string;
  title: string;
  workload: string;
  start: number;
  firstFinding: number;
  plans: Set<string>;
}

/** When whoever asked first asked: the command, or the alert that fired. */
function askedAt(r: DiagnoseResult): number {
  const times = [Date.parse(r.job.requestedAt), ...(r.requesters ?? []).flatMap((q) => (q.kind === 'alert' ? [Date.parse(q.startsAt)] : []))];
  return Math.min(...times.filter(Number.isFinite));
}

export function computeDigest(input: DigestInput): Digest {
  const occurrences = new Map<string, Occurrence>();
  const noise = new Map<string, { cluster: string; workload: string; diagnoses: number; alerts: Set<string> }>();
  let diagnoses = 0;
  for (const { result: r, at } of input.results) {
    if (r.status !== 'diagnosed' || !r.diagnosis) continue;
    diagnoses++;
    const f = primaryOf(r);
    if (!f) continue;
    const cluster = r.job.cluster;
    const workload = workloadOf(r);
    const n = noise.get(`${cluster}|${workload}`) ?? { cluster, workload, diagnoses: 0, alerts: new Set<string>() };
    n.diagnoses++;
    for (const q of r.requesters ?? []) if (q.kind === 'alert') n.alerts.add(`${q.alertFingerprint ?? q.fingerprint}|${q.startsAt}`);
    noise.set(`${cluster}|${workload}`, n);
    // One storm is one occurrence, however many pods it hit.
    const key = r.incident ? `${r.incident.id}#${r.incident.createdAt}` : `job:${cluster}:${r.jobId}`;
    const found = Date.parse(r.diagnosis.at) || at;
    const o = occurrences.get(key) ?? {
      cluster,
      rule: f.rule,
      title: f.title,
      workload,
      start: Number.POSITIVE_INFINITY,
      firstFinding: found,
      plans: new Set<string>(),
    };
    o.start = Math.min(o.start, askedAt(r));
    o.firstFinding = Math.min(o.firstFinding, found);
    for (const offer of r.offers ?? []) if (offer.planId) o.plans.add(offer.planId);
    occurrences.set(key, o);
  }

  const fixedAt = new Map<string, number>();
  const fixes = new Map<string, Digest['fixes'][number]>();
  const decisions = { approved: 0, denied: 0, expired: 0 };
  for (const e of input.audit) {
    if (e.outcome === 'approved') decisions.approved++;
    else if (e.outcome === 'denied') decisions.denied++;
    else if (e.outcome === 'expired') decisions.expired++;
    if (e.kind !== 'run') continue;
    const f = fixes.get(e.playbook) ?? { playbook: e.playbook, run: 0, fixed: 0, notFixed: 0, failed: 0 };
    if (e.outcome !== 'refused') f.run++;
    if (e.outcome === 'fixed') {
      f.fixed++;
      fixedAt.set(e.planId, Date.parse(e.at));
    } else if (e.outcome === 'not-fixed') f.notFixed++;
    else f.failed++;
    fixes.set(e.playbook, f);
  }

  const occ = [...occurrences.values()];
  const byCause = new Map<string, Occurrence[]>();
  for (const o of occ) byCause.set(`${o.cluster}|${o.rule}|${o.workload}`, [...(byCause.get(`${o.cluster}|${o.rule}|${o.workload}`) ?? []), o]);
  const recurring = [...byCause.values()]
    .filter((list) => list.length > 1)
    .map((list) => {
      const o = list[0]!;
      const last = Math.max(...list.map((x) => x.firstFinding));
      return { cluster: o.cluster, rule: o.rule, title: o.title, workload: o.workload, occurrences: list.length, lastAt: new Date(last).toISOString() };
    })
    .sort((a, b) => b.occurrences - a.occurrences || b.lastAt.localeCompare(a.lastAt))
    .slice(0, TOP);
  const toFix = occ.flatMap((o) => {
    const at = [...o.plans].map((p) => fixedAt.get(p)).filter((t): t is number => t !== undefined);
    return at.length ? [Math.min(...at) - o.start] : [];
  });
  return {
    sinceMs: input.sinceMs,
    untilMs: input.untilMs,
    clusters: input.clusters,
    incidents: occ.length,
    diagnoses,
    recurring,
    toFirstFinding: spread(occ.map((o) => o.firstFinding - o.start)),
    toVerifiedFix: spread(toFix),
    fixes: [...fixes.values()].sort((a, b) => b.run - a.run || a.playbook.localeCompare(b.playbook)),
    decisions,
    noisiest: [...noise.values()]
      .map((n) => ({ cluster: n.cluster, workload: n.workload, diagnoses: n.diagnoses, alerts: n.alerts.size }))
      .sort((a, b) => b.diagnoses + b.alerts - (a.diagnoses + a.alerts) || a.workload.localeCompare(b.workload))
      .slice(0, TOP),
  };
}

/** What the digest reads of a result (a week of results is held at once): the top finding without its evidence. */
function slim(r: DiagnoseResult): DiagnoseResult {
  const { diagnosis, incident, trace: _trace, ...rest } = r;
  return {
    ...rest,
    ...(incident ? { incident: { ...incident, subjects: [] } } : {}),
    ...(diagnosis
      ? {
          diagnosis: {
            ...diagnosis,
            findings: diagnosis.findings.slice(0, 1).map((f) => ({ ...f, evidence: [], advice: [], prevent: [], params: {} })),
            skipped: [],
            ruleErrors: [],
            changes: [],
          },
        }
      : {}),
  };
}

/** The digest's input for `clusters` over a window, read from Redis. */
export async function gatherDigest(redis: RedisClient, prefix: string, clusters: readonly string[], sinceMs: number, untilMs: number): Promise<DigestInput> {
  const results: StoredResult[] = [];
  const audit: AuditEntry[] = [];
  for (const cluster of clusters) {
    for await (const r of readResults(redis, prefix, cluster, sinceMs, untilMs)) results.push({ ...r, result: slim(r.result) });
    for await (const a of readAudit(redis, prefix, cluster, { sinceMs, untilMs })) audit.push(a.entry);
  }
  return { sinceMs, untilMs, clusters: [...clusters], results, audit };
}

export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 180) return `${m} min`;
  const h = Math.round(m / 6) / 10;
  return h < 48 ? `${h} h` : `${Math.round(h / 2.4) / 10} d`;
}

const spreadText = (s: Spread | null) => (s ? `median ${durationText(s.medianMs)}, p90 ${durationText(s.p90Ms)} (${s.count})` : 'none in this window');

/** The digest as lines: a title and sections of bullets (the chat message and the Markdown share them). */
export function digestSections(d: Digest): { title: string; sections: { label: string; items: string[] }[] } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const several = d.clusters.length > 1;
  const where = (c: string) => (several ? `${c}: ` : '');
  const totals = d.fixes.reduce((t, f) => ({ run: t.run + f.run, fixed: t.fixed + f.fixed, failed: t.failed + f.failed + f.notFixed }), {
    run: 0,
    fixed: 0,
    failed: 0,
  });
  return {
    title: `pod-doctor digest ${day(d.sinceMs)} → ${day(d.untilMs)} (${d.clusters.join(', ')}): ${d.incidents} incidents, ${d.diagnoses} diagnoses`,
    sections: [
      {
        label: 'Recurring causes',
        items: d.recurring.length
          ? d.recurring.map((r) => `${where(r.cluster)}${r.title} [${r.rule}] on ${r.workload}: ${r.occurrences} times, last ${day(Date.parse(r.lastAt))}`)
          : ['No cause came back to the same workload.'],
      },
      {
        label: 'Response',
        items: [`Time to first finding: ${spreadText(d.toFirstFinding)}`, `Time to a verified fix: ${spreadText(d.toVerifiedFix)}`],
      },
      {
        label: `Fixes: ${totals.run} run, ${totals.fixed} verified fixed, ${totals.failed} failed or not fixed`,
        items: [
          ...d.fixes.map(
            (f) =>
              `${f.playbook}: ${f.run} run, ${f.fixed} ` +
              `fixed${f.notFixed ? `, ${f.notFixed} not fixed` : ''}${f.failed ? `, ${f.failed} failed/stopped/refused` : ''}`,
          ),
          `Decisions: ${d.decisions.approved} approved, ${d.decisions.denied} denied, ${d.decisions.expired} expired unanswered`,
        ],
      },
      {
        label: 'Noisiest workloads',
        items: d.noisiest.length
          ? d.noisiest.map((n) => `${where(n.cluster)}${n.workload}: ${n.diagnoses} diagnoses with a problem, ${n.alerts} alerts`)
          : ['Quiet: no diagnosis found a problem.'],
      },
    ],
  };
}

export function digestMarkdown(d: Digest): string {
  const { title, sections } = digestSections(d);
  return `# ${title}\n\n${sections.map((s) => `## ${s.label}\n\n${s.items.map((i) => `- ${i}`).join('\n')}\n`).join('\n')}`;
}
