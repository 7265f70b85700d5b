// `pod-doctor agent` as its own process, stopped the way Kubernetes stops the DaemonSet's pods:
// SIGTERM, then SIGKILL after terminationGracePeriodSeconds (10 s in deploy/base/agent.yaml). It
// stops accepting at once, answers the probe in flight, and exits; a request that outlives
// POD_DOCTOR_SHUTDOWN_SECONDS is dropped and the process exits anyway.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedAgentCerts } from '../helpers/agent-tls.js';
import { eventually } from '../helpers/jobs.js';
import { type RoleProcess, sigterm, spawnRole } from '../helpers/roles.js';

const NODE = join(import.meta.dirname, '../fixtures/nodes/001');
const TOKEN = 'agent-shutdown-token-0123456789';
const GRACE_MS = 10_000;
/** The watchdog in src/bin lets a finished command's process wind down for 1 s; scheduling slack on top. */
const EXIT_MARGIN_MS = 2000;
/** The agent serves HTTPS from its certificate files, as in the DaemonSet; requests trust its CA. */
const certs = sharedAgentCerts();
const dispatcher = new Agent({ connect: { ca: certs.ca, servername: certs.serverName } });
const fetch = (url: string, init: { headers?: Record<string, string> } = {}) => undiciFetch(url, { ...init, dispatcher });

describe('pod-doctor agent on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-agent-stop-'));
  // A Docker socket that accepts and never answers: the runtime probe waits its 2 s call timeout.
  const socketPath = join(dir, 'docker.sock');
  let docker: Server;
  const sockets = new Set<Socket>();
  let connections = 0;
  let agent: RoleProcess | undefined;

  beforeAll(async () => {
    writeFileSync(join(dir, 'token'), TOKEN);
    docker = createServer((s) => {
      connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => docker.listen(socketPath, r));
  });

  afterEach(async () => {
    await agent?.kill();
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => docker?.close(r));
    await dispatcher.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const startAgent = async (env: Record<string, string> = {}) => {
    const spawned = Date.now();
    agent = spawnRole(
      [
        'agent',
        '--port=0',
        '--host=127.0.0.1',
        `--token-file=${join(dir, 'token')}`,
        `--proc-root=${join(NODE, 'proc')}`,
        `--host-root=${join(NODE, 'host')}`,
        `--docker-socket=${socketPath}`,
      ],
      { LOG_LEVEL: 'info', POD_DOCTOR_AGENT_TLS_CERT: certs.certFile, POD_DOCTOR_AGENT_TLS_KEY: certs.keyFile, ...env },
    );
    const [, port] = (await agent.line(/"port":(\d+).*"msg":"agent listening"/)) as unknown as [string, string];
    const url = `https://127.0.0.1:${port}`;
    // Serving (its SIGTERM handler is set a moment after the log line).
    await eventually(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok, 5000, 20);
    const listeningMs = Date.now() - spawned;
    // The runtime probe: about 2 s against the silent Docker socket. Resolves (with the answer
    // to come) once the probe waits on the socket.
    const probe = async () => {
      const before = connections;
      const answer = fetch(`${url}/v1/probes/runtime`, { headers: { authorization: `Bearer ${TOKEN}` } });
      answer.catch(() => undefined);
      await eventually(async () => connections > before, 5000, 10);
      return { answer };
    };
    return { url, probe, listeningMs };
  };

  it('serves HTTPS from POD_DOCTOR_AGENT_TLS_CERT/_KEY, and /metrics without the token', async () => {
    const { url, listeningMs } = await startAgent();
    // It needs no Redis, API server or Slack (the env has none): serving within 5 s of the spawn.
    expect(listeningMs).toBeLessThan(5000);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^pod_doctor_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^pod_doctor_build_info\{version="[^"]+",commit="[^"]+",node="v\d+[^"]*"\} 1$/m);
    expect(text).toContain('pod_doctor_agent_refusals_total{reason="unauthenticated"} 0');
    expect((await fetch(`${url}/v1/probes/host`)).status).toBe(401);
  });

  it('answers the probe in flight, refuses new connections meanwhile, then exits', async () => {
    const { url, probe } = await startAgent();
    const { answer } = await probe();
    const stopping = sigterm(agent!);
    await new Promise((r) => setTimeout(r, 300));
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    const res = await answer;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { probes: { runtime: { docker: { state: string } } } }).probes.runtime.docker.state).toBe('hung');
    const exit = await stopping;
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(GRACE_MS);
    expect(agent!.stderr()).not.toMatch(/shutdown: step|handles still open/);
  });

  it('drops a request that outlives its deadline and exits by it', async () => {
    const { probe } = await startAgent({ POD_DOCTOR_SHUTDOWN_SECONDS: '1' });
    const { answer } = await probe();
    const exit = await sigterm(agent!);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(1000 + EXIT_MARGIN_MS);
    expect(
      await answer.then(
        (r) => r.status,
        () => 'dropped',
      ),
    ).toBe('dropped');
  });
});
