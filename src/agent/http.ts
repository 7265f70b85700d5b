// What the agent's server and its lazily loaded probe requests (probe-requests.ts) share: the
// error that becomes a status, the request body reader and the metrics interface.
import type { IncomingMessage } from 'node:http';
import { readBody } from '../body.js';
import type { ProbeName } from '../probes/types.js';

/** Why the agent refused a request (pod_doctor_agent_refusals_total{reason}). */
export type RefusalReason = 'unauthenticated' | 'not_allowed' | 'out_of_scope' | 'bad_request';
export type ProbeRunOutcome = 'ok' | 'failed' | 'timeout';

/** What the server records; src/agent/metrics.ts implements it (loaded only when serving). */
export interface AgentMetrics {
  probeRan(probe: ProbeName, outcome: ProbeRunOutcome, seconds: number): void;
  refused(reason: RefusalReason): void;
  render(): Promise<{ contentType: string; body: string }>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Counted as this refusal instead of the one its status implies. */
    readonly refusal?: RefusalReason,
  ) {
    super(message);
  }
}

export async function readText(req: IncomingMessage, max: number): Promise<string> {
  const read = await readBody(req, max);
  if (read.ok) return read.body.toString('utf8');
  throw read.reason === 'too-large' ? new HttpError(413, `request body larger than ${max} bytes`) : new HttpError(400, 'request body aborted');
}
