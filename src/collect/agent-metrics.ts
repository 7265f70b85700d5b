// The worker's view of the node agents: every call (probes and actions) by node and outcome, and
// why the failed ones failed. A node whose calls all fail with `tls` has a certificate problem,
// with `unauthorized` a token problem, with `unreachable` a network or NetworkPolicy problem.
import { Counter, type Registry } from 'prom-client';
import type { AgentPostFailure } from './agent-http.js';

export type AgentCallError = 'unreachable' | 'timeout' | 'unauthorized' | 'tls' | 'http' | 'invalid';
export type AgentCallOutcome = 'ok' | 'error';

/** What the agent clients record; absent, they record nothing. */
export interface AgentCallMetrics {
  /** One finished call to the agent of `node`; `error` unset when it answered as expected. */
  record(node: string, error?: AgentCallError): void;
}

/** The reason of an exchange that got no usable HTTP answer. */
export function callErrorOf(failure: AgentPostFailure): AgentCallError {
  switch (failure) {
    case 'timeout':
    case 'aborted':
      return 'timeout';
    case 'tls':
      return 'tls';
    case 'too-large':
      return 'invalid';
    case 'unreachable':
      return 'unreachable';
  }
}

export function createAgentCallMetrics(registry: Registry): AgentCallMetrics {
  const calls = new Counter({
    name: 'pod_doctor_agent_calls_total',
    help: 'Calls to node agents (probes and actions) by node and outcome (ok, error).',
    labelNames: ['node', 'outcome'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'pod_doctor_agent_call_errors_total',
    help:
      'Failed calls to node agents by node and reason: unreachable, timeout, unauthorized (token refused), tls (certificate not trusted, ' +
      'wrong name, or plain HTTP refused), http (another error status), invalid (an answer of the wrong shape).',
    labelNames: ['node', 'reason'] as const,
    registers: [registry],
  });
  return {
    record(node, error) {
      calls.inc({ node, outcome: error ? 'error' : 'ok' });
      if (error) errors.inc({ node, reason: error });
    },
  };
}
