// pod_doctor_build_info: which build a process runs, as labels on a constant 1 (the Prometheus
// convention), so dashboards can join on it and a rollout shows as the version label changing.
// Every role registers it: bot and worker through createMetrics, the agent on its own registry.

import { type BuildInfo, buildInfo } from '../version.js';
import { Gauge, type Registry } from './prom-core.js';

export function registerBuildInfo(registry: Registry, info: BuildInfo = buildInfo()): void {
  const gauge = new Gauge({
    name: 'pod_doctor_build_info',
    help: 'Always 1; its labels say which build this process runs (version from package.json, commit from POD_DOCTOR_GIT_COMMIT, node runtime).',
    labelNames: ['version', 'commit', 'node'] as const,
    // One process, one build: summed with another registry of this process (the bot's worker
    // thread), it must stay 1.
    aggregator: 'max',
    registers: [registry],
  });
  gauge.set({ version: info.version, commit: info.commit, node: info.node }, 1);
}
