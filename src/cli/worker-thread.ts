// The bot's in-process worker, on a thread of its own: `pod-doctor worker` as it is, except that
// results go to the bot over the message port (as a direct call did before the thread), not by
// the results stream. Diagnoses (API reads, rules) then use the second core instead of the
// event loop that acknowledges Slack and posts findings.
//
// Protocol with the bot (src/cli/worker-host.ts): the thread sends `started`, `result` (the bot
// answers `delivered`, with an error if delivery failed: the job then fails and is retried) and
// `metrics` answers; the bot sends `stop` and `metrics` requests. Stopped, the thread exits.
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Registry } from 'prom-client';
import type { DiagnoseResult } from '../jobs/schemas.js';
import type { ResultSink } from '../jobs/sink.js';
import { workerCommand } from './worker.js';

export interface WorkerThreadData {
  argv: string[];
  env: Record<string, string | undefined>;
}

export type ToWorker = { kind: 'stop' } | { kind: 'metrics'; id: number } | { kind: 'delivered'; id: number; error?: string };
export type FromWorker = { kind: 'started' } | { kind: 'metrics'; id: number; json: unknown[] } | { kind: 'result'; id: number; result: DiagnoseResult };

const port = parentPort;
if (!port) throw new Error('worker-thread.ts runs only as a worker thread of the bot');
const data = workerData as WorkerThreadData;
let registry: Registry | undefined;
const deliveries = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
let nextDelivery = 0;
const sink: ResultSink = {
  deliver: (result) =>
    new Promise((resolve, reject) => {
      const id = ++nextDelivery;
      deliveries.set(id, { resolve, reject });
      port.postMessage({ kind: 'result', id, result } satisfies FromWorker);
    }),
};
const stopped = new Promise<string>((resolve) => {
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'stop') resolve('bot stopping');
    else if (m.kind === 'metrics')
      void (registry?.getMetricsAsJSON() ?? Promise.resolve([])).then((json) => port.postMessage({ kind: 'metrics', id: m.id, json } satisfies FromWorker));
    else if (m.kind === 'delivered') {
      const d = deliveries.get(m.id);
      deliveries.delete(m.id);
      if (m.error === undefined) d?.resolve();
      else d?.reject(new Error(m.error));
    }
  });
});

await workerCommand(
  data.argv,
  { stdout: new PassThrough(), stderr: process.stderr, env: data.env },
  {
    stopSignal: stopped,
    embedded: {
      sink,
      onStarted: (info) => {
        registry = info.registry;
        port.postMessage({ kind: 'started' } satisfies FromWorker);
      },
    },
  },
);
// The bot's `stop` listener keeps the port open; close it so the thread can end.
port.close();
