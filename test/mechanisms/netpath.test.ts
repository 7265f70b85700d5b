// The network path between a pod and what it talks to (netpath.ts, and the variants it adds to network.ts): a line,
// the mechanism and variant it means for this pod spec, and the knob with its path. Then what the table cannot say:
// a loopback banner is read only while a probe to that port fails, the node's size sets the conntrack variant, and a
// mesh proxy that the app waits for (or that runs as a native sidecar) is not the cause of a refusal.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/engine.js';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import type { Container, ContainerStatus, Pod } from '../../src/diagnosis/types.js';
import { crashedPod, logTail, node, snapshot } from '../helpers/factories.js';
import { type ContainerPatch, describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const ISTIO_PROXY: Container = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.0' };
const LINKERD_PROXY: Container = { name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:stable-2.14.10' };
const app = (patch: ContainerPatch = {}): Container => ({ name: 'app', image: 'registry.example.com/shop/app:1', ...patch });
const READINESS_8000: ContainerPatch = { readinessProbe: { httpGet: { path: '/healthz', port: 8000 } } };

const FAMILIES: Record<string, Row[]> = {
  'outbound ports': [
    {
      line: 'dial tcp 10.26.2.1:3306: connect: cannot assign requested address',
      mechanism: 'ephemeral-ports-exhausted',
      variant: 'pod',
      knob: 'spec.securityContext.sysctls net.ipv4.ip_local_port_range',
      data: { endpoint: '10.26.2.1:3306' },
    },
    {
      line: 'tunneling socket could not be established, cause=connect EADDRNOTAVAIL 35.224.36.62:8888 - Local (10.128.0.3:0)',
      mechanism: 'ephemeral-ports-exhausted',
      variant: 'host-network',
      knob: 'sysctl net.ipv4.ip_local_port_range on node-1',
      spec: { hostNetwork: true },
    },
    {
      line: 'Get https://[::1]:6443/api/v1/namespaces/default/resourcequotas: dial tcp [::1]:6443: connect: cannot assign requested address',
      mechanism: 'ephemeral-ports-exhausted',
      variant: 'ipv6-source',
      knob: "the app's address for the dependency",
      data: { endpoint: '::1:6443' },
    },
    {
      line: 'java.net.NoRouteToHostException: Cannot assign requested address (Address not available)',
      mechanism: 'ephemeral-ports-exhausted',
      variant: 'pod',
      knob: "the app's HTTP client / connection pool",
    },
    // The same errno on a bind stays bind-address's.
    { line: 'listen tcp 192.168.6.143:8080: bind: cannot assign requested address', mechanism: 'bind-address', variant: 'address', knob: 'spec.hostNetwork' },
  ],
  conntrack: [
    {
      line: '[Tue Nov 20 22:30:22 2018] nf_conntrack: table full, dropping packet',
      mechanism: 'conntrack-full',
      variant: 'table',
      knob: 'sysctl net.netfilter.nf_conntrack_max on node-1',
    },
    {
      line: 'kernel: [1694413.644132] nf_conntrack: nf_conntrack: table full, dropping packet',
      mechanism: 'conntrack-full',
      variant: 'table',
      knob: 'kube-proxy --conntrack-max-per-core',
    },
  ],
  'service mesh': [
    {
      line: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
      mechanism: 'mesh-sidecar',
      variant: 'upstream',
      knob: 'appProtocol',
      spec: { containers: [app(), ISTIO_PROXY] },
      data: { reason: 'connection failure' },
    },
    {
      line:
        'upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: TLS error: ' +
        '268435703:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER',
      mechanism: 'mesh-sidecar',
      variant: 'mtls-mismatch',
      knob: 'PeerAuthentication mtls.mode',
    },
    {
      line: 'upstream connect error or disconnect/reset before headers. reset reason: overflow.',
      mechanism: 'mesh-sidecar',
      variant: 'overflow',
      knob: 'DestinationRule trafficPolicy.connectionPool',
    },
    {
      line:
        '[2019-07-18 15:12:04.779][15][warning][config] [bazel-out/k8-opt/bin/external/envoy/source/common/config/_virtual_includes/' +
        'grpc_stream_lib/common/config/grpc_stream.h:86] gRPC config stream closed: 14, upstream connect error or disconnect/reset before headers. ' +
        'reset reason: connection failure',
      mechanism: 'mesh-sidecar',
      variant: 'control-plane',
      knob: 'the istiod pods in istio-system',
    },
    {
      line:
        '[2022-06-09T16:06:06.942Z] "GET /hello HTTP/1.1" 503 UF upstream_reset_before_response_started{connection_failure,delayed_connect_error:_111} ' +
        '- "-" 0 145 0 - "-" "curl/7.68.0" "ffc1de9a-c7dd-9e0f-b62c-1c12b7a830ff" "10.32.13.107" "10.28.0.19:80" inbound|80|| - 10.28.0.19:80 ' +
        '10.28.0.1:9347 - default',
      mechanism: 'mesh-sidecar',
      variant: 'inbound-refused',
      knob: "the app's listen address and port",
      data: { appPort: '80' },
    },
    {
      line:
        '[...] "POST /notify HTTP/1.1" 503 UF upstream_reset_before_response_started{connection_termination} - "-" 0 95 3 - ... "10.244.0.12:8084" ' +
        'outbound|80||notification-service...',
      mechanism: 'mesh-sidecar',
      variant: 'upstream',
      knob: 'appProtocol',
      data: { reason: 'connection termination' },
    },
    {
      line:
        '2019-04-26T09:28:04.642662Z info Envoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 0 successful, ' +
        '0 rejected; lds updates: 0 successful, 0 rejected',
      mechanism: 'mesh-sidecar',
      variant: 'control-plane',
      knob: 'NetworkPolicies of shop with policyTypes Egress',
    },
    {
      line:
        'Envoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 2 successful, 0 rejected; lds updates: 0 successful, ' +
        '2 rejected',
      mechanism: 'mesh-sidecar',
      variant: 'config-rejected',
      knob: 'istioctl analyze -n shop',
      data: { rejected: '2 LDS updates' },
    },
    {
      line: 'psql: error: connection to server at "10.92.2.59", port 5432 failed: Connection refused',
      mechanism: 'dependency-refused',
      variant: 'mesh-proxy-starting',
      knob: 'metadata.annotations proxy.istio.io/config',
      spec: { containers: [app(), ISTIO_PROXY] },
      data: { mesh: 'Istio', endpoint: '10.92.2.59:5432' },
    },
    {
      line: 'linkerd2_proxy::app::errors unexpected error: an error occurred trying to connect: Connection refused (os error 111) (address: 127.0.0.1:8080)',
      mechanism: 'dependency-refused',
      variant: 'mesh-proxy-inbound',
      knob: "the app's listen address and port",
      container: { name: 'linkerd-proxy' },
      spec: { containers: [app(), LINKERD_PROXY] },
      data: { mesh: 'Linkerd' },
    },
    {
      line: 'java.net.ConnectException: Connection refused (Connection refused)',
      mechanism: 'dependency-refused',
      variant: 'mesh-proxy-starting',
      knob: 'metadata.annotations config.linkerd.io/proxy-await',
      spec: { containers: [app(), LINKERD_PROXY] },
      data: { mesh: 'Linkerd' },
    },
  ],
  reachability: [
    {
      line: 'dial tcp 172.28.62.68:10250: connect: no route to host',
      mechanism: 'dependency-unreachable',
      variant: 'rejected',
      knob: 'firewalld / iptables on node-1',
      data: { endpoint: '172.28.62.68:10250' },
    },
    { line: 'dial tcp 10.0.3.17:443: i/o timeout', mechanism: 'dependency-unreachable', variant: 'path', knob: 'firewalls / security groups' },
    {
      line: 'INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)',
      mechanism: 'listen-loopback',
      variant: 'probe',
      knob: 'spec.containers[app].args / env: uvicorn --host 0.0.0.0',
      container: READINESS_8000,
      data: { probe: 'readinessProbe', probePort: '8000', address: '127.0.0.1:8000' },
    },
    {
      line: ' * Running on http://127.0.0.1:5000/ (Press CTRL+C to quit)',
      mechanism: 'listen-loopback',
      variant: 'loopback',
      knob: 'flask run --host=0.0.0.0',
      data: { server: 'Flask (Werkzeug)' },
    },
    {
      line: '  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose',
      mechanism: 'listen-loopback',
      variant: 'probe',
      knob: 'vite --host 0.0.0.0',
      container: { livenessProbe: { tcpSocket: { port: 'http' } }, ports: [{ name: 'http', containerPort: 5173 }] },
      data: { probe: 'livenessProbe', probePort: '5173', address: 'localhost:5173' },
    },
  ],
};

describeFamilies(FAMILIES);

const notReady = (name = 'app'): ContainerStatus => ({ name, ready: false, restartCount: 0, image: 'app', imageID: '' });
const ready = (name = 'app'): ContainerStatus => ({ ...notReady(name), ready: true });
const read = (lines: string[], scope: ReturnType<typeof scopeOf> & { status?: ContainerStatus }) => readTexts([{ lines, source: 'logs app' }], scope);

describe('listen-loopback: a banner is a reason only while a probe to its port fails', () => {
  const banner = 'INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)';
  it('reads a not-Ready container whose readiness probe targets the port, with the probe as evidence', () => {
    const r = read(['INFO:     Started server process [1]', banner], { ...scopeOf(READINESS_8000), status: notReady() });
    expect([r?.mechanism, r?.variant]).toEqual(['listen-loopback', 'probe']);
    expect(r?.evidence.map((e) => e.source)).toContain('pod.spec.containers[app].readinessProbe');
    expect(r?.knobs.join('\n')).toMatch(/httpGet\.host 127\.0\.0\.1 would probe the node/);
    expect(r?.explanation).toMatch(/never becomes Ready/);
    const live = read([banner], { ...scopeOf({ livenessProbe: { tcpSocket: { port: 8000 } } }), status: notReady() });
    expect(live?.explanation).toMatch(/livenessProbe connects to port 8000 on the pod IP[^.]*kills and restarts it/);
  });
  it('reads nothing on a Ready container, without a network probe, or with a probe on another port', () => {
    expect(read([banner], { ...scopeOf(READINESS_8000), status: ready() })).toBeUndefined();
    expect(read([banner], { ...scopeOf(), status: notReady() })).toBeUndefined();
    expect(
      read([banner], { ...scopeOf({ readinessProbe: { exec: { command: ['curl', '-f', 'http://127.0.0.1:8000/'] } } }), status: notReady() }),
    ).toBeUndefined();
    expect(read([banner], { ...scopeOf({ readinessProbe: { httpGet: { path: '/', port: 9090 } } }), status: notReady() })).toBeUndefined();
  });
  it('reads nothing when Werkzeug said it listens on all addresses first', () => {
    const lines = [' * Running on all addresses (0.0.0.0)', ' * Running on http://127.0.0.1:5000', ' * Running on http://172.18.0.44:5000'];
    expect(read(lines, { ...scopeOf({ readinessProbe: { httpGet: { path: '/', port: 5000 } } }), status: notReady() })).toBeUndefined();
  });
  it('gives way to any failure line in the same log', () => {
    const r = read([banner, 'dial tcp 10.96.12.7:5432: connect: connection refused'], { ...scopeOf(READINESS_8000), status: notReady() });
    expect(r?.mechanism).toBe('dependency-refused');
  });
  it('names the mechanism through the engine when a liveness probe on that port kills the container', () => {
    const web: Container = {
      name: 'web',
      image: 'registry.example.com/shop/web:1.4.2',
      livenessProbe: { httpGet: { path: '/healthz', port: 8000 } },
    };
    const p = crashedPod({ exitCode: 137, restarts: 6 }, { spec: { containers: [web] } });
    const d = diagnose(snapshot(p, { logs: [logTail('web', ['INFO:     Started server process [1]', banner])] }), { rules: RULES });
    expect(d.findings.map((f) => f.mechanism?.id)).toContain('listen-loopback');
  });
});

describe('mesh-sidecar: what it does not read', () => {
  it("does not read a successful request's access log line", () => {
    const line =
      '[2021-05-11T04:38:18.116Z] "GET /productpage HTTP/1.1" 200 - via_upstream - "-" 0 5183 149 148 "172.20.0.0" "Mozilla/5.0" ' +
      '"346116de-c68d-40a5-84fa-0fbe51635264" "192.168.198.154:31545" "127.0.0.1:9080" inbound|9080|| 127.0.0.1:36154 172.20.2.84:9080 172.20.0.0:0 ' +
      'outbound_.9080_._.productpage.istio.svc.cluster.local default';
    expect(readTexts([{ text: line, source: 'logs istio-proxy' }], scopeOf())).toBeUndefined();
  });
  it("does not read the proxy's own readiness once it is ready", () => {
    expect(readTexts([{ text: '2019-09-28T15:47:21.548349Z\tinfo\tEnvoy proxy is ready', source: 'logs istio-proxy' }], scopeOf())).toBeUndefined();
  });
});

describe('conntrack-full: the node sizes the table', () => {
  it("quotes kube-proxy's default for the node's cores", () => {
    const r = readTexts([{ text: '[1454500.910215] nf_conntrack: table full, dropping packet', source: 'logs app' }], {
      ...scopeOf(),
      node: node({ status: { capacity: { cpu: '8' } } }),
    });
    expect([r?.mechanism, r?.variant]).toEqual(['conntrack-full', 'kube-proxy-sized']);
    expect(r?.data).toMatchObject({ cores: 8, kubeProxyMax: 262144 });
    expect(r?.explanation).toMatch(/on 8 cores about 262144/);
  });
  it('does not read the module sizing the table', () => {
    const r = readTexts([{ text: 'I1120 15:18:19.757786   26448 conntrack.go:52] Setting nf_conntrack_max to 786432', source: 'logs app' }], scopeOf());
    expect(r).toBeUndefined();
  });
});

describe('ephemeral-ports-exhausted: what the knobs say', () => {
  it('names the safe sysctl, the unsafe one and the kubelet flag it needs', () => {
    const r = readTexts([{ text: 'dial tcp 10.26.2.1:3306: connect: cannot assign requested address', source: 'logs app' }], scopeOf());
    const knobs = r?.knobs.join('\n') ?? '';
    expect(knobs).toMatch(/ip_local_port_range: widen the range[^\n]*a safe sysctl/);
    expect(knobs).toMatch(/tcp_tw_reuse: [^\n]*unsafe sysctl: the kubelet of node-1 must allow it with --allowed-unsafe-sysctls/);
  });
});

describe('dependency-refused in a meshed pod: only when the app does not wait for the proxy', () => {
  const line = 'psql: error: connection to server at "10.92.2.59", port 5432 failed: Connection refused';
  const variant = (spec: Partial<NonNullable<Pod['spec']>>, metadata: Pod['metadata'] = {}) => {
    const s = scopeOf({}, spec);
    return readTexts([{ text: line, source: 'logs app' }], { ...s, pod: { ...s.pod, metadata: { ...s.pod.metadata, ...metadata } } })?.variant;
  };
  it('is the proxy start when the proxy is a plain container', () => {
    expect(variant({ containers: [app(), ISTIO_PROXY] })).toBe('mesh-proxy-starting');
  });
  it('is not when the pod holds the app, the hook is injected, or the proxy is a native sidecar', () => {
    const hold = { annotations: { 'proxy.istio.io/config': '{ "holdApplicationUntilProxyStarts": true }' } };
    expect(variant({ containers: [app(), ISTIO_PROXY] }, hold)).toBe('remote');
    const hooked = { ...ISTIO_PROXY, lifecycle: { postStart: { exec: { command: ['pilot-agent', 'wait'] } } } };
    expect(variant({ containers: [hooked, app()] })).toBe('remote');
    expect(variant({ containers: [app()], initContainers: [{ ...ISTIO_PROXY, restartPolicy: 'Always' }] })).toBe('remote');
    expect(variant({ containers: [app()] })).toBe('remote');
  });
  it('is not when the proxy was Ready before the run of the app that was refused', () => {
    const s = scopeOf({}, { containers: [app(), ISTIO_PROXY] });
    const running = (startedAt: string) => ({ running: { startedAt } });
    const proxy: ContainerStatus = { name: 'istio-proxy', ready: true, restartCount: 0, image: 'y', imageID: '', state: running('2026-11-21T09:00:00Z') };
    const crashed = (startedAt: string): ContainerStatus => ({
      ...notReady(),
      restartCount: 3,
      lastState: { terminated: { exitCode: 1, startedAt, finishedAt: startedAt } },
    });
    const pod = { ...s.pod, status: { containerStatuses: [proxy] } };
    const at = (startedAt: string) => readTexts([{ text: line, source: 'logs app' }], { ...s, pod, status: crashed(startedAt) })?.variant;
    expect(at('2026-11-21T09:30:00Z')).toBe('remote');
    expect(at('2026-11-21T08:59:58Z')).toBe('mesh-proxy-starting');
  });
  it('is not for the proxy container itself', () => {
    const s = scopeOf({}, { containers: [app(), ISTIO_PROXY] });
    const r = readTexts([{ text: line, source: 'logs istio-proxy' }], { ...s, container: ISTIO_PROXY });
    expect(r?.variant).toBe('remote');
  });
});
