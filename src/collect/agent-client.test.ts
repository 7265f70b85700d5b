import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCerts, makeAgentCerts } from '../../test/helpers/agent-tls.js';
import { node, pod } from '../../test/helpers/factories.js';
import { silent } from '../../test/helpers/logger.js';
import { type AgentOptions, type RunningAgent, startAgent } from '../agent/server.js';
import { type FakeDocker, loadDockerSpec, startFakeDocker } from '../sim/fake-docker.js';
import { agentUrlFor, createAgentLookup, fetchAgentFacts, podRefFor } from './agent-client.js';
import type { AgentTransport } from './agent-http.js';
import { createAgentCallMetrics } from './agent-metrics.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const TOKEN = 'client-test-token-0123456789';
const NODE = 'c3-a05-136-45-4.com';
const POD = {
  uid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b',
  namespace: 'default',
  name: 'httpserver-prod-1-6cb97dfbcc-f9flb',
  containerIds: ['e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9'],
};

/** The stubs below speak plain HTTP: the client must be allowed to. */
const PLAIN: AgentTransport = { plainHttp: true };

/** A plain HTTP server answering every request with `handler`'s status and body (or never). */
async function stub(handler: (respond: (status: number, body: string) => void) => void): Promise<{ url: string; server: Server; requests: () => number }> {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    handler((status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests: () => requests };
}

let docker: FakeDocker;
let certs: AgentCerts;
/** The agent as deployed: HTTPS with a certificate for the agents' name, issued by a private CA. */
let agent: RunningAgent;
let trusted: AgentTransport;
const agentOptions = (): AgentOptions => ({
  port: 0,
  host: '127.0.0.1',
  token: TOKEN,
  procRoot: join(FIXTURES, '001', 'proc'),
  hostRoot: join(FIXTURES, '001', 'host'),
  nodeName: NODE,
  logger: silent,
  // No log file: the journal probe fails, which must come back as a gap.
  probeEnv: { dockerSockets: [docker.socket], containerdSockets: [], logFiles: ['/nonexistent/messages'] },
});
const stubs: Server[] = [];
beforeAll(async () => {
  certs = makeAgentCerts();
  trusted = certs.transport;
  docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '001')));
  agent = await startAgent({ ...agentOptions(), tls: { cert: certs.cert, key: certs.key } });
});
afterAll(async () => {
  for (const s of stubs) {
    s.closeAllConnections();
    s.close();
  }
  await agent?.close();
  await docker?.close();
  certs?.cleanup();
});

describe('agentUrlFor', () => {
  const n = node({
    metadata: { name: 'node-7' },
    status: {
      addresses: [
        { type: 'Hostname', address: 'node-7' },
        { type: 'InternalIP', address: '10.0.3.7' },
      ],
    },
  });
  it.each([
    [
      'static map wins',
      'node-7',
      { agentUrls: { 'node-7': 'http://127.0.0.1:19001' }, agentUrlTemplate: 'http://{hostIP}:9477' },
      {},
      'http://127.0.0.1:19001',
    ],
    ['template with the node InternalIP', n, { agentUrlTemplate: 'http://{hostIP}:9477' }, {}, 'http://10.0.3.7:9477'],
    ['template with the pod hostIP hint', 'node-7', { agentUrlTemplate: 'https://{hostIP}:9477' }, { hostIP: '10.0.3.8' }, 'https://10.0.3.8:9477'],
    [
      'template by node name (a headless Service)',
      'node-7',
      { agentUrlTemplate: 'http://pod-doctor-agent-{nodeName}.pod-doctor:9477' },
      {},
      'http://pod-doctor-agent-node-7.pod-doctor:9477',
    ],
    ['no host IP known', 'node-7', { agentUrlTemplate: 'http://{hostIP}:9477' }, {}, undefined],
    ['nothing configured', 'node-7', {}, {}, undefined],
  ])('%s', (_name, which, config, hints, want) => expect(agentUrlFor(which, config, hints)).toBe(want));
});

describe('podRefFor', () => {
  it('strips runtime prefixes and keeps IPv4', () => {
    const p = pod({ metadata: { uid: POD.uid }, status: { podIP: '10.244.1.12' } });
    expect(podRefFor(p)).toMatchObject({
      uid: POD.uid,
      namespace: 'shop',
      containerIds: ['4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d'],
      podIp: '10.244.1.12',
    });
  });
});

