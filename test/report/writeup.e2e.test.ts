// The Write-up button end to end: `pod-doctor bot` against the fake Slack Web API and the simulated
// cluster (the seed incident of a pod kept Terminating by a finalizer): a command's findings, an
// approval, the run and its verification, then Write-up posts the report in the thread as a file
// (files.getUploadURLExternal, the upload, files.completeUploadExternal), naming the approver and
// holding every entry of the thread's timeline; when Slack refuses the file, a code block instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { scopeOfThread } from '../../src/chat/flows/writeup.js';
import { keys } from '../../src/redis/keys.js';
import { gatherStory } from '../../src/report/story.js';
import { timelineOf } from '../../src/report/writeup.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { blockActionBody, buttonsOf, type FakeMessage, type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0INCIDENT';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('Write-up: the post-incident report of a thread, posted in it', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot | undefined;
  const prefix = testPrefix('writeup-e2e');
  const redis = connect();

  beforeAll(async () => {
    rig = await startSlackSim(await scenarioNow(SCENARIO), { groups: { S0SRE: ['U0BOB'] }, users: { U0BOB: 'Bob Ferreira' } });
    slack = rig.slack;
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'e2e' },
        {
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_APPROVERS: 'S0SRE',
          POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
          POD_DOCTOR_CHAT_BURST: '100',
          // Due this minute: the bot posts the digest at start (one replica: the slot's lock).
          POD_DOCTOR_DIGEST_CHANNEL: 'C0DIGEST',
          POD_DOCTOR_DIGEST_SCHEDULE: `daily ${new Date().toISOString().slice(11, 16)}`,
        },
      ),
    );
  });

  afterAll(async () => {
    await bot?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const click = (actionId: string, value: string, user: string, m: FakeMessage) =>
    postSigned(
      bot!.url,
      blockActionBody({ actionId, value, user, channel: m.channel, messageTs: m.ts, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) }),
      SECRET,
    );
  const threadText = (root: FakeMessage) => slack.thread(CHANNEL, root.ts).map(messageText).join('\n');

  it('diagnosis → approval → run → Write-up: a file in the thread with every timeline entry and the approver', { timeout: 60_000 }, async () => {
    await postSigned(bot!.url, slashCommandBody({ text: POD, channel: CHANNEL, user: 'U0ALICE' }), SECRET);
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => m.text.includes(POD)));
    const findings = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.writeup)));
    const prompt = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve)));
    const planId = buttonsOf(prompt).find((b) => b.action_id === ACTION_IDS.approve)!.value;
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(planId))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));
    await click(ACTION_IDS.approve, planId, 'U0BOB', prompt);
    await slack.waitFor(() => /Fixed by remove-finalizers: verified/.test(threadText(root)), 30_000);

    const writeup = buttonsOf(findings).find((b) => b.action_id === ACTION_IDS.writeup)!;
    await click(ACTION_IDS.writeup, writeup.value, 'U0ALICE', findings);
    const file = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts));
    expect(file).toMatchObject({ channel: CHANNEL, filename: expect.stringMatching(/^post-incident-e2e-\d{4}-\d{2}-\d{2}\.md$/) });
    expect(file.initial_comment).toContain('<@U0ALICE>');
    expect(slack.calls.map((c) => c.method).filter((m) => m.startsWith('files.') || m === 'upload')).toEqual([
      'files.getUploadURLExternal',
      'upload',
      'files.completeUploadExternal',
    ]);
    // The thread's story, read from Redis as the bot read it: every entry is in the file.
    const thread = (await bot!.chat.threads.get(writeup.value))!;
    const story = await gatherStory(
      redis,
      prefix,
      scopeOfThread(thread, Date.now()),
      async (jobId) => (await bot!.chat.threads.byScope(CHANNEL, `job:e2e:${jobId}`))?.id === thread.id,
    );
    const timeline = timelineOf(story);
    expect(timeline.map((e) => e.kind)).toEqual(['command', 'finding', 'approval', 'run', 'step', 'step', 'verification', 'run']);
    // People as Slack names them (users.info), the id beside; an id Slack cannot name stays an id.
    const named = timelineOf(story, { names: { U0BOB: 'Bob Ferreira' } });
    for (const e of named) expect(file.content).toContain(e.text);
    // Who did what, as the thread said it.
    expect(file.content).toMatch(/remove-finalizers \(plan pl_[\w-]+\) approved by Bob Ferreira \(@U0BOB\); handed to the runner/);
    expect(file.content).toMatch(/@U0ALICE asked to diagnose reports\/report-6f7d8-xk2lq/);
    expect(file.content).toMatch(/Ran \*\*remove-finalizers\*\* .* approved by Bob Ferreira \(@U0BOB\) at .* verified fixed/);
    expect(file.content).toContain('## Root cause');
    expect(file.content).toContain('foregroundDeletion');

    // A press from another channel (a forged or copied button) posts nothing there or here.
    await postSigned(
      bot!.url,
      blockActionBody({ actionId: ACTION_IDS.writeup, value: writeup.value, user: 'U0EVE', channel: 'C0OTHER', messageTs: findings.ts }),
      SECRET,
    );
    const refused = await slack.waitFor(() => slack.ephemerals.find((e) => e.user === 'U0EVE'));
    expect(messageText(refused)).toMatch(/belongs to another channel's thread; nothing was posted/);
    expect(slack.files).toHaveLength(1);

    // Slack refuses the upload: the same report as a code block in the thread.
    await redis.del(keys.chat(prefix, 'writeup', writeup.value));
    slack.refuseNext('files.getUploadURLExternal', 1, 'not_allowed_token_type');
    await click(ACTION_IDS.writeup, writeup.value, 'U0ALICE', findings);
    const block = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => /Post-incident write-up, asked by <@U0ALICE>:/.test(messageText(m))));
    expect(messageText(block)).toContain('# Post-incident report');
    expect(slack.files.filter((f) => f.thread_ts === root.ts)).toHaveLength(1);
    expect(slack.rejected).toEqual([]);
  });

  it('posts the digest on its schedule in its channel, once', async () => {
    const digest = await slack.waitFor(() => slack.roots('C0DIGEST')[0]);
    expect(messageText(digest)).toMatch(/Daily digest/);
    expect(messageText(digest)).toMatch(/Recurring causes/);
    expect(digest.text).toContain('[e2e]');
    await new Promise((r) => setTimeout(r, 300));
    expect(slack.roots('C0DIGEST')).toHaveLength(1);
  });
});
