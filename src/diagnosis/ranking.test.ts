import { describe, expect, it } from 'vitest';
import { pod, snapshot } from '../../test/helpers/factories.js';
import { toFinding } from './engine.js';
import { msg } from './messages.js';
import { rankAndMerge } from './ranking.js';
import { defineRule, type Rule } from './rule.js';
import type { FindingDraft } from './types.js';

const LINE = 'Failed to inspect image "nginx": rpc error: code = Unknown desc = something a rule half-understands';

function fake(
  id: string,
  priority: number,
  draft: Partial<FindingDraft<'title' | 'cause' | 'x'>>,
  extra: { playbook?: string; supersedes?: string[]; generic?: boolean } = {},
): Rule {
  return defineRule({
    meta: {
      id,
      title: id,
      category: 'image',
      severity: 'error',
      needs: [],
      priority,
      doc: id,
      messages: { title: id, cause: `${id} explains it.`, x: 'x' },
      ...extra,
    },
    check: () => ({ title: msg('title'), cause: msg('cause'), evidence: [{ source: 'status', text: LINE }], advice: [msg('x')], ...draft }),
  });
}

function rank(rules: Rule[]) {
  const s = snapshot(pod());
  const findings = rules.map((r) => toFinding(r, r.check(s, { pendingGraceSeconds: 60, changeWindowSeconds: 7200 }) as FindingDraft, s));
  return rankAndMerge(findings, rules);
}

describe('a playbook is withheld when the same line fits two classes', () => {
  it('neither finding offers a fix, the likelier still ranks first, and the cause says why', () => {
    const corrupt = fake('image.corrupt-local', 60, {}, { playbook: 'repull-image' });
    const other = fake('image.other', 50, {});
    const [first, second] = rank([other, corrupt]);
    expect(first?.rule).toBe('image.corrupt-local');
    expect(first?.playbook).toBeNull();
    expect(first?.alternatives).toEqual(['image.other']);
    expect(first?.cause).toMatch(/also fits image\.other.*playbook repull-image withheld/);
    expect(second?.playbook).toBeNull();
  });

  it('keeps the playbook when the other rule quotes different evidence', () => {
    const corrupt = fake('image.corrupt-local', 60, {}, { playbook: 'repull-image' });
    const other = fake('image.other', 50, { evidence: [{ source: 'event', text: 'another line' }] });
    expect(rank([other, corrupt])[0]?.playbook).toBe('repull-image');
  });

  it('keeps the playbook when the rule folds the other in (a symptom, not a rival)', () => {
    const corrupt = fake('image.corrupt-local', 60, {}, { playbook: 'repull-image', supersedes: ['image.other'] });
    const other = fake('image.other', 50, {});
    const [first] = rank([other, corrupt]);
    expect(first?.playbook).toBe('repull-image');
    expect(first?.merged).toEqual(['image.other']);
  });

  it('keeps the playbook when the rival is only info', () => {
    const corrupt = fake('image.corrupt-local', 60, {}, { playbook: 'repull-image' });
    const other = fake('image.other', 50, { severity: 'info' });
    expect(rank([other, corrupt])[0]?.playbook).toBe('repull-image');
  });
});

describe('the order of findings (issue 32)', () => {
  const sevs = (rules: Rule[]) => rank(rules).map((f) => `${f.rule}:${f.severity}`);
  it('never puts a finding above one of higher severity, whatever its priority', () => {
    const strongWarning = fake('node.strong', 90, { severity: 'warning', evidence: [{ source: 's', text: 'a' }] });
    const weakError = fake('crash.weak', 10, { evidence: [{ source: 's', text: 'b' }] });
    const info = fake('pod.note', 99, { severity: 'info', evidence: [{ source: 's', text: 'c' }] });
    expect(sevs([info, strongWarning, weakError])).toEqual(['crash.weak:error', 'node.strong:warning', 'pod.note:info']);
  });
  it('within a severity, the stronger explanation first', () => {
    const a = fake('x.a', 20, { evidence: [{ source: 's', text: 'a' }] });
    const b = fake('x.b', 40, { evidence: [{ source: 's', text: 'b' }] });
    expect(sevs([a, b])).toEqual(['x.b:error', 'x.a:error']);
  });
  it('a generic rule never outranks a specific one quoting the same line: the specific one moves up and takes its severity', () => {
    const generic = fake('crash.app-exit', 30, {}, { generic: true });
    const specific = fake('crash.specific', 20, { severity: 'warning' });
    expect(sevs([generic, specific])).toEqual(['crash.specific:error', 'crash.app-exit:error']);
  });
  it('leaves a generic finding first when the specific one quotes another line', () => {
    const generic = fake('crash.app-exit', 30, {}, { generic: true });
    const specific = fake('crash.specific', 20, { severity: 'warning', evidence: [{ source: 's', text: 'another' }] });
    expect(sevs([generic, specific])).toEqual(['crash.app-exit:error', 'crash.specific:warning']);
  });
});
