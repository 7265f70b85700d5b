import { describe, expect, it } from 'vitest';
import type { Diagnosis, Finding } from '../../diagnosis/types.js';
import { findingsMessage, ordinal } from './messages.js';

const finding: Finding = {
  rule: 'crash.oomkilled',
  severity: 'error',
  title: 'Container web was OOMKilled',
  cause: 'c',
  evidence: [],
  advice: ['raise the limit'],
  prevent: ['size the heap below the limit'],
  playbook: null,
  subject: 'pod/shop/web-1',
  causeKey: 'k',
  fingerprint: 'f',
  params: {},
  merged: [],
};
const d: Diagnosis = {
  target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
  cluster: 'prod',
  findings: [finding],
  skipped: [],
  ruleErrors: [],
  at: '2026-11-28T10:00:00Z',
};
const labels = (m: ReturnType<typeof findingsMessage>) => m.parts.flatMap((p) => ('label' in p && p.label ? [p.label] : []));

describe('a recurring cause in the thread', () => {
  it('says how often and when, and puts the prevention advice first', () => {
    const m = findingsMessage(d, {
      threadId: 't',
      recurrence: {
        fingerprint: 'crash.oomkilled|Deployment web|node-1',
        count: 3,
        days: 7,
        previous: [
          { jobId: 'j2', at: '2026-11-26T14:03:00.000Z' },
          { jobId: 'j1', at: '2026-11-23T09:12:00.000Z' },
        ],
      },
    });
    const said = m.parts.find((p) => 'label' in p && p.label === 'It happened before');
    expect(said).toMatchObject({ text: '3rd time in 7 days (before: 2026-11-26 14:03 UTC, 2026-11-23 09:12 UTC): the prevention advice comes first.' });
    expect(labels(m).indexOf('Prevent a repeat')).toBeLessThan(labels(m).indexOf('Do now'));
  });

  it('names the last fix and whether it was verified', () => {
    const m = findingsMessage(d, {
      threadId: 't',
      recurrence: {
        fingerprint: 'f',
        count: 2,
        days: 7,
        previous: [{ jobId: 'j1', at: '2026-11-23T09:12:00.000Z' }],
        lastFix: { playbook: 'release-mount-holder', outcome: 'fixed', at: '2026-11-23T09:30:00.000Z' },
      },
    });
    expect(m.parts.find((p) => 'label' in p && p.label === 'It happened before')).toMatchObject({
      text: '2nd time in 7 days (before: 2026-11-23 09:12 UTC); last fix: release-mount-holder (verified fixed): the prevention advice comes first.',
    });
  });

  it('keeps the usual order the first time', () => {
    const m = findingsMessage(d, { threadId: 't' });
    expect(labels(m)).not.toContain('It happened before');
    expect(labels(m).indexOf('Do now')).toBeLessThan(labels(m).indexOf('Prevent a repeat'));
  });

  it('spells ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']);
  });
});
