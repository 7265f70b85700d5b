// The OpenTelemetry SDK, imported by start.ts only when an endpoint is configured (this file's
// imports are most of what tracing weighs). Spans are batched and sent as OTLP/JSON over HTTP;
// the context follows async calls through AsyncLocalStorage. The SDK's own warnings (an export
// that failed) go to the role's log.
import { context, DiagLogLevel, diag, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { buildInfo } from '../version.js';

export interface TracingSdk {
  flush(): Promise<void>;
  /** Exports what is left, then unregisters the provider and the context manager. */
  shutdown(): Promise<void>;
}

export function startSdk(options: { serviceName: string; url: string; logger: Logger }): TracingSdk {
  const { version, commit } = buildInfo();
  const log = options.logger.child({ component: 'otel' });
  diag.setLogger(
    {
      error: (message) => log.warn({ detail: message }, 'tracing error'),
      warn: (message) => log.warn({ detail: message }, 'tracing warning'),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: version,
      ...(commit !== 'unknown' ? { 'vcs.ref.head.revision': commit } : {}),
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: options.url }) })],
  });
  trace.setGlobalTracerProvider(provider);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}
