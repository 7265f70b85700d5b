// The bot's in-process worker, on a thread of its own: `pod-doctor worker` as it is. Diagnoses
// (API reads, rules) use the second core instead of the event loop that acknowledges Slack and
// posts findings. Results go to the results stream like any worker's: a job is done when its
// result is stored, never when chat has caught up with it, so diagnosis throughput does not
// depend on Slack's budget (the bot's stream reader delivers them).
//
// Protocol with the bot (src/cli/worker-host.ts): the thread sends `started` and `metrics`
// answers, and `stopped` when its shutdown is done; the bot sends `stop` and `metrics` requests.
// Stopped, the thread exits (or the bot ends it a moment later).
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Registry } from 'prom-client';
import { runWorker, type WorkerOptions } from './worker.js';

/** The worker as the bot settled it (configuration read once, in the bot; structured-cloned). */
export interface WorkerThreadData {
  options: WorkerOptions;
}

export type ToWorker = { kind: 'stop' } | { kind: 'metrics'; id: number };
export type FromWorker = { kind: 'started' } | { kind: 'stopped' } | { kind: 'metrics'; id: number; json: unknown[] };

const port = parentPort;
if (!port) throw new Error('worker-thread.ts runs only as a worker thread of the bot');
const data = workerData as WorkerThreadData;
let registry: Registry | undefined;
const stopped = new Promise<string>((resolve) => {
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'stop') resolve('bot stopping');
    else if (m.kind === 'metrics')
      void (registry?.getMetricsAsJSON() ?? Promise.resolve([])).then((json) => port.postMessage({ kind: 'metrics', id: m.id, json } satisfies FromWorker));
  });
});

await runWorker(
  data.options,
  { stdout: new PassThrough() },
  {
    stopSignal: stopped,
    embedded: {
      onStarted: (info) => {
        registry = info.registry;
        port.postMessage({ kind: 'started' } satisfies FromWorker);
      },
    },
  },
);
// Stopped: the bot ends the thread if a handle a library left open (a BullMQ connection still
// dialling a Redis that is gone) would keep it, as the exit watchdog in src/bin does for a process.
port.postMessage({ kind: 'stopped' } satisfies FromWorker);
// The bot's `stop` listener keeps the port open; close it so the thread can end.
port.close();
