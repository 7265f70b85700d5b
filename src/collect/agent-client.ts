// Asks the node agent of a pod's node for its facts. Whatever goes wrong — no URL, refused
// connection, an untrusted certificate, timeout, 401, 5xx, a malformed answer — becomes a Gap
// naming the node check that could not run; this function never throws, so the API half of
// every rule still reports.
import { z } from 'zod';
import { type Gap, type GapKind, gapKindOfStatus, type Node, type Pod } from '../diagnosis/types.js';
import { OUTCOME_SCHEMAS, type PodRef, PROBE_NAMES, podRefSchema } from '../probes/index.js';
import type { AgentFacts, ProbeName } from '../probes/types.js';
import { type AgentPostFailure, type AgentTransport, agentPost } from './agent-http.js';
import { type AgentCallError, type AgentCallMetrics, callErrorOf } from './agent-metrics.js';
import type { AgentLookup } from './snapshot.js';

export interface AgentLocatorConfig {
  /** Node name → agent URL; wins over the template (simulated cluster, tests). */
  agentUrls?: Record<string, string>;
  /** DaemonSet discovery, e.g. `http://{hostIP}:9477`; `{nodeName}` is also filled in. */
  agentUrlTemplate?: string;
}

export interface AgentClientConfig extends AgentLocatorConfig {
  agentToken?: string;
  agentTimeoutMs?: number;
  /** CA, certificate name, plain HTTP (see AgentTransport): unset, https:// with the system's CAs only. */
  transport?: AgentTransport;
  /** Counts each call (pod_doctor_agent_calls_total, pod_doctor_agent_call_errors_total). */
  metrics?: AgentCallMetrics;
  /** Probes to ask for (default: all). */
  probes?: ProbeName[];
}

export interface FetchAgentInput {
  url: string;
  token: string;
  timeoutMs: number;
  pod: PodRef;
  node: string;
  probes?: ProbeName[];
  transport?: AgentTransport;
  metrics?: AgentCallMetrics;
}

const MAX_RESPONSE = 4 * 1024 * 1024;

function nodeName(node: string | Node): string {
  return typeof node === 'string' ? node : (node.metadata?.name ?? '');
}

function internalIp(node: Node | undefined): string | undefined {
  const addresses = node?.status?.addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address ?? addresses.find((a) => a.type === 'ExternalIP')?.address;
}

/** Where the agent of `node` listens: the static map first, then the template. */
export function agentUrlFor(node: string | Node, config: AgentLocatorConfig, hints: { hostIP?: string } = {}): string | undefined {
  const name = nodeName(node);
  const fixed = config.agentUrls?.[name];
  if (fixed) return fixed;
  const template = config.agentUrlTemplate;
  if (!template) return undefined;
  const hostIP = hints.hostIP ?? (typeof node === 'string' ? undefined : internalIp(node));
  if (template.includes('{hostIP}') && !hostIP) return undefined;
  return template.replaceAll('{hostIP}', hostIP ?? '').replaceAll('{nodeName}', encodeURIComponent(name));
}

