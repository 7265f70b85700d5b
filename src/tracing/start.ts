// Tracing on or off, once per process role. Off (no OTLP endpoint configured) nothing of the SDK
// is loaded, only @opentelemetry/api, whose tracers are then no-ops: the bot must stay under
// 150 MB and most installs have no collector. On, the SDK (./sdk.ts) is imported once per
// process: one provider, one batching exporter over OTLP/HTTP. Roles sharing a process (tests,
// the demo) share it under the first one's service name; the last to stop shuts it down. The
// bot's worker thread is a process of its own here (its own globals, its own provider).
import type { Logger } from 'pino';
import type { TracingSdk } from './sdk.js';

/** The OTLP endpoints (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
export interface TracingSettings {
  otlpEndpoint?: string | undefined;
  otlpTracesEndpoint?: string | undefined;
}

/** Where spans go: the per-signal URL as it is, else the base URL with `/v1/traces` (as the OTLP exporter spec says). */
export function tracesUrl(settings: TracingSettings): string | undefined {
  if (settings.otlpTracesEndpoint) return settings.otlpTracesEndpoint;
  if (settings.otlpEndpoint) return `${settings.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

let running: { sdk: Promise<TracingSdk>; roles: number } | undefined;

/** Starts exporting spans when an endpoint is configured; resolves with whether tracing is on. */
export async function startTracing(options: { serviceName: string; settings: TracingSettings; logger: Logger }): Promise<boolean> {
  const url = tracesUrl(options.settings);
  if (!url) return false;
  const current = (running ??= {
    roles: 0,
    sdk: import('./sdk.js').then((m) => m.startSdk({ serviceName: options.serviceName, url, logger: options.logger })),
  });
  current.roles += 1;
  try {
    await current.sdk;
  } catch (err) {
    if (running === current) running = undefined;
    throw err;
  }
  options.logger.info({ url, serviceName: options.serviceName }, 'tracing on');
  return true;
}

/** Exports what has ended so far (tests; a role that stays up while another stops). */
export async function flushTracing(): Promise<void> {
  await (await running?.sdk)?.flush();
}

/**
 * A role's graceful stop: its spans are exported; the last role of the process also shuts the
 * provider down (then a later startTracing starts afresh). A no-op with tracing off.
 */
export async function stopTracing(): Promise<void> {
  const current = running;
  if (!current) return;
  current.roles -= 1;
  const sdk = await current.sdk;
  if (current.roles > 0) return sdk.flush();
  if (running === current) running = undefined;
  await sdk.shutdown();
}
