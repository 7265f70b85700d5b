// `pod-doctor bot` serving Mattermost only, end to end: slash commands and button clicks as
// Mattermost sends them (the fake server plays the people), the REST API v4 out (the fake
// records every post), the real job system on Redis and the simulated cluster holding a pod kept
// Terminating by a finalizer. The access policy names Mattermost channels and groups; a
// diagnosis opens a thread (root_id), a denial and an approval are clicks, the plan runs once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { mattermostBotEnv, startTestBot, type TestBot } from '../helpers/bot.js';
import { actionsOf, type FakeMattermost, type FakePost, mattermostId, shownText, startFakeMattermost } from '../helpers/fake-mattermost.js';
import { cleanup, connect, freePort, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;
const COMMAND_TOKEN = 'mm-command-token-0123456789';
const ACTION_SECRET = 'mm-action-secret-0123456789-0123456789';
const INCIDENTS = mattermostId();
const OTHER = mattermostId();
const [ALICE, BOB, CAROL, MALLORY] = [mattermostId(), mattermostId(), mattermostId(), mattermostId()];
const [SRE, DEVS] = [mattermostId(), mattermostId()];

// The devs see `reports` only (from the incidents channel, its default namespace); the SREs approve.
const CONFIG = `
approvers: [group:${SRE}]
policy:
  channels:
    ${INCIDENTS}: { namespaces: [reports], defaultNamespace: reports }
  usergroups:
    group:${DEVS}: { namespaces: [reports] }
    group:${SRE}: {}
`;

describe('pod-doctor bot with Mattermost (fake server, simulated cluster, real Redis)', () => {
  let rig: SlackSim | undefined;
  let mm: FakeMattermost;
  let bot: TestBot | undefined;
  let prefix: string;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('mm-e2e');
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    mm = await startFakeMattermost({
      users: { [ALICE]: 'alice', [BOB]: 'bob', [CAROL]: 'carol', [MALLORY]: 'mallory' },
      groups: { [SRE]: [BOB, CAROL], [DEVS]: [ALICE] },
      channels: [INCIDENTS, OTHER],
    });
    writeFileSync(join(rig.dir, 'pod-doctor.yaml'), CONFIG);
    const port = await freePort();
    bot = await startTestBot(
      mattermostBotEnv(
        {
          url: mm.url,
          token: mm.token,
          commandTokens: `other-team-token-123,${COMMAND_TOKEN}`,
          actionSecret: ACTION_SECRET,
          port,
          kubeconfig: rig.kubeconfig,
          cluster: 'e2e',
          prefix,
        },
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

  const counts = async () => {
    const q = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    try {
      const sum = async (queue: { getJobCounts(...t: string[]): Promise<Record<string, number>> }) =>
        Object.values(await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')).reduce((a, b) => a + b, 0);
      return { diagnose: await sum(q.diagnose('e2e')), remediate: await sum(q.remediate('e2e')) };
    } finally {
      await q.close();
    }
  };
  /** pod_doctor_chat_inbound_total for Mattermost, by kind. */
  const inbound = async () => {
    const text = await (await fetch(`${bot!.metricsUrl}/metrics`)).text();
    const of = (kind: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith('pod_doctor_chat_inbound_total{') && l.includes('surface="mattermost"') && l.includes(`kind="${kind}"`))
          ?.split(' ')
          .at(-1) ?? 0,
      );
    return { command: of('command'), click: of('click') };
  };
  const command = async (text: string, user: string, channel = INCIDENTS) => {
    const res = await mm.slashCommand(bot!.url, { text, user, channel, token: COMMAND_TOKEN });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    return shownText({ message: body.text });
  };
  const threadText = (root: FakePost) => mm.thread(root.id).map(shownText).join('\n');
  const prompts = (root: FakePost) => mm.thread(root.id).filter((p) => actionsOf(p).some((a) => a.name.startsWith('Approve')));
  const toldTo = (user: string) => mm.ephemerals.filter((e) => e.user_id === user);

  it('refuses an unknown command token (401), a forged or garbled click (403, 400), queueing and posting nothing', async () => {
    const wrong = await mm.slashCommand(bot!.url, { text: POD, user: ALICE, channel: INCIDENTS, token: 'not-the-token-123' });
    expect(wrong.status).toBe(401);
    const post = (body: string) => fetch(`${bot!.url}/mattermost/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const click = { user_id: ALICE, channel_id: INCIDENTS, post_id: mattermostId(), context: { action: 'approve', value: 'pl_forged', mac: 'x'.repeat(43) } };
    expect((await post(JSON.stringify(click))).status).toBe(403);
    expect((await post('{not json')).status).toBe(400);
    expect((await post(JSON.stringify({ context: {} }))).status).toBe(400);
    expect((await fetch(`${bot!.url}/mattermost/command`)).status).toBe(405);
    // A body past the limit (413), a channel that is no Mattermost id (400), with the right token.
    expect((await post(JSON.stringify({ ...click, pad: 'x'.repeat(100_000) }))).status).toBe(413);
    const form = new URLSearchParams({ token: COMMAND_TOKEN, text: POD, channel_id: 'C0SLACK', user_id: ALICE });
    const badChannel = await fetch(`${bot!.url}/mattermost/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect([badChannel.status, await badChannel.text()]).toEqual([400, 'bad slash command request\n']);
    await new Promise((r) => setTimeout(r, 200));
    expect(await counts()).toEqual({ diagnose: 0, remediate: 0 });
    expect(mm.posts).toEqual([]);
  });

  it('answers a person the access policy refuses privately, in the acknowledgement only', async () => {
    // Mattermost does not answer the group lookups the policy needs: refused until it does, and told so.
    mm.fail('/users', 1000, 503);
    expect(await command('report-6f7d8-xk2lq', ALICE)).toMatch(/Can't check that you may diagnose reports\/report-6f7d8-xk2lq: Mattermost did not answer/);
    mm.fail('/users', 0);
    expect(await command('report-6f7d8-xk2lq', MALLORY)).toMatch(/Not allowed: diagnose reports\/report-6f7d8-xk2lq\. You are in none of the user groups/);
    expect(await command(POD, ALICE, OTHER)).toMatch(/Not allowed: diagnose reports\/report-6f7d8-xk2lq\. This channel is not set up for pod-doctor/);
    expect(await counts()).toEqual({ diagnose: 0, remediate: 0 });
    expect(mm.posts).toEqual([]);
  });

  it('slash command → thread with findings → deny → re-run → refused click → approved once by two clicks → fixed', { timeout: 60_000 }, async () => {
    const before = await inbound();
    expect(await command('report-6f7d8-xk2lq', ALICE)).toContain('Diagnosing reports/report-6f7d8-xk2lq');
    // The walk: chat entered once for the command.
    expect(await inbound()).toEqual({ command: before.command + 1, click: before.click });

    const root = await mm.waitFor(() => mm.roots(INCIDENTS).find((p) => shownText(p).includes(POD)), 30_000);
    const findings = await mm.waitFor(() => mm.thread(root.id).find((p) => shownText(p).includes('terminating.finalizers')), 30_000);
    expect(shownText(findings)).toMatch(/foregroundDeletion/);
    const prompt1 = await mm.waitFor(() => prompts(root)[0], 30_000);
    expect(shownText(prompt1)).toMatch(/PATCH pod reports\/report-6f7d8-xk2lq: remove finalizers \[foregroundDeletion\]/);
    const [approve1, deny1] = actionsOf(prompt1);
    expect(approve1!.name).toMatch(/^Approve: /);
    expect(deny1!.integration.context).toMatchObject({ action: 'deny', value: approve1!.integration.context.value });
    // The bot records where the prompt was posted right after Mattermost answered the post.
    const planId = String(approve1!.integration.context.value);
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(planId))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));

    // Deny by an SRE: one click, counted once; the prompt loses its buttons.
    const beforeDeny = await inbound();
    expect((await mm.click(prompt1, deny1!, BOB)).status).toBe(200);
    await mm.waitFor(() => /@bob denied remove-finalizers/.test(threadText(root)));
    expect(await inbound()).toEqual({ command: beforeDeny.command, click: beforeDeny.click + 1 });
    // Then the dialog that asks why (optional): its reason is posted in the thread; a forged state is refused.
    const dialog = await mm.waitFor(() => mm.dialogs[0]);
    expect(dialog.url).toBe(`${bot!.url}/mattermost/dialogs`);
    const forged = await mm.submitDialog({ ...dialog, dialog: { ...dialog.dialog, state: `${planId} forged` } }, BOB, { reason: 'x' });
    expect(forged.status).toBe(403);
    expect((await mm.submitDialog(dialog, BOB, { reason: 'the report controller is being redeployed' })).status).toBe(200);
    await mm.waitFor(() => /Reason for the denial by @bob: the report controller is being redeployed/.test(threadText(root)));
    await mm.waitFor(() => actionsOf(mm.post(prompt1.id)!).length === 0 && /Denied by @bob/.test(shownText(mm.post(prompt1.id)!)));
    // A late approval of the denied plan (a button seen before the update) does nothing.
    await mm.click(prompt1, approve1!, CAROL);
    await mm.waitFor(() => toldTo(CAROL).find((e) => /Already denied/.test(shownText(e))));
    expect((await counts()).remediate).toBe(0);

    // Re-run from the thread: a new proposal in the same thread.
    await mm.click(findings, 'Re-run diagnosis', ALICE);
    const prompt2 = await mm.waitFor(() => prompts(root).find((p) => p.id !== prompt1.id), 30_000);
    const approve2 = actionsOf(prompt2)[0]!;
    const plan2 = String(approve2.integration.context.value);
    expect(plan2).not.toBe(planId);
    for (let i = 0; i < 200 && !(await bot!.chat.approvals.get(plan2))?.prompts.length; i++) await new Promise((r) => setTimeout(r, 10));

    // Someone who may not approve: told privately (an ephemeral post), nothing queued.
    await mm.click(prompt2, approve2, MALLORY);
    await mm.waitFor(() => toldTo(MALLORY).length > 0);
    expect((await counts()).remediate).toBe(0);
    expect((await bot!.chat.approvals.get(plan2))?.status).toBe('pending');

    // Two SREs click at the same moment: it runs once.
    const [a, b] = await Promise.all([mm.click(prompt2, approve2, BOB), mm.click(prompt2, approve2, CAROL)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await mm.waitFor(() => [...toldTo(BOB), ...toldTo(CAROL)].find((e) => /Already (approved|running|done)/.test(shownText(e))));
    await mm.waitFor(() => /Fixed by remove-finalizers: verified by a new diagnosis \(reports\/report-6f7d8-xk2lq is gone\)/.test(threadText(root)), 30_000);
    expect((await counts()).remediate).toBe(1);
    expect(mm.thread(root.id).filter((p) => /approved remove-finalizers at/.test(shownText(p)))).toHaveLength(1);
    expect(shownText(mm.post(prompt2.id)!)).toMatch(/Approved by @(bob|carol)/);

    // Mattermost's API calls are counted by route and status.
    const metrics = await (await fetch(`${bot!.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^pod_doctor_mattermost_api_calls_total\{method="POST",route="\/posts",status="201"\} [1-9]/m);
    expect(metrics).toMatch(/^pod_doctor_mattermost_api_calls_total\{method="PUT",route="\/posts\/\{id\}\/patch",status="200"\} [1-9]/m);
    // Every post fits Mattermost's limit, names no one by accident, and its buttons point at the bot.
    for (const p of mm.posts) {
      expect([...p.message].length).toBeLessThanOrEqual(16_383);
      expect(p.message).not.toMatch(/@(channel|all|here)\b/);
      for (const action of actionsOf(p)) expect(action.integration.url).toBe(`${bot!.url}/mattermost/actions`);
    }
  });
});
