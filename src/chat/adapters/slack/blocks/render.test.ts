// Every message pod-doctor would post for every incident fixture fits Slack's limits, and so
// do absurd inputs: 100 findings, 10,000-character evidence, a 400-line dry run.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageText } from '../../../../../test/helpers/fake-slack.js';
import { ObjectsSource } from '../../../../collect/objects-source.js';
import type { Diagnosis, Finding } from '../../../../diagnosis/types.js';
import type { Incident } from '../../../../jobs/schemas.js';
import { parseTarget } from '../../../../kube/target.js';
import type { Plan } from '../../../../remediation/plan.js';
import { loadScenarios } from '../../../../sim/scenarios.js';
import { diagnoseTarget } from '../../../../usecases/diagnose.js';
import { approvalMessage, findingsMessage, helpMessage, incidentRootMessage, noteMessage, type PlanOffer, rootMessage } from '../../../messages/messages.js';
import type { ApprovalRecord } from '../../../store/approvals.js';
import { type ActionKind, type GroupAction, userRef } from '../../../types.js';
import { slackIds } from '../ids.js';
import { checkSlackMessage, LIMITS, truncateVisibly } from './limits.js';
import { ACTION_IDS, actionIdPattern, actionOf, MAX_MESSAGES_PER_POST, renderMessages, renderSingle, type SlackMessage } from './render.js';

const scenarios = await loadScenarios(join(import.meta.dirname, '../../../../../test/fixtures/incidents'));

function expectFits(messages: SlackMessage[]): void {
  expect(messages.length).toBeGreaterThan(0);
  for (const m of messages) expect(checkSlackMessage(m)).toEqual([]);
}

function finding(i: number, patch: Partial<Finding> = {}): Finding {
  return {
    rule: 'terminating.finalizers',
    severity: 'error',
    title: `Finding ${i}: pod deletion blocked by finalizer example.com/cleanup <with> & "quotes"`,
    cause: `Cause ${i}: ${'the controller that owns the finalizer is gone. '.repeat(3)}`,
    evidence: [{ source: `event FailedKillPod (x${i})`, text: `error killing pod: ${'context deadline exceeded '.repeat(4)}` }],
    advice: ['Check the controller', 'Remove the finalizer if the controller is gone for good'],
    prevent: ['Delete dependants before the owner'],
    playbook: 'remove-finalizers',
    subject: `pod/shop/web-${i}`,
    causeKey: `finalizer/example.com-cleanup-${i}`,
    fingerprint: `terminating.finalizers|pod/shop/web-${i}|${i}`,
    params: {},
    merged: [],
    ...patch,
  };
}

function diagnosis(findings: Finding[]): Diagnosis {
  return { target: { kind: 'pod', namespace: 'shop', name: 'web-1' }, cluster: 'prod-eu-1', findings, skipped: [], ruleErrors: [], at: '2026-11-21T10:00:00Z' };
}

function plan(patch: Partial<Plan> = {}): Plan {
  return {
    v: 1,
    id: 'pl_AAAAAAAAAAAAAAAA',
    cluster: 'prod-eu-1',
    playbook: { id: 'remove-finalizers', title: 'Remove the finalizers of a pod stuck Terminating' },
    target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
    finding: { rule: 'terminating.finalizers', fingerprint: 'f', subject: 'pod/shop/web-1', causeKey: 'k', title: 't', severity: 'error' },
    params: {},
    summary: 'Remove finalizers [example.com/cleanup] from pod shop/web-1 (uid 92c79d4f-b933-477f-8147-1aa3481516b9).',
    warnings: [],
    dryRun: ['1. PATCH pod shop/web-1: remove finalizers [example.com/cleanup]', '2. wait until pod shop/web-1 is gone (at most 60s)'],
    risk: 'medium',
    approvals: 1,
    preconditions: [{ check: 'pod-uid-is', uid: '92c79d4f-b933-477f-8147-1aa3481516b9' }],
    steps: [],
    verify: ['terminating.finalizers'],
    expect: [],
    createdAt: '2026-11-21T10:00:00Z',
    expiresAt: '2026-11-21T11:00:00Z',
    ...patch,
  };
}

const pending: ApprovalRecord = {
  planId: 'pl_AAAAAAAAAAAAAAAA',
  cluster: 'prod-eu-1',
  status: 'pending',
  required: 1,
  requireDifferent: false,
  expiresAt: Date.parse('2026-11-21T10:15:00Z'),
  approvals: [],
  prompts: [],
};
const NOW = Date.parse('2026-11-21T10:01:00Z');

