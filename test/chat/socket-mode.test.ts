// `pod-doctor bot` in Socket Mode (POD_DOCTOR_SLACK_MODE=socket): the bot dials out to the fake
// Slack's WebSocket (apps.connections.open with the app token), acknowledges a slash command
// envelope over the socket, and posts the findings through the Web API: no public URL needed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCommand } from '../../src/cli/bot.js';
import { loadScenario, shiftTimes } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { type FakeSlack, messageText, startFakeSlack } from '../helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const CHANNEL = 'C0SOCKET';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

describe('pod-doctor bot in Socket Mode', () => {
  let slack: FakeSlack;
  let sim: Sim;
  let dir: string;
  let prefix: string;
  let stop: () => void;
  let exited: Promise<number>;
  const redis = connect();

  beforeAll(async () => {
    prefix = testPrefix('socket');
    slack = await startFakeSlack();
    const scenario = await loadScenario(SCENARIO);
    sim = await startSim({ objects: shiftTimes(scenario.objects, Date.now() - Date.parse(scenario.meta.now)) });
    dir = mkdtempSync(join(tmpdir(), 'pd-socket-'));
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
    const env = {
      POD_DOCTOR_SLACK_MODE: 'socket',
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_APP_TOKEN: 'xapp-1-test-app-token',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      POD_DOCTOR_METRICS_PORT: '0',
      KUBECONFIG: join(dir, 'kubeconfig'),
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_CLUSTER: 'socket',
      LOG_LEVEL: 'silent',
    };
    exited = botCommand(
      [],
      { stdout: new PassThrough(), stderr: new PassThrough(), env },
      { stopSignal: new Promise((r) => (stop = () => r('test'))), logger: silent },
    );
    await Promise.race([slack.socket.connected(), exited.then((code) => Promise.reject(new Error(`bot exited with ${code}`)))]);
  });

  afterAll(async () => {
    stop?.();
    await exited?.catch(() => undefined);
    await slack?.close();
    await sim?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens the connection with the app token', () => {
    const open = slack.calls.find((c) => c.method === 'apps.connections.open');
    expect(open?.token).toBe('xapp-1-test-app-token');
    expect(slack.socket.connections).toBe(1);
  });

  it('acknowledges a slash command over the socket and posts the findings in a thread', async () => {
    const sent = Date.now();
    const ack = await slack.socket.send('slash_commands', {
      token: 'legacy',
      team_id: 'T0FAKE',
      channel_id: CHANNEL,
      user_id: 'U0ALICE',
      command: '/pod-doctor',
      text: 'reports/report-6f7d8-xk2lq',
      response_url: `${slack.url}/respond/socket`,
      trigger_id: '1.2.3',
      api_app_id: 'A0FAKE',
    });
    expect(ack.at - sent).toBeLessThan(3000);
    const root = await slack.waitFor(() => slack.roots(CHANNEL)[0]);
    const findings = await slack.waitFor(() => slack.thread(CHANNEL, root.ts).find((m) => messageText(m).includes('terminating.finalizers')));
    expect(messageText(findings)).toMatch(/foregroundDeletion/);
  });
});

describe('pod-doctor bot in Socket Mode, Slack refusing the app token', () => {
  it('listens first, then ends (exit 1, to be restarted) once Socket Mode cannot connect', { timeout: 30_000 }, async () => {
    const slack = await startFakeSlack();
    const prefix = testPrefix('socket-refused');
    slack.refuseNext('apps.connections.open', 100, 'invalid_auth');
    let listening: number | undefined;
    try {
      const code = await botCommand(
        ['--no-worker'],
        {
          stdout: new PassThrough(),
          stderr: new PassThrough(),
          env: {
            POD_DOCTOR_SLACK_MODE: 'socket',
            SLACK_BOT_TOKEN: 'xoxb-test-token',
            SLACK_APP_TOKEN: 'xapp-1-revoked',
            SLACK_API_URL: slack.apiUrl,
            PORT: '0',
            POD_DOCTOR_METRICS_PORT: '0',
            REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
            POD_DOCTOR_REDIS_PREFIX: prefix,
            POD_DOCTOR_CLUSTER: 'socket',
            LOG_LEVEL: 'silent',
          },
        },
        { stopSignal: new Promise(() => undefined), logger: silent, onReady: ({ metricsPort }) => (listening = metricsPort) },
      );
      expect(listening).toBeGreaterThan(0);
      expect(code).toBe(1);
      expect(slack.calls.some((c) => c.method === 'apps.connections.open')).toBe(true);
    } finally {
      await slack.close();
    }
  });
});

describe('pod-doctor bot in Socket Mode, Slack slow to open the connection', () => {
  it("serves /healthz and /readyz on the bot's own port at once: `slack: connecting` until the socket is up, then ok", { timeout: 30_000 }, async () => {
    const slack = await startFakeSlack();
    const prefix = testPrefix('socket-slow');
    const redis = connect();
    slack.answerLate('apps.connections.open', 1, 3000);
    let stop!: () => void;
    let port: number | undefined;
    const exited = botCommand(
      ['--no-worker'],
      {
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        env: {
          POD_DOCTOR_SLACK_MODE: 'socket',
          SLACK_BOT_TOKEN: 'xoxb-test-token',
          SLACK_APP_TOKEN: 'xapp-1-test-app-token',
          SLACK_API_URL: slack.apiUrl,
          PORT: '0',
          POD_DOCTOR_METRICS_PORT: '0',
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          POD_DOCTOR_REDIS_PREFIX: prefix,
          POD_DOCTOR_CLUSTER: 'socket',
          LOG_LEVEL: 'silent',
        },
      },
      { stopSignal: new Promise((r) => (stop = () => r('test'))), logger: silent, onReady: (info) => (port = info.port) },
    );
    try {
      await expect.poll(() => port, { timeout: 10_000 }).toBeGreaterThan(0);
      const url = `http://127.0.0.1:${port}`;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const connecting = await fetch(`${url}/readyz`);
      expect(connecting.status).toBe(503);
      expect(await connecting.text()).toMatch(/^slack: connecting$/m);
      await slack.socket.connected();
      await expect.poll(async () => (await fetch(`${url}/readyz`)).text(), { timeout: 10_000 }).toMatch(/^slack: ok$/m);
      // Nothing of Slack's own on it: Bolt's receiver opened no server, and the bot's has no /slack/events in Socket Mode.
      expect((await fetch(`${url}/slack/events`, { method: 'POST' })).status).toBe(404);
    } finally {
      stop();
      expect(await exited).toBe(0);
      await slack.close();
      await cleanup(redis, prefix);
      redis.disconnect();
    }
  });
});
