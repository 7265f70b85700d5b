// One bot serving Slack and Mattermost (POD_DOCTOR_CHAT_SURFACES=slack,mattermost): a command from
// each surface opens its thread on that surface only, clicks come back to the surface they were
// made on, and approvers of both are listed side by side. The fake Slack and the fake Mattermost
// record everything; Redis and the simulated cluster are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/chat/adapters/slack/blocks/render.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { startTestBot, type TestBot, testBotEnv } from '../helpers/bot.js';
import { actionsOf, type FakeMattermost, mattermostId, shownText, startFakeMattermost } from '../helpers/fake-mattermost.js';
import { blockActionBody, buttonsOf, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, freePort, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;
const TOKEN = 'mm-command-token-0123456789';
const SLACK_CHANNEL = 'C0BOTH';
const MM_CHANNEL = mattermostId();
const [MM_ALICE, MM_BOB] = [mattermostId(), mattermostId()];

describe('one bot serving Slack and Mattermost', () => {
  let rig: SlackSim | undefined;
  let mm: FakeMattermost;
  let bot: TestBot | undefined;
  const prefix = testPrefix('surfaces-e2e');
  const redis = connect();

  beforeAll(async () => {
    rig = await startSlackSim(await scenarioNow(SCENARIO), { groups: { S0SRE: ['U0BOB'] } });
    mm = await startFakeMattermost({ users: { [MM_ALICE]: 'alice', [MM_BOB]: 'bob' } });
    const port = await freePort();
    bot = await startTestBot(
      testBotEnv(
        { slackApiUrl: rig.slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'e2e' },
        {
          POD_DOCTOR_CHAT_SURFACES: 'slack,mattermost',
          MATTERMOST_URL: mm.url,
          MATTERMOST_BOT_TOKEN: mm.token,
          MATTERMOST_COMMAND_TOKEN: TOKEN,
          MATTERMOST_ACTION_SECRET: 'a'.repeat(32),
          POD_DOCTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
          PORT: String(port),
          // Approvers of both surfaces in one list.
          POD_DOCTOR_APPROVERS: `S0SRE,${MM_BOB}`,
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
          POD_DOCTOR_CHAT_BURST: '100',
        },
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await mm?.close();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  const remediations = async () => {
    const q = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    try {
      return Object.values(await q.remediate('e2e').getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed')).reduce((a, b) => a + b, 0);
    } finally {
      await q.close();
    }
  };

  it('answers each command on its own surface, takes clicks from both, and runs the approved plan once', { timeout: 60_000 }, async () => {
    const slack = rig!.slack;
    // Slack: a signed command; its thread and prompt in Slack only.
    const ack = await postSigned(bot!.url, slashCommandBody({ text: POD, channel: SLACK_CHANNEL, user: 'U0ALICE' }), SECRET);
    expect(ack.body).toContain('Diagnosing reports/report-6f7d8-xk2lq');
    const slackRoot = await slack.waitFor(() => slack.roots(SLACK_CHANNEL).find((m) => m.text.includes(POD)), 30_000);
    const slackPrompt = await slack.waitFor(
      () => slack.thread(SLACK_CHANNEL, slackRoot.ts).find((m) => buttonsOf(m).some((b) => b.action_id === ACTION_IDS.approve)),
      30_000,
    );
    // The approvers of both surfaces, each as its surface names them.
    expect(messageText(slackPrompt)).toMatch(/user group S0SRE/);

    // Mattermost: a command from a Mattermost channel; its thread in Mattermost only.
    const res = await mm.slashCommand(bot!.url, { text: POD, user: MM_ALICE, channel: MM_CHANNEL, token: TOKEN });
    expect(shownText({ message: (JSON.parse(res.body) as { text: string }).text })).toContain('Diagnosing reports/report-6f7d8-xk2lq');
    const mmRoot = await mm.waitFor(() => mm.roots(MM_CHANNEL).find((p) => shownText(p).includes(POD)), 30_000);
    const mmPrompt = await mm.waitFor(() => mm.thread(mmRoot.id).find((p) => actionsOf(p).some((a) => a.name.startsWith('Approve'))), 30_000);
    expect(slack.messages.every((m) => m.channel === SLACK_CHANNEL)).toBe(true);
    expect(mm.posts.every((p) => p.channel_id === MM_CHANNEL)).toBe(true);
    const mmPlan = String(actionsOf(mmPrompt)[0]!.integration.context.value);
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(mmPlan))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));
    const slackPlan = buttonsOf(slackPrompt).find((b) => b.action_id === ACTION_IDS.approve)!.value;
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(slackPlan))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));

    // Slack's approver denies in Slack: the denial lands in Slack's thread.
    await postSigned(
      bot!.url,
      blockActionBody({
        actionId: ACTION_IDS.deny,
        value: slackPlan,
        user: 'U0BOB',
        channel: SLACK_CHANNEL,
        messageTs: slackPrompt.ts,
        threadTs: slackRoot.ts,
      }),
      SECRET,
    );
    await slack.waitFor(() => /<@U0BOB> denied remove-finalizers/.test(slack.thread(SLACK_CHANNEL, slackRoot.ts).map(messageText).join('\n')));

    // Mattermost's approver approves in Mattermost: it runs once, reported in Mattermost's thread.
    await mm.click(mmPrompt, actionsOf(mmPrompt)[0]!, MM_BOB);
    await mm.waitFor(() => /Fixed by remove-finalizers/.test(mm.thread(mmRoot.id).map(shownText).join('\n')), 30_000);
    expect(await remediations()).toBe(1);
    expect(slack.messages.every((m) => m.channel === SLACK_CHANNEL)).toBe(true);
    expect(mm.posts.every((p) => p.channel_id === MM_CHANNEL)).toBe(true);
    expect(slack.rejected).toEqual([]);
  });
});
