// The node agent runs on every node and must stay small (bench:rss, ≤ 60 MB): what it loads to
// serve is checked here, in a child process, so an import that drags in a heavy package fails.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const probe = fileURLToPath(new URL('./agent-module-probe.ts', import.meta.url));

describe('the serving node agent', () => {
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', probe], { encoding: 'utf8' })) as {
    packages: string[];
    names: string[];
    builtins: string[];
  };

  it('loads neither YAML, OpenTelemetry, gRPC nor the other roles’ clients until they are needed', () => {
    for (const heavy of ['yaml', '@opentelemetry/api', '@grpc/grpc-js', '@grpc/proto-loader', '@kubernetes/client-node', '@slack/bolt', 'bullmq', 'ioredis'])
      expect(out.packages, heavy).not.toContain(heavy);
    expect(out.packages).toContain('prom-client');
  });

  it('loads zod and the probes with its first probe request, not to wait idle', () => {
    expect(out.packages).not.toContain('zod');
  });

  it('takes only the built-ins it uses (src/builtin.ts): no http2, zlib or undici behind node:http', () => {
    expect(out.builtins).toContain('https');
    for (const unused of ['http2', 'zlib', 'internal/deps/undici/undici']) expect(out.builtins, unused).not.toContain(unused);
  });

  it('still serves its process metrics, its probes and its build', () => {
    for (const name of [
      'pod_doctor_process_resident_memory_bytes',
      'pod_doctor_process_start_time_seconds',
      'pod_doctor_nodejs_eventloop_lag_seconds',
      'pod_doctor_agent_refusals_total',
      'pod_doctor_build_info',
    ])
      expect(out.names).toContain(name);
  });
});
