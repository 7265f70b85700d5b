// The operations port of the worker and the bot: /metrics, /healthz (the process runs), /readyz
// (its dependencies answer: Redis ping, Kubernetes API reachable), and pod_doctor_ready, the
// same answer at scrape time (the bot reports its own readiness with registerReady too).
import type http from 'node:http';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { withDeadline } from '../bounded.js';
import { createHttpServer, type RouteHandler } from '../http/server.js';
import { createLogger } from '../log.js';
import { boundedRead, metricsHandler, SCRAPE_REDIS_TIMEOUT_MS } from './metrics.js';

/** name → check; a check resolves when healthy and rejects with the reason otherwise. */
export type ReadinessChecks = Record<string, () => Promise<unknown>>;

export interface OpsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Longest a readiness check may take: the probes in deploy/ give /readyz 5 s. */
export const CHECK_TIMEOUT_MS = 3000;

/** Runs one readiness check within CHECK_TIMEOUT_MS: null when healthy, else the reason. */
export async function runCheck(check: () => Promise<unknown>): Promise<string | null> {
  try {
    await withDeadline(CHECK_TIMEOUT_MS, check, () => new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** What /readyz answers: ready when every check passes, and a line per check. */
export async function checkReadiness(checks: ReadinessChecks): Promise<{ ready: boolean; body: string }> {
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await runCheck(check)] as const));
  return {
    ready: results.every(([, problem]) => problem === null),
    body: `${results.map(([name, problem]) => `${name}: ${problem ?? 'ok'}`).join('\n')}\n`,
  };
}

/**
 * pod_doctor_ready: what `ready()` (the process' /readyz) says at scrape time. Like the queue
 * reads it gives up after SCRAPE_REDIS_TIMEOUT_MS (a kubelet probe's default timeout is 1 s
 * too), reporting 0, and scrapes during a slow check share it instead of starting more.
 */
export function registerReady(registry: Registry, ready: () => Promise<boolean>): void {
  const read = boundedRead(ready);
  new Gauge({
    name: 'pod_doctor_ready',
    help: `1 when this process is ready (what /readyz answers) at scrape time; 0 when not, or when its checks take over ${SCRAPE_REDIS_TIMEOUT_MS} ms.`,
    // Summed with the bot's worker thread (which has none), the bot's own answer.
    aggregator: 'min',
    registers: [registry],
    async collect() {
      const answer = await read();
      this.set(answer.status === 'done' && answer.value ? 1 : 0);
    },
  });
}

/** Serves /metrics, /healthz and /readyz; registers pod_doctor_ready on `registry` (once per registry). */
export async function serveOps(options: { port: number; host?: string; registry: Registry; readiness?: ReadinessChecks; logger?: Logger }): Promise<OpsServer> {
  const readiness = () => checkReadiness(options.readiness ?? {});
  registerReady(options.registry, async () => (await readiness()).ready);
  return listenOps({
    port: options.port,
    ...(options.host ? { host: options.host } : {}),
    metrics: metricsHandler(options.registry),
    readiness,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * The operations port itself, on the bot's route table (src/http/): /metrics from `metrics`,
 * /healthz, and /readyz from `readiness` (the bot's, whose public port serves Slack: its metrics
 * stay off it). GET and HEAD each.
 */
export async function listenOps(options: {
  port: number;
  host?: string;
  metrics: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  readiness: () => Promise<{ ready: boolean; body: string }>;
  /** Where a failing handler is logged (default: nowhere). */
  logger?: Logger;
}): Promise<OpsServer> {
  const { metrics, readiness } = options;
  const server = createHttpServer({ logger: options.logger ?? createLogger({ level: 'silent' }) });
  const text = (res: http.ServerResponse, status: number, body: string) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  const routes: Record<string, RouteHandler> = {
    '/metrics': metrics,
    '/healthz': (_req, res) => text(res, 200, 'ok\n'),
    '/readyz': async (_req, res) => {
      const { ready, body } = await readiness();
      text(res, ready ? 200 : 503, body);
    },
  };
  for (const [path, handler] of Object.entries(routes)) server.mount({ method: 'GET', path, handler }, { method: 'HEAD', path, handler });
  const port = await server.listen(options.port, options.host ?? '0.0.0.0');
  return { port, url: `http://127.0.0.1:${port}`, close: () => server.close(0) };
}
