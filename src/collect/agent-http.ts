// The one HTTP client for the node agent: an authenticated JSON POST with a deadline and a
// response size cap. Probes (collect/agent-client.ts) and actions (remediation/) share it.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface AgentPost {
  url: URL;
  body: string;
  token: string;
  timeoutMs: number;
  /** Larger answers are cut off and reported as an error. */
  maxResponseBytes: number;
  /** PEM CA for agents serving TLS with a private certificate. */
  ca?: string;
  signal?: AbortSignal;
}

export type AgentPostResult =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'error'; reason: string; failure: 'timeout' | 'unreachable' | 'too-large' | 'aborted' };

/** Never rejects: a refused connection, a timeout or an oversized answer is an `error` result. */
export function agentPost(input: AgentPost): Promise<AgentPostResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AgentPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const request = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      input.url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${input.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(input.body),
          accept: 'application/json',
        },
        ...(input.ca ? { ca: input.ca } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > input.maxResponseBytes) {
            req.destroy();
            done({ kind: 'error', reason: `answer larger than ${input.maxResponseBytes} bytes`, failure: 'too-large' });
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => done({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => done({ kind: 'error', reason: err.message, failure: 'unreachable' }));
      },
    );
    const timer = setTimeout(() => {
      done({ kind: 'error', reason: `no answer within ${input.timeoutMs}ms`, failure: 'timeout' });
      req.destroy();
    }, input.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done(
        err.name === 'AbortError'
          ? { kind: 'error', reason: 'aborted', failure: 'aborted' }
          : { kind: 'error', reason: `unreachable: ${err.code ?? err.message}`, failure: 'unreachable' },
      ),
    );
    req.end(input.body);
  });
}
