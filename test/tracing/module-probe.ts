// Run as a child process (`node --import tsx module-probe.ts [endpoint]`): loads the bot's and
// the worker's module graphs, starts tracing as a role does, and prints the OpenTelemetry
// packages that were resolved. A resolve hook sees every import, static or dynamic.
import { registerHooks } from 'node:module';

const packages = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const m = /node_modules\/(@opentelemetry\/[^/]+)\//.exec(resolved.url);
    if (m) packages.add(m[1]!);
    return resolved;
  },
});

const endpoint = process.argv[2];
await import('../../src/cli/bot.js');
await import('../../src/cli/worker.js');
const { startTracing, stopTracing } = await import('../../src/tracing/start.js');
const { silent } = await import('../helpers/logger.js');
const on = await startTracing({ serviceName: 'probe', settings: endpoint ? { otlpEndpoint: endpoint } : {}, logger: silent });
await stopTracing();
process.stdout.write(`${JSON.stringify({ on, packages: [...packages].sort() })}\n`);
