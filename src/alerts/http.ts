// The Alertmanager webhook as a plain Node handler `(req, res) => Promise<void>`, so the bot's
// HTTP server mounts it next to /slack/events without a framework: checks in order of cost
// (method, bearer token, content type, size), then JSON and the v4 schema, then the intake.
//
// Status codes follow Alertmanager's retry rule (notify/util.go Retrier): 2xx is done, 5xx is
// retried with backoff, any other code is final. So 200 means "queued in Redis"; a Redis or
// queue failure is 503 (retried); bad input is 4xx (retrying would not help).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, type Registry } from 'prom-client';
import { discard, readBody } from '../body.js';
import { withDeadline } from '../bounded.js';
import { PodDoctorError } from '../errors.js';
import { beginSpan, runIn, settle } from '../tracing/spans.js';
import { AlertIntake, type AlertIntakeOptions, type IntakeResult } from './intake.js';
import { parseWebhookPayload } from './schema.js';

export const DEFAULT_PATH = '/alertmanager';
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 20_000;

export interface AlertmanagerHandlerOptions extends AlertIntakeOptions {
  /** The bearer token Alertmanager sends (ALERTMANAGER_TOKEN). */
  token: string;
  /** Where the bot's server mounts the handler (the handler itself does not check it). */
  path?: string;
  /** Larger bodies get 413 (POD_DOCTOR_ALERTMANAGER_MAX_BYTES). */
  maxBytes?: number;
  /** Queueing that takes longer answers 503 (Alertmanager retries; queueing is idempotent). */
  timeoutMs?: number;
  /** Request and alert counters are registered here when given. */
  registry?: Registry;
}

export interface AlertmanagerHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly path: string;
  readonly intake: AlertIntake;
  /** Close the queues the handler opened (not the JobQueues it was given). */
  close(): Promise<void>;
}

