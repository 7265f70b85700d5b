// The rule tester's own checks can fail: a message id, a value or a quote that is not there.
import { describe, expect, it } from 'vitest';
import { msg } from '../src/diagnosis/messages.js';
import type { FindingDraft } from '../src/diagnosis/types.js';
import { saidIn, saysIt } from './helpers/rule-tester.js';

const draft: FindingDraft = {
  title: msg('title', { pod: 'shop/web-1' }),
  cause: [msg('cause', { limit: '512Mi' }), false, msg('detail', { restarts: 7 })],
  evidence: [{ source: 'event', text: 'Back-off restarting failed container' }],
  advice: [msg('raise', { knob: 'resources.limits.memory' }), null],
  prevent: [msg('alert')],
};

describe('rule tester: said', () => {
  it('lists every message a draft says, in order', () => {
    expect(saidIn(draft).map((s) => s.messageId)).toEqual(['title', 'cause', 'detail', 'raise', 'alert']);
  });
  it('finds a message by id, with exact or matching values', () => {
    const said = saidIn(draft);
    expect(saysIt(said, 'alert')).toBe(true);
    expect(saysIt(said, { id: 'cause', data: { limit: '512Mi' } })).toBe(true);
    expect(saysIt(said, { id: 'detail', data: { restarts: 7 } })).toBe(true);
    expect(saysIt(said, { id: 'raise', data: { knob: /limits\.memory$/ } })).toBe(true);
  });
  it('fails on a missing id, a wrong value, a value of another message or a missing key', () => {
    const said = saidIn(draft);
    expect(saysIt(said, 'nope')).toBe(false);
    expect(saysIt(said, { id: 'cause', data: { limit: '1Gi' } })).toBe(false);
    expect(saysIt(said, { id: 'title', data: { limit: '512Mi' } })).toBe(false);
    expect(saysIt(said, { id: 'alert', data: { x: /./ } })).toBe(false);
  });
});