describe('fetchAgentFacts', () => {
  it('returns validated facts; a failed probe becomes a gap naming it', async () => {
    const { facts, gaps } = await fetchAgentFacts({ url: agent.url, token: TOKEN, timeoutMs: 8000, pod: POD, node: NODE, transport: trusted });
    expect(facts?.node).toBe(NODE);
    const mh = facts?.probes['mount-holders'];
    expect(mh?.ok && mh.holders[0]?.unit).toBe('ntpd.service');
    expect(gaps).toEqual([
      { check: `node agent on ${NODE}: journal`, reason: expect.stringMatching(/no log source readable/), kind: 'failed', origin: 'agent' },
    ]);
  });

  it('wrong token → a gap, not a throw', async () => {
    const r = await fetchAgentFacts({ url: agent.url, token: 'wrong-token-0123456789', timeoutMs: 2000, pod: POD, node: NODE, transport: trusted });
    expect(r).toEqual({ gaps: [{ check: `node agent on ${NODE}`, reason: 'the agent refused our token (HTTP 401)', kind: 'unauthorized', origin: 'agent' }] });
  });

  it('unreachable → a gap', async () => {
    const { url, server } = await stub((respond) => respond(200, '{}'));
    await new Promise((r) => server.close(r));
    const r = await fetchAgentFacts({ url, token: TOKEN, timeoutMs: 2000, pod: POD, node: NODE, transport: PLAIN });
    expect(r.facts).toBeUndefined();
    expect(r.gaps[0]).toMatchObject({ reason: expect.stringMatching(/unreachable: ECONNREFUSED/), kind: 'unreachable', origin: 'agent' });
  });

  it('no answer → a gap after the timeout', async () => {
    const { url, server } = await stub(() => undefined);
    stubs.push(server);
    const started = performance.now();
    const r = await fetchAgentFacts({ url, token: TOKEN, timeoutMs: 300, pod: POD, node: NODE, transport: PLAIN });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(r.gaps[0]).toMatchObject({ reason: expect.stringMatching(/no answer within 300ms/), kind: 'timeout' });
  });

  it.each([
    ['5xx', 500, '{"error":"internal error"}', /the agent failed \(HTTP 500: internal error\)/, 'server-error'],
    ['400', 400, '{"error":"pod.uid: expected a pod UID"}', /refused the request \(HTTP 400: pod.uid/, 'failed'],
    ['not JSON', 200, '<html>', /not JSON/, 'bad-response'],
    ['wrong shape', 200, '{"hello":1}', /unexpected shape/, 'bad-response'],
    ['another node answered', 200, '{"node":"other-node","probes":{}}', /reports node "other-node"/, 'not-configured'],
  ])('%s → a gap of its kind', async (_name, status, body, reason, kind) => {
    const { url, server } = await stub((respond) => respond(status, body));
    stubs.push(server);
    const r = await fetchAgentFacts({ url, token: TOKEN, timeoutMs: 2000, pod: POD, node: NODE, transport: PLAIN });
    expect(r.facts).toBeUndefined();
    expect(r.gaps[0]).toMatchObject({ reason: expect.stringMatching(reason), kind, origin: 'agent' });
  });

  it('a malformed probe result is dropped with a gap', async () => {
    const { url, server } = await stub((respond) =>
      respond(
        200,
        JSON.stringify({ node: NODE, probes: { host: { ok: true, durationMs: 1, kernel: 5 }, processes: { ok: false, error: 'boom', durationMs: 1 } } }),
      ),
    );
    stubs.push(server);
    const r = await fetchAgentFacts({ url, token: TOKEN, timeoutMs: 2000, pod: POD, node: NODE, transport: PLAIN });
    expect(r.facts?.probes.host).toBeUndefined();
    expect(r.facts?.probes.processes).toEqual({ ok: false, error: 'boom', durationMs: 1 });
    expect(r.gaps.map((g) => g.reason).sort()).toEqual(['boom', 'malformed probe result']);
  });
});

describe('TLS', () => {
  const ask = (url: string, transport?: AgentTransport) =>
    fetchAgentFacts({ url, token: TOKEN, timeoutMs: 5000, pod: POD, node: NODE, probes: ['host'], transport });

  it("trusting the agents' CA and checking their name (not the IP dialled): facts", async () => {
    expect(agent.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    const r = await ask(agent.url, trusted);
    expect(r.gaps).toEqual([]);
    expect(r.facts?.probes.host?.ok).toBe(true);
  });

  it.each([
    [
      'a CA that did not sign it',
      () => ({ ca: certs.otherCa, serverName: certs.serverName }),
      /TLS: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)/,
    ],
    ["only the system's CAs", () => ({ serverName: certs.serverName }), /TLS: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)/],
    [
      'another name',
      () => ({ ca: certs.ca, serverName: 'pod-doctor-agent.elsewhere.svc' }),
      /TLS: ERR_TLS_CERT_ALTNAME_INVALID: .*not for pod-doctor-agent\.elsewhere\.svc/,
    ],
    ['no fixed name: the IP is checked, which no agent certificate carries', () => ({ ca: certs.ca }), /TLS: ERR_TLS_CERT_ALTNAME_INVALID/],
  ])('an agent certificate checked against %s: a tls gap, no facts', async (_name, transport, reason) => {
    const r = await ask(agent.url, transport());
    expect(r.facts).toBeUndefined();
    expect(r.gaps).toEqual([{ check: `node agent on ${NODE}`, reason: expect.stringMatching(reason), kind: 'not-configured', origin: 'agent' }]);
  });

  it('an impostor with a certificate for the right name from another CA: a tls gap', async () => {
    const impostor = await startAgent({ ...agentOptions(), tls: { cert: certs.otherCert, key: certs.otherKey } });
    try {
      const r = await ask(impostor.url, trusted);
      expect(r.facts).toBeUndefined();
      expect(r.gaps[0]?.reason).toMatch(/TLS: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY): .*POD_DOCTOR_AGENT_TLS_CA/);
    } finally {
      await impostor.close();
    }
  });

  it('plain HTTP only when asked: otherwise the token is never sent', async () => {
    const plain = await stub((respond) => respond(200, JSON.stringify({ node: NODE, probes: {} })));
    stubs.push(plain.server);
    const refused = await ask(plain.url, trusted);
    expect(refused.gaps[0]).toMatchObject({ reason: expect.stringMatching(/plain HTTP refused/), kind: 'not-configured' });
    expect(plain.requests()).toBe(0);
    const allowed = await ask(plain.url, { ...trusted, plainHttp: true });
    expect(allowed).toEqual({ facts: { node: NODE, probes: {} }, gaps: [] });
    expect(plain.requests()).toBe(1);
  });

  it('https:// to an agent serving plain HTTP: a tls gap that says so', async () => {
    const plain = await startAgent({ ...agentOptions(), plainHttp: true });
    try {
      const r = await ask(plain.url.replace(/^http:/, 'https:'), trusted);
      expect(r.gaps[0]?.reason).toMatch(/TLS: .*does the agent serve plain HTTP\?/);
      // And that agent answers a client that allows plain HTTP.
      expect((await ask(plain.url, { plainHttp: true })).facts?.probes.host?.ok).toBe(true);
    } finally {
      await plain.close();
    }
  });
});

