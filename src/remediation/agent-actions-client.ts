// Worker side of the node agent's actions: `POST /v1/actions/<name>` on the agent of the node,
// with the same bearer token, locator and transport (TLS) as the probes. Unlike the probe client,
// failures throw: a step that could not act must fail, with the agent's reason (a 403 says why
// it refused).
import { type ActionRequest, type ActionResponse, AGENT_ACTION_TABLE, type AgentActionName, actionResponseSchema } from '../agent/actions/types.js';
import { type AgentLocatorConfig, agentUrlFor } from '../collect/agent-client.js';
import { type AgentTransport, agentPost } from '../collect/agent-http.js';
import { type AgentCallMetrics, callErrorOf } from '../collect/agent-metrics.js';
import type { Node } from '../diagnosis/types.js';

export interface AgentActionsClientConfig extends AgentLocatorConfig {
  token: string;
  /** Per request (ms, default 120 s: a unit restart or an image pull takes a while). */
  timeoutMs?: number;
  /** CA, certificate name, plain HTTP (see AgentTransport): unset, https:// with the system's CAs only. */
  transport?: AgentTransport;
  /** Counts each call (pod_doctor_agent_calls_total, pod_doctor_agent_call_errors_total). */
  metrics?: AgentCallMetrics;
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

export class AgentActionsClient {
  constructor(private readonly config: AgentActionsClientConfig) {}

  async call<K extends AgentActionName>(action: K, input: ActionRequest<K>, signal?: AbortSignal): Promise<ActionResponse> {
    // Validate here too: a bad parameter is our bug, not the agent's refusal.
    const body = AGENT_ACTION_TABLE[action].request.parse(input);
    const nodeName = body.node;
    const node = await this.config.getNode(nodeName);
    const base = agentUrlFor(node ?? nodeName, this.config);
    if (!base) throw new AgentActionError(`no agent URL for node ${nodeName} (no static entry and no host IP for the template)`, 0, nodeName, action);
    const url = new URL(`/v1/actions/${action}`, base);
    const res = await agentPost({
      url,
      body: JSON.stringify(body),
      token: this.config.token,
      timeoutMs: this.config.timeoutMs ?? 120_000,
      maxResponseBytes: MAX_RESPONSE,
      transport: this.config.transport,
      signal,
    });
    const metrics = this.config.metrics;
    if (res.kind === 'error') {
      metrics?.record(nodeName, callErrorOf(res.failure));
      const what = res.failure === 'tls' ? 'refused over TLS' : 'unreachable';
      throw new AgentActionError(`node agent on ${nodeName} (${url.origin}) ${what}: ${res.reason}`, 0, nodeName, action);
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    if (res.status !== 200) {
      // For actions a 403 is the agent's policy (outside the pod or node), not our token: `http`, like any other status.
      metrics?.record(nodeName, res.status === 401 ? 'unauthorized' : 'http');
      const reason = typeof (json as { error?: unknown })?.error === 'string' ? (json as { error: string }).error : res.body.slice(0, 300);
      const who = res.status === 401 ? 'the agent refused our token' : res.status === 403 ? 'the agent refused' : `the agent answered HTTP ${res.status}`;
      throw new AgentActionError(`${who} (${action} on ${nodeName}): ${reason}`, res.status, nodeName, action);
    }
    const parsed = actionResponseSchema.safeParse(json);
    metrics?.record(nodeName, parsed.success ? undefined : 'invalid');
    if (!parsed.success) throw new AgentActionError(`the agent on ${nodeName} answered ${action} in an unexpected shape`, res.status, nodeName, action);
    return parsed.data;
  }
}
