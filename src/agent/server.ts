// The node agent's HTTP API. It runs the read-only probes for a pod the worker names, and
// nothing else: input is a pod UID, names and ids checked against strict patterns, so no request
// can choose a file to read or a command to run. Bearer token compared in constant time, small
// request bodies, bounded responses, a cap on concurrent probe runs, one log line per request.
// HTTPS unless plain HTTP is asked for by name: the token must not cross the node network in
// clear text. /healthz, /readyz and /metrics need no token and say nothing sensitive.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { builtin } from '../builtin.js';
import { log as rootLog } from '../log.js';
import type { AgentProbeEnv } from '../probes/index.js';
import { type AgentMetrics, HttpError, type RefusalReason, readText } from './http.js';
import type { ProbeLimits } from './probe-requests.js';

export type { AgentMetrics, ProbeRunOutcome, RefusalReason } from './http.js';

// Not `import ... from 'node:http'`: 3 MB less resident (src/builtin.ts).
const { createHash, randomUUID, timingSafeEqual } = builtin('node:crypto') as typeof import('node:crypto');
const { constants: fsConstants } = builtin('node:fs') as typeof import('node:fs');
const { access } = builtin('node:fs/promises') as typeof import('node:fs/promises');
const { createServer: createHttpServer } = builtin('node:http') as typeof import('node:http');
const { createServer: createHttpsServer } = builtin('node:https') as typeof import('node:https');

export interface AgentOptions {
  port: number;
  /** Listen address (default 0.0.0.0: the worker reaches the agent on the node's IP). */
  host?: string;
  /** Bearer token every /v1 request must carry. */
  token: string;
  /** PEM certificate (chain) and key: the agent serves HTTPS. Required unless `plainHttp`. */
  tls?: AgentTls;
  /** Serve plain HTTP instead of HTTPS. Only when asked: the token then crosses the network readable. */
  plainHttp?: boolean;
  /** The agent's own metrics (src/agent/metrics.ts), served on `GET /metrics`; absent: 404. */
  metrics?: AgentMetrics;
  procRoot: string;
  hostRoot: string;
  nodeName: string;
  /** Socket paths, stat command, log files, per-probe time limits (see ProbeEnv). */
  probeEnv?: Partial<Omit<AgentProbeEnv, 'procRoot' | 'hostRoot'>>;
  /** Largest accepted request body (default 16 KiB). */
  maxBodyBytes?: number;
  /** Largest response body; bigger probe results are replaced by a failure (default 1 MiB). */
  maxResponseBytes?: number;
  /** Probe requests served at once; more get 429 (default 4). */
  maxConcurrent?: number;
  logger?: Logger;
  /**
   * Allow-listed node actions (`POST /v1/actions/<name>`, src/agent/actions): the handler
   * validates and serialises them itself. Absent: the agent only reads (404 on actions).
   */
  actions?: (name: string, rawBody: string, log: Logger) => Promise<{ status: number; body: Record<string, unknown> }>;
}

export interface AgentTls {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface RunningAgent {
  server: Server;
  url: string;
  port: number;
  /** Serve a renewed certificate to new connections (cert-manager renews it in the mounted Secret). */
  reloadTls(tls: AgentTls): void;
  /**
   * Stop accepting connections; resolves once every request in flight is answered and its
   * connection closed (a graceful stop: a probe or node action is not cut half-way).
   */
  drain(): Promise<void>;
  /** Stop at once, dropping open connections. */
  close(): Promise<void>;
}

/**
 * The refusal an answer stands for, from its status: a policy answer (403 outside this pod or
 * node, 409 never done by an action) or a malformed request. 429 (busy) and 5xx are not refusals.
 */
export function refusalOf(status: number): RefusalReason | undefined {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'out_of_scope';
  if (status === 409) return 'not_allowed';
  if (status === 400 || status === 404 || status === 405 || status === 413) return 'bad_request';
  return undefined;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Constant-time bearer check: both sides hashed to equal length first. */
export function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), expected);
}

/** `/readyz`: ready when the host views the probes read are there (a DaemonSet missing its mounts is not). */
async function hostViews(options: AgentOptions): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const views: [string, string][] = [
    ['proc', options.procRoot],
    ['host', options.hostRoot],
  ];
  const checks = await Promise.all(
    views.map(async ([name, dir]) => {
      try {
        await access(dir, fsConstants.R_OK);
        return [name, 'ok'] as const;
      } catch (err) {
        return [name, (err as Error).message] as const;
      }
    }),
  );
  return { ok: checks.every(([, v]) => v === 'ok'), checks: Object.fromEntries(checks) };
}

