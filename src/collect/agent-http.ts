// The one HTTP client for the node agent: an authenticated JSON POST with a deadline and a
// response size cap. Probes (collect/agent-client.ts) and actions (remediation/) share it.
// HTTPS by default: agents are called on their node's IP, which no certificate names, so the
// certificate is checked for one fixed name every agent's certificate carries (the transport's
// serverName) against the agents' CA. The bearer token never goes over plain http:// unless the
// transport allows it by name (POD_DOCTOR_AGENT_PLAIN_HTTP).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkServerIdentity } from 'node:tls';

/** The name the shipped certificates carry (deploy/README.md, "Agent TLS"); POD_DOCTOR_AGENT_TLS_SERVER_NAME. */
export const DEFAULT_AGENT_SERVER_NAME = 'pod-doctor-agent.pod-doctor.svc';

/** How agents are reached. Unset fields: the system's CAs, the URL's host name, no plain HTTP. */
export interface AgentTransport {
  /** PEM CA bundle the agents' certificates are checked against. */
  ca?: string;
  /** The DNS name checked in the agent's certificate instead of the URL's host (a node IP). */
  serverName?: string;
  /** Allow `http://` agent URLs: the token then crosses the network readable. */
  plainHttp?: boolean;
}

export interface AgentPost {
  url: URL;
  body: string;
  token: string;
  timeoutMs: number;
  /** Larger answers are cut off and reported as an error. */
  maxResponseBytes: number;
  transport?: AgentTransport;
  signal?: AbortSignal;
}

export type AgentPostFailure = 'timeout' | 'unreachable' | 'tls' | 'too-large' | 'aborted';

export type AgentPostResult = { kind: 'response'; status: number; body: string } | { kind: 'error'; reason: string; failure: AgentPostFailure };

/** Certificate checks and handshake failures (OpenSSL's verify codes, Node's TLS and SSL errors). */
const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|INVALID_CA$|EPROTO$)/;

function tlsReason(err: NodeJS.ErrnoException, transport: AgentTransport | undefined): string {
  const code = err.code ?? 'EPROTO';
  let hint = "the agent's certificate is not signed by a trusted CA (POD_DOCTOR_AGENT_TLS_CA)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    hint = `the agent's certificate is not for ${transport?.serverName ?? 'this host'} (POD_DOCTOR_AGENT_TLS_SERVER_NAME)`;
  else if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') hint = "the agent's certificate is out of its validity period";
  else if (/WRONG_VERSION_NUMBER|PACKET_LENGTH|EPROTO/.test(code)) hint = 'no TLS answer: does the agent serve plain HTTP?';
  return `TLS: ${code}: ${hint}`;
}

function requestOptions(input: AgentPost) {
  const t = input.transport;
  const serverName = t?.serverName;
  return {
    method: 'POST',
    headers: {
      authorization: `Bearer ${input.token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(input.body),
      accept: 'application/json',
    },
    ...(t?.ca ? { ca: t.ca } : {}),
    // SNI and the identity check both use the fixed name, whatever address the URL has.
    ...(serverName
      ? {
          servername: serverName,
          checkServerIdentity: (_host: string, cert: Parameters<typeof checkServerIdentity>[1]) => checkServerIdentity(serverName, cert),
        }
      : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
}

/** Never rejects: a refused connection, a bad certificate, a timeout or an oversized answer is an `error` result. */
export function agentPost(input: AgentPost): Promise<AgentPostResult> {
  if (input.url.protocol === 'http:' && !input.transport?.plainHttp) {
    return Promise.resolve({
      kind: 'error',
      failure: 'tls',
      reason: 'plain HTTP refused: the token would cross the network readable (use https:// and TLS on the agents, or POD_DOCTOR_AGENT_PLAIN_HTTP=true)',
    });
  }
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AgentPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const request = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(input.url, requestOptions(input), (res: IncomingMessage) => {
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
    });
    const timer = setTimeout(() => {
      done({ kind: 'error', reason: `no answer within ${input.timeoutMs}ms`, failure: 'timeout' });
      req.destroy();
    }, input.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'AbortError') done({ kind: 'error', reason: 'aborted', failure: 'aborted' });
      else if (TLS_ERROR.test(err.code ?? '')) done({ kind: 'error', reason: tlsReason(err, input.transport), failure: 'tls' });
      else done({ kind: 'error', reason: `unreachable: ${err.code ?? err.message}`, failure: 'unreachable' });
    });
    req.end(input.body);
  });
}
