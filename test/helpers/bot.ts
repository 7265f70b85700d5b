// `pod-doctor bot` inside a test: started through the real command with the given environment,
// resolved once its HTTP server listens, stopped (and awaited) by `stop()`.
import { PassThrough } from 'node:stream';
import type { ChatService } from '../../src/chat/service.js';
import { botCommand } from '../../src/cli/bot.js';
import { silent } from './logger.js';

export interface TestBot {
  url: string;
  port: number;
  service: ChatService;
  stop(): Promise<void>;
}

export async function startTestBot(env: Record<string, string>, args: string[] = []): Promise<TestBot> {
  let stop!: (reason: string) => void;
  const stopSignal = new Promise<string>((r) => (stop = r));
  let ready: { port: number; service: ChatService } | undefined;
  let exited!: Promise<number>;
  await new Promise<void>((resolve) => {
    exited = botCommand(
      args,
      { stdout: new PassThrough(), stderr: new PassThrough(), env },
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
    service: ready.service,
    stop: async () => {
      stop('test');
      await exited.catch(() => undefined);
    },
  };
}
