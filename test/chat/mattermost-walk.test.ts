// The walk of test/chat/walk.test.ts on Mattermost: one `/pod-doctor ns/pod` as Mattermost posts
// it into a bot serving Mattermost only, the job through Redis to a worker (in this process), the
// findings back to the fake Mattermost. The target text is parsed once. The call stack enters
// chat/ once on the way in (edge → command flow → job) and once on the way out (results stream →
// delivery → Mattermost adapter): the same edge and flows as Slack's, no way around them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MattermostAdapter } from '../../src/chat/adapters/mattermost/adapter.js';
import { startSplitDeployment, type TestBot } from '../helpers/bot.js';
import { type FakeMattermost, mattermostId, shownText, startFakeMattermost } from '../helpers/fake-mattermost.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';
import { expectOneWayInOneWayOut, recordWalk } from '../helpers/walk.js';

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

const TOKEN = 'mm-command-token-0123456789';
const CHANNEL = mattermostId();
const USER = mattermostId();
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('the walk of /pod-doctor ns/pod from Mattermost', () => {
  let rig: SlackSim | undefined;
  let mm: FakeMattermost;
  let bot: TestBot | undefined;
  let split: Awaited<ReturnType<typeof startSplitDeployment>> | undefined;
  const prefix = testPrefix('mm-walk');
  const redis = connect();
  let walk: ReturnType<typeof recordWalk> | undefined;
  const inbound = () => walk?.inbound ?? [];
  const outbound = () => walk?.outbound ?? [];

  beforeAll(async () => {
    // Where the command becomes a job, and where a result becomes a post.
    walk = recordWalk(MattermostAdapter);
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    mm = await startFakeMattermost({ users: { [USER]: 'alice' } });
    const env = {
      POD_DOCTOR_CHAT_SURFACES: 'mattermost',
      MATTERMOST_URL: mm.url,
      MATTERMOST_BOT_TOKEN: mm.token,
      MATTERMOST_COMMAND_TOKEN: TOKEN,
      MATTERMOST_ACTION_SECRET: 'a'.repeat(32),
      POD_DOCTOR_PUBLIC_URL: 'http://127.0.0.1:1',
      PORT: '0',
      POD_DOCTOR_METRICS_PORT: '0',
      KUBECONFIG: rig.kubeconfig,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      POD_DOCTOR_CLUSTER: 'walk',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    };
    // The worker in this process (not the bot's thread), so its parsing is counted too.
    split = await startSplitDeployment(env);
    bot = split.bot;
  }, 60_000);

  afterAll(async () => {
    await split?.stop();
    await mm?.close();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    walk?.stop();
  });

  it('parses the target once and enters chat/ once on the way in and once on the way out', { timeout: 60_000 }, async () => {
    parsed.targets.length = 0;
    const res = await mm.slashCommand(bot!.url, { text: POD, user: USER, channel: CHANNEL, token: TOKEN });
    expect(res.status).toBe(200);
    const root = await mm.waitFor(() => mm.roots(CHANNEL).find((p) => shownText(p).includes('finalizer')), 30_000);
    expect(shownText(root)).toContain('report-6f7d8-xk2lq');

    expect(parsed.targets).toEqual([POD]);

    // The stacks are taken at the boundary (the job system's and the adapter's methods), so their
    // innermost project frame is the caller.
    expectOneWayInOneWayOut({ inbound: inbound(), outbound: outbound() });
  });
});
