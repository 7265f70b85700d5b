// Text from alerts or the cluster is untrusted: whatever it contains, it never becomes a live
// Slack mention, broadcast or link, neither in blocks nor in the top-level `text`. Only ids
// pod-doctor chose itself (requester, approvers) become mentions.
import { describe, expect, it } from 'vitest';
import { renderMessages } from '../../src/chat/adapters/slack/blocks/render.js';
import { type AlertGroupState, alertGroupRootMessage, findingsMessage, noteMessage } from '../../src/chat/messages/messages.js';
import { userRef } from '../../src/chat/types.js';
import type { Diagnosis, Finding } from '../../src/diagnosis/types.js';
import { HOSTILE, liveControls } from '../helpers/injection.js';

function finding(evil: string): Finding {
  return {
    rule: 'crash.app-exit',
    severity: 'error',
    title: `Container ${evil} exits`,
    cause: `The log says ${evil}`,
    evidence: [{ source: `logs ${evil}`, text: `panic: ${evil}` }],
    advice: [`Ask ${evil}`],
    prevent: [`Never ${evil}`],
    playbook: null,
    subject: `pod/shop/${evil}`,
    causeKey: evil,
    fingerprint: evil,
    params: {},
    merged: [],
  };
}

function diagnosis(evil: string): Diagnosis {
  return {
    target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
    cluster: 'prod',
    findings: [finding(evil)],
    skipped: [{ check: `node ${evil}`, reason: evil, kind: 'failed', origin: 'api' }],
    ruleErrors: [],
    at: '2026-11-21T10:00:00Z',
  };
}

function group(evil: string): AlertGroupState {
  return {
    cluster: 'prod',
    groupId: 'g1',
    episode: 1,
    status: 'firing',
    receiver: evil,
    groupLabels: { namespace: evil, [evil]: 'x' },
    byAlertname: { [evil]: 2 },
    alertnames: [evil],
    firing: 2,
    resolved: 0,
    notDiagnosable: 0,
    truncatedAlerts: 0,
    causes: [{ key: evil, rule: 'crash.app-exit', severity: 'error', title: evil, count: 2, subjects: [`pod/${evil}/x`] }],
    healthy: 0,
    notFound: 0,
    failed: 0,
    since: '2026-11-21T09:00:00Z',
    updatedAt: '2026-11-21T10:00:00Z',
  };
}

describe('untrusted text in Slack payloads', () => {
  describe.each(HOSTILE)('%s', (evil) => {
    it.each([
      [
        'findings (title, cause, evidence, advice, prevent, subject, skipped checks)',
        () => findingsMessage(diagnosis(evil), { threadId: 't1', note: `re-run because ${evil}` }),
      ],
      ['an alert group root (receiver, labels, alert names, cause titles, subjects)', () => alertGroupRootMessage(group(evil))],
      ['a thread note (alert summaries, deny reasons)', () => noteMessage('prod', `KubePodCrashLooping shop/web: ${evil}`, 'warning')],
    ])('stays text in %s, blocks and fallback', (_what, build) => {
      const rendered = renderMessages(build());
      expect(liveControls(rendered)).toEqual([]);
      // Still readable: the escaped form is there.
      expect(JSON.stringify(rendered)).toContain(evil.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    });
  });

  it("renders pod-doctor's own references as mentions, and a forged one as text", () => {
    const msg = noteMessage('prod', `${userRef('U0APPROVER')} approved; the annotation said <@U0APPROVER> and \uE000guessed-key@U0FORGED\uE001`, 'ok');
    const [m] = renderMessages(msg);
    const controls = liveControls(m);
    expect(controls).toEqual(['<@U0APPROVER>']);
    expect(JSON.stringify(m)).toContain('&lt;@U0APPROVER&gt;');
    // The fallback text names the approver without pinging twice.
    expect(m?.text).toContain('@U0APPROVER approved');
  });
});
