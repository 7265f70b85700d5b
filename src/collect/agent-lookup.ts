// The collector's agent lookup from configuration: undefined (node checks skipped, said as
// a gap by the collector) without an agent token.
import type { Config } from '../config/schema.js';
import { createAgentLookup } from './agent-client.js';
import type { AgentLookup } from './snapshot.js';

export function agentLookupFromConfig(config: Pick<Config, 'agentToken' | 'agentTimeoutMs' | 'agentUrls' | 'agentUrlTemplate'>): AgentLookup | undefined {
  if (!config.agentToken) return undefined;
  return createAgentLookup({
    agentToken: config.agentToken,
    agentTimeoutMs: config.agentTimeoutMs,
    agentUrls: config.agentUrls,
    agentUrlTemplate: config.agentUrlTemplate,
  });
}
