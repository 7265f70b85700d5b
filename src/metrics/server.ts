// The worker's small HTTP server: /metrics, /healthz (the process runs), /readyz (its
// dependencies answer: Redis ping, Kubernetes API reachable).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { metricsHandler } from './metrics.js';

/** name → check; a check resolves when healthy and rejects with the reason otherwise. */
export type ReadinessChecks = Record<string, () => Promise<unknown>>;

export interface OpsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 3000;

async function runCheck(check: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}

export async function serveOps(options: { port: number; host?: string; registry: Registry; readiness?: ReadinessChecks }): Promise<OpsServer> {
  const metrics = metricsHandler(options.registry);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') return metrics(req, res);
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    if (path === '/readyz') {
      const checks = Object.entries(options.readiness ?? {});
      void Promise.all(checks.map(async ([name, check]) => [name, await runCheck(check)] as const)).then((results) => {
        const failed = results.filter(([, problem]) => problem !== null);
        const body = results.map(([name, problem]) => `${name}: ${problem ?? 'ok'}`).join('\n');
        res.writeHead(failed.length === 0 ? 200 : 503, { 'content-type': 'text/plain' }).end(`${body}\n`);
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