function listen(server: ReturnType<typeof createHttpServer>, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** HTTPS with a certificate, or plain HTTP when asked by name; neither (or both) is a mistake said at start. */
function checkTransport(options: AgentOptions): void {
  if (options.tls && options.plainHttp) throw new Error('both a TLS certificate and plain HTTP were asked for: choose one');
  if (!options.tls && !options.plainHttp) {
    throw new Error(
      'the agent serves HTTPS and needs a certificate and key (POD_DOCTOR_AGENT_TLS_CERT, POD_DOCTOR_AGENT_TLS_KEY); ' +
        'plain HTTP only when asked (POD_DOCTOR_AGENT_PLAIN_HTTP=true)',
    );
  }
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, reqLog: Logger) => Promise<number>;

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The routes: health and metrics open, everything under /v1/ behind the token. */
function createRoute(options: AgentOptions): Route {
  const expected = digest(options.token);
  const maxBody = options.maxBodyBytes ?? 16 * 1024;
  const limits: ProbeLimits = {
    nodeName: options.nodeName,
    env: { ...options.probeEnv, procRoot: options.procRoot, hostRoot: options.hostRoot },
    maxBody,
    maxResponse: options.maxResponseBytes ?? 1024 * 1024,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
  const maxConcurrent = options.maxConcurrent ?? 4;
  let inFlight = 0;

  return async (req, res, url, reqLog) => {
    if (url.pathname === '/healthz') {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed');
      send(res, 200, JSON.stringify({ ok: true, node: options.nodeName }));
      return 200;
    }
    if (url.pathname === '/readyz') {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed');
      const { ok, checks } = await hostViews(options);
      send(res, ok ? 200 : 503, JSON.stringify({ ok, node: options.nodeName, checks }));
      return ok ? 200 : 503;
    }
    // Prometheus scrapes without the token (it must never hold it: the token also runs actions).
    if (url.pathname === '/metrics' && options.metrics) {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed');
      const { contentType, body } = await options.metrics.render();
      send(res, 200, body, contentType);
      return 200;
    }
    if (!url.pathname.startsWith('/v1/')) throw new HttpError(404, 'not found');
    if (!tokenMatches(req.headers.authorization, expected)) {
      res.setHeader('www-authenticate', 'Bearer');
      throw new HttpError(401, 'missing or wrong bearer token');
    }
    const action = /^\/v1\/actions\/([a-z-]{1,40})$/.exec(url.pathname);
    if (action) {
      if (req.method !== 'POST') throw new HttpError(405, 'method not allowed');
      if (!options.actions) throw new HttpError(404, 'actions are not enabled on this agent', 'not_allowed');
      const out = await options.actions(action[1]!, await readText(req, maxBody), reqLog);
      send(res, out.status, JSON.stringify(out.body));
      return out.status;
    }
    const one = /^\/v1\/probes\/([a-z-]{1,32})$/.exec(url.pathname);
    if (url.pathname !== '/v1/probes' && !one) throw new HttpError(404, 'not found');
    // The probes, their schemas and zod load with the first authenticated probe request: an idle
    // agent does not carry them (about 10 MB of its 60 MB budget, bench:rss).
    const { probeWork } = await import('./probe-requests.js');
    // Validate before taking a slot, so bad input is refused even when busy.
    const work = await probeWork(req, url, one?.[1], limits);
    if (inFlight >= maxConcurrent) throw new HttpError(429, 'too many probe requests in flight');
    inFlight += 1;
    try {
      send(res, 200, await work());
      return 200;
    } finally {
      inFlight -= 1;
    }
  };
}

/** One log line per request; errors become their status; refusals are counted. */
function createHandler(route: Route, log: Logger, metrics: AgentMetrics | undefined) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://agent');
    const reqLog = log.child({ requestId, method: req.method, path: url.pathname });
    route(req, res, url, reqLog)
      .then((status) => {
        // An action's own refusal (403 outside the pod, 409 never done) comes back as a status.
        const refusal = refusalOf(status);
        if (refusal) metrics?.refused(refusal);
        reqLog.info({ status, ms: Math.round(performance.now() - started) }, 'agent request');
      })
      .catch((err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500;
        const message = err instanceof HttpError ? err.message : 'internal error';
        const refusal = (err instanceof HttpError ? err.refusal : undefined) ?? refusalOf(status);
        if (refusal) metrics?.refused(refusal);
        if (status === 500) reqLog.error({ err }, 'agent request failed');
        else reqLog.warn({ status, reason: message, ms: Math.round(performance.now() - started) }, 'agent request refused');
        // A refused upload: answer, then drop the connection instead of reading the rest.
        if (status === 413 && !res.headersSent) {
          res.setHeader('connection', 'close');
          res.once('finish', () => req.destroy());
        }
        if (!res.headersSent) send(res, status, JSON.stringify({ error: message }));
      });
  };
}

/**
 * The agent asks no client certificate (the bearer token authenticates), so its contexts need no
 * CA store: `ca: []` keeps Node from parsing its bundled root certificates into each (1 MB resident).
 */
function secureContextOptions(tls: AgentTls) {
  return { cert: tls.cert, key: tls.key, ca: [] };
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  if (!options.token || options.token.length < 16) throw new Error('the agent needs a bearer token of at least 16 characters');
  checkTransport(options);
  const log = (options.logger ?? rootLog).child({ role: 'agent', node: options.nodeName });
  const handler = createHandler(createRoute(options), log, options.metrics);
  const tls = options.tls;
  const https = tls ? createHttpsServer(secureContextOptions(tls), handler) : undefined;
  const server = https ?? createHttpServer(handler);
  // A worker that does not trust our certificate (or speaks plain HTTP to us) ends here: say so on the node.
  https?.on('tlsClientError', (err: NodeJS.ErrnoException, socket) =>
    log.warn({ reason: err.code ?? err.message, remote: socket.remoteAddress }, 'agent TLS handshake failed'),
  );
  // While draining, a keep-alive connection closes as soon as its answer is out, not after
  // keepAliveTimeout: the drain ends with the last request.
  let draining = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => {
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  await listen(server, options.port, options.host ?? '0.0.0.0');
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const url = `${https ? 'https' : 'http'}://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  log.info({ port, tls: Boolean(https), procRoot: options.procRoot, hostRoot: options.hostRoot }, 'agent listening');
  if (!https) log.warn({ port }, 'agent serving plain HTTP: the bearer token crosses the network readable (POD_DOCTOR_AGENT_PLAIN_HTTP)');
  return {
    server,
    url,
    port,
    reloadTls(next) {
      if (!https) throw new Error('this agent serves plain HTTP');
      https.setSecureContext(secureContextOptions(next));
    },
    drain: () =>
      new Promise<void>((resolve) => {
        draining = true;
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
