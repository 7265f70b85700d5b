// Built-in modules read with require() where memory counts. Node 24 builds a built-in's ES module
// namespace by reading every export, the lazy ones too: `import { createServer } from 'node:http'`
// also loads http2, zlib, perf_hooks, worker_threads and undici (for http.WebSocket), about 3 MB
// resident. require() returns the module object and loads only what is then used. The node agent
// (on every node, within 60 MB idle: bench:rss) reads its built-ins through this.
import { createRequire } from 'node:module';

export const builtin = createRequire(import.meta.url);
