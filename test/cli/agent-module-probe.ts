// Run as a child process (`node --import tsx agent-module-probe.ts`): loads what a serving node
// agent loads (the CLI's entry, the agent, its /metrics, one scrape) and prints the npm packages
// that were resolved, the metric names of that scrape and Node's built-in modules loaded.
import { registerHooks } from 'node:module';

const packages = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (m) packages.add(m[1]!);
    return resolved;
  },
});

await import('../../src/cli/main.js');
await import('../../src/agent/cli.js');
await import('../../src/agent/server.js');
const { createAgentMetrics } = await import('../../src/agent/metrics.js');
const { body } = await createAgentMetrics().render();
const names = [...new Set(body.match(/^pod_doctor_\w+/gm) ?? [])].sort();
// Node's own modules loaded so far (`import ... from 'node:http'` would add http2, zlib and undici).
const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
const builtins = loaded.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
process.stdout.write(`${JSON.stringify({ packages: [...packages].sort(), names, builtins })}\n`);
