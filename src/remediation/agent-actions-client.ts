// Worker side of the node agent's actions: `POST /v1/actions/<name>` on the agent of the node,
// with the same bearer token and locator as the probes. Unlike the probe client, failures throw:
// a step that could not act must fail, with the agent's reason (a 403 says why it refused).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ACTION_REQUESTS, actionResponseSchema, type ActionRequest, type ActionResponse, type AgentActionName } from '../agent/actions/types.js';
import { agentUrlFor, type AgentLocatorConfig } from '../collect/agent-client.js';
import type { Node } from '../diagnosis/types.js';

export interface AgentActionsClientConfig extends AgentLocatorConfig {
  token: string;
  /** Per request (ms, default 120 s: a unit restart or an image pull takes a while). */
  timeoutMs?: number;
  ca?: string;
  /** Reads the Node object (for `{hostIP}` in the URL template). */
  getNode(name: string): Promise<Node | null>;
}

export class AgentActionError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the agent could not be reached. */
    readonly status: number,
    readonly node: string,
    readonly action: AgentActionName,
  ) {
    super(message);
    this.name = 'AgentActionError';
  }
}

const MAX_RESPONSE = 256 * 1024;

function post(url: URL, body: string, token: string, timeoutMs: number, ca?: string, signal?: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json' },
        ...(ca ? { ca } : {}),
        ...(signal ? { signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_RESPONSE) chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs}ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export class AgentActionsClient {
  constructor(private readonly config: AgentActionsClientConfig) {}

  async call<K extends AgentActionName>(action: K, input: ActionRequest<K>, signal?: AbortSignal): Promise<ActionResponse> {
    // Validate here too: a bad parameter is our bug, not the agent's refusal.
    const body = ACTION_REQUESTS[action].parse(input);
    const nodeName = body.node;
    const node = await this.config.getNode(nodeName);
    const base = agentUrlFor(node ?? nodeName, this.config);
    if (!base) throw new AgentActionError(`no agent URL for node ${nodeName} (no static entry and no host IP for the template)`, 0, nodeName, action);
    const url = new URL(`/v1/actions/${action}`, base);
    let res: { status: number; body: string };
    try {
      res = await post(url, JSON.stringify(body), this.config.token, this.config.timeoutMs ?? 120_000, this.config.ca, signal);
    } catch (err) {
      throw new AgentActionError(`node agent on ${nodeName} (${url.origin}) unreachable: ${err instanceof Error ? err.message : String(err)}`, 0, nodeName, action);
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    if (res.status !== 200) {
      const reason = typeof (json as { error?: unknown })?.error === 'string' ? (json as { error: string }).error : res.body.slice(0, 300);
      const who = res.status === 401 ? 'the agent refused our token' : res.status === 403 ? 'the agent refused' : `the agent answered HTTP ${res.status}`;
      throw new AgentActionError(`${who} (${action} on ${nodeName}): ${reason}`, res.status, nodeName, action);
    }
    const parsed = actionResponseSchema.safeParse(json);
    if (!parsed.success) throw new AgentActionError(`the agent on ${nodeName} answered ${action} in an unexpected shape`, res.status, nodeName, action);
    return parsed.data;
  }
}
