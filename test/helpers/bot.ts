// `pod-doctor bot` inside a test: started through the real command with the given environment,
// resolved once its HTTP server listens, stopped (and awaited) by `stop()`.
import { PassThrough } from 'node:stream';
import type { ChatContext } from '../../src/chat/context.js';

import { botCommand } from '../../src/cli/bot.js';
import { workerCommand } from '../../src/cli/worker.js';
import { silent } from './logger.js';

export interface TestBot {
  url: string;
  port: number;
  /** The operations port's base URL: /metrics (not on the public port). */
  metricsUrl: string;
  chat: ChatContext;
  stop(): Promise<void>;
}

export async function startTestBot(env: Record<string, string>, args: string[] = []): Promise<TestBot> {
  let stop!: (reason: string) => void;
  const stopSignal = new Promise<string>((r) => (stop = r));
  let ready: { port: number; metricsPort: number; chat: ChatContext } | undefined;
  let exited!: Promise<number>;
  await new Promise<void>((resolve) => {
    exited = botCommand(
      args,
      // A free metrics port unless the test names one: bots of parallel tests must not share 9464.
      { stdout: new PassThrough(), stderr: new PassThrough(), env: { POD_DOCTOR_METRICS_PORT: '0', ...env } },
      {
        stopSignal,
        logger: silent,
        onReady: (info) => {
          ready = info;
          resolve();
        },
      },
    );
    exited.catch(() => resolve());
  });
  if (!ready) throw new Error(`bot did not start: ${String(await exited.catch((e: unknown) => e))}`);
  return {
    url: `http://127.0.0.1:${ready.port}`,
    port: ready.port,
    metricsUrl: `http://127.0.0.1:${ready.metricsPort}`,
    chat: ready.chat,
    stop: async () => {
      stop('test');
      await exited.catch(() => undefined);
    },
  };
}

/** A bot's (and its workers') environment against a fake Slack API and a kubeconfig; `extra` adds or overrides. */
export function testBotEnv(o: { slackApiUrl: string; secret: string; kubeconfig: string; cluster: string }, extra: Record<string, string> = {}) {
  return {
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_SIGNING_SECRET: o.secret,
    SLACK_API_URL: o.slackApiUrl,
    PORT: '0',
    POD_DOCTOR_METRICS_PORT: '0',
    KUBECONFIG: o.kubeconfig,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    POD_DOCTOR_CLUSTER: o.cluster,
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/**
 * A Mattermost-only bot's environment (the fake Mattermost at `o.url`), as testBotEnv is Slack's:
 * buttons post back to `publicUrl`, posts paced only loosely (tests, not Mattermost's limits).
 */
export function mattermostBotEnv(
  o: { url: string; token: string; commandTokens: string; actionSecret?: string; port: number; kubeconfig: string; cluster: string; prefix: string },
  extra: Record<string, string> = {},
) {
  return {
    POD_DOCTOR_CHAT_SURFACES: 'mattermost',
    MATTERMOST_URL: o.url,
    MATTERMOST_BOT_TOKEN: o.token,
    MATTERMOST_COMMAND_TOKEN: o.commandTokens,
    MATTERMOST_ACTION_SECRET: o.actionSecret ?? 'a'.repeat(32),
    POD_DOCTOR_PUBLIC_URL: `http://127.0.0.1:${o.port}`,
    PORT: String(o.port),
    POD_DOCTOR_METRICS_PORT: '0',
    KUBECONFIG: o.kubeconfig,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    POD_DOCTOR_REDIS_PREFIX: o.prefix,
    POD_DOCTOR_CLUSTER: o.cluster,
    POD_DOCTOR_CHAT_POSTS_PER_SECOND: '100',
    POD_DOCTOR_CHAT_BURST: '100',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/** `pod-doctor worker` in this process (a split deployment's other half), stopped and awaited by `stop()`. */
export function startTestWorker(env: Record<string, string>): { stop(): Promise<void> } {
  let stop!: (why: string) => void;
  const exited = workerCommand([], { stdout: new PassThrough(), stderr: new PassThrough(), env }, { stopSignal: new Promise<string>((r) => (stop = r)) });
  return {
    stop: async () => {
      stop('test');
      await exited.catch(() => undefined);
    },
  };
}

/** A split deployment in this process: the bot without its worker thread, and a worker beside it. */
export async function startSplitDeployment(env: Record<string, string>): Promise<{ bot: TestBot; stop(): Promise<void> }> {
  const bot = await startTestBot(env, ['--no-worker']);
  const worker = startTestWorker(env);
  return {
    bot,
    stop: async () => {
      await bot.stop();
      await worker.stop();
    },
  };
}
