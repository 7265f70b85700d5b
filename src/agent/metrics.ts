// The node agent's own /metrics: how long probes take and how they end, what it refused and
// why, which build it runs, and its process (pod_doctor_process_resident_memory_bytes: the agent
// must stay small on every node). prom-client is loaded only by the serving agent (cli.ts
// imports this file when it starts the server), not by `pod-doctor agent probe`.
// Nothing here names a pod, a path or a token: Prometheus scrapes it without the bearer token.

import { registerBuildInfo } from '../metrics/build-info.js';
import { Counter, collectProcessMetrics, Histogram, Registry } from '../metrics/prom-core.js';
import type { AgentMetrics, ProbeRunOutcome, RefusalReason } from './server.js';

const REFUSAL_REASONS: readonly RefusalReason[] = ['unauthenticated', 'not_allowed', 'out_of_scope', 'bad_request'];

export function createAgentMetrics(options: { defaultMetrics?: boolean } = {}): AgentMetrics & { registry: Registry } {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectProcessMetrics(registry, 'pod_doctor_');
  registerBuildInfo(registry);
  const probeDuration = new Histogram({
    name: 'pod_doctor_agent_probe_duration_seconds',
    help: 'Time one node probe took on this agent, by probe and outcome (ok, failed, timeout: it ran past its time limit).',
    labelNames: ['probe', 'outcome'] as const,
    // Most probes answer in milliseconds; a mount scan of thousands of processes or a hung
    // runtime socket takes seconds (each probe has its own time limit).
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'pod_doctor_agent_refusals_total',
    help:
      'Requests this agent refused: unauthenticated (no or wrong token), out_of_scope (another node, pod or unit than allowed), ' +
      'not_allowed (an action never done, or actions off), bad_request (malformed input, unknown path or method).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  // Every reason from 0: the first refusal after a restart shows in increase().
  for (const reason of REFUSAL_REASONS) refusals.inc({ reason }, 0);
  return {
    registry,
    probeRan(probe: string, outcome: ProbeRunOutcome, seconds: number) {
      probeDuration.observe({ probe, outcome }, seconds);
    },
    refused(reason: RefusalReason) {
      refusals.inc({ reason });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
