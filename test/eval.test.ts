// The evaluation corpus as a test: its cases are well formed (a real URL, the decisive line in the
// dump), the scorer says what it claims, and the product holds its goals on the corpus: at least
// 85% right, no false alarm on the negatives (issue 21). `npm run eval` prints the same figures.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../eval/cases.js';
import { evaluate, tally } from '../eval/run.js';
import { scoreCase } from '../eval/score.js';
import type { Diagnosis, Finding } from '../src/diagnosis/types.js';

const ROOT = join(import.meta.dirname, '../eval/corpus');
const cases = await loadCases(ROOT);

function finding(rule: string, patch: Partial<Finding> = {}): Finding {
  return {
    rule,
    severity: 'error',
    title: rule,
    cause: 'cause',
    evidence: [{ source: 'event', text: 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)' }],
    advice: [],
    prevent: [],
    playbook: null,
    subject: 'pod/shop/web',
    causeKey: 'k',
    fingerprint: `${rule}|k`,
    params: {},
    merged: [],
    ...patch,
  };
}
const diagnosis = (...findings: Finding[]): Diagnosis => ({
  target: { kind: 'pod', namespace: 'shop', name: 'web' },
  cluster: 'eval',
  findings,
  skipped: [],
  ruleErrors: [],
  at: '',
});
const expectRule = (
  first: string | null,
  more: { decisive?: string; playbook?: string | null; acceptable?: string[]; mechanism?: { id?: string; terms: string[][] } } = {},
) => ({
  first,
  acceptable: [],
  ...more,
});

describe('the scorer', () => {
  it('right: the expected rule first, quoting the decisive line', () => {
    expect(scoreCase(diagnosis(finding('crash.port-in-use')), expectRule('crash.port-in-use', { decisive: 'Address already in use' })).verdict).toBe('right');
  });
  it('useful: the right rule first without the decisive line, or the line quoted by another rule', () => {
    expect(scoreCase(diagnosis(finding('crash.port-in-use')), expectRule('crash.port-in-use', { decisive: 'port 80 is already in use' })).verdict).toBe(
      'useful',
    );
    expect(scoreCase(diagnosis(finding('crash.app-exit')), expectRule('crash.port-in-use', { decisive: 'Address already in use' })).verdict).toBe('useful');
  });
  it('wrong: another cause first without the line, or any wrong playbook', () => {
    expect(scoreCase(diagnosis(finding('image.auth', { evidence: [] })), expectRule('image.not-found', { decisive: 'manifest unknown' })).verdict).toBe(
      'wrong',
    );
    const repull = finding('image.corrupt-local', { playbook: 'repull-image' });
    expect(scoreCase(diagnosis(finding('image.short-name'), repull), expectRule('image.short-name', { playbook: null })).verdict).toBe('wrong');
  });
  it("the right rule's own playbook is right unless the case says none", () => {
    const f = finding('terminating.finalizers', { playbook: 'remove-finalizers' });
    expect(scoreCase(diagnosis(f), expectRule('terminating.finalizers')).verdict).toBe('right');
    expect(scoreCase(diagnosis(f), expectRule('terminating.finalizers', { playbook: null })).verdict).toBe('wrong');
  });
  it("a rollout regression's rollback is never a wrong playbook; another rule's is", () => {
    const rollback = finding('rollout.regression', { playbook: 'rollback-to-revision' });
    const first = finding('crash.port-in-use');
    expect(scoreCase(diagnosis(first, rollback), expectRule('crash.port-in-use', { decisive: 'Address already in use', playbook: null })).verdict).toBe(
      'right',
    );
    const borrowed = finding('crash.app-exit', { playbook: 'rollback-to-revision' });
    expect(scoreCase(diagnosis(first, borrowed), expectRule('crash.port-in-use', { decisive: 'Address already in use', playbook: null })).verdict).toBe(
      'wrong',
    );
  });
  it('silent: nothing of severity warning or worse; negatives: quiet or false alarm', () => {
    expect(scoreCase(diagnosis(finding('pod.unexplained', { severity: 'info' })), expectRule('crash.app-exit')).verdict).toBe('silent');
    expect(scoreCase(diagnosis(finding('pod.unexplained', { severity: 'info' })), expectRule(null)).verdict).toBe('quiet');
    expect(scoreCase(diagnosis(finding('pod.unexplained', { severity: 'warning' })), expectRule(null)).verdict).toBe('false-alarm');
  });
});

describe('the scorer on a class no rule names (expect.mechanism)', () => {
  const line = 'java.io.IOException: Read-only file system';
  const named = finding('crash.app-exit', {
    title: 'Container app exited with code 1: writes /tmp on a read-only root filesystem',
    cause: `The container runs with readOnlyRootFilesystem: true. The decisive line: "${line}".`,
    advice: ['spec.volumes + spec.containers[app].volumeMounts: mount an emptyDir at /tmp'],
    evidence: [{ source: 'logs app', text: line }],
    mechanism: { id: 'fs-read-only', variant: 'root-filesystem', signature: 'errno.erofs', knobs: [] },
  });
  const mechanism = { id: 'fs-read-only', terms: [['readOnlyRootFilesystem', 'read-only root filesystem'], ['emptyDir']] };
  it('right: the mechanism in its own words, the decisive line quoted, any rule when the case says any', () => {
    const s = scoreCase(diagnosis(named), expectRule('any', { decisive: 'Read-only file system', mechanism }));
    expect(s).toMatchObject({ verdict: 'right', mechanism: true });
  });
  it('useful, not right: the line quoted and explained by nothing but the quote', () => {
    const quoting = finding('crash.app-exit', {
      title: 'Container app exited with code 1',
      cause: `Exit code 1 means a generic application error. The log ends: "${line} (mount an emptyDir at /tmp: readOnlyRootFilesystem)".`,
      evidence: [{ source: 'logs app', text: line }],
    });
    expect(scoreCase(diagnosis(quoting), expectRule('any', { decisive: 'Read-only file system', mechanism }))).toMatchObject({
      verdict: 'useful',
      mechanism: false,
    });
  });
  it('not right when the catalogue id differs, or a term group is missing', () => {
    expect(scoreCase(diagnosis(named), expectRule('any', { mechanism: { ...mechanism, id: 'fs-permission' } })).verdict).toBe('useful');
    expect(scoreCase(diagnosis(named), expectRule('any', { mechanism: { terms: [['fsGroup']] } })).verdict).toBe('useful');
  });
  it('counts mechanism cases apart in the totals', () => {
    const t = tally([
      { verdict: 'right', got: '', why: '', mechanism: true },
      { verdict: 'useful', got: '', why: '', mechanism: false },
      { verdict: 'right', got: '', why: '' },
    ]);
    expect(t).toMatchObject({ cases: 3, right: 2, mechanism_cases: 2, mechanism_named: 1 });
  });
});

describe('the corpus', () => {
  const positives = cases.filter((c) => c.meta.expect.first !== null);
  it('has at least 60 real incidents and 10 negatives, each with its report', () => {
    expect(positives.length).toBeGreaterThanOrEqual(60);
    expect(cases.length - positives.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) expect(c.meta.url, c.slug).toMatch(/^https:\/\/\S+\.\S+/);
  });
  it.each(positives.map((c) => [c.slug, c] as const))('%s: its decisive line is in its dump', (_slug, c) => {
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(c.objects);
    expect(strings.join('\n').replace(/\s+/g, ' ')).toContain(c.meta.expect.decisive?.replace(/\s+/g, ' ') ?? '');
  });
});

describe('the product on the corpus', () => {
  // A blind split written after the rules (fresh3 and later) is a measurement reported as it came
  // out (eval/README.md), not a gate: gating on it would invite tuning the rules to it.
  const BLIND = new Set(['fresh3', 'fresh4', 'fresh5']);
  const gated = cases.filter((c) => !BLIND.has(c.meta.split));
  it('is right on at least 90% of the incidents and raises no false alarm', async () => {
    const scores = [];
    for (const c of gated) scores.push({ slug: c.slug, ...(await evaluate(c)).score });
    const t = tally(scores);
    const misses = scores.filter((s) => s.verdict !== 'right' && s.verdict !== 'quiet').map((s) => `${s.slug}: ${s.verdict} ${s.got} ${s.why}`);
    expect(t.false_alarms, misses.join('\n')).toBe(0);
    expect(t.right / t.cases, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });
});
