// One `/pod-doctor ns/pod` walked through the house: a signed slash command into the bot, the
// job through Redis to a worker (in this process, so every module is observed), the findings back
// to the fake Slack. The target text is parsed once. The call stack enters chat/ once on the way
// in (edge → command flow → job) and once on the way out (results stream → delivery → Slack
// adapter): no flow calls out of chat/ and back in, as the old fast-ack → Bolt → app did.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SlackAdapter } from '../../src/chat/adapters/slack/adapter.js';
import { startSplitDeployment, type TestBot, testBotEnv } from '../helpers/bot.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';
import { expectOneWayInOneWayOut, foldersOf, recordWalk } from '../helpers/walk.js';

const parsed = vi.hoisted(() => ({ targets: [] as string[] }));
vi.mock('../../src/kube/target.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/kube/target.js')>();
  return {
    ...real,
    parseTarget: (input: string, defaultNamespace?: string) => {
      parsed.targets.push(input);
      return real.parseTarget(input, defaultNamespace);
    },
  };
});

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0WALK';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('the walk of /pod-doctor ns/pod', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot | undefined;
  let split: Awaited<ReturnType<typeof startSplitDeployment>> | undefined;
  const prefix = testPrefix('walk');
  const redis = connect();
  let walk: ReturnType<typeof recordWalk> | undefined;
  const inbound = () => walk?.inbound ?? [];
  const outbound = () => walk?.outbound ?? [];

  beforeAll(async () => {
    // Where the command becomes a job, and where a result becomes a post.
    walk = recordWalk(SlackAdapter);
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    slack = rig.slack;
    const env = testBotEnv({ slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'walk' }, { POD_DOCTOR_REDIS_PREFIX: prefix });
    // The worker in this process (not the bot's thread), so its parsing is counted too.
    split = await startSplitDeployment(env);
    bot = split.bot;
  }, 60_000);

  afterAll(async () => {
    await split?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    walk?.stop();
  });

  it('parses the target once and enters chat/ once on the way in and once on the way out', { timeout: 60_000 }, async () => {
    parsed.targets.length = 0;
    const res = await postSigned(bot!.url, slashCommandBody({ text: POD, channel: CHANNEL }), SECRET);
    expect(res.status).toBe(200);
    const root = await slack.waitFor(() => slack.roots(CHANNEL).find((m) => messageText(m).includes('finalizer')), 30_000);
    expect(messageText(root)).toContain('report-6f7d8-xk2lq');

    expect(parsed.targets).toEqual([POD]);

    // The stacks are taken at the boundary (the job system's and the adapter's methods), so their
    // innermost project frame is the caller.
    expectOneWayInOneWayOut({ inbound: inbound(), outbound: outbound() });
  });

  it('reads a call stack by folder (the measure above can fail)', () => {
    const stack = [
      'Error',
      '    at JobQueues.confirm (/work/main/src/jobs/queues.ts:10:3)',
      '    at async startDiagnosis (/work/main/src/chat/flows/requests.ts:60:3)',
      '    at async answer (/work/main/src/chat/adapters/slack/commands.ts:55:7)',
      '    at async handler (/work/main/src/cli/bot.ts:162:3)',
      '    at async reenter (/work/main/src/chat/service.ts:80:5)',
    ].join('\n');
    expect(foldersOf(stack)).toEqual(['jobs', 'chat', 'cli', 'chat']);
  });
});
