// A bot killed (SIGKILL) in the middle of a burst of slash commands loses none it acknowledged.
// The bot runs as its own process (`pod-doctor bot --no-worker`, so the jobs stay queued where
// they can be counted) on a private redis-server with AOF (`appendfsync always`); a burst of
// signed commands for distinct pods goes out at once and the bot is killed as soon as some are
// acknowledged; then Redis is killed too and restarted from its append-only file. Every
// command whose acknowledgement said "Diagnosing" must have its job in the restarted Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { redisFromUrl } from '../../src/redis/client.js';
import { type FakeSlack, postSigned, slashCommandBody, startFakeSlack } from '../helpers/fake-slack.js';
import { freePort, redisUp, startAofRedis } from '../helpers/jobs.js';
import { spawnRole } from '../helpers/roles.js';

const SECRET = 'test-signing-secret-0123456789';
/** The bar is 10 runs; POD_DOCTOR_TEST_ACK_KILL_RUNS changes it (each run starts a bot process). */
const RUNS = Number(process.env.POD_DOCTOR_TEST_ACK_KILL_RUNS ?? 10);
const BURST = 46;
/** The bot is killed once this many commands of its burst are acknowledged. */
const KILL_AFTER = 8;

describe('slash commands acknowledged before a kill -9 of the bot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-ack-kill-'));
  let slack: FakeSlack;
  let port: number;
  let server: ReturnType<typeof startAofRedis> | undefined;

  const redisStart = async () => {
    server = startAofRedis(port, dir);
    await redisUp(port);
  };
  const redisKill = async () => {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise((r) => server!.once('exit', r));
    server.kill('SIGKILL');
    await gone;
  };

  beforeAll(async () => {
    slack = await startFakeSlack();
    port = await freePort();
    await redisStart();
  });

  afterAll(async () => {
    await redisKill();
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One run: a bot, a burst, a kill mid-burst, Redis restarted from its AOF; what was acknowledged and what Redis holds. */
  const run = async (i: number) => {
    const prefix = `pdt-ack-kill-${i}`;
    const bot = spawnRole(['bot', '--no-worker'], {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      REDIS_URL: `redis://127.0.0.1:${port}`,
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CLUSTER: 'burst',
      LOG_LEVEL: 'silent',
    });
    try {
      const [, botPort] = (await bot.line(/Slack on :(\d+)\/slack\/events/, 60_000)) as unknown as [string, string];
      const url = `http://127.0.0.1:${botPort}`;
      const acked: string[] = [];
      let killed: Promise<void> | undefined;
      const pods = Array.from({ length: BURST }, (_, k) => `web-${i}-${k}`);
      await Promise.all(
        pods.map(async (pod) => {
          const body = slashCommandBody({
            text: `shop/${pod}`,
            channel: 'C0OPS',
            user: `U0USER${pod.replace(/\W/g, '')}`,
            responseUrl: `${slack.url}/respond/${pod}`,
          });
          const res = await postSigned(url, body, SECRET).catch(() => undefined);
          if (res?.status !== 200 || !/Diagnosing shop\//.test((JSON.parse(res.body) as { text: string }).text)) return;
          acked.push(pod);
          if (acked.length === KILL_AFTER) killed = bot.kill();
        }),
      );
      await (killed ?? bot.kill());
      // Redis dies too and comes back from its append-only file: what the bot was told is stored, is.
      await redisKill();
      await redisStart();
      const redis = redisFromUrl(`redis://127.0.0.1:${port}`, {}, { role: 'producer' });
      const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
      try {
        const jobs = await queues.diagnose('burst').getJobs(['wait', 'delayed', 'prioritized', 'active']);
        const queued = new Set(jobs.map((j) => (j.data.target.kind === 'pod' ? j.data.target.name : '')));
        return { acked: acked.length, lost: acked.filter((pod) => !queued.has(pod)), queued: queued.size };
      } finally {
        await queues.close();
        redis.disconnect();
      }
    } finally {
      await bot.kill();
    }
  };

  it(`loses none of them over ${RUNS} runs (${BURST} commands each, killed after ${KILL_AFTER} acknowledgements)`, { timeout: RUNS * 90_000 }, async () => {
    const runs: { acked: number; lost: string[]; queued: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await run(i));
    console.info(`ack-kill: ${JSON.stringify(runs.map((r) => ({ acked: r.acked, queued: r.queued, lost: r.lost.length })))}`);
    // Each run was killed mid-burst with acknowledged commands behind it (the test can fail).
    for (const r of runs) expect(r.acked).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(runs.flatMap((r) => r.lost)).toEqual([]);
  });
});
