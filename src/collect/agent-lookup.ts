// The collector's agent lookup from configuration: undefined (node checks skipped, said as
// a gap by the collector) without an agent token. The transport (CA, certificate name, plain
// HTTP) is read here once, at start: a CA file that cannot be read stops the process.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { log } from '../log.js';
import { createAgentLookup } from './agent-client.js';
import type { AgentTransport } from './agent-http.js';
import type { AgentCallMetrics } from './agent-metrics.js';
import type { AgentLookup } from './snapshot.js';

export type AgentTransportConfig = Partial<Pick<Config, 'agentTlsCa' | 'agentTlsServerName' | 'agentPlainHttp'>>;

/** How the worker reaches agents, from POD_DOCTOR_AGENT_TLS_CA, _TLS_SERVER_NAME and _PLAIN_HTTP. */
export function agentTransportFromConfig(config: AgentTransportConfig, logger: Logger = log): AgentTransport {
  let ca: string | undefined;
  if (config.agentTlsCa) {
    try {
      ca = readFileSync(config.agentTlsCa, 'utf8');
    } catch (err) {
      throw new PodDoctorError(
        'BAD_CONFIG',
        `POD_DOCTOR_AGENT_TLS_CA: cannot read ${config.agentTlsCa}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        {
          cause: err,
        },
      );
    }
    try {
      new X509Certificate(ca);
    } catch (err) {
      throw new PodDoctorError('BAD_CONFIG', `POD_DOCTOR_AGENT_TLS_CA: ${config.agentTlsCa} is not a PEM certificate`, { cause: err });
    }
  }
  if (config.agentPlainHttp) {
    logger.warn({ component: 'agent-client' }, 'plain HTTP to node agents allowed: the agent token crosses the network readable (POD_DOCTOR_AGENT_PLAIN_HTTP)');
  }
  return {
    ...(ca ? { ca } : {}),
    ...(config.agentTlsServerName ? { serverName: config.agentTlsServerName } : {}),
    ...(config.agentPlainHttp ? { plainHttp: true } : {}),
  };
}

export function agentLookupFromConfig(
  config: Pick<Config, 'agentToken' | 'agentTimeoutMs' | 'agentUrls' | 'agentUrlTemplate'> & AgentTransportConfig,
  metrics?: AgentCallMetrics,
): AgentLookup | undefined {
  if (!config.agentToken) return undefined;
  return createAgentLookup({
    agentToken: config.agentToken,
    agentTimeoutMs: config.agentTimeoutMs,
    agentUrls: config.agentUrls,
    agentUrlTemplate: config.agentUrlTemplate,
    transport: agentTransportFromConfig(config),
    ...(metrics ? { metrics } : {}),
  });
}
