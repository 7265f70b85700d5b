// `pod-doctor bot` end to end: signed requests in, a local fake of the Slack Web API out, the
// real job system on Redis, and the simulated cluster holding the seed incident of a pod kept
// Terminating by a finalizer. Deny (with a reason), re-run, a refused approval, two approvers
// clicking at once, the playbook run and its verification, all as Slack would see them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENY_REASON_CALLBACK } from '../../src/chat/adapters/slack/app.js';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import type { ChatContext } from '../../src/chat/context.js';

import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import {
  blockActionBody,
  buttonsOf,
  type FakeMessage,
  type FakeSlack,
  messageText,
  postSigned,
  slackSignature,
  slashCommandBody,
  viewSubmissionBody,
} from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0INCIDENT';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('pod-doctor bot with Slack (fake Web API, signed requests, simulated cluster)', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let prefix: string;
  let botUrl = '';
  let bot: TestBot | undefined;
  let chat: ChatContext;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('chat-e2e');
    rig = await startSlackSim(await scenarioNow(SCENARIO), { groups: { S0SRE: ['U0BOB', 'U0CAROL'] } });
    slack = rig.slack;
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      KUBECONFIG: rig.kubeconfig,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CLUSTER: 'e2e',
      POD_DOCTOR_APPROVERS: 'S0SRE',
      POD_DOCTOR_DEFAULT_NAMESPACES: `${CHANNEL}=reports`,
      POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
      POD_DOCTOR_CHAT_BURST: '100',
      LOG_LEVEL: 'silent',
    };
    bot = await startTestBot(env);
    botUrl = bot.url;
    chat = bot.chat;
  });

  afterAll(async () => {
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const queues = () => new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
  const counts = async () => {
    const q = queues();
    try {
      const [d, r] = await Promise.all([
        q.diagnose('e2e').getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed'),
        q.remediate('e2e').getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed'),
      ]);
      return { diagnose: Object.values(d).reduce((a, b) => a + b, 0), remediate: Object.values(r).reduce((a, b) => a + b, 0) };
    } finally {
      await q.close();
    }
  };
  const click = (actionId: string, value: string, user: string, m: FakeMessage) =>
    postSigned(
      botUrl,
      blockActionBody({ actionId, value, user, channel: m.channel, messageTs: m.ts, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) }),
      SECRET,
    );
  const prompts = (root: FakeMessage) => slack.thread(CHANNEL, root.ts).filter((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve));
  const threadText = (root: FakeMessage) => slack.thread(CHANNEL, root.ts).map(messageText).join('\n');

  it('rejects a bad signature and a timestamp more than five minutes off (past or future) with 401, queueing nothing', async () => {
    const before = await counts();
    const body = slashCommandBody({ text: POD, channel: CHANNEL });
    const wrongSecret = await postSigned(botUrl, body, 'not-the-secret');
    const unsigned = await postSigned(botUrl, body, SECRET, { headers: {} });
    const stale = await postSigned(botUrl, body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    const tampered = await postSigned(botUrl, body, SECRET, { headers: slackSignature(SECRET, body.replace('report-6f7d8', 'other-6f7d8')) });
    // Correctly signed, but dated ten minutes ahead: a pre-signed request must not be accepted either,
    // neither as a command nor as a button click (the path Bolt alone would take).
    const future = await postSigned(botUrl, body, SECRET, { timestamp: Math.floor(Date.now() / 1000) + 10 * 60 });
    const futureClick = await postSigned(
      botUrl,
      blockActionBody({ actionId: ACTION_IDS.approve, value: 'x', user: 'U1', channel: CHANNEL, messageTs: '1.1' }),
      SECRET,
      { timestamp: Math.floor(Date.now() / 1000) + 10 * 60 },
    );
    expect([wrongSecret.status, unsigned.status, stale.status, tampered.status, future.status, futureClick.status]).toEqual([401, 401, 401, 401, 401, 401]);
    await new Promise((r) => setTimeout(r, 200));
    expect(await counts()).toEqual(before);
    expect(slack.messages).toHaveLength(0);
  });

  it('serves /healthz and /readyz next to /slack/events, /metrics only on its metrics port', async () => {
    const get = async (path: string, base = botUrl) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, text: await res.text() };
    };
    expect(await get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
    // The port answers while the worker thread still loads (`worker thread: starting`, 503): wait for it.
    for (let i = 0; i < 300 && (await get('/readyz')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await get('/readyz')).toEqual({
      status: 200,
      text: 'redis: ok\nkubernetes: ok\nworker thread: ok\nresults stream: ok\nrun events stream: ok\nalert events stream: ok\n',
    });
    expect(bot!.metricsUrl).not.toBe(botUrl);
    expect((await get('/metrics')).status).toBe(404);
    const metrics = await get('/metrics', bot!.metricsUrl);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('pod_doctor_chat_ack_seconds');
    // The operations port answers the probes too, with the same readiness.
    expect(await get('/readyz', bot!.metricsUrl)).toEqual(await get('/readyz'));
    expect((await get('/nope')).status).toBe(404);
  });

  it('answers help and bad input in the acknowledgement itself (ephemeral), queueing nothing', async () => {
    const before = await counts();
    const cases = [
      { text: 'help', expect: /node\/<name>/ },
      { text: 'Shop/Web_1', expect: /not a valid target/ },
      { text: 'a/b/c', expect: /too many "\/"/ },
      { text: 'two targets', expect: /more than one target/ },
    ];
    for (const c of cases) {
      const res = await postSigned(botUrl, slashCommandBody({ text: c.text, channel: 'C0OTHER' }), SECRET);
      expect(res.status).toBe(200);
      const body = JSON.parse(res.body) as { response_type: string; text: string; blocks: unknown[] };
      expect(body.response_type).toBe('ephemeral');
      expect(messageText({ text: body.text, blocks: body.blocks as never })).toMatch(c.expect);
    }
    // A bare pod name needs a default namespace; C0OTHER has none.
    const bare = await postSigned(botUrl, slashCommandBody({ text: 'report-6f7d8-xk2lq', channel: 'C0OTHER' }), SECRET);
    expect(JSON.parse(bare.body).text).toMatch(/no default namespace/);
    expect(await counts()).toEqual(before);
  });

  it('tells the requester privately when the pod does not exist', async () => {
    const res = await postSigned(botUrl, slashCommandBody({ text: 'reports/no-such-pod', channel: CHANNEL, user: 'U0DAVE' }), SECRET);
    expect(res.status).toBe(200);
    const eph = await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0DAVE'));
    expect(messageText(eph)).toMatch(/reports\/no-such-pod was not found on cluster e2e/);
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => /no-such-pod: not found/.test(messageText(m))));
    expect(root.text).toContain('[e2e]');
  });

  it('slash command → findings in a thread → deny with a reason → re-run → non-approver refused → approved once → fixed and verified', {
    timeout: 60_000,
  }, async () => {
    // A bare pod name: this channel's default namespace is `reports`.
    const ack = await postSigned(botUrl, slashCommandBody({ text: 'report-6f7d8-xk2lq', channel: CHANNEL, user: 'U0ALICE' }), SECRET);
    expect(ack.status).toBe(200);
    // Said at once, privately: the thread opens with the findings when they come quickly.
    expect(JSON.parse(ack.body)).toMatchObject({ response_type: 'ephemeral' });
    expect(ack.body).toContain('Diagnosing reports/report-6f7d8-xk2lq');

    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => m.text.includes(POD)));
    expect(root.text).toContain('[e2e]');
    const findings = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => messageText(m).includes('terminating.finalizers')));
    expect(messageText(findings)).toMatch(/foregroundDeletion/);
    expect(findings.text).toContain('[e2e]');
    expect(buttonsOf(findings).map((b) => b.action_id)).toContain(ACTION_IDS.rerun);
    // The root's summary line now says what is wrong.
    await slack.waitFor(() => /ERROR · Pod deletion blocked by finalizer foregroundDeletion/.test(messageText(slack.message(CHANNEL, root.ts)!)));

    // The approval prompt: dry run of exactly what will be done, opaque ids on the buttons.
    const prompt1 = await slack.waitFor(() => prompts(root)[0]);
    const text1 = messageText(prompt1);
    expect(text1).toMatch(/Dry run: exactly what will be done/);
    expect(text1).toMatch(/PATCH pod reports\/report-6f7d8-xk2lq: remove finalizers \[foregroundDeletion\]/);
    const [approve1, deny1] = buttonsOf(prompt1);
    expect(approve1!.text).toMatch(/^Approve: /);
    expect(approve1!.value).toMatch(/^pl_[A-Za-z0-9_-]{16}$/);
    expect(deny1!.value).toBe(approve1!.value);

    // Deny (by an approver), then the reason from the modal.
    await click(ACTION_IDS.deny, deny1!.value, 'U0BOB', prompt1);
    const opened = await slack.waitFor(() => slack.calls.find((c) => c.method === 'views.open'));
    expect((opened.args.view as { private_metadata: string }).private_metadata).toBe(deny1!.value);
    await postSigned(
      botUrl,
      viewSubmissionBody({
        callbackId: DENY_REASON_CALLBACK,
        privateMetadata: deny1!.value,
        user: 'U0BOB',
        values: { reason: { reason: { type: 'plain_text_input', value: 'the report controller is being redeployed' } } },
      }),
      SECRET,
    );
    await slack.waitFor(() => /<@U0BOB> denied remove-finalizers/.test(threadText(root)));
    await slack.waitFor(() => /Reason for the denial by <@U0BOB>: the report controller is being redeployed/.test(threadText(root)));
    await slack.waitFor(
      () => /Denied by <@U0BOB>/.test(messageText(slack.message(CHANNEL, prompt1.ts)!)) && buttonsOf(slack.message(CHANNEL, prompt1.ts)!).length === 0,
    );
    // A late approval of the denied plan does nothing.
    await click(ACTION_IDS.approve, approve1!.value, 'U0CAROL', prompt1);
    await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0CAROL' && /Already denied/.test(messageText(e))));
    expect((await counts()).remediate).toBe(0);

    // Re-run from the thread: a new diagnosis and a new proposal in the same thread.
    await click(ACTION_IDS.rerun, buttonsOf(findings).find((b) => b.action_id === ACTION_IDS.rerun)!.value, 'U0ALICE', findings);
    const prompt2 = await slack.waitFor(() => prompts(root).find((m) => m.ts !== prompt1.ts));
    expect(threadText(root)).toMatch(/Re-run asked by <@U0ALICE>/);
    const approve2 = buttonsOf(prompt2).find((b) => b.action_id === ACTION_IDS.approve)!;
    expect(approve2.value).not.toBe(approve1!.value);
    // A person sees the prompt only after Slack answered the post; the bot records where it was
    // posted right after that answer (a click before it would be "another channel's thread").
    for (let i = 0; i < 200 && !(await chat.approvals.get(approve2.value))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));

    // Someone who is not an approver: refused, told why, nothing queued.
    await click(ACTION_IDS.approve, approve2.value, 'U0MALLORY', prompt2);
    const refusal = await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0MALLORY'));
    expect(messageText(refusal)).toMatch(/You may not approve/);
    await slack.waitFor(() => /<@U0MALLORY> tried to approve remove-finalizers but is not an approver/.test(threadText(root)));
    expect((await counts()).remediate).toBe(0);
    expect((await chat.approvals.get(approve2.value))?.status).toBe('pending');

    // Two approvers (members of the S0SRE group) click at the same moment: it runs once.
    const [a, b] = await Promise.all([
      click(ACTION_IDS.approve, approve2.value, 'U0BOB', prompt2),
      click(ACTION_IDS.approve, approve2.value, 'U0CAROL', prompt2),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await slack.waitFor(() =>
      slack.ephemerals.find((e) => (e.user === 'U0BOB' || e.user === 'U0CAROL') && /Already (approved|running|done)/.test(messageText(e))),
    );
    expect((await counts()).remediate).toBe(1);

    // The run and its verification are reported in the thread; the pod is gone from the cluster.
    await slack.waitFor(() => /Fixed by remove-finalizers: verified by a new diagnosis \(reports\/report-6f7d8-xk2lq is gone\)/.test(threadText(root)), 30_000);
    expect(threadText(root)).toMatch(/Step 1\/2 \(remove-finalizers\) done/);
    const prompt2Now = slack.message(CHANNEL, prompt2.ts)!;
    expect(buttonsOf(prompt2Now)).toHaveLength(0);
    expect(messageText(prompt2Now)).toMatch(/Approved by <@U0(BOB|CAROL)>/);
    await slack.waitFor(() => /Fixed by remove-finalizers/.test(messageText(slack.message(CHANNEL, root.ts)!)));
    expect(slack.thread(CHANNEL, root.ts).filter((m) => /approved remove-finalizers at/.test(messageText(m)))).toHaveLength(1);

    // Every message named the cluster and none broke Slack's limits.
    expect(slack.rejected).toEqual([]);
    for (const m of slack.messages) expect(m.text).toContain('[e2e]');

    // The in-process worker runs on its own thread; the bot's /metrics sums its metrics in.
    const metrics = await (await fetch(`${bot!.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^pod_doctor_job_duration_seconds_count\{[^}]*status="diagnosed"[^}]*\} [1-9]/m);
    expect(metrics).toMatch(/^pod_doctor_job_duration_seconds_count\{queue="remediate[^}]*\} 1$/m);
    // The run's outcome is counted on the thread and reaches the bot's /metrics; so do Slack's calls.
    expect(metrics).toMatch(/^pod_doctor_remediation_runs_total\{playbook="remove-finalizers",outcome="succeeded"\} 1$/m);
    expect(metrics).toMatch(/^pod_doctor_slack_api_calls_total\{method="chat\.postMessage",status="200"\} [1-9]/m);
    // Process metrics come from the bot alone (the thread shares the process: they would double).
    expect(metrics.match(/^pod_doctor_process_cpu_user_seconds_total /gm)).toHaveLength(1);
  });
});
