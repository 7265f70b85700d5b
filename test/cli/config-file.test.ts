// `pod-doctor bot --config FILE`: alert routes, the alert channel, default namespaces and the
// access policy come from the file (a real bot on a fake Slack and real Redis: alerts land in the
// file's channels); a bad file stops start-up with every problem printed; the former name of
// the alert channel still starts a bot, with a note.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat/context.js';
import { botCommand } from '../../src/cli/bot.js';
import { payload, podAlert, post, TOKEN } from '../helpers/alerts.js';
import { cli } from '../helpers/cli.js';
import { type FakeSlack, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { spawnRole } from '../helpers/roles.js';

const CONFIG = `# What a platform team writes once.
cluster: cfg
alertChannel: C0ALERTS
alertRoutes:
  - matchers: {team: db}
    channel: C0DB
defaultNamespaces:
  C0SHOP: shop
approvers: [S0SRE]
policy:
  channels:
    C0SHOP: {clusters: [cfg], namespaces: [shop]}
  approvals:
    - namespaces: [shop]
      approvers: [S0SHOPOPS]
      twoPersonRisks: [medium, high]
`;

const BAD = `cluster: Not A Label
alertRoutes:
  - matchers: {team: db}
    chanel: C0DB
polcy: {}
slackBotToken: xoxb-in-a-configmap
`;

interface Started {
  url: string;
  chat: ChatContext;
  stderr: () => string;
  stop(): Promise<void>;
}

/** The real command with its stderr captured (the deprecation note goes there); `stop()` awaits its exit. */
async function startBot(args: string[], env: Record<string, string>): Promise<Started> {
  let stop!: (why: string) => void;
  const stopSignal = new Promise<string>((r) => (stop = r));
  let err = '';
  const stderr = new PassThrough();
  stderr.on('data', (chunk) => (err += String(chunk)));
  let ready: { port: number; chat: ChatContext } | undefined;
  let exited!: Promise<number>;
  await new Promise<void>((resolve, reject) => {
    // A free metrics port: bots of parallel tests must not share 9464.
    exited = botCommand(
      args,
      { stdout: new PassThrough(), stderr, env: { POD_DOCTOR_METRICS_PORT: '0', ...env } },
      { stopSignal, logger: silent, onReady: (info) => resolve(void (ready = info)) },
    );
    exited.then(() => resolve(), reject);
  });
  if (!ready) throw new Error('bot exited before it was ready');
  const { port, chat } = ready;
  return {
    url: `http://127.0.0.1:${port}`,
    chat,
    stderr: () => err,
    stop: async () => {
      stop('test');
      await exited;
    },
  };
}

describe('pod-doctor bot --config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-config-'));
  const redis = connect();
  const prefix = testPrefix('config-file');
  let slack: FakeSlack;
  let bot: Started | undefined;
  const env = () => ({
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_SIGNING_SECRET: 'test-signing-secret-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    POD_DOCTOR_REDIS_PREFIX: prefix,
    ALERTMANAGER_TOKEN: TOKEN,
    LOG_LEVEL: 'silent',
  });

  beforeAll(async () => {
    slack = await startFakeSlack();
    writeFileSync(join(dir, 'pod-doctor.yaml'), CONFIG);
    writeFileSync(join(dir, 'bad.yaml'), BAD);
  });

  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
  });

  afterAll(async () => {
    await slack?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the routes, the alert channel, the namespaces and the policy of the file', { timeout: 30_000 }, async () => {
    // Without the file this bot would refuse to start: the webhook is on and no alert has a channel.
    await expect(cli(['bot', '--no-worker'], env())).resolves.toMatchObject({ code: 2, stderr: expect.stringMatching(/alerts would have no channel/) });

    bot = await startBot(['--no-worker', '--config', join(dir, 'pod-doctor.yaml')], env());
    const options = bot.chat.options;
    expect(bot.chat.cluster).toBe('cfg');
    expect(options.defaultNamespaces).toEqual({ C0SHOP: 'shop' });
    expect(options.incidentChannel).toBe('C0ALERTS');
    expect(options.policy).toEqual({
      channels: { C0SHOP: { clusters: ['cfg'], namespaces: ['shop'] } },
      usergroups: {},
      approvals: [{ clusters: ['*'], namespaces: ['shop'], playbooks: ['*'], approvers: ['S0SHOPOPS'], twoPersonRisks: ['medium', 'high'] }],
    });

    // One notification, two alerts: the db team's takes the file's route, the other its alert channel.
    const alerts = [podAlert('db', 'postgres-0', { labels: { team: 'db' } }), podAlert('shop', 'web-1')];
    const res = await post(`${bot.url}/alertmanager`, JSON.stringify(payload(alerts)), {
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.roots('C0DB').length > 0 && slack.roots('C0ALERTS').length > 0, 15_000);
    expect(slack.roots('C0DB').map((m) => m.text)).toEqual([expect.stringMatching(/KubePodCrashLooping/)]);
    expect(slack.roots('C0ALERTS').map((m) => m.text)).toEqual([expect.stringMatching(/KubePodCrashLooping/)]);
    expect(bot.stderr()).toBe('');
  });

  it.each([['bot'], ['worker']])('%s: a bad file stops start-up with every problem printed, exit 2', async (command) => {
    const path = join(dir, 'bad.yaml');
    const res = await cli([command, '--config', path], env());
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toEqual([
      'pod-doctor: invalid configuration:',
      `  ${path}: cluster: expected a cluster name (a DNS-1123 label) (line 1)`,
      `  ${path}: alertRoutes[0].channel: required (line 3)`,
      `  ${path}: alertRoutes[0].chanel: unknown key; did you mean "channel"? (line 4)`,
      `  ${path}: polcy: unknown key; did you mean "policy"? (line 5)`,
      `  ${path}: slackBotToken: a secret: set SLACK_BOT_TOKEN in the environment (in Kubernetes from the Secret pod-doctor), never in this file (line 6)`,
    ]);
  });

  it('finds the file through POD_DOCTOR_CONFIG too, and says so when it cannot read it', async () => {
    const res = await cli(['worker'], { ...env(), POD_DOCTOR_CONFIG: join(dir, 'missing.yaml') });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`pod-doctor: cannot read the config file ${join(dir, 'missing.yaml')} (POD_DOCTOR_CONFIG): no such file (ENOENT)\n`);
    const bad = await cli(['bot', '--no-worker'], { ...env(), POD_DOCTOR_CONFIG: join(dir, 'bad.yaml') });
    expect(bad.stderr).toMatch(/polcy: unknown key/);
  });

  it('diagnose --config: the rule overrides of the file apply', async () => {
    const fixture = join(import.meta.dirname, '../fixtures/incidents/crash-liveness-probe');
    const args = ['diagnose', 'search/search-api-6b5d8-h2k4j', '--from', fixture, '--now', '2026-11-21T10:00:00Z', '--json'];
    const rules = async (extra: string[]) => {
      const res = await cli([...args, ...extra], {});
      expect(res.stderr).toBe('');
      return (JSON.parse(res.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    };
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  crash.probe-failing: off\n');
    expect(await rules([])).toContain('crash.probe-failing');
    expect(await rules(['--config', join(dir, 'rules.yaml')])).not.toContain('crash.probe-failing');
  });

  it('starts as docs/slack.md used to say (POD_DOCTOR_INCIDENT_CHANNEL), noting the new name', { timeout: 30_000 }, async () => {
    bot = await startBot(['--no-worker'], { ...env(), POD_DOCTOR_INCIDENT_CHANNEL: 'C0INC' });
    expect(bot.chat.options.incidentChannel).toBe('C0INC');
    expect(bot.stderr()).toBe(
      'pod-doctor: note: POD_DOCTOR_INCIDENT_CHANNEL is deprecated: it is now POD_DOCTOR_ALERT_CHANNEL (the same setting); rename it\n',
    );
    const res = await post(`${bot.url}/alertmanager`, JSON.stringify(payload([podAlert('shop', 'web-2')])), {
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.roots('C0INC').length > 0, 15_000);
  });
});

// Hostile files as --config: one line naming the file, exit 2, no stack trace. The FIFO and
// /dev/zero run in a process of their own: a blocking read of either would hang (or fill) this one.
describe('pod-doctor with a hostile --config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-config-hostile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const oneLine = (res: { code: number | null; stderr: string }, line: RegExp) => {
    expect(res.code).toBe(2);
    expect(res.stderr.trimEnd().split('\n').at(-1)).toMatch(line);
    expect(res.stderr).not.toMatch(/^\s+at /m);
  };

  it('an alias bomb: the line of the alias that went over the limit', async () => {
    const levels = ['b', 'c', 'd', 'e'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcd'[i]}`).join(', ')}]`);
    writeFileSync(join(dir, 'bomb.yaml'), ['cluster: prod', 'a: &a [x, x, x, x, x, x, x, x, x]', ...levels].join('\n'));
    const res = await cli(['worker', '--config', join(dir, 'bomb.yaml')], { LOG_LEVEL: 'silent' });
    oneLine(res, new RegExp(`^  ${join(dir, 'bomb.yaml')}: too many aliases \\(line 5\\)$`));
  });

  it('a 64 MiB file: refused by its size, not read', async () => {
    const path = join(dir, 'huge.yaml');
    writeFileSync(path, '');
    truncateSync(path, 64 * 1024 * 1024);
    const res = await cli(['worker', '--config', path], { LOG_LEVEL: 'silent' });
    oneLine(res, /^pod-doctor: cannot read the config file \S+huge\.yaml \(--config\): 64 MiB, larger than the 1 MiB a config file may be: not read$/);
  });

  const ownProcess = async (path: string) => {
    const run = spawnRole(['worker', '--config', path], { LOG_LEVEL: 'silent' });
    // Today's code hangs on the FIFO and reads /dev/zero for ever: give up long after a loaded machine needs.
    const killer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
    const exit = await run.exited;
    clearTimeout(killer);
    return { code: exit.code, stderr: run.stderr() };
  };

  it('a FIFO: not opened for a blocking read', { timeout: 90_000 }, async () => {
    execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
    oneLine(await ownProcess(join(dir, 'fifo.yaml')), /^pod-doctor: cannot read the config file \S+fifo\.yaml \(--config\): a FIFO, not a regular file$/);
  });

  it('/dev/zero: not read', { timeout: 90_000 }, async () => {
    oneLine(await ownProcess('/dev/zero'), /^pod-doctor: cannot read the config file \/dev\/zero \(--config\): a character device, not a regular file$/);
  });
});