describe('Block Kit limits', () => {
  it('has the incident fixtures to render', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(30);
  });

  it.each(scenarios.map((s) => [s.slug, s] as const))('%s: every message fits', async (_slug, s) => {
    const d = await diagnoseTarget(new ObjectsSource(s.objects), parseTarget(s.meta.target), { cluster: 'fixture', now: () => new Date(s.meta.now) });
    const offers: PlanOffer[] = d.findings
      .filter((f) => f.playbook)
      .map((f, i) => ({
        fingerprint: f.fingerprint,
        playbook: f.playbook!,
        ...(i === 0 ? { planId: 'pl_AAAAAAAAAAAAAAAA' } : { notOffered: 'precondition does not hold' }),
      }));
    const findings = renderMessages(findingsMessage(d, { threadId: 'abcdefghijkl', offers }));
    expectFits(findings);
    // One message for a real diagnosis; the re-run button last; the cluster named.
    expect(findings).toHaveLength(1);
    const last = findings.at(-1)!;
    expect(last.blocks.at(-1)).toMatchObject({ type: 'actions' });
    expect(last.text).toContain('[fixture]');
    for (const f of d.findings) expect(messageText(last)).toContain(f.rule);

    const first = d.findings[0];
    const root = renderSingle(
      rootMessage({
        cluster: 'fixture',
        target: d.target,
        requestedBy: ['U0ALICE'],
        origin: 'slash',
        status: 'diagnosed',
        ...(first ? { severity: first.severity, primaryTitle: first.title, primaryRule: first.rule } : {}),
        findings: d.findings.length,
        updatedAt: s.meta.now,
      }),
    );
    expectFits([root]);
    expect(root.text).toContain('fixture');
  });

  it('splits 100 findings with 10,000-character evidence across messages, each within limits, truncated visibly', () => {
    const huge = diagnosis(
      Array.from({ length: 100 }, (_, i) =>
        finding(i, {
          evidence: [
            { source: 'kubelet log', text: `line ${'x'.repeat(120)}\n`.repeat(80).slice(0, 10_000) },
            { source: 's'.repeat(5000), text: '<'.repeat(10_000) },
          ],
        }),
      ),
    );
    // Every finding with its Not a problem button: more blocks, still within the limits.
    const marks = Object.fromEntries(huge.findings.map((f, i) => [f.fingerprint, `mk${String(i).padStart(24, '0')}`]));
    const messages = renderMessages(findingsMessage(huge, { threadId: 'abcdefghijkl', marks }));
    expectFits(messages);
    const ids = messages.flatMap((m) =>
      m.blocks.filter((b) => b.type === 'actions').flatMap((b) => (b.elements as { action_id: string }[]).map((e) => e.action_id)),
    );
    expect(ids.filter((id) => id === ACTION_IDS['not-a-problem']).length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThanOrEqual(MAX_MESSAGES_PER_POST);
    const all = messages.map(messageText).join('\n');
    expect(all).toMatch(/… \(truncated, \d+ more characters\)/);
    expect(all).toMatch(/… \(truncated: \d+ more blocks not shown/);
    // The re-run and write-up buttons survive, in the last message.
    expect(messages.at(-1)!.blocks.at(-1)).toMatchObject({ type: 'actions', elements: [{ action_id: ACTION_IDS.rerun }, { action_id: ACTION_IDS.writeup }] });
    for (const [i, m] of messages.entries()) expect(m.text).toContain(`(part ${i + 1}/${messages.length})`);
  });

  it('keeps single messages (updates, prompts) within limits and the buttons on them', () => {
    const longPlan = plan({
      dryRun: Array.from({ length: 400 }, (_, i) => `${i + 1}. DELETE pod shop/web-${i} ${'(grace 0) '.repeat(10)}`),
      warnings: ['w'.repeat(4000)],
      summary: 's'.repeat(5000),
      playbook: { id: 'remove-finalizers', title: 'T'.repeat(300) },
      risk: 'high',
      approvals: 2,
    });
    const m = renderSingle(approvalMessage(longPlan, pending, { ids: ['U0BOB', 'S0SRE'], isGroup: slackIds.isGroup }, NOW));
    expectFits([m]);
    const buttons = m.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as Record<string, unknown>[]);
    expect(buttons.map((b) => b.action_id)).toEqual([ACTION_IDS.approve, ACTION_IDS.deny]);
    // Dangerous (high risk, two approvers): a confirm dialog in front of Approve.
    expect(buttons[0]!.confirm).toBeDefined();
    expect(messageText(m)).toMatch(/truncated/);
  });

  it.each([
    ['a header', { kind: 'header' as const, text: 'h'.repeat(1000) }],
    ['a section', { kind: 'section' as const, label: 'l'.repeat(500), text: 'x'.repeat(50_000) }],
    ['a context', { kind: 'context' as const, text: 'c'.repeat(9000) }],
    ['fields', { kind: 'fields' as const, fields: Array.from({ length: 30 }, (_, i) => ({ label: `f${i}`, value: 'v'.repeat(3000) })) }],
    ['a list', { kind: 'list' as const, items: Array.from({ length: 500 }, (_, i) => `item ${i} ${'y'.repeat(100)}`) }],
    ['code', { kind: 'code' as const, lines: Array.from({ length: 2000 }, () => `\`\`\`${'z'.repeat(50)}`) }],
    [
      'buttons',
      {
        kind: 'actions' as const,
        buttons: Array.from({ length: 40 }, (_, i) => ({
          action: 'approve' as const,
          label: `Approve: ${'b'.repeat(200)} ${i}`,
          value: 'pl_AAAAAAAAAAAAAAAA',
        })),
      },
    ],
  ])('never exceeds a limit with %s', (_name, part) => {
    expectFits(renderMessages({ text: `[prod] ${'t'.repeat(10_000)}`, parts: [part] }));
    expectFits([renderSingle({ text: '[prod] t', parts: [part, part] })]);
  });

  it('refuses to put anything but an opaque id in a button', () => {
    expect(() =>
      renderSingle({ text: '[prod] x', parts: [{ kind: 'actions', buttons: [{ action: 'approve', label: 'A', value: 'v'.repeat(LIMITS.buttonValue + 1) }] }] }),
    ).toThrow(/opaque ids/);
  });

  it("escapes user text but keeps pod-doctor's own mentions", () => {
    const m = renderSingle(noteMessage('prod', `U ${userRef('U0BOB')} said <script> & <!channel>`));
    expect(JSON.stringify(m.blocks)).toContain('<@U0BOB> said &lt;script&gt; &amp; &lt;!channel&gt;');
    expect(messageText(m)).toContain('said <script> & <!channel>');
  });

  it('lists incident pods compactly', () => {
    const incident: Incident = {
      id: 'prod|image.auth|k',
      cluster: 'prod',
      rule: 'image.auth',
      causeKey: 'k',
      created: true,
      firstJobId: 'j',
      createdAt: '2026-11-21T10:00:00Z',
      count: 12,
      subjects: ['pod/shop/web-1', 'pod/shop/web-2', 'pod/shop/web-3', 'pod/shop/web-4'],
    };
    const m = renderSingle(
      incidentRootMessage({
        cluster: 'prod',
        incident,
        finding: { title: 'Image pull unauthorized', rule: 'image.auth', severity: 'error', cause: 'c' },
        updatedAt: '2026-11-21T10:05:00Z',
      }),
    );
    expectFits([m]);
    expect(messageText(m)).toContain('12 pods: shop/web-1, shop/web-2, shop/web-3 and 9 more');
  });

  it('renders help and a truncation helper that says how much it cut', () => {
    expectFits([renderSingle(helpMessage('prod', 'shop'))]);
    const cut = truncateVisibly('a'.repeat(5000), 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/… \(truncated, 49\d\d more characters\)$/);
  });

  it("renders an alert thread's silence and mute buttons with their own action ids, which only their listener matches", () => {
    const kinds: GroupAction[] = ['silence-1h', 'silence-4h', 'silence-24h', 'mute'];
    const labels = ['Silence 1h', 'Silence 4h', 'Silence 24h', 'Mute 4h'];
    const m = renderSingle(
      noteMessage('prod', '10:00:00 UTC 2 alerts firing', 'warning', [
        { kind: 'context', text: `Thread muted by ${userRef('U0ALICE')} until 14:00:00 UTC` },
        { kind: 'actions', buttons: kinds.map((action, i) => ({ action, label: labels[i]!, value: 'thread-id-12' })) },
      ]),
    );
    expectFits([m]);
    const buttons = m.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as Record<string, unknown>[]);
    expect(buttons.map((b) => b.action_id)).toEqual(['pd_silence1h', 'pd_silence4h', 'pd_silence24h', 'pd_mute']);
    expect(buttons.map((b) => (b.text as { text: string }).text)).toEqual(labels);
    expect(buttons.every((b) => b.value === 'thread-id-12')).toBe(true);
    expect(messageText(m)).toContain('<@U0ALICE>');

    const decisions = actionIdPattern(['approve', 'deny', 'rerun', 'writeup', 'not-a-problem']);
    const groups = actionIdPattern(['silence-1h', 'silence-4h', 'silence-24h', 'unsilence', 'mute', 'unmute']);
    for (const [kind, id] of Object.entries(ACTION_IDS) as [ActionKind, string][]) {
      // Every id maps back to its kind, also as the nth button of a block.
      expect(actionOf(id)).toBe(kind);
      expect(actionOf(`${id}_3`)).toBe(kind);
      const isDecision = kind === 'approve' || kind === 'deny' || kind === 'rerun' || kind === 'writeup' || kind === 'not-a-problem';
      expect([decisions.test(id), groups.test(id), groups.test(`${id}_2`)]).toEqual([isDecision, !isDecision, !isDecision]);
    }
    expect(actionOf('pd_deny_reason')).toBeUndefined();
    expect(actionOf('pd_silence2h')).toBeUndefined();
  });
});
