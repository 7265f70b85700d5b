// The bot's own HTTP server: a route table (method + exact path → a plain node:http handler) that
// the bot fills with its operations routes (/healthz, /readyz), the Alertmanager webhook and each
// chat surface's routes (Slack's /slack/events, Mattermost's command and action URLs). A surface
// contributes handlers and never owns the server, as a Bolt receiver owns transport and the app
// owns listeners: one port, one listen, one close, whatever the surfaces.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A plain node:http handler; a promise it returns that rejects is answered like a throw (500). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface Route {
  method: Method;
  /** Matched exactly, without the query string. */
  path: string;
  handler: RouteHandler;
}

export interface HttpServer {
  /** Adds routes; a method and path mounted twice is a programming error (throws). */
  mount(...routes: readonly Route[]): void;
  /** Listens on `port` (0: any free one) and resolves with the port, once bound. */
  listen(port: number, host?: string): Promise<number>;
  /** The bound port (0 before listen). */
  readonly port: number;
  /**
   * Stops accepting connections and closes idle keep-alive ones at once; a request in flight may
   * finish within `graceMs` (its connection closes after its answer), then every socket is ended.
   */
  close(graceMs?: number): Promise<void>;
}

/** Idle keep-alive sockets are closed after this; a longer one would hold close() open. */
export const KEEP_ALIVE_TIMEOUT_MS = 5000;
/** How long close() lets a request in flight finish (a command waits up to 2 s to be queued). */
export const CLOSE_GRACE_MS = 3000;

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...headers }).end(body);
}

/** A handler's failure: 500 without details when nothing was sent yet (the log has them), else the socket ends. */
function failed(res: ServerResponse, err: unknown, logger: Logger, req: IncomingMessage): void {
  logger.error({ err, method: req.method, path: pathOf(req) }, 'HTTP handler failed');
  if (!res.headersSent) text(res, 500, 'internal error\n');
  else res.destroy();
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export function createHttpServer(o: { logger: Logger; keepAliveTimeoutMs?: number }): HttpServer {
  const logger = o.logger.child({ component: 'http' });
  /** path → method → handler */
  const table = new Map<string, Map<string, RouteHandler>>();
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  const server = createServer((req, res) => {
    const methods = table.get(pathOf(req));
    if (!methods) return text(res, 404, 'not found\n');
    const handler = methods.get(req.method ?? '');
    if (!handler) return text(res, 405, 'method not allowed\n', { allow: [...methods.keys()].join(', ') });
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      // Its keep-alive socket is idle now: while closing it goes at once, not after the timeout.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (closing) res.setHeader('connection', 'close');
    try {
      const out = handler(req, res);
      if (out instanceof Promise) out.catch((err: unknown) => failed(res, err, logger, req));
    } catch (err) {
      failed(res, err, logger, req);
    }
  });
  server.keepAliveTimeout = o.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS;
  // Slow or stalled clients must not hold sockets forever (Slack and Alertmanager send at once).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return {
    mount(...routes) {
      for (const r of routes) {
        const methods = table.get(r.path) ?? new Map<string, RouteHandler>();
        if (methods.has(r.method)) throw new Error(`${r.method} ${r.path} is mounted twice`);
        methods.set(r.method, r.handler);
        table.set(r.path, methods);
      }
    },
    listen: (port, host = '0.0.0.0') =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    get port() {
      const a = server.address();
      return a && typeof a === 'object' ? a.port : 0;
    },
    close: (graceMs = CLOSE_GRACE_MS) =>
      new Promise<void>((resolve) => {
        closing = true;
        // Answers not yet started say so: their clients do not reuse a socket that is going.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        cut.unref();
        if (!server.listening) {
          clearTimeout(cut);
          resolve();
          return;
        }
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
