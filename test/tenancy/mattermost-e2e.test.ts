// Tenancy through the Mattermost edge, as test/tenancy/slack-e2e.test.ts does it through Slack's:
// the bot reads its access policy (Mattermost channels and `group:<id>` groups) from its config
// file, slash commands and clicks come as Mattermost sends them, groups resolve through the fake
// server. A global approver who is not a reports lead, and the requester under the two-person
// rule, are refused privately; two leads approve and the plan runs once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { mattermostBotEnv, startTestBot, type TestBot } from '../helpers/bot.js';
import { actionsOf, type FakeMattermost, mattermostId, shownText, startFakeMattermost } from '../helpers/fake-mattermost.js';
import { cleanup, connect, freePort, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;
const TOKEN = 'mm-command-token-0123456789';
const [REPORTS, PLATFORM] = [mattermostId(), mattermostId()];
const [ALICE, SARA, LEAD1, LEAD2] = [mattermostId(), mattermostId(), mattermostId(), mattermostId()];
const [DEVS, SRE, LEADS] = [mattermostId(), mattermostId(), mattermostId()];

const CONFIG = `
approvers: [group:${SRE}]
policy:
  channels:
    ${REPORTS}: { namespaces: [reports], defaultNamespace: reports }
    ${PLATFORM}: {}
  usergroups:
    group:${DEVS}: { namespaces: [reports] }
    group:${SRE}: {}
  approvals:
    - namespaces: [reports]
      approvers: [group:${LEADS}]
      twoPersonRisks: [medium, high]
`;

describe('tenancy through the Mattermost edge (the bot configured from its file)', () => {
  let rig: SlackSim | undefined;
  let mm: FakeMattermost;
  let bot: TestBot | undefined;
  const prefix = testPrefix('mm-tenancy');
  const redis = connect();

  beforeAll(async () => {
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    mm = await startFakeMattermost({
      users: { [ALICE]: 'alice', [SARA]: 'sara', [LEAD1]: 'lead1', [LEAD2]: 'lead2' },
      groups: { [DEVS]: [ALICE, LEAD1, LEAD2], [SRE]: [SARA], [LEADS]: [ALICE, LEAD1, LEAD2] },
    });
    writeFileSync(join(rig.dir, 'pod-doctor.yaml'), CONFIG);
    const port = await freePort();
    bot = await startTestBot(
      mattermostBotEnv(
        { url: mm.url, token: mm.token, commandTokens: TOKEN, port, kubeconfig: rig.kubeconfig, cluster: 'e2e', prefix },
        { POD_DOCTOR_CONFIG: join(rig.dir, 'pod-doctor.yaml') },
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
      return Object.values(await q.remediate('e2e').getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')).reduce(
        (a, b) => a + b,
        0,
      );
    } finally {
      await q.close();
    }
  };
  const command = async (text: string, channel: string, user: string) => {
    const res = await mm.slashCommand(bot!.url, { text, user, channel, token: TOKEN });
    expect(res.status).toBe(200);
    return shownText({ message: (JSON.parse(res.body) as { text: string }).text });
  };
  const toldNext = async (user: string, seen: number) => {
    const mine = await mm.waitFor(() => {
      const all = mm.ephemerals.filter((e) => e.user_id === user);
      return all.length > seen && all;
    });
    return shownText(mine[seen]!);
  };
  const told = (user: string) => mm.ephemerals.filter((e) => e.user_id === user).length;

  it('refuses what the policy does not allow privately; two leads approve and the plan runs once', { timeout: 60_000 }, async () => {
    expect(await command('kube-system/coredns-1', REPORTS, ALICE)).toMatch(/This channel may not diagnose e2e\/kube-system .*Ask .*in channel/);
    expect(mm.posts).toEqual([]);

    expect(await command('report-6f7d8-xk2lq', REPORTS, ALICE)).toMatch(/Diagnosing reports\/report-6f7d8-xk2lq/);
    const root = await mm.waitFor(() => mm.roots(REPORTS).find((p) => shownText(p).includes(POD)), 30_000);
    const prompt = await mm.waitFor(() => mm.thread(root.id).find((p) => actionsOf(p).some((a) => a.name.startsWith('Approve'))), 30_000);
    expect(shownText(prompt)).toMatch(new RegExp(`may approve: user group group:${LEADS}`));
    expect(shownText(prompt)).toMatch(/2 different people/);
    const approve = actionsOf(prompt)[0]!;
    const planId = String(approve.integration.context.value);
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(planId))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));

    // A global approver who is not a reports lead; the requester under the two-person rule.
    let n = told(SARA);
    await mm.click(prompt, approve, SARA);
    expect(await toldNext(SARA, n)).toMatch(new RegExp(`the access policy lets only user group group:${LEADS} decide on remove-finalizers`));
    n = told(ALICE);
    await mm.click(prompt, approve, ALICE);
    expect(await toldNext(ALICE, n)).toMatch(/two people other than the requester/);
    expect(await remediations()).toBe(0);
    // Refusals are private: the channel's posts never carry their reasons.
    expect(mm.posts.map(shownText).join('\n')).not.toMatch(/access policy/);

    // Two different leads: it runs once.
    await mm.click(prompt, approve, LEAD1);
    await mm.waitFor(() => /@lead1 approved remove-finalizers \(1\/2\)/.test(mm.thread(root.id).map(shownText).join('\n')));
    expect(await remediations()).toBe(0);
    await mm.click(prompt, approve, LEAD2);
    for (let i = 0; i < 100 && (await remediations()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await remediations()).toBe(1);
    expect((await bot!.chat.approvals.get(planId))?.approvals.map((a) => a.user)).toEqual([LEAD1, LEAD2]);
  });
});
