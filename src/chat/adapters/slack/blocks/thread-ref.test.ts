import { describe, expect, it } from 'vitest';
import { findingsMessage } from '../../../messages/messages.js';
import { splitUserRefs, threadRef } from '../../../types.js';
import { mrkdwn, renderSingle } from './render.js';

const ref = { channel: 'C0SHOP', ts: '1700000000.123456' };

describe('thread references', () => {
  it('are links in Slack and stay text when anyone else writes one', () => {
    expect(mrkdwn(`before: ${threadRef(ref)}`)).toBe('before: <https://slack.com/archives/C0SHOP/p1700000000123456|thread>');
    // Text from a cluster or an alert that looks like a link is escaped, never a live link.
    expect(mrkdwn('<https://evil.example|thread>')).toBe('&lt;https://evil.example|thread&gt;');
    expect(splitUserRefs('\uE000forged#C0SHOP/1700000000.123456\uE001')).toEqual([{ text: 'forged#C0SHOP/1700000000.123456' }]);
  });

  it('link the earlier incidents of a recurrence to their threads', () => {
    const d = { target: { kind: 'pod', namespace: 'shop', name: 'web-1' }, cluster: 'prod', findings: [], skipped: [], ruleErrors: [], at: '' } as never;
    const message = findingsMessage(d, {
      threadId: 't',
      recurrence: {
        fingerprint: 'f',
        count: 3,
        days: 7,
        previous: [
          { jobId: 'j2', at: '2026-11-26T14:03:00.000Z' },
          { jobId: 'j1', at: '2026-11-23T09:12:00.000Z' },
        ],
      },
      earlierThreads: { j2: ref },
    });
    const text = JSON.stringify(renderSingle(message).blocks);
    expect(text).toContain('2026-11-26 14:03 UTC <https://slack.com/archives/C0SHOP/p1700000000123456|thread>, 2026-11-23 09:12 UTC');
  });
});
