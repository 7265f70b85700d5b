// A fetch for WebClient over node:http with keep-alive Agents: Node's built-in fetch (undici) costs
// more CPU per Slack call (WebClient chat.postMessage on 2 cores: 1.2 vs 0.7 ms over a fresh process's
// first 600 calls, 0.29 vs 0.21 ms warm), and a diagnosis makes ~3 calls, often in a burst.
import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface KeepAliveFetchOptions {
  /** Concurrent sockets per host (Node's default: unlimited; WebClient already caps requests at 100). */
  maxSockets?: number;
}

/** The init fields served here; any other field (dispatcher, keepalive, duplex…) goes to fetch. */
const SERVED_INIT = new Set(['method', 'headers', 'body', 'redirect', 'signal']);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** A Response cannot carry a body with these. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
// Nothing here asks for compression, but a server may compress anyway and fetch would decode it.
const DECODE: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

type Agents = Record<'http:' | 'https:', http.Agent>;

/**
 * fetch for what WebClient sends: a URL, method, headers and a string, URLSearchParams or byte body
 * with `redirect: 'error'` (or 'manual'). Everything else (FormData uploads, streams, Request
 * objects, redirect 'follow', the default) is handed to globalThis.fetch unchanged.
 */
export function keepAliveFetch(options: KeepAliveFetchOptions = {}): typeof fetch {
  // Idle sockets close after 4 s like undici's (sooner if the server's Keep-Alive says so), so a
  // request rarely lands on a socket the server is closing.
  const agentOptions = { keepAlive: true, timeout: 4_000, ...(options.maxSockets ? { maxSockets: options.maxSockets } : {}) };
  const agents: Agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  return async (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    if (!url || !init || !served(url, init)) return globalThis.fetch(input, init);
    return send(agents, url, init);
  };
}

function served(url: URL, init: RequestInit): boolean {
  const { body } = init;
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !url.username &&
    !url.password &&
    (init.redirect === 'error' || init.redirect === 'manual') &&
    (body == null || typeof body === 'string' || body instanceof URLSearchParams || body instanceof Uint8Array) &&
    Object.keys(init).every((k) => SERVED_INIT.has(k))
  );
}

function send(agents: Agents, url: URL, init: RequestInit): Promise<Response> {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = new Headers(init.headers);
  const body = init.body as string | URLSearchParams | Uint8Array | null | undefined;
  // The content types fetch adds when none is given.
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  if (body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  const payload = body == null ? undefined : body instanceof Uint8Array ? body : Buffer.from(body.toString());
  const head: Record<string, string> = Object.fromEntries(headers);
  if (payload) head['content-length'] = String(payload.byteLength);

  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers: head,
      agent: agents[url.protocol as keyof Agents],
    });
    const onAbort = () => {
      reject(signal?.reason);
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // fetch's network error: TypeError('fetch failed') with the reason as cause.
    const fail = (cause: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError('fetch failed', { cause }));
    };
    const settle = (res: http.IncomingMessage, buf: Buffer) => {
      signal?.removeEventListener('abort', onAbort);
      try {
        resolve(toResponse(url, res, buf));
      } catch (err) {
        fail(err);
      }
    };
    req.on('error', fail);
    req.on('response', (res) => {
      if (init.redirect === 'error' && REDIRECT.has(res.statusCode ?? 0)) {
        res.resume();
        return fail(new Error('unexpected redirect'));
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const decode = DECODE[res.headers['content-encoding']?.toLowerCase() ?? ''];
        if (!decode) return settle(res, raw);
        decode(raw).then((buf) => settle(res, buf), fail);
      });
    });
    req.end(payload);
  });
}

function toResponse(url: URL, res: http.IncomingMessage, buf: Buffer): Response {
  const status = res.statusCode ?? 0;
  // rawHeaders keeps repeated headers (set-cookie) as separate pairs.
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const response = new Response(NULL_BODY.has(status) ? null : buf, { status, statusText: res.statusMessage ?? '', headers });
  // A constructed Response has an empty url; WebClient reads it (admin.analytics.getFile).
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
