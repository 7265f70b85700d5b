// The network path between a pod and what it talks to: the local ports an outbound connect needs, the node's
// connection-tracking table, a service-mesh proxy in the pod, and an app that listens on its own loopback only.
// (Binding, DNS, refusals, timeouts and TLS are network.ts's; a refused connect in a meshed pod is a variant there.)
import type { Container, Evidence, MessageData } from '../../types.js';
import { hostNetwork } from '../context.js';
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';

const EADDRNOTAVAIL = errnoSource('EADDRNOTAVAIL');

/** `host:port` or `[v6]:port`, as network.ts reads it. */
const ENDPOINT = String.raw`(?<host>\[[0-9a-f:.]+\]|[\w.-]+):(?<port>\d{1,5})`;

function endpointOf(ctx: ReadingContext): MessageData {
  const host = ctx.groups.host?.replace(/^\[|\]$/g, '');
  const port = ctx.groups.port;
  return data({ endpoint: host === undefined ? 'the dependency' : port === undefined ? host : `${host}:${port}` });
}

// ---- the service mesh around the container ----

/** A mesh proxy in the pod: which mesh, its container, whether it is a native sidecar, whether the app waits for it. */
export interface Mesh {
  mesh: 'Istio' | 'Linkerd';
  proxy: string;
  /** An init container with restartPolicy: Always (Kubernetes native sidecar): started, and ready, before the app. */
  native: boolean;
  /** The proxy has a postStart hook (Istio's holdApplicationUntilProxyStarts, Linkerd's proxy-await): the kubelet starts the app after it. */
  held: boolean;
}

const PROXIES: Readonly<Record<string, Mesh['mesh']>> = { 'istio-proxy': 'Istio', 'linkerd-proxy': 'Linkerd' };

/** The mesh proxy of the pod, from its containers (and annotations for the hold); undefined when the pod has none. */
export function meshOf(ctx: ReadingContext): Mesh | undefined {
  const spec = ctx.pod?.spec;
  const annotations = ctx.pod?.metadata?.annotations ?? {};
  const found = (c: Container, native: boolean): Mesh | undefined => {
    const mesh = PROXIES[c.name];
    if (!mesh) return undefined;
    const hook = c.lifecycle?.postStart?.exec?.command?.join(' ') ?? '';
    const annotated =
      mesh === 'Istio'
        ? /holdApplicationUntilProxyStarts"?\s*:\s*true/i.test(annotations['proxy.istio.io/config'] ?? '')
        : annotations['config.linkerd.io/proxy-await'] === 'enabled';
    return { mesh, proxy: c.name, native, held: native || annotated || /pilot-agent wait|linkerd-await/.test(hook) };
  };
  for (const c of spec?.initContainers ?? []) {
    const m = c.restartPolicy === 'Always' ? found(c, true) : undefined;
    if (m) return m;
  }
  for (const c of spec?.containers ?? []) {
    const m = found(c, false);
    if (m) return m;
  }
  return undefined;
}

/** The line comes from the mesh proxy itself (istio-proxy, linkerd-proxy), not from the app beside it. */
export function fromMeshProxy(ctx: ReadingContext): Mesh['mesh'] | undefined {
  const name = ctx.container?.name ?? ctx.status?.name;
  return name === undefined ? undefined : PROXIES[name];
}

/** The mesh's own knobs: how to hold the app until the proxy is ready, and how to run it as a native sidecar. */
export function meshKnobs(m: Mesh): MessageData {
  return m.mesh === 'Istio'
    ? {
        mesh: 'Istio',
        proxy: m.proxy,
        holdPath: 'metadata.annotations proxy.istio.io/config',
        holdChange: '\'{ "holdApplicationUntilProxyStarts": true }\' (or the mesh-wide defaultConfig)',
        nativePath: 'metadata.annotations sidecar.istio.io/nativeSidecar',
        nativeChange: '"true" (or ENABLE_NATIVE_SIDECARS on istiod; the default from Istio 1.27 on Kubernetes 1.29+)',
      }
    : {
        mesh: 'Linkerd',
        proxy: m.proxy,
        holdPath: 'metadata.annotations config.linkerd.io/proxy-await',
        holdChange: '"enabled"',
        nativePath: 'metadata.annotations config.beta.linkerd.io/proxy-enable-native-sidecar',
        nativeChange: '"true" (Kubernetes 1.29+)',
      };
}

/**
 * The proxy was Ready, and started before the run of the app that printed the line: the app did not connect before it
 * (a refusal after a restart is the dependency's, not the start race's).
 */