/** The pod as the agent wants it: UID, names, container ids without the runtime prefix, IPv4. */
export function podRefFor(pod: Pod): PodRef | undefined {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  const ids = statuses.map((s) => s.containerID?.replace(/^[a-z-]+:\/\//, '')).filter((id): id is string => Boolean(id && /^[0-9a-f]{12,64}$/.test(id)));
  const parsed = podRefSchema.safeParse({
    uid: pod.metadata?.uid,
    namespace: pod.metadata?.namespace,
    name: pod.metadata?.name,
    containerIds: [...new Set(ids)].slice(0, 32),
    podIp: pod.status?.podIP && /^\d+\.\d+\.\d+\.\d+$/.test(pod.status.podIP) ? pod.status.podIP : undefined,
  });
  return parsed.success ? parsed.data : undefined;
}

const responseSchema = z.object({ node: z.string(), probes: z.record(z.string(), z.unknown()) });

function errorText(body: string): string {
  try {
    const e = (JSON.parse(body) as { error?: unknown }).error;
    return typeof e === 'string' ? `: ${e.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

const GAP_OF_FAILURE: Record<AgentPostFailure, GapKind> = {
  timeout: 'timeout',
  unreachable: 'unreachable',
  // A certificate that is not trusted or not for our name is a setup problem, not a retryable one.
  tls: 'not-configured',
  'too-large': 'bad-response',
  aborted: 'failed',
};

type Fetched = { facts?: AgentFacts; gaps: Gap[] };

/** POST /v1/probes on the node's agent. Never throws: failures come back as gaps. */
export async function fetchAgentFacts(input: FetchAgentInput): Promise<Fetched> {
  const { result, call } = await askAgent(input);
  // A call that never left (a bad URL) is not a call to count.
  if (call !== 'not-sent') input.metrics?.record(input.node, call === 'ok' ? undefined : call);
  return result;
}

async function askAgent(input: FetchAgentInput): Promise<{ result: Fetched; call: AgentCallError | 'ok' | 'not-sent' }> {
  const check = `node agent on ${input.node}`;
  const gap = (reason: string, kind: GapKind, name = check): Gap => ({ check: name, reason, kind, origin: 'agent' });
  const failed = (call: AgentCallError, g: Gap) => ({ result: { gaps: [g] }, call });
  let url: URL;
  try {
    url = new URL('/v1/probes', input.url);
  } catch {
    return { result: { gaps: [gap(`bad agent URL "${input.url}"`, 'not-configured')] }, call: 'not-sent' };
  }
  const body = JSON.stringify({ pod: input.pod, ...(input.probes ? { probes: input.probes } : {}) });
  const res = await agentPost({ url, body, token: input.token, timeoutMs: input.timeoutMs, maxResponseBytes: MAX_RESPONSE, transport: input.transport });
  if (res.kind === 'error') return failed(callErrorOf(res.failure), gap(`${url.origin} ${res.reason}`, GAP_OF_FAILURE[res.failure]));
  if (res.status === 401 || res.status === 403) return failed('unauthorized', gap(`the agent refused our token (HTTP ${res.status})`, 'unauthorized'));
  if (res.status >= 500) return failed('http', gap(`the agent failed (HTTP ${res.status}${errorText(res.body)})`, 'server-error'));
  if (res.status !== 200) return failed('http', gap(`the agent refused the request (HTTP ${res.status}${errorText(res.body)})`, gapKindOfStatus(res.status)));
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return failed('invalid', gap('the agent answered with something that is not JSON', 'bad-response'));
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) return failed('invalid', gap('the agent answered in an unexpected shape', 'bad-response'));
  if (parsed.data.node !== input.node)
    return failed('invalid', gap(`the agent at ${url.origin} reports node "${parsed.data.node}", not "${input.node}"`, 'not-configured'));

  const gaps: Gap[] = [];
  const probes: Record<string, unknown> = {};
  for (const name of PROBE_NAMES) {
    const raw = parsed.data.probes[name];
    if (raw === undefined) continue;
    const outcome = OUTCOME_SCHEMAS[name].safeParse(raw);
    if (!outcome.success) {
      gaps.push(gap('malformed probe result', 'bad-response', `${check}: ${name}`));
      continue;
    }
    const data = outcome.data as { ok?: unknown; error?: unknown };
    // A probe that ran and failed (a hung runtime, a missing file) is a fact about the node, not a retryable error.
    if (!data.ok) gaps.push(gap(String(data.error), 'failed', `${check}: ${name}`));
    probes[name] = outcome.data;
  }
  return { result: { facts: { node: parsed.data.node, probes: probes as AgentFacts['probes'] }, gaps }, call: 'ok' };
}

/** The collector's hook: locate the agent of the pod's node and fetch its facts. */
export function createAgentLookup(config: AgentClientConfig): AgentLookup {
  return {
    async fetch({ node, pod }) {
      const name = nodeName(node);
      const check = `node agent on ${name}`;
      const gap = (reason: string): Gap => ({ check, reason, kind: 'not-configured', origin: 'agent' });
      if (!config.agentToken) return { gaps: [gap('no agent token configured (POD_DOCTOR_AGENT_TOKEN)')] };
      const url = agentUrlFor(node, config, { hostIP: pod.status?.hostIP });
      if (!url) return { gaps: [gap('no agent URL for this node (no static entry and no host IP for the template)')] };
      const ref = podRefFor(pod);
      if (!ref) return { gaps: [gap('the pod has no UID of the expected form')] };
      return fetchAgentFacts({
        url,
        token: config.agentToken,
        timeoutMs: config.agentTimeoutMs ?? 8000,
        pod: ref,
        node: name,
        probes: config.probes,
        transport: config.transport,
        metrics: config.metrics,
      });
    },
  };
}
