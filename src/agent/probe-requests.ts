// The probe half of the agent's API (`GET /v1/probes/<name>`, `POST /v1/probes`): its request
// schemas, the probes and zod. server.ts loads this file with the first authenticated probe
// request, so an idle agent on a node that is never probed does not carry them (bench:rss).
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { type AgentProbeEnv, isProbeName, PROBE_NAMES, podRefSchema, runNamedProbe, runPodProbes } from '../probes/index.js';
import { containerIdSchema, ipv4Schema, matchSchema, namespaceSchema, podNameSchema, podUidSchema } from '../probes/probe.js';
import type { AgentFacts, ProbeName } from '../probes/types.js';
import { type AgentMetrics, HttpError, type ProbeRunOutcome, readText } from './http.js';

/** Body of `POST /v1/probes`. */
export const probeRequestSchema = z
  .object({
    pod: podRefSchema.strict(),
    probes: z
      .array(z.enum(PROBE_NAMES as [ProbeName, ...ProbeName[]]))
      .max(PROBE_NAMES.length)
      .optional(),
  })
  .strict();
export type ProbeRequest = z.input<typeof probeRequestSchema>;

/** Query of `GET /v1/probes/<name>`: every value has a strict form; unknown keys are refused. */
export const probeQuerySchema = z
  .object({
    podUid: podUidSchema.optional(),
    match: z.array(matchSchema).max(16).optional(),
    containerId: z.array(containerIdSchema).max(32).optional(),
    namespace: namespaceSchema.optional(),
    name: podNameSchema.optional(),
    podIp: ipv4Schema.optional(),
    pid: z.coerce.number().int().positive().max(4_194_304).optional(),
  })
  .strict();
export type ProbeQuery = z.infer<typeof probeQuerySchema>;

function probeRunOutcome(outcome: { ok: boolean; timedOut?: boolean }): ProbeRunOutcome {
  if (outcome.ok) return 'ok';
  return outcome.timedOut ? 'timeout' : 'failed';
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
    .join('; ');
}

/** Serialise within the size limit: the largest probe results give way to a failure note. */
export function boundedProbesBody(node: string, probes: AgentFacts['probes'], max: number): string {
  const entries = { ...probes } as Record<string, unknown>;
  let body = JSON.stringify({ node, probes: entries });
  while (Buffer.byteLength(body) > max) {
    const sizes = Object.entries(entries)
      .map(([k, v]) => [k, JSON.stringify(v).length] as const)
      .sort((a, b) => b[1] - a[1]);
    const [largest, size] = sizes[0] ?? [];
    if (!largest || size === undefined || size < 200) break;
    entries[largest] = { ok: false, error: `result of ${size} bytes exceeds the agent's response limit`, durationMs: 0 };
    body = JSON.stringify({ node, probes: entries });
  }
  return body;
}

/** Params of one probe from the query of `GET /v1/probes/<name>`. */
export function paramsFromQuery(name: ProbeName, q: ProbeQuery): unknown {
  const containerIds = q.containerId ?? [];
  switch (name) {
    case 'mount-holders':
      return { match: q.match ?? [q.podUid, ...containerIds].filter(Boolean), podUid: q.podUid };
    case 'processes':
      return { podUid: q.podUid, containerIds };
    case 'fs-mounts':
      return { podUid: q.podUid };
    case 'runtime':
      return { podUid: q.podUid, containerIds };
    case 'pod-network':
      return { podUid: q.podUid, pid: q.pid, namespace: q.namespace, name: q.name, podIp: q.podIp };
    case 'host':
      return {};
    case 'journal':
      return { podUid: q.podUid, namespace: q.namespace, name: q.name, containerIds, match: q.match ?? [] };
  }
}

function parseQuery(url: URL): ProbeQuery {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    raw[key] = key === 'match' || key === 'containerId' ? all : all[all.length - 1];
  }
  const parsed = probeQuerySchema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, issues(parsed.error));
  return parsed.data;
}

export interface ProbeLimits {
  nodeName: string;
  env: AgentProbeEnv;
  maxBody: number;
  maxResponse: number;
  metrics?: AgentMetrics;
}

/** A probe request, validated (`GET /v1/probes/<name>` or `POST /v1/probes`), as the work to run once it has a slot. */
export async function probeWork(req: IncomingMessage, url: URL, one: string | undefined, limits: ProbeLimits): Promise<() => Promise<string>> {
  if (one !== undefined && !isProbeName(one)) throw new HttpError(404, `unknown probe; known: ${PROBE_NAMES.join(', ')}`);
  if (one === undefined && req.method !== 'POST') throw new HttpError(405, 'method not allowed');
  if (one !== undefined && req.method !== 'GET') throw new HttpError(405, 'method not allowed');
  const name = one as ProbeName | undefined;
  const { nodeName, env, maxResponse, metrics } = limits;
  const answer = (probes: AgentFacts['probes']) => {
    for (const [probe, outcome] of Object.entries(probes)) {
      if (outcome) metrics?.probeRan(probe as ProbeName, probeRunOutcome(outcome), outcome.durationMs / 1000);
    }
    return boundedProbesBody(nodeName, probes, maxResponse);
  };
  if (name) {
    const params = paramsFromQuery(name, parseQuery(url));
    return async () => {
      const outcome = await runNamedProbe(name, params, env);
      if (!outcome.ok && outcome.error.startsWith('bad parameters')) throw new HttpError(400, outcome.error);
      return answer({ [name]: outcome });
    };
  }
  const text = await readText(req, limits.maxBody);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
  const parsed = probeRequestSchema.safeParse(json);
  if (!parsed.success) throw new HttpError(400, issues(parsed.error));
  const { pod, probes } = parsed.data;
  return async () => answer(await runPodProbes(pod, probes, env));
}
