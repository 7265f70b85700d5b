// Facts the node agent returns, keyed by probe name. The agent (src/probes/*) owns the
// precise zod schemas; rules read these through the types exported here.

export interface ProbeResultBase {
  ok: boolean;
  /** Set when the probe could not finish (timeout, permission). */
  error?: string;
  durationMs?: number;
}

/** Facts from the node agent for one diagnosis, each optional (a probe may be skipped). */
export interface AgentFacts {
  node: string;
  probes: Record<string, (ProbeResultBase & Record<string, unknown>) | undefined>;
}