export function proxyUpBefore(ctx: ReadingContext, m: Mesh): boolean {
  const statuses = [...(ctx.pod?.status?.containerStatuses ?? []), ...(ctx.pod?.status?.initContainerStatuses ?? [])];
  const proxy = statuses.find((s) => s.name === m.proxy);
  const since = proxy?.state?.running?.startedAt;
  const run = ctx.status?.lastState?.terminated?.startedAt ?? ctx.status?.state?.running?.startedAt ?? ctx.status?.state?.terminated?.startedAt;
  return proxy?.ready === true && since !== undefined && run !== undefined && Date.parse(since) < Date.parse(run);
}

function meshFacts(ctx: ReadingContext): Evidence[] {
  const m = meshOf(ctx);
  if (!m) return [];
  const where = m.native ? `spec.initContainers[${m.proxy}]` : `spec.containers[${m.proxy}]`;
  return [specFact(ctx, where, `${m.mesh} proxy${m.native ? ' (native sidecar, restartPolicy: Always)' : ''}${m.held ? ', the app waits for it' : ''}`)];
}

// ---- an app that listens on loopback only ----

type Probe = NonNullable<Container['readinessProbe']>;

/** The kubelet's probes that connect to the pod IP (httpGet, tcpSocket, grpc), with the port each targets. */
function networkProbes(ctx: ReadingContext): { kind: string; port: string }[] {
  const c = ctx.container;
  if (!c) return [];
  const byName = (p: number | string | undefined): string | undefined =>
    typeof p === 'string' && !/^\d+$/.test(p) ? String(c.ports?.find((x) => x.name === p)?.containerPort ?? p) : p === undefined ? undefined : String(p);
  const out: { kind: string; port: string }[] = [];
  const each: [string, Probe | undefined][] = [
    ['readinessProbe', c.readinessProbe],
    ['livenessProbe', c.livenessProbe],
    ['startupProbe', c.startupProbe],
  ];
  for (const [kind, p] of each) {
    // An httpGet with its own host probes that host, not the pod IP; an exec probe runs inside the container.
    const port = (p?.httpGet && !p.httpGet.host ? byName(p.httpGet.port) : undefined) ?? byName(p?.tcpSocket?.port) ?? byName(p?.grpc?.port);
    if (port !== undefined) out.push({ kind, port });
  }
  return out;
}

/** The port a banner names, or the one a dev server's previous line printed (Vite's `Local:` before `Network:`). */
function listenPort(ctx: ReadingContext): string | undefined {
  if (ctx.groups.port) return ctx.groups.port;
  for (const l of [...ctx.around].reverse()) {
    const m = /Local:\s+https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\]):(\d{1,5})/i.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** Werkzeug 2.1+ prints its loopback URL even when it listens on all addresses; the line before says so. */
const ALL_ADDRESSES = /Running on all addresses|Running on https?:\/\/0\.0\.0\.0|Listening (?:on|at):? (?:https?|tcp):\/\/(?:0\.0\.0\.0|\[::\])/i;

/**
 * A loopback banner is a failure only when something outside the container must connect to that port: the container
 * is not Ready and a probe of the kubelet targets the port (a line read without the pod's state is read as written).
 */
function loopbackMatters(ctx: ReadingContext): boolean {
  if (ctx.around.some((l) => ALL_ADDRESSES.test(l))) return false;
  if (!ctx.status) return true;
  if (ctx.status.ready) return false;
  const port = listenPort(ctx);
  return networkProbes(ctx).some((p) => port === undefined || p.port === port);
}

/** Which server printed the banner, and its own setting for the listen address. */
function hostFlag(ctx: ReadingContext): MessageData {
  const l = ctx.line;
  const port = listenPort(ctx) ?? '<port>';
  if (/Uvicorn running/i.test(l)) return { server: 'Uvicorn', flag: 'uvicorn --host 0.0.0.0 (or env UVICORN_HOST=0.0.0.0)' };
  if (/Listening at: /i.test(l)) return { server: 'Gunicorn', flag: `gunicorn --bind 0.0.0.0:${port} (or the bind setting in its config)` };
  if (/^\s*\* Running on/i.test(l)) return { server: 'Flask (Werkzeug)', flag: 'flask run --host=0.0.0.0 (env FLASK_RUN_HOST), or app.run(host="0.0.0.0")' };
  if (/^\s*\*\s*Listening on/i.test(l)) return { server: 'Puma', flag: `rails server -b 0.0.0.0, or bind "tcp://0.0.0.0:${port}" in config/puma.rb` };
  if (/Angular Live Development Server/i.test(l)) return { server: 'the Angular dev server', flag: 'ng serve --host 0.0.0.0' };
  if (/use --host to expose/i.test(l)) return { server: 'the Vite dev server', flag: 'vite --host 0.0.0.0 (server.host in vite.config)' };
  return { server: 'the app', flag: "the app's listen-address setting (host, bind, listen): 0.0.0.0" };
}

