// How the worker reaches node agents: the transport (CA, certificate name, plain HTTP), read
// once at start from the agent settings (cli/wiring.ts passes them): a CA file that cannot be
// read stops the process.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { PodDoctorError } from '../errors.js';
import { log } from '../log.js';
import type { AgentTransport } from './agent-http.js';

/** The agent transport settings (POD_DOCTOR_AGENT_TLS_CA, _TLS_SERVER_NAME, _PLAIN_HTTP). */
export interface AgentTransportSettings {
  agentTlsCa?: string | undefined;
  agentTlsServerName?: string | undefined;
  agentPlainHttp?: boolean | undefined;
}

/** How the worker reaches agents, from POD_DOCTOR_AGENT_TLS_CA, _TLS_SERVER_NAME and _PLAIN_HTTP. */
export function agentTransportFrom(config: AgentTransportSettings, logger: Logger = log): AgentTransport {
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
