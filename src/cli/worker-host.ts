// The bot's side of its worker thread (src/cli/worker-thread.ts): start it, wait until its
// workers run, ask it for its metrics, stop it (running jobs finish), and notice if it dies.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { FromWorker, ToWorker, WorkerThreadData } from './worker-thread.js';

export interface WorkerThread {
  /** This worker's metrics (prom-client JSON) for the bot's /metrics. */
  metrics(): Promise<unknown[]>;
  /** Settles with the reason if the thread ends before `stop()`: the bot cannot diagnose then. */
  readonly died: Promise<Error>;
  stop(): Promise<void>;
}

export interface WorkerThreadOptions {
  data: WorkerThreadData;
  logger: Logger;
}

/** How long a thread whose shutdown is done may take to end on its own before it is ended. */
const THREAD_EXIT_GRACE_MS = 500;

export async function startWorkerThread({ data, logger }: WorkerThreadOptions): Promise<WorkerThread> {
  // The built bot runs the .js; from source (tsx, vitest) the thread registers tsx's loader
  // itself first (a worker does not inherit it, and `--import` in execArgv is not applied).
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './worker-thread.ts' : './worker-thread.js', import.meta.url);
  // A bounded young generation: the default (tens of MB of semi-spaces) is most of an idle
  // thread's footprint, but at 6 MB a burst of 200 diagnoses scavenged 160 times for 330 ms
  // (their in-flight snapshots survive every scavenge); at 32 MB it is 27 times for 120 ms, and
  // an idle bot is no larger (semi-spaces grow only under load). The main thread's is set through
  // NODE_OPTIONS=--max-semi-space-size in the image.
  const options = { workerData: data, name: 'pod-doctor-worker', resourceLimits: { maxYoungGenerationSizeMb: 32 } };
  const worker = fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { ...options, eval: true })
    : new Worker(entry, options);
  let stopping = false;
  let nextId = 0;
  const waiting = new Map<number, (json: unknown[]) => void>();
  let onDied!: (err: Error) => void;
  const died = new Promise<Error>((resolve) => (onDied = resolve));
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  let firstError: Error | undefined;
  worker.on('error', (err) => {
    firstError ??= err;
    logger.error({ err }, 'worker thread failed');
  });
  void exited.then((code) => {
    for (const resolve of waiting.values()) resolve([]);
    waiting.clear();
    if (!stopping) onDied(firstError ?? new Error(`the worker thread exited (code ${code})`));
  });

  const send = (m: ToWorker) => worker.postMessage(m);
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: FromWorker) => {
      if (m.kind === 'started') {
        resolve();
      } else if (m.kind === 'stopped') {
        // Its shutdown is done; what still holds it open has nothing left to do.
        setTimeout(() => void worker.terminate(), THREAD_EXIT_GRACE_MS).unref();
      } else if (m.kind === 'metrics') {
        waiting.get(m.id)?.(m.json);
        waiting.delete(m.id);
      }
    };
    worker.on('message', onMessage);
    void died.then(reject);
  });

  return {
    died,
    metrics() {
      if (stopping) return Promise.resolve([]);
      const id = ++nextId;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        send({ kind: 'metrics', id });
      });
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      send({ kind: 'stop' });
      // Running jobs finish first (as for `pod-doctor worker` on SIGTERM); the lock lets another
      // worker take over a job that outlives this.
      const timeout = setTimeout(() => void worker.terminate(), 60_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
