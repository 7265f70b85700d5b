// prom-client's metric classes without its index: the index also loads the Pushgateway (http,
// https, url), Summary (t-digest) and the cluster aggregator, 3 MB more resident in every
// process, the node agent on every node included. These are the very modules the index
// re-exports (one module cache), so metrics made here and through 'prom-client' mix freely.
import { createRequire } from 'node:module';
import type * as Prom from 'prom-client';

const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry.js') as typeof Prom.Registry;
export const Counter = require('prom-client/lib/counter.js') as typeof Prom.Counter;
export const Gauge = require('prom-client/lib/gauge.js') as typeof Prom.Gauge;
export const Histogram = require('prom-client/lib/histogram.js') as typeof Prom.Histogram;

type DefaultMetric = (registry: Prom.Registry, config: { prefix: string; eventLoopMonitoringPrecision: number }) => void;

/**
 * prom-client's default process metrics but its CPU counter, whose module loads
 * @opentelemetry/api (51 modules, 3 MB resident on every node): the agent's CPU is the
 * container's, which the kubelet's cAdvisor already reports. Same names as collectDefaultMetrics.
 */
export function collectProcessMetrics(registry: Prom.Registry, prefix: string): void {
  for (const name of [
    'processStartTime',
    'osMemoryHeap',
    'processOpenFileDescriptors',
    'processMaxFileDescriptors',
    'eventLoopLag',
    'processHandles',
    'processRequests',
    'processResources',
    'heapSizeAndUsed',
    'heapSpacesSizeAndUsed',
    'version',
    'gc',
  ]) {
    (require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric)(registry, { prefix, eventLoopMonitoringPrecision: 10 });
  }
}
export type Registry = Prom.Registry;