describe('agent call metrics', () => {
  const count = async (registry: Registry, name: string) =>
    Object.fromEntries((await registry.getSingleMetric(name)!.get()).values.map((v) => [Object.values(v.labels).join(','), v.value]));

  it('counts each call by node and outcome, and each failure by reason', async () => {
    const registry = new Registry();
    const metrics = createAgentCallMetrics(registry);
    const call = (url: string, transport: AgentTransport, token = TOKEN) =>
      fetchAgentFacts({ url, token, timeoutMs: 5000, pod: POD, node: NODE, probes: ['host'], transport, metrics });
    const bad = await stub((respond) => respond(200, '<html>'));
    const failing = await stub((respond) => respond(503, '{}'));
    stubs.push(bad.server, failing.server);
    await call(agent.url, trusted);
    await call(agent.url, trusted, 'wrong-token-0123456789');
    await call(agent.url, { ca: certs.otherCa, serverName: certs.serverName });
    await call(bad.url, PLAIN);
    await call(failing.url, PLAIN);
    await call('not a url', trusted);
    expect(await count(registry, 'pod_doctor_agent_calls_total')).toEqual({ [`${NODE},ok`]: 1, [`${NODE},error`]: 4 });
    expect(await count(registry, 'pod_doctor_agent_call_errors_total')).toEqual({
      [`${NODE},unauthorized`]: 1,
      [`${NODE},tls`]: 1,
      [`${NODE},invalid`]: 1,
      [`${NODE},http`]: 1,
    });
  });
});

describe('createAgentLookup', () => {
  const p = pod({ metadata: { uid: POD.uid, name: POD.name, namespace: 'default' }, spec: { nodeName: NODE } });
  const n = node({ metadata: { name: NODE } });
  it('no token configured: the node check is skipped with a reason', async () => {
    expect(await createAgentLookup({ agentUrls: { [NODE]: agent.url } }).fetch({ node: n, pod: p })).toEqual({
      gaps: [{ check: `node agent on ${NODE}`, reason: expect.stringMatching(/no agent token/), kind: 'not-configured', origin: 'agent' }],
    });
  });
  it('static map + token: facts from the agent', async () => {
    const r = await createAgentLookup({
      agentUrls: { [NODE]: agent.url },
      agentToken: TOKEN,
      agentTimeoutMs: 8000,
      probes: ['host'],
      transport: trusted,
    }).fetch({
      node: n,
      pod: p,
    });
    expect(r.facts?.probes.host).toMatchObject({ ok: true, kernel: '3.10.0-327.el7.x86_64' });
    expect(r.gaps).toEqual([]);
  });
});
