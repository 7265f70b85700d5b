// A container whose previous run logged credentials, diagnosed from Slack end to end: the bot and
// its worker against the simulated API, the fake Slack and real Redis. The findings quote that
// log (and the termination message), redacted: nothing of the credentials reaches Slack, and
// nothing of them is stored in Redis (the results stream, the job's return value, any key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { keyPattern } from '../../src/redis/keys.js';
import { startSplitDeployment, type TestBot, testBotEnv } from '../helpers/bot.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0REDACT';
const NAMESPACE = 'web';
const POD = 'nginx-7c5ddbdf54-abcde';
const SCENARIO = new URL('../fixtures/incidents/seed-003-nginx-ipv6', import.meta.url).pathname;

/** Fake values of real formats; none of them may leave the worker unredacted. */
const CREDENTIALS = [
  'Pg-S3cret-77',
  'pdFZKVeTuE8sk7oOcBrzbqgy',
  '9f86d081884c7d659a2feaa0c55ad015',
  'IOSFODNN7EXAMPLE',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'r3d1sP4ss',
];

/** The crashed run's log (the container's previous instance). */
const PREVIOUS_LOG = [
  'starting api v2.3.1',
  'config: DATABASE_URL=postgres://app:Pg-S3cret-77@db.shop.svc:5432/orders',
  '-----BEGIN RSA PRIVATE KEY-----',
  CREDENTIALS[4]!,
  '-----END RSA PRIVATE KEY-----',
  'ERROR slack notify failed for xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
  'ERROR upstream call failed: Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015',
  'FATAL cannot connect: postgres://app:Pg-S3cret-77@db.shop.svc:5432/orders password=Pg-S3cret-77 (key AKIAIOSFODNN7EXAMPLE)',
];

/** Every value under the test's prefix, whatever its type, as one text. */
async function everythingStored(redis: ReturnType<typeof connect>, prefix: string): Promise<string> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      if (type === 'string') out.push((await redis.get(key)) ?? '');
      else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
      else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return out.join('\n');
}

describe('credentials in a crashed container log', () => {
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  let bot: TestBot;
  let split: Awaited<ReturnType<typeof startSplitDeployment>> | undefined;
  const prefix = testPrefix('redact');
  const redis = connect();

  beforeAll(async () => {
    // FallbackToLogsOnError: the termination message is the log's end, credentials and all.
    const objects = (await scenarioNow(SCENARIO)).map((o: KubeObject) =>
      o.kind === 'Pod' && o.metadata?.name === POD
        ? {
            ...o,
            status: {
              ...(o.status as Record<string, unknown>),
              containerStatuses: (o.status as { containerStatuses: Record<string, unknown>[] }).containerStatuses.map((s) => ({
                ...s,
                lastState: { terminated: { ...(s.lastState as { terminated: object }).terminated, message: 'cache: redis://:r3d1sP4ss@redis:6379 refused' } },
              })),
            },
          }
        : o,
    );
    rig = await startSlackSim(objects);
    slack = rig.slack;
    rig.sim.logs.add({ namespace: NAMESPACE, pod: POD, container: 'nginx', previous: true, lines: PREVIOUS_LOG });
    const env = testBotEnv({ slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig.kubeconfig, cluster: 'redact' }, { POD_DOCTOR_REDIS_PREFIX: prefix });
    split = await startSplitDeployment(env);
    bot = split.bot;
  }, 60_000);

  afterAll(async () => {
    await split?.stop();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('quotes the log redacted in Slack and stores nothing of the credentials in Redis', { timeout: 60_000 }, async () => {
    const res = await postSigned(bot.url, slashCommandBody({ text: `${NAMESPACE}/${POD}`, channel: CHANNEL }), SECRET);
    expect(res.status).toBe(200);
    // The finding quotes the crashed run's log: the quote is there, redacted.
    const quoted = await slack.waitFor(
      () => slack.messages.find((m) => m.channel === CHANNEL && messageText(m).includes('postgres://app:[redacted]@db.shop.svc')),
      30_000,
    );
    expect(messageText(quoted)).toContain('xoxb-[redacted]');

    const posted = JSON.stringify([slack.calls.map((c) => c.args), slack.messages, slack.ephemerals, slack.responses]);
    for (const credential of CREDENTIALS) expect(posted, `Slack got ${credential}`).not.toContain(credential);
    expect(posted).toContain('redis://:[redacted]@redis:6379');

    const stored = await everythingStored(redis, prefix);
    expect(stored).toContain('postgres://app:[redacted]@db.shop.svc');
    for (const credential of CREDENTIALS) expect(stored, `Redis holds ${credential}`).not.toContain(credential);
  });
});