const digest = (s: string | Buffer) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>` (scheme case-insensitive, as RFC 7235 says). */
function presentedToken(header: string | undefined): string | null {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

/** `application/json`, optionally with `charset=utf-8`. */
function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

function send(res: ServerResponse, code: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(code, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

class Timeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return withDeadline(
    ms,
    () => p,
    () => new Timeout(`not queued within ${ms} ms`),
  );
}

function counter<L extends string>(registry: Registry | undefined, name: string, help: string, labelNames: readonly L[]): Counter<L> | undefined {
  if (!registry) return undefined;
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

export function createAlertmanagerHandler(options: AlertmanagerHandlerOptions): AlertmanagerHandler {
  if (!options.token) throw new PodDoctorError('BAD_CONFIG', 'the Alertmanager webhook needs a bearer token');
  const expected = digest(options.token);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const drainCap = Math.max(8 * maxBytes, 64 * 1024 * 1024);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intake = new AlertIntake(options);
  const requests = counter(options.registry, 'pod_doctor_alertmanager_requests_total', 'Alertmanager webhook requests by HTTP status.', ['code'] as const);
  const alertsSeen = counter(
    options.registry,
    'pod_doctor_alertmanager_alerts_total',
    'Alerts received on the webhook by outcome: added (new or re-fired), repeat, resolved, not-diagnosable.',
    ['outcome'] as const,
  );

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const log = options.logger.child({ requestId });
    const reject = (code: number, error: string, headers: Record<string, string> = {}) => {
      requests?.inc({ code: String(code) });
      log.debug({ code, error }, 'alertmanager request refused');
      discard(req, drainCap);
      send(res, code, { error }, { 'x-request-id': requestId, ...headers });
    };

    if (req.method !== 'POST') return reject(405, 'only POST', { allow: 'POST' });
    const token = presentedToken(req.headers.authorization);
    // Equal-length digests: the comparison takes the same time whatever was sent.
    if (token === null || !timingSafeEqual(digest(token), expected))
      return reject(401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer realm="pod-doctor"' });
    if (!isJsonContentType(req.headers['content-type'])) return reject(415, 'expected Content-Type: application/json');
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') return reject(415, `unsupported Content-Encoding: ${encoding.slice(0, 40)}`);
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) return reject(413, `body larger than ${maxBytes} bytes`);

    const read = await readBody(req, maxBytes);
    if (!read.ok) {
      if (read.reason === 'too-large') return reject(413, `body larger than ${maxBytes} bytes`);
      requests?.inc({ code: '499' });
      return; // the client went away (nginx's 499): nobody to answer
    }
    let data: unknown;
    try {
      data = JSON.parse(read.body.toString('utf8'));
    } catch (err) {
      return reject(400, `invalid JSON: ${(err as Error).message.slice(0, 200)}`);
    }
    const parsed = parseWebhookPayload(data);
    if (!parsed.ok) return reject(400, `invalid Alertmanager payload (webhook version 4): ${parsed.reason}`);
    const payload = parsed.payload;

    const started = process.hrtime.bigint();
    let result: IntakeResult;
    try {
      // A trace per notification: each alert's job, diagnosis and post are in it.
      const span = beginSpan('alert.receive', { parent: 'root', attributes: { 'pod_doctor.alerts': payload.alerts.length } });
      result = await settle(
        span,
        withTimeout(
          runIn(span.context, () => intake.accept(payload)),
          timeoutMs,
        ),
        (r) => ({
          'pod_doctor.jobs': r.jobs,
          'pod_doctor.alerts.added': r.added,
          'pod_doctor.alerts.repeats': r.repeats,
        }),
      );
    } catch (err) {
      requests?.inc({ code: '503' });
      log.error({ err, groupKey: payload.groupKey.slice(0, 256), alerts: payload.alerts.length }, 'alert notification not queued');
      send(res, 503, { error: 'could not queue the alerts; retry later' }, { 'x-request-id': requestId, 'retry-after': '5' });
      return;
    }
    requests?.inc({ code: '200' });
    alertsSeen?.inc({ outcome: 'added' }, result.added - result.notDiagnosable);
    alertsSeen?.inc({ outcome: 'not-diagnosable' }, result.notDiagnosable);
    alertsSeen?.inc({ outcome: 'repeat' }, result.repeats);
    alertsSeen?.inc({ outcome: 'resolved' }, result.resolved);
    log.info(
      {
        receiver: payload.receiver.slice(0, 256),
        groupKey: payload.groupKey.slice(0, 256),
        reason: payload.notification_reason,
        alerts: result.alerts,
        added: result.added,
        repeats: result.repeats,
        resolved: result.resolved,
        jobs: result.jobs,
        cancelled: result.cancelled,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'alert notification queued',
    );
    send(
      res,
      200,
      {
        status: 'queued',
        alerts: result.alerts,
        added: result.added,
        repeats: result.repeats,
        resolved: result.resolved,
        notDiagnosable: result.notDiagnosable,
        jobs: result.jobs,
        cancelled: result.cancelled,
        groups: result.groups.map((g) => g.groupId),
      },
      { 'x-request-id': requestId },
    );
  };

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await handle(req, res);
    } catch (err) {
      // A bug, not bad input: 500 is retried by Alertmanager, and the server keeps serving.
      options.logger.error({ err }, 'alertmanager handler failed');
      send(res, 500, { error: 'internal error' });
    }
  };
  return Object.assign(handler, { path: options.path ?? DEFAULT_PATH, intake, close: () => intake.close() });
}

export interface AlertmanagerServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** A tiny standalone server (tests, a webhook-only deployment): the handler on its path, /healthz. */
export async function startAlertmanagerServer(options: { handler: AlertmanagerHandler; port?: number; host?: string }): Promise<AlertmanagerServer> {
  const { handler } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === handler.path) {
      void handler(req, res);
      return;
    }
    req.resume();
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    send(res, 404, { error: 'not found' });
  });
  // Slow or stalled clients must not hold sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