function loopbackData(ctx: ReadingContext): MessageData {
  const port = listenPort(ctx);
  const host = ctx.groups.host?.replace(/^\[|\]$/g, '') ?? 'localhost';
  return data({ ...hostFlag(ctx), host, port: port ?? 'its port', address: port ? `${host}:${port}` : host });
}

export const MECHANISMS = mechanisms([
  {
    id: 'ephemeral-ports-exhausted',
    kind: 'resource',
    resource: 'local ports for outbound connections (net.ipv4.ip_local_port_range)',
    doc:
      'EADDRNOTAVAIL on an outbound connect: the kernel found no free local port for one more connection to that destination. Each connection ' +
      "to the same address and port needs its own local port from the pod's ip_local_port_range (about 28,000), and a closed one keeps it in " +
      'TIME_WAIT for a minute: an app that opens a new connection per request (keep-alive off, a new HTTP client each time, a pool too small ' +
      'for its concurrency) runs out under load. On a bind it means something else (bind-address).',
    variants: [
      {
        id: 'ipv6-source',
        // `dial tcp [::1]:6443: connect: cannot assign requested address`: the pod has no IPv6 address to connect from.
        when: (ctx) => (ctx.groups.host?.includes(':') ?? false) && endpointOf(ctx),
        summary: 'cannot connect to {{endpoint}}: the pod has no IPv6 address to connect from',
        explain:
          'The app connects to the IPv6 address {{endpoint}}, and the pod has no IPv6 address of that kind (IPv6 disabled on {{node}} or in the pod ' +
          'network), so the kernel has no source address to give the connection: a name such as localhost resolved to ::1 first.',
        knobs: [
          {
            place: 'app',
            path: "the app's address for the dependency",
            change: 'use the IPv4 address (127.0.0.1 instead of localhost/::1), or prefer IPv4 in the resolver',
          },
          { place: 'node', path: 'sysctl net.ipv6.conf.all.disable_ipv6 on {{node}}', change: 'or enable IPv6 on the node and in the CNI' },
        ],
      },
      {
        id: 'host-network',
        when: (ctx) => hostNetwork(ctx) && endpointOf(ctx),
        summary: 'no local port left on {{node}} for one more connection to {{endpoint}}',
        explain:
          "The pod uses the node's network (hostNetwork: true), so its outbound connections share {{node}}'s local port range with every process on the " +
          'node, and to {{endpoint}} none is free: connections opened per request and left in TIME_WAIT hold them.',
        knobs: [
          {
            place: 'app',
            path: "the app's HTTP client / connection pool",
            change:
              'reuse connections: one long-lived client with keep-alive, idle connections per host at least its concurrency ' +
              '(Go MaxIdleConnsPerHost, requests.Session)',
          },
          {
            place: 'node',
            path: 'sysctl net.ipv4.ip_local_port_range on {{node}}',
            change: 'widen the range (e.g. 1024 65535), clear of ports that services listen on',
          },
          { place: 'node', path: 'sysctl net.ipv4.tcp_tw_reuse on {{node}}', change: 'or let outbound connections reuse TIME_WAIT ports (1)' },
        ],
        facts: (ctx) => [specFact(ctx, 'spec.hostNetwork', 'true')],
      },
      {
        id: 'pod',
        when: (ctx) => endpointOf(ctx),
        summary: 'no local port left in the pod for one more connection to {{endpoint}}',
        explain:
          "The app opens connections to {{endpoint}} faster than it releases them: each needs a local port from the pod's range (32768-60999 by default), " +
          'and each one it closes holds its port in TIME_WAIT for 60 seconds, so a new connection per request (no keep-alive, a client created per call, ' +
          'a pool smaller than the concurrency) exhausts them and connect fails with EADDRNOTAVAIL.',
        knobs: [
          {
            place: 'app',
            path: "the app's HTTP client / connection pool",
            change:
              'reuse connections: one long-lived client with keep-alive, idle connections per host at least its concurrency ' +
              '(Go MaxIdleConnsPerHost, requests.Session)',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.ip_local_port_range',
            change: 'widen the range, e.g. "1024 65535" (a safe sysctl: allowed in any pod)',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.tcp_tw_reuse',
            change:
              'or set 1 to reuse TIME_WAIT ports for outbound connections ' +
              '(an unsafe sysctl: the kubelet of {{node}} must allow it with --allowed-unsafe-sysctls)',
          },
        ],
      },
    ],
  },
  {
    id: 'conntrack-full',
    kind: 'resource',
    resource: "entries in the node's connection-tracking table (net.netfilter.nf_conntrack_max)",
    doc:
      'The kernel of the node tracks every connection that passes its netfilter rules (kube-proxy Service NAT, masquerading, NetworkPolicy) in one ' +
      'table shared by all pods; when it is full, it drops the first packet of every new connection: connects time out, probes fail, DNS over UDP ' +
      'is lost, on every pod of the node at once.',
    variants: [
      {
        id: 'kube-proxy-sized',
        when: (ctx) => {
          const cpu = ctx.node?.status?.capacity?.cpu;
          const cores = cpu === undefined ? undefined : /m$/.test(cpu) ? Math.ceil(Number.parseInt(cpu, 10) / 1000) : Number.parseInt(cpu, 10);
          if (!cores || Number.isNaN(cores)) return false;
          return { cores, kubeProxyMax: Math.max(32768 * cores, 131072) };
        },
        summary: "{{node}}'s connection-tracking table is full: it drops new connections",
        explain:
          "{{node}}'s kernel tracks every connection through its NAT and filter rules in one table, and it is full, so new connections of every pod " +
          'on the node lose their first packet. kube-proxy sizes that table when it starts: by default 32768 entries per core and at least 131072, so ' +
          'on {{cores}} cores about {{kubeProxyMax}}. Many short connections (no keep-alive, DNS over UDP) and long tracking timeouts fill it.',
        knobs: [
          {
            place: 'cluster',
            path: 'kube-proxy --conntrack-max-per-core (KubeProxyConfiguration conntrack.maxPerCore)',
            change: 'raise it (0 leaves the node sysctl alone), then restart kube-proxy on {{node}}',
          },
          {
            place: 'node',
            path: 'sysctl net.netfilter.nf_conntrack_max on {{node}}',
            change: 'or raise the limit on the node (memory: about 300 bytes an entry)',
          },
          { place: 'app', path: "the apps' connection reuse", change: 'and reuse connections (keep-alive, pools) so fewer are tracked' },
        ],
      },
      {
        id: 'table',
        summary: "{{node}}'s connection-tracking table is full: it drops new connections",
        explain:
          "{{node}}'s kernel tracks every connection through its NAT and filter rules in one table shared by all pods, and it is full, so every new " +
          'connection loses its first packet until entries expire. kube-proxy sizes the table at start (32768 entries per core, at least 131072, by default).',
        knobs: [
          {
            place: 'node',
            path: 'sysctl net.netfilter.nf_conntrack_max on {{node}}',
            change: 'raise the limit (compare with net.netfilter.nf_conntrack_count)',
          },
          {
            place: 'cluster',
            path: 'kube-proxy --conntrack-max-per-core (KubeProxyConfiguration conntrack.maxPerCore)',
            change: 'or raise what kube-proxy sets it to, so a restart does not lower it again',
          },
          { place: 'app', path: "the apps' connection reuse", change: 'and reuse connections (keep-alive, pools) so fewer are tracked' },
        ],
      },
    ],
  },
  {
    id: 'mesh-sidecar',
    kind: 'dependency',
    resource: "a working path through the service mesh's proxy",
    doc:
      "The mesh's proxy (Envoy in Istio) answers for a peer it could not reach: it found no connection to the upstream (down, not listening on its " +
      'pod IP, a port protocol it mistook), the two ends disagree on mutual TLS (one meshed and STRICT, the other plain), its circuit breaker is ' +
      'open, or the proxy itself has no configuration from the control plane.',
    variants: [
      {
        id: 'config-rejected',
        // pilot-agent counts what Envoy accepted: a rejected update is configuration istiod sent and Envoy refused.
        when: (ctx) => {
          const m = /(cds|lds) updates: \d+ successful, ([1-9]\d*) rejected/i.exec(ctx.line);
          return m ? { rejected: `${m[2]!} ${m[1]!.toUpperCase()} update${m[2] === '1' ? '' : 's'}` } : false;
        },
        summary: 'the mesh proxy rejects the configuration istiod sends it ({{rejected}} rejected)',
        explain:
          'istiod reaches the proxy, but Envoy refuses what it sends ({{rejected}} rejected), so the proxy never becomes ready and the pod gets no ' +
          'traffic: a VirtualService, DestinationRule or EnvoyFilter that applies to this pod produces configuration Envoy cannot load.',
        knobs: [
          { place: 'cluster', path: 'istioctl analyze -n {{namespace}} and the istiod logs', change: 'find the resource whose configuration is rejected' },
          { place: 'cluster', path: 'the EnvoyFilters, VirtualServices and DestinationRules that select this pod', change: 'fix or remove the one at fault' },
        ],
        facts: meshFacts,
      },
      {
        id: 'control-plane',
        when: (ctx) => /gRPC config stream closed|config not received from/i.test(ctx.line),
        summary: 'the mesh proxy cannot reach its control plane (istiod)',
        explain:
          'The proxy keeps losing its configuration stream (xDS) to istiod, the Istio control plane: without it the proxy has no listeners or routes ' +
          "(or stale ones), so the app's traffic through it fails. istiod is down, or the pod may not reach it (a NetworkPolicy, a firewall).",
        knobs: [
          { place: 'cluster', path: 'the istiod pods in istio-system', change: 'check they are Ready, and their logs' },
          { place: 'cluster', path: 'NetworkPolicies of {{namespace}} with policyTypes Egress', change: 'allow TCP 15012 to istiod' },
        ],
        facts: meshFacts,
      },
      {
        id: 'mtls-mismatch',
        when: (ctx) => /TLS[_ ]error|WRONG_VERSION_NUMBER|transport failure reason: [^\n]*(?:SSL|TLS)/i.test(ctx.line),
        summary: 'the mesh proxy and its peer disagree on mutual TLS',
        explain:
          "The proxy's TLS handshake with the upstream failed: one end speaks Istio mutual TLS and the other plain text (a peer without a sidecar " +
          'behind a DestinationRule that asks ISTIO_MUTUAL, or a STRICT PeerAuthentication facing a client outside the mesh), or a DestinationRule ' +
          'sets its own TLS for a host the mesh already encrypts.',
        knobs: [
          {
            place: 'cluster',
            path: 'PeerAuthentication mtls.mode (the namespace of the server, or istio-system)',
            change: 'PERMISSIVE while clients outside the mesh remain, STRICT once all are meshed',
          },
          {
            place: 'cluster',
            path: 'DestinationRule trafficPolicy.tls.mode for that host',
            change: 'ISTIO_MUTUAL only toward meshed servers; DISABLE (or none) toward a server without a sidecar',
          },
          { place: 'cluster', path: 'the namespace label istio-injection (or istio.io/rev)', change: "or inject the peer's pods so both ends are in the mesh" },
        ],
        facts: meshFacts,
      },
      {
        id: 'overflow',
        when: (ctx) => /reset reason: overflow/i.test(ctx.line),
        summary: "the mesh proxy's circuit breaker refuses the request (overflow)",
        explain:
          "The proxy rejected the request itself: the upstream's connection pool limits (pending requests, connections) are full, so the circuit " +
          'breaker sheds load instead of queueing: the upstream is slow, or the limits are too low for the traffic.',
        knobs: [
          {
            place: 'cluster',
            path: 'DestinationRule trafficPolicy.connectionPool (http.http1MaxPendingRequests, http.http2MaxRequests, tcp.maxConnections)',
            change: 'raise the limits to fit the traffic, or remove them',
          },
          { place: 'app', path: 'the upstream service', change: 'and find why it is slow (its latency fills the pool)' },
        ],
        facts: meshFacts,
      },
      {
        id: 'inbound-refused',
        // An inbound cluster (`inbound|8080||`) is the proxy delivering to its own app: 111 is ECONNREFUSED from the app's port.
        when: (ctx) => {
          const port = /\binbound\|(\d{1,5})\|/.exec(ctx.line)?.[1];
          return port !== undefined && /connect_error:_111|connection_failure/i.test(ctx.line) && { appPort: port };
        },
        summary: 'the mesh proxy cannot deliver to the app: nothing listens on port {{appPort}} of the pod IP',
        explain:
          'The proxy received a request for this pod and connected to the app on port {{appPort}} of the pod IP, which refused it: the app listens on ' +
          'another port, has not started yet, or listens on 127.0.0.1 only (since Istio 1.10 the sidecar delivers to the pod IP, not to localhost).',
        knobs: [
          { place: 'app', path: "the app's listen address and port", change: 'listen on 0.0.0.0 (all addresses), on port {{appPort}}' },
          {
            place: 'cluster',
            path: "the Service's targetPort / {{containerPath}}.ports",
            change: 'or point them at the port the app really listens on',
          },
        ],
        facts: meshFacts,
      },
      {
        id: 'upstream',
        when: (ctx) => ({ reason: (ctx.groups.reason ?? 'connection failure').replace(/_/g, ' ').replace(/,/g, ', ') }),
        summary: 'the mesh proxy could not reach the upstream ({{reason}})',
        explain:
          "The app's request went through the mesh proxy, which could not get an answer from the upstream ({{reason}}): its pods are down or restarting, " +
          'the upstream app listens on 127.0.0.1 only (the sidecar delivers to the pod IP since Istio 1.10), the Service port names no protocol so the ' +
          'proxy guesses wrong, or the upstream closes idle connections before the proxy does.',
        knobs: [
          {
            place: 'cluster',
            path: "the upstream Service's spec.ports[].appProtocol (or a name prefixed http-, grpc-, tcp-)",
            change: 'declare the protocol the port really speaks',
          },
          { place: 'app', path: "the upstream app's listen address", change: 'listen on 0.0.0.0, not 127.0.0.1' },
          { place: 'cluster', path: 'the pods behind the upstream Service', change: 'check they are Ready and not restarting (kubectl get endpointslices)' },
        ],
        facts: meshFacts,
      },
    ],
  },
  {
    id: 'listen-loopback',
    kind: 'setting',
    resource: "a listen address reachable from the pod's IP",
    doc:
      "The app listens on 127.0.0.1 (or localhost) only, the loopback of the pod's own network namespace: the kubelet's probes, Services and other " +
      'pods connect to the pod IP, where nothing listens, so they are refused. A development server defaults to it; in a container it must listen ' +
      'on 0.0.0.0. Read only while the container is not Ready and a probe targets that port: the same banner on a Ready pod is harmless.',
    variants: [
      {
        id: 'probe',
        when: (ctx) => {
          const port = listenPort(ctx);
          const probe = networkProbes(ctx).find((p) => port === undefined || p.port === port);
          const consequence =
            probe?.kind === 'livenessProbe'
              ? 'so the kubelet kills and restarts it'
              : probe?.kind === 'startupProbe'
                ? 'so it is restarted before it ever counts as started'
                : 'so the container never becomes Ready and its Services send it nothing';
          return probe !== undefined && { ...loopbackData(ctx), probe: probe.kind, probePort: probe.port, consequence };
        },
        summary: '{{server}} listens on {{address}} only: the {{probe}} to the pod IP is refused',
        explain:
          "{{server}} listens on {{address}}, the pod's loopback, and the kubelet's {{probe}} connects to port {{probePort}} on the pod IP, where nothing " +
          'listens: every probe is refused, {{consequence}}. Services and other pods are refused too.',
        knobs: [
          { place: 'app', path: '{{containerPath}}.args / env: {{flag}}', change: 'listen on all addresses' },
          {
            place: 'pod',
            path: '{{containerPath}}.{{probe}}',
            change: 'keep it on the pod IP: httpGet.host 127.0.0.1 would probe the node, not the pod',
          },
        ],
        facts: (ctx, d) => [specFact(ctx, String(d.probe), `port ${String(d.probePort)}`)],
      },
      {
        id: 'loopback',
        when: (ctx) => loopbackData(ctx),
        summary: '{{server}} listens on {{address}} only: nothing outside the container can connect',
        explain:
          "{{server}} listens on {{address}}, the pod's loopback: Services, other pods and the kubelet's probes connect to the pod IP, " +
          'where nothing listens, ' +
          'so they are refused while the app looks healthy from inside.',
        knobs: [{ place: 'app', path: '{{containerPath}}.args / env: {{flag}}', change: 'listen on all addresses' }],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'errno.eaddrnotavail-connect',
    family: 'errno',
    mechanism: 'ephemeral-ports-exhausted',
    needles: [...errnoNeedles('EADDRNOTAVAIL'), 'cannot assign requested address'],
    patterns: [
      re(`dial (?:tcp|udp)\\d? ${ENDPOINT}: connect: `, EADDRNOTAVAIL),
      re(`connect EADDRNOTAVAIL ${ENDPOINT}`),
      re(`host='?(?<host>[\\w.-]+)'?, port=(?<port>\\d+)\\)[^\\n]*Failed to establish a new connection: \\[Errno 99\\]`),
      re('Failed to establish a new connection: \\[Errno 99\\] Cannot assign requested address'),
      re('java\\.net\\.NoRouteToHostException: Cannot assign requested address'),
    ],
    source:
      'EADDRNOTAVAIL texts (upstream.json) from connect(2); Go net OpError ("dial tcp %s: connect: %v"), Node net ("connect EADDRNOTAVAIL %s - Local (%s)"), ' +
      'urllib3 NewConnectionError, OpenJDK PlainSocketImpl (NoRouteToHostException for EADDRNOTAVAIL). Lines (GitHub): PingCAP-QE/Naglfar#29, ' +
      'kubernetes/kubernetes#6788, kubernetes/kubernetes#105246 (IPv6 ::1), nodejs/help#1242; urllib3 and Java lines as quoted in public repositories ' +
      '(find_string); near miss redpanda-data/kminion#65 (bind)',
    examples: [
      'error during connect: Get http://172.16.4.92:2375/containers/cluster1.pd-2/json: dial tcp 172.16.4.92:2375: connect: cannot assign requested address',
      'dial tcp 10.26.2.1:3306: connect: cannot assign requested address',
      'Get https://[::1]:6443/api/v1/namespaces/default/resourcequotas: dial tcp [::1]:6443: connect: cannot assign requested address',
      'tunneling socket could not be established, cause=connect EADDRNOTAVAIL 35.224.36.62:8888 - Local (10.128.0.3:0)',
      "RetryError: HTTPConnectionPool(host='wbgrp-svc096.us.archive.org', port=8070): Max retries exceeded with url: /api/processCitationList " +
        "(Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f54b0a3bd00>: Failed to establish a new connection: " +
        "[Errno 99] Cannot assign requested address'))",
      'java.net.NoRouteToHostException: Cannot assign requested address (Address not available)',
    ],
    nearMisses: ['listen tcp 192.168.6.143:8080: bind: cannot assign requested address', 'bind: Cannot assign requested address'],
  },
  {
    id: 'kernel.conntrack-full',
    family: 'runtime',
    mechanism: 'conntrack-full',
    needles: ['nf_conntrack', 'ip_conntrack'],
    patterns: [re('(?:nf|ip)_conntrack: (?:nf_conntrack: )?table full, dropping packet')],
    source:
      'Linux net/netfilter/nf_conntrack_core.c (net_warn_ratelimited "nf_conntrack: table full, dropping packet"; older kernels print the module ' +
      'prefix twice). Lines (GitHub): kubernetes/kubernetes#71261, kubernetes/kubernetes#18604, kubernetes-retired/kube-aws#476, canonical/hotsos#101; ' +
      'near miss kubernetes/kubernetes#71261 (kube-proxy conntrack.go sizing the table)',
    examples: [
      '[Tue Nov 20 22:30:22 2018] nf_conntrack: table full, dropping packet',
      '[1454500.910215] nf_conntrack: table full, dropping packet',
      '[2833841.216211] nf_conntrack: nf_conntrack: table full, dropping packet',
      'kernel: [1694413.644132] nf_conntrack: nf_conntrack: table full, dropping packet',
    ],
    nearMisses: ['I1120 15:18:19.757786   26448 conntrack.go:52] Setting nf_conntrack_max to 786432'],
  },
  {
    id: 'server.envoy-upstream-reset',
    family: 'server',
    mechanism: 'mesh-sidecar',
    needles: ['upstream connect error or disconnect/reset before headers'],
    patterns: [re('upstream connect error or disconnect/reset before headers\\.(?: retried and the latest)? reset reason: (?<reason>[a-z]+(?: [a-z]+)*)')],
    source:
      'Envoy router (local reply "upstream connect error or disconnect/reset before headers. reset reason: %s", with the transport failure reason). ' +
      'Lines (GitHub): istio/istio#22482, istio/istio#45910, istio/istio#49909, istio/istio#35334, istio/istio#15630 (the xDS stream), ' +
      'envoyproxy/envoy#15584 (TLS), servicemesher/istio-handbook#288 (overflow)',
    examples: [
      'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
      '{"data":"upstream connect error or disconnect/reset before headers. reset reason: connection termination}',
      'upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: TLS error: ' +
        '268435703:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER',
      'upstream connect error or disconnect/reset before headers. reset reason: overflow.',
      '[2019-07-18 15:12:04.779][15][warning][config] [bazel-out/k8-opt/bin/external/envoy/source/common/config/_virtual_includes/grpc_stream_lib/' +
        'common/config/grpc_stream.h:86] gRPC config stream closed: 14, upstream connect error or disconnect/reset before headers. ' +
        'reset reason: connection failure',
    ],
  },
  {
    id: 'server.envoy-access-reset',
    family: 'server',
    mechanism: 'mesh-sidecar',
    needles: ['upstream_reset_before_response_started'],
    patterns: [re('" 5\\d\\d [A-Z,]+ upstream_reset_before_response_started\\{(?<reason>[\\w:,.]+)\\}')],
    source:
      "Envoy access log (Istio's default text format: response code, response flags such as UF, response code details " +
      '"upstream_reset_before_response_started{...}"); the lines as quoted in public repositories (find_string), a successful request\'s ' +
      '"200 - via_upstream" line is not read',
    examples: [
      '[2023-01-01T14:47:26.285Z] "GET /hello HTTP/1.1" 503 UF upstream_reset_before_response_started{connection_failure,delayed_connect_error:_111} ' +
        '- "delayed_connect_error:_111" 0 145 0 - "-" "curl/7.87.0-DEV" "35e82df8-1262-9404-8ad2-303b8613955c" "helloworld:5000" "10.1.2.31:5000" ' +
        'inbound|5000|| - 10.1.2.31:5000 172.16.9.8:5067 - default',
      '[...] "POST /notify HTTP/1.1" 503 UF upstream_reset_before_response_started{connection_termination} - "-" 0 95 3 - "-" "curl/8.4.0" "..." ' +
        '"notification-service" "10.244.0.12:8084" outbound|80||notification-service.mtlsfail-demo.svc.cluster.local ...',
    ],
  },
  {
    id: 'server.istio-proxy-not-ready',
    family: 'server',
    mechanism: 'mesh-sidecar',
    needles: ['envoy proxy is'],
    patterns: [re('Envoy proxy is NOT ready: config not received from (?:Pilot|XDS server|istiod)')],
    source:
      'Istio pilot-agent readiness ("Envoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: %d successful, %d ' +
      'rejected; lds updates: ..."). Lines (GitHub): istio/istio#13637, istio/istio#13939, istio/istio#27939 (rejected), istio/istio#32825; near miss ' +
      'istio/istio#14205 (ready at last)',
    examples: [
      '2019-04-26T09:28:04.642662Z info Envoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 0 successful, ' +
        '0 rejected; lds updates: 0 successful, 0 rejected',
      'Envoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 2 successful, 0 rejected; lds updates: ' +
        '0 successful, 2 rejected',
    ],
    nearMisses: ['2019-09-28T15:47:21.548349Z\tinfo\tEnvoy proxy is ready'],
  },
  {
    id: 'banner.listen-loopback',
    family: 'banner',
    mechanism: 'listen-loopback',
    needles: ['uvicorn running on', 'running on http', 'listening at:', 'listening on', 'use --host to expose', 'development server is listening on'],
    patterns: [
      re('Uvicorn running on https?://(?<host>127\\.0\\.0\\.1|localhost|\\[::1\\]):(?<port>\\d{1,5})'),
      re('Listening at: https?://(?<host>127\\.0\\.0\\.1|localhost|\\[::1\\]):(?<port>\\d{1,5}) \\(\\d+\\)'),
      re('^\\s*\\* Running on https?://(?<host>127\\.0\\.0\\.1|localhost):(?<port>\\d{1,5})'),
      re('^\\s*\\*\\s*Listening on (?:tcp|http|https|ssl)://(?<host>127\\.0\\.0\\.1|localhost):(?<port>\\d{1,5})'),
      re('Listening on https?://(?<host>127\\.0\\.0\\.1):(?<port>\\d{1,5})\\s*\\**\\s*$'),
      re('Angular Live Development Server is listening on (?<host>localhost|127\\.0\\.0\\.1):(?<port>\\d{1,5})'),
      re('Network: use --host to expose'),
    ],
    // Only while the container is not Ready and a kubelet probe targets that port; never a reason on its own.
    applies: loopbackMatters,
    source:
      'Server banners: Uvicorn ("Uvicorn running on %s://%s:%d"), Gunicorn ("Listening at: %s (%s)"), Werkzeug (" * Running on %s"; 2.1+ prints ' +
      '"Running on all addresses" before it when bound to 0.0.0.0), Puma ("* Listening on %s"), Angular CLI dev server, Vite ("Network: use --host ' +
      'to expose"). Lines (GitHub): krishnaik06/Dockers#4, alexferl/falcon-boilerplate#2, reacherhq/check-if-email-exists#186, rwlove/home-ops#11888 ' +
      '(the fix, and its 0.0.0.0 near miss), telepresenceio/telepresence#77; the Uvicorn, Gunicorn, Puma, Angular and Vite lines as quoted in public ' +
      'repositories (find_string)',
    examples: [
      'INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)',
      ' * Running on http://127.0.0.1:5000/ (Press CTRL+C to quit)',
      '[2019-03-19 22:19:31 +0800] [59137] [INFO] Listening at: http://127.0.0.1:8000 (59137)',
      '* Listening on tcp://127.0.0.1:3000',
      'Listening on http://127.0.0.1:3000',
      '** Angular Live Development Server is listening on localhost:4200, open your browser on http://localhost:4200/ **',
      '  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose',
    ],
    nearMisses: [
      'INFO:     Uvicorn running on http://0.0.0.0:42110',
      ' * Running on all addresses (0.0.0.0)\n * Running on http://127.0.0.1:5000\n * Running on http://172.18.0.44:5000',
      '[2018-10-19 14:44:11 +0000] [1] [INFO] Listening at: http://0.0.0.0:8000 (1)',
      '* Listening on http://0.0.0.0:3000',
    ],
  },
]);
