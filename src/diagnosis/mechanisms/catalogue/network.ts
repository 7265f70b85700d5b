// Network mechanisms: binding (privileged ports, addresses, ports in use, IPv6), names that do not
// resolve, dependencies that refuse or do not answer, and TLS peers the container does not trust.

import type { DependencyFact, Evidence } from '../../types.js';
import { capabilities, drops, hostNetwork, runAsNonRoot } from '../context.js';
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';
import { fromMeshProxy, meshKnobs, meshOf, proxyUpBefore } from './netpath.js';

/** The collector's read of the Service the line's host names (snapshot.dependencies), if any. */
function dependencyOf(ctx: ReadingContext): DependencyFact | undefined {
  const host = ctx.groups.host?.toLowerCase();
  return host ? ctx.snapshot?.dependencies?.find((d) => d.host.toLowerCase() === host) : undefined;
}

function dependencyEvidence(d: DependencyFact): Evidence[] {
  const where = `${d.namespace}/${d.name}`;
  if (!d.service) return [{ source: `Service ${where}`, text: 'does not exist' }];
  const ports = d.service.ports
    .map((p) => `${p.port}${p.targetPort !== undefined && String(p.targetPort) !== String(p.port) ? `→${p.targetPort}` : ''}`)
    .join(', ');
  const e = d.endpoints;
  return [
    {
      source: `Service ${where}`,
      text: `ports ${ports || 'none'}${d.service.headless ? ' (headless)' : ''}; endpoints: ${e ? `${e.ready} ready, ${e.notReady} not ready` : 'no Endpoints object'}`,
    },
  ];
}

/** The Service exists but has no ready address: its pods are down or fail readiness. */
function withoutEndpoints(ctx: ReadingContext) {
  const d = dependencyOf(ctx);
  if (!d?.service || (d.endpoints?.ready ?? 0) > 0) return false;
  return data({ ...hostPort(ctx), service: `${d.namespace}/${d.name}`, notReady: d.endpoints?.notReady ?? 0 });
}

const EACCES = errnoSource('EACCES');
const EADDRINUSE = errnoSource('EADDRINUSE');
const EADDRNOTAVAIL = errnoSource('EADDRNOTAVAIL');
const EAFNOSUPPORT = errnoSource('EAFNOSUPPORT');
const ECONNREFUSED = errnoSource('ECONNREFUSED');
const ETIMEDOUT = errnoSource('ETIMEDOUT');
const EHOSTUNREACH = errnoSource('EHOSTUNREACH');
const ENETUNREACH = errnoSource('ENETUNREACH');
const ENOENT = errnoSource('ENOENT');

/** `host:port` or `[v6]:port` in a line, after the word that introduces it. */
const ENDPOINT = String.raw`(?<host>\[[0-9a-f:.]+\]|[\w.-]+):(?<port>\d{1,5})`;

function hostPort(ctx: ReadingContext) {
  const host = ctx.groups.host?.replace(/^\[|\]$/g, '');
  const port = ctx.groups.port;
  return data({ host, port, endpoint: host === undefined ? undefined : port === undefined ? host : `${host}:${port}` });
}

/** `port 80`, or a phrase when the line names no port. */
function portText(ctx: ReadingContext): string {
  return ctx.groups.port === undefined ? 'a privileged port' : `port ${ctx.groups.port}`;
}

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|localhost|::1|0:0:0:0:0:0:0:1)$/i;

/** The DNS server a lookup went to (`on 10.96.0.10:53`), else the pod's nameserver policy. */
function dnsServer(ctx: ReadingContext): string | undefined {
  return / on (\[?[\d.:a-f]+\]?):53\b|->(\[?[\d.:a-f]+\]?):53\b/i.exec(ctx.line)?.slice(1).find(Boolean);
}

export const MECHANISMS = mechanisms([
  {
    id: 'privileged-port',
    kind: 'permission',
    resource: 'binding a port below 1024 (net.ipv4.ip_unprivileged_port_start)',
    doc: 'A non-root process cannot bind ports below 1024 unless the pod lowers net.ipv4.ip_unprivileged_port_start (a safe, namespaced sysctl) or the binary carries the capability.',
    variants: [
      {
        id: 'host-network',
        when: (ctx) => hostNetwork(ctx) && { bindWhat: portText(ctx), port: ctx.groups.port ?? 'the port' },
        summary: 'cannot bind {{bindWhat}} on the host network as a non-root user',
        explain:
          "The process binds {{bindWhat}}, below 1024, as a non-root user, in the node's own network namespace (hostNetwork: true): the pod cannot lower the " +
          "node's privileged-port boundary, and capabilities added to the container only reach a root process.",
        knobs: [
          { place: 'pod', path: "{{containerPath}}.ports + the app's listen port", change: 'listen on a port from 1024 up' },
          { place: 'image', path: 'the binary', change: 'or give it the capability itself (setcap cap_net_bind_service=+ep) and add NET_BIND_SERVICE' },
        ],
      },
      {
        id: 'root-without-capability',
        when: (ctx) => !runAsNonRoot(ctx) && drops(ctx, 'NET_BIND_SERVICE') && { bindWhat: portText(ctx), port: ctx.groups.port ?? 'the privileged port' },
        summary: 'cannot bind {{bindWhat}}: the container drops NET_BIND_SERVICE',
        explain:
          'The process binds {{bindWhat}}, below 1024, and the container drops NET_BIND_SERVICE (capabilities drop: [ALL]), the capability that lets a root process ' +
          'bind privileged ports.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add NET_BIND_SERVICE, the one capability Pod Security restricted lets a pod add, or',
          },
          { place: 'app', path: "the app's listen port + the Service's targetPort", change: 'listen on 8080 and let the Service map {{bindWhat}} to it' },
        ],
        facts: (ctx) => [specFact(ctx, 'securityContext.capabilities.drop', capabilities(ctx).drop.join(', '))],
      },
      {
        id: 'non-root',
        when: (ctx) =>
          data({
            bindWhat: portText(ctx),
            port: ctx.groups.port ?? 'the privileged port',
            who: runAsNonRoot(ctx) ? 'runs as a non-root user' : 'runs as a user without CAP_NET_BIND_SERVICE',
          }),
        summary: 'cannot bind {{bindWhat}} without privileges',
        explain:
          'The process binds {{bindWhat}}, below 1024, and {{who}}: Linux reserves ports under net.ipv4.ip_unprivileged_port_start (1024) for privileged processes. ' +
          'Adding NET_BIND_SERVICE to the container does not help a non-root process, which never gets the capability in its effective set. Docker lowers ' +
          'that boundary to 0 in its containers, so an image that binds {{bindWhat}} as non-root under Docker can fail under Kubernetes.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.ip_unprivileged_port_start',
            change: 'set it to 0 (a safe sysctl since Kubernetes 1.22), or',
          },
          { place: 'app', path: "the app's listen port + the Service's targetPort", change: 'listen on 8080 and let the Service map {{bindWhat}} to it' },
        ],
      },
    ],
  },
  {
    id: 'bind-address',
    kind: 'setting',
    resource: 'an address the pod owns',
    doc: "EADDRNOTAVAIL: the app binds an IP address that is not one of the pod's (a host name that resolves elsewhere, a Service IP, the node's IP).",
    variants: [
      {
        id: 'address',
        when: (ctx) => ctx.groups.host !== undefined && hostPort(ctx),
        summary: "binds {{host}}, an address that is not the pod's",
        explain:
          "The app binds {{host}}:{{port}}, an address none of the pod's interfaces has (a name that resolves to another IP, a Service or node IP), so bind fails with EADDRNOTAVAIL.",
        knobs: [
          { place: 'app', path: "the app's listen address", change: 'listen on 0.0.0.0 (or [::]), or on the pod IP from env fieldRef status.podIP' },
          { place: 'pod', path: 'spec.hostNetwork', change: "only if the app must bind the node's own address (it then shares the node's ports)" },
        ],
      },
      {
        id: 'unnamed',
        summary: "binds an address that is not the pod's",
        explain:
          "The app binds an address none of the pod's interfaces has (a host or public IP from its configuration, a Service or node IP), so bind fails with EADDRNOTAVAIL.",
        knobs: [
          {
            place: 'app',
            path: "the app's listen or public address setting",
            change: 'listen on 0.0.0.0 (or [::]), or on the pod IP from env fieldRef status.podIP',
          },
          { place: 'pod', path: 'spec.hostNetwork', change: "only if the app must bind the node's own address (it then shares the node's ports)" },
        ],
      },
    ],
  },
  {
    id: 'port-in-use',
    kind: 'resource',
    resource: 'a free port',
    doc: 'EADDRINUSE: another process holds the port: another container of the pod (they share one network namespace) or, with hostNetwork, anything on the node.',
    variants: [
      {
        id: 'host-network',
        when: (ctx) => hostNetwork(ctx) && hostPort(ctx),
        summary: 'port {{port}} is already taken on {{node}}',
        explain:
          "The pod uses the node's network (hostNetwork: true), so port {{port}} is shared with every process on {{node}}, and one of them already holds it.",
        knobs: [
          { place: 'node', path: 'ss -ltnp on {{node}}', change: 'find the holder of port {{port}}' },
          { place: 'pod', path: 'spec.hostNetwork', change: 'or give the pod its own network namespace' },
        ],
        facts: (ctx) => [specFact(ctx, 'spec.hostNetwork', 'true')],
      },
      {
        id: 'pod',
        when: (ctx) => hostPort(ctx),
        summary: 'port {{port}} is already taken inside the pod',
        explain:
          'All containers of a pod share one network namespace: another container of the pod (or a second process of this one) already listens on port {{port}}.',
        knobs: [{ place: 'pod', path: "spec.containers[].ports and the apps' listen ports", change: 'give each container its own port' }],
      },
    ],
  },
  {
    id: 'ipv6-disabled',
    kind: 'setting',
    resource: 'IPv6 in the pod',
    doc: 'EAFNOSUPPORT: the app opens an IPv6 socket (listen [::]) and IPv6 is disabled on the node or in the pod.',
    variants: [
      {
        id: 'ipv6',
        summary: 'listens on IPv6, which is disabled here',
        explain:
          'The app opens an IPv6 socket (e.g. listen [::]:80), and IPv6 is disabled on {{node}} (ipv6.disable=1 or disable_ipv6), so the kernel refuses the address family.',
        knobs: [
          { place: 'app', path: "the app's listen directives", change: 'listen on IPv4 only (nginx: remove listen [::]:80)' },
          { place: 'node', path: 'the kernel command line / sysctl net.ipv6.conf.all.disable_ipv6 on {{node}}', change: 'or enable IPv6 on the node' },
        ],
      },
    ],
  },
  {
    id: 'dns-resolution',
    kind: 'dependency',
    resource: 'a name that resolves',
    doc: "A host name does not resolve: it does not exist where the resolver looks (a short name is searched in the pod's own namespace only), the DNS server does not answer (CoreDNS down, a NetworkPolicy without DNS egress), or the pod does not use cluster DNS (hostNetwork without ClusterFirstWithHostNet).",
    variants: [
      {
        id: 'host-network',
        when: (ctx) => hostNetwork(ctx) && (ctx.pod?.spec?.dnsPolicy ?? 'ClusterFirst') === 'ClusterFirst' && data({ host: ctx.groups.host }),
        summary: "{{host}} does not resolve: the pod uses the node's resolver",
        explain:
          "The pod runs with hostNetwork: true and dnsPolicy ClusterFirst, which for host-network pods falls back to the node's resolver, so cluster names such as {{host}} do not resolve.",
        knobs: [{ place: 'pod', path: 'spec.dnsPolicy', change: 'set ClusterFirstWithHostNet' }],
        facts: (ctx) => [specFact(ctx, 'spec.hostNetwork', 'true'), specFact(ctx, 'spec.dnsPolicy', ctx.pod?.spec?.dnsPolicy ?? 'ClusterFirst (default)')],
      },
      {
        id: 'no-answer',
        when: (ctx) => {
          const timeout =
            /i\/o timeout|timed out|EAI_AGAIN|Temporary failure in name resolution|server misbehaving|Try again|no servers could be reached/i.test(ctx.line);
          return timeout && data({ host: ctx.groups.host, server: dnsServer(ctx) ?? 'the cluster DNS' });
        },
        summary: 'DNS lookups get no answer from {{server}}',
        explain:
          'The lookup of {{host}} got no answer from {{server}}: the cluster DNS is down or overloaded, or the pod may not reach it (a NetworkPolicy that selects the pod ' +
          'with egress rules but none for port 53).',
        knobs: [
          {
            place: 'cluster',
            path: 'NetworkPolicies of {{namespace}} with policyTypes Egress',
            change: 'allow UDP and TCP 53 to the kube-dns pods in kube-system',
          },
          { place: 'cluster', path: 'the CoreDNS pods in kube-system', change: 'check they are Ready and not restarting' },
        ],
      },
      {
        id: 'no-service',
        when: (ctx) => {
          const d = dependencyOf(ctx);
          return d?.service === null && data({ host: ctx.groups.host, service: d.name, serviceNamespace: d.namespace });
        },
        summary: '{{host}} does not resolve: there is no Service {{service}} in namespace {{serviceNamespace}}',
        explain:
          'The app looks up {{host}}, which names Service "{{service}}" in namespace {{serviceNamespace}}, and no Service of that name exists there ' +
          "(a short name is searched in the pod's own namespace, {{namespace}}, only).",
        knobs: [
          {
            place: 'app',
            path: "the app's setting that names {{host}}",
            change: 'name the Service as it exists (<service>.<namespace>.svc); find it with kubectl get svc -A',
          },
          { place: 'cluster', path: 'Service {{serviceNamespace}}/{{service}}', change: 'or create it, if the dependency was never deployed' },
        ],
        facts: (ctx) => dependencyEvidence(dependencyOf(ctx)!),
      },
      {
        id: 'no-ready-endpoints',
        // A ClusterIP Service resolves whatever its endpoints; a headless one has no record without a ready address.
        when: (ctx) => dependencyOf(ctx)?.service?.headless === true && withoutEndpoints(ctx),
        summary: '{{host}}: Service {{service}} has no ready endpoints',
        explain:
          'The name {{host}} is the headless Service {{service}}, which has no ready address ({{notReady}} not ready), so DNS has no record for it: its ' +
          'pods are down or failing readiness (publishNotReadyAddresses publishes them anyway, as StatefulSets that form a cluster need).',
        knobs: [
          {
            place: 'cluster',
            path: 'the pods behind Service {{service}}',
            change: 'diagnose them: pod-doctor diagnose {{service}} pods, kubectl get endpointslices',
          },
        ],
        facts: (ctx) => dependencyEvidence(dependencyOf(ctx)!),
      },
      {
        // nginx resolves every upstream name once, when it loads its configuration, and refuses to start if one does not resolve then.
        id: 'nginx-upstream',
        when: (ctx) => /host not found in upstream/i.test(ctx.line) && data({ host: ctx.groups.host }),
        summary: 'nginx cannot start: its upstream {{host}} does not resolve when the configuration loads',
        explain:
          'nginx resolves the names in proxy_pass and upstream blocks once, when it loads its configuration, and exits if any does not resolve at ' +
          'that moment: a Service that does not exist yet (deployed after nginx, or in another namespace under its short name) stops the whole server, ' +
          'and a Service recreated later is not followed.',
        knobs: [
          {
            place: 'app',
            path: 'the nginx configuration (proxy_pass with a variable + resolver kube-dns.kube-system.svc.cluster.local valid=10s)',
            change: "resolve {{host}} per request instead of at start, with the cluster's DNS as resolver",
          },
          {
            place: 'app',
            path: 'the upstream name {{host}}',
            change: 'or name the Service as it exists (<service>.<namespace>.svc.cluster.local) and deploy it first',
          },
        ],
      },
      {
        id: 'no-such-name',
        when: (ctx) => data({ host: ctx.groups.host }),
        summary: '{{host}} does not resolve',
        explain:
          "The name {{host}} does not exist where the resolver looks: no Service or record by that name. A short name is searched in the pod's own namespace " +
          '({{namespace}}) only; a Service elsewhere needs <service>.<namespace>.',
        knobs: [
          {
            place: 'app',
            path: "the app's setting that names {{host}}",
            change: "use the Service's full name (<service>.<namespace>.svc) and check it exists: kubectl get svc -A",
          },
        ],
      },
    ],
  },
  {
    id: 'dependency-refused',
    kind: 'dependency',
    resource: 'a listening dependency',
    doc: 'ECONNREFUSED: the address answered, but nothing listens on the port: the dependency is down or not Ready (its Service has no endpoints), the port is wrong, or a sidecar has not started yet.',
    variants: [
      {
        id: 'local-socket',
        when: (ctx) => ctx.groups.socket !== undefined && { socket: ctx.groups.socket },
        summary: 'no server listens on the local socket {{socket}}',
        explain:
          'The client was given no host, so it connects to a server on the local socket {{socket}}, inside this container, and none runs there: the database is ' +
          'another pod, reached through its Service.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env PGHOST (or the connection string)',
            change: "set the database Service's name (<service>.<namespace>.svc) and port",
          },
        ],
      },
      {
        id: 'mesh-proxy-inbound',
        // The proxy's own refusal toward its pod (localhost for Linkerd, the pod IP for Istio since 1.10): the app is not listening.
        when: (ctx) => {
          const mesh = fromMeshProxy(ctx);
          const host = ctx.groups.host?.replace(/^\[|\]$/g, '');
          if (!mesh || (host !== undefined && !LOOPBACK.test(host) && host !== ctx.pod?.status?.podIP)) return false;
          return { ...hostPort(ctx), ...data({ endpoint: hostPort(ctx).endpoint ?? "the app's port" }), mesh };
        },
        summary: 'the {{mesh}} proxy cannot reach the app of its own pod on {{endpoint}}',
        explain:
          'The {{mesh}} proxy received traffic for this pod and passes it to the app on {{endpoint}}, where nothing listens: the app has not started (or ' +
          'keeps restarting), listens on another port than the one the traffic is for, or (Istio 1.10 and later deliver to the pod IP) on 127.0.0.1 only.',
        knobs: [
          { place: 'app', path: "the app's listen address and port", change: 'listen on 0.0.0.0 on the port its Service targets' },
          { place: 'cluster', path: "the Service's targetPort and the app container's ports", change: 'make them the port the app listens on' },
        ],
      },
      {
        id: 'kube-client-default',
        when: (ctx) => LOOPBACK.test(ctx.groups.host?.replace(/^\[|\]$/g, '') ?? '') && ctx.groups.port === '8080' && hostPort(ctx),
        summary: 'a Kubernetes client fell back to {{host}}:8080',
        explain:
          'Port 8080 on localhost is where a Kubernetes client goes when it found no configuration: no kubeconfig and no in-cluster config, so it never ' +
          'reached the API server. In a pod the in-cluster config needs the ServiceAccount token mounted and the client told to use it.',
        knobs: [
          {
            place: 'app',
            path: "the client's configuration",
            change: 'load the in-cluster config (client-go rest.InClusterConfig, loadFromCluster in other clients) or point KUBECONFIG at a file',
          },
          { place: 'pod', path: 'spec.automountServiceAccountToken', change: 'keep it true (the default) so the token and CA are there' },
        ],
      },
      {
        id: 'loopback',
        when: (ctx) => LOOPBACK.test(ctx.groups.host?.replace(/^\[|\]$/g, '') ?? '') && hostPort(ctx),
        summary: 'nothing listens on {{endpoint}} inside the pod yet',
        explain:
          '{{endpoint}} is inside the pod itself: the process the app expects there (a sidecar proxy or agent, or another container of the pod) was not listening yet ' +
          'when the app connected: containers of a pod start without waiting for each other.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers[] with restartPolicy: Always',
            change: 'run the sidecar as a native sidecar (Kubernetes 1.28+) so it starts (and is ready) first',
          },
          {
            place: 'pod',
            path: 'metadata.annotations proxy.istio.io/config',
            change: 'for an Istio sidecar: \'{ "holdApplicationUntilProxyStarts": true }\' (or the mesh-wide setting)',
          },
          { place: 'app', path: "the app's start-up", change: 'or retry the connection instead of exiting' },
        ],
      },
      {
        id: 'service-without-endpoints',
        when: (ctx) => withoutEndpoints(ctx),
        summary: '{{endpoint}} refuses connections: Service {{service}} has no ready endpoints',
        explain:
          '{{endpoint}} is Service {{service}}, which has no ready address ({{notReady}} not ready): nothing serves it, so connections are refused. ' +
          'Its pods are down or failing readiness.',
        knobs: [
          {
            place: 'cluster',
            path: 'the pods behind Service {{service}}',
            change: 'find out why they are not Ready (kubectl get endpointslices, then diagnose one of them)',
          },
          { place: 'app', path: "the app's start-up", change: 'retry the dependency with back-off instead of exiting' },
        ],
        facts: (ctx) => dependencyEvidence(dependencyOf(ctx)!),
      },
      {
        id: 'service-port',
        when: (ctx) => {
          const d = dependencyOf(ctx);
          const port = ctx.groups.port;
          if (!d?.service || port === undefined || d.service.headless || d.service.ports.some((p) => String(p.port) === port)) return false;
          return data({ ...hostPort(ctx), service: `${d.namespace}/${d.name}`, ports: d.service.ports.map((p) => p.port).join(', ') || 'none' });
        },
        summary: '{{endpoint}} refuses connections: Service {{service}} does not serve port {{port}}',
        explain:
          'The app connects to port {{port}} of Service {{service}}, which serves ports {{ports}}: nothing listens on {{port}}, so the connection is refused.',
        knobs: [
          { place: 'app', path: "the app's setting for the dependency's port", change: 'use a port the Service serves ({{ports}})' },
          { place: 'cluster', path: 'Service {{service}} spec.ports', change: 'or add port {{port}} with the right targetPort' },
        ],
        facts: (ctx) => dependencyEvidence(dependencyOf(ctx)!),
      },
      {
        id: 'mesh-proxy-starting',
        // With a mesh proxy, every outbound connection is redirected to it: until it listens, any address is refused.
        when: (ctx) => {
          const m = meshOf(ctx);
          if (!m || m.held || ctx.container?.name === m.proxy || proxyUpBefore(ctx, m)) return false;
          return { ...hostPort(ctx), ...data({ endpoint: hostPort(ctx).endpoint ?? 'the dependency' }), ...meshKnobs(m) };
        },
        summary: '{{endpoint}} refuses connections: the app may have connected before the {{mesh}} proxy was ready',
        explain:
          "The pod runs the {{mesh}} proxy ({{proxy}}) beside the app, and the pod's outbound connections are redirected to it: until it listens, " +
          'every connection is refused, whatever the address. Containers start together, and nothing here makes the app wait for the proxy. ' +
          'If the refusals stop once the pod has run a while, that was it; if they go on, {{endpoint}} itself is down.',
        knobs: [
          { place: 'pod', path: '{{holdPath}}', change: '{{holdChange}}: the app starts once the proxy is ready' },
          { place: 'pod', path: '{{nativePath}}', change: 'or run the proxy as a native sidecar: {{nativeChange}}' },
          { place: 'app', path: "the app's start-up", change: 'or retry the connection with back-off instead of exiting' },
        ],
        facts: (ctx) => {
          const m = meshOf(ctx)!;
          return [specFact(ctx, `spec.containers[${m.proxy}]`, `${m.mesh} proxy, no postStart hold`)];
        },
      },
      {
        id: 'remote',
        when: (ctx) => ctx.groups.host !== undefined && hostPort(ctx),
        summary: '{{endpoint}} refuses connections',
        explain:
          '{{endpoint}} answered but nothing listens on that port: the dependency is down or not Ready (a Service with no ready endpoints), or the port is not the one it serves ' +
          '(a Service port vs targetPort mix-up).',
        knobs: [
          {
            place: 'cluster',
            path: 'the Service behind {{host}}',
            change: 'check it has ready endpoints (kubectl get endpointslices) and that its targetPort is the port the pods listen on',
          },
          { place: 'app', path: "the app's start-up", change: 'retry dependencies with back-off instead of exiting' },
        ],
      },
      {
        id: 'unnamed',
        summary: 'a dependency refuses connections',
        explain:
          'The dependency the app connects to answered, but nothing listens on that port: it is down or not Ready (a Service with no ready endpoints), or the ' +
          'host or port the app was given is not the one it serves.',
        knobs: [
          {
            place: 'app',
            path: "the app's setting for the dependency's address",
            change: 'check the host and port it names, and that the Service behind it has ready endpoints (kubectl get endpointslices)',
          },
          { place: 'app', path: "the app's start-up", change: 'retry dependencies with back-off instead of exiting' },
        ],
      },
    ],
  },
  {
    id: 'dependency-unreachable',
    kind: 'dependency',
    resource: 'a network path to a dependency',
    doc: 'ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, i/o timeout: packets to the dependency get no answer: a NetworkPolicy (egress here, ingress there), a firewall or security group, or an address that no longer exists.',
    variants: [
      {
        id: 'rejected',
        // EHOSTUNREACH is an answer, not silence: an ICMP "host unreachable / administratively prohibited" from a REJECT rule, or no ARP reply.
        when: (ctx) =>
          /no route to host|host is unreachable|EHOSTUNREACH|\[Errno 113\]|NoRouteToHostException/i.test(ctx.line) && {
            ...hostPort(ctx),
            ...data({ endpoint: hostPort(ctx).endpoint ?? 'the dependency', host: ctx.groups.host ?? 'the dependency' }),
          },
        summary: 'no route to {{endpoint}}: something on the way rejects it',
        explain:
          'The connection to {{endpoint}} was answered at once with "no route to host", not left to time out: a firewall on the way rejects it ' +
          "(firewalld's or an iptables REJECT rule on a node, which answers with ICMP host-prohibited), or the address is on the local network and " +
          'nothing answers for it any more (a pod or node that is gone, an endpoint that went stale).',
        knobs: [
          {
            place: 'node',
            path: 'firewalld / iptables on {{node}} and on the node that runs {{host}}',
            change: "allow the pod network and the CNI's own traffic (VXLAN, IP-in-IP, BGP), or stop firewalld, per the CNI's requirements",
          },
          {
            place: 'cluster',
            path: "NetworkPolicies of {{namespace}} and of the peer's namespace",
            change: 'allow this pod to reach {{endpoint}} (some policy engines reject rather than drop)',
          },
          { place: 'cluster', path: 'the Service or address the app uses for {{host}}', change: 'check it still points at a live pod or node' },
        ],
      },
      {
        id: 'path',
        when: (ctx) => ({ ...hostPort(ctx), ...data({ endpoint: hostPort(ctx).endpoint ?? 'the dependency', host: ctx.groups.host ?? 'the dependency' }) }),
        summary: '{{endpoint}} does not answer',
        explain:
          'Connections to {{endpoint}} get no answer at all: something drops them on the way (a NetworkPolicy that selects this pod for egress or the peer for ingress, ' +
          'a firewall or cloud security group) or the address belongs to nothing any more.',
        knobs: [
          {
            place: 'cluster',
            path: "NetworkPolicies of {{namespace}} and of the peer's namespace",
            change: 'allow this pod to reach {{endpoint}}',
          },
          { place: 'cluster', path: 'firewalls / security groups between the node and {{host}}', change: 'allow the traffic' },
        ],
      },
    ],
  },
  {
    id: 'tls-unknown-authority',
    kind: 'setting',
    resource: 'a trusted certificate authority',
    doc: "The peer's certificate chains to a CA the container does not trust: a private CA, or a TLS-intercepting proxy, missing from the image's trust store.",
    variants: [
      {
        id: 'no-ca-bundle',
        when: (ctx) => /failed to load system roots|certificate verify locations/i.test(ctx.line),
        summary: 'the image has no CA certificates to verify any peer',
        explain:
          'The TLS client found no trust store at all: the image ships without a CA bundle (scratch, distroless-static, slim bases without ' +
          'ca-certificates), so no public certificate can be verified.',
        knobs: [
          { place: 'image', path: 'the Dockerfile', change: 'install ca-certificates, or copy /etc/ssl/certs/ca-certificates.crt from the build stage' },
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts + env SSL_CERT_FILE',
            change: 'or mount a CA bundle from a ConfigMap and point SSL_CERT_FILE at it',
          },
        ],
      },
      {
        id: 'trust',
        summary: "the peer's certificate authority is not trusted in the container",
        explain:
          "The TLS handshake failed because the peer's certificate chains to an authority the container's trust store does not hold: a private or internal CA, " +
          'or a proxy that re-signs traffic.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts + env',
            change:
              'mount the CA bundle (from a ConfigMap) and point the runtime at it: SSL_CERT_FILE (Go, OpenSSL), REQUESTS_CA_BUNDLE (Python), NODE_EXTRA_CA_CERTS (Node), a truststore (Java)',
          },
          { place: 'image', path: 'the Dockerfile', change: 'or add the CA to the image (update-ca-certificates), and install ca-certificates in slim images' },
          {
            place: 'app',
            path: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
            change: "for calls to the Kubernetes API, trust this CA (the in-cluster config does); a webhook's caBundle is set in its webhooks[].clientConfig",
          },
        ],
      },
    ],
  },
  {
    id: 'tls-expired',
    kind: 'setting',
    resource: 'a certificate within its validity',
    doc: 'A certificate is outside its validity period: it expired, or the clock of the node is wrong.',
    variants: [
      {
        id: 'not-yet-valid',
        when: (ctx) => {
          const m = /current time (\S+) is before (\S+)/i.exec(ctx.line);
          return m ? { now: m[1]!, from: m[2]! } : false;
        },
        summary: 'a certificate is not valid yet: the clock reads {{now}}, before {{from}}',
        explain:
          "The certificate only becomes valid at {{from}}, and the client's clock reads {{now}}: the node's clock is behind (or its time zone is wrong), " +
          'or the certificate was issued with a start date in the future.',
        knobs: [{ place: 'node', path: "{{node}}'s clock (chrony / timedatectl)", change: 'synchronise it (NTP) and check the time zone' }],
      },
      {
        id: 'expired',
        when: (ctx) => {
          const m = /current time (\S+) is after (\S+)/i.exec(ctx.line);
          return m ? { now: m[1]!, until: m[2]! } : false;
        },
        summary: 'a certificate expired at {{until}}',
        explain: 'A certificate in the handshake was valid until {{until}}, and it is now {{now}}: it was not renewed (or a renewed one was not reloaded).',
        knobs: [
          { place: 'cluster', path: 'the certificate (cert-manager Certificate, the Secret)', change: 'renew it and make sure its renewal runs' },
          { place: 'pod', path: 'the pods that serve it', change: 'restart them if they only read the certificate at start' },
        ],
      },
      {
        id: 'validity',
        summary: 'a certificate in the handshake is expired or not yet valid',
        explain:
          "A certificate in the TLS handshake is outside its validity period: it has expired (not renewed), or {{node}}'s clock is wrong so a fresh one looks not yet valid.",
        knobs: [
          { place: 'cluster', path: 'the certificate (cert-manager Certificate, the Secret)', change: 'renew it and make sure its renewal runs' },
          { place: 'node', path: "{{node}}'s clock (chrony / timedatectl)", change: 'check it is synchronised' },
        ],
      },
    ],
  },
  {
    id: 'dependency-connection-limit',
    kind: 'resource',
    resource: "the dependency's connection slots",
    doc:
      'A database or cache refuses a new connection because all its slots are taken (PostgreSQL max_connections, MySQL max_connections, Redis maxclients): ' +
      'every replica of every client keeps a pool, so scaling out, a rolling update (old and new pods at once) or leaked connections reach the limit.',
    variants: [
      {
        id: 'slots',
        when: (ctx) => ({
          setting: /too many clients|connection slots/i.test(ctx.line)
            ? 'PostgreSQL max_connections'
            : /max number of clients/i.test(ctx.line)
              ? 'Redis maxclients'
              : 'MySQL max_connections',
        }),
        summary: 'the dependency has no free connection slot ({{setting}})',
        explain:
          "The server refuses new connections: its {{setting}} slots are all in use. The sum of the clients' pools (pool size × replicas, more during a " +
          'rolling update) is above the limit, or connections leak.',
        knobs: [
          {
            place: 'app',
            path: "the client's connection pool size",
            change: 'size it so pool × maximum replicas (HPA maxReplicas, plus the surge) stays under the limit',
          },
          { place: 'app', path: "the server's {{setting}}", change: 'or raise the limit (memory grows with it), or put a pooler (PgBouncer) in front' },
        ],
      },
    ],
  },
  {
    id: 'credentials-rejected',
    kind: 'setting',
    resource: 'credentials the dependency accepts',
    doc:
      'A dependency rejects the credentials the app presents: the Secret the app reads and the one the dependency was set up with differ. Database images ' +
      'read POSTGRES_PASSWORD / MYSQL_ROOT_PASSWORD only when they initialise an empty data directory, so a volume kept from an earlier install keeps ' +
      'the old password whatever the Secret now says.',
    variants: [
      {
        id: 'keystore',
        when: (ctx) => /keystore|password was incorrect/i.test(ctx.line),
        summary: 'the JVM cannot open its keystore: the password does not match it',
        explain:
          'The keystore (or truststore) file and the password the JVM is given come from different places, and they do not belong together: a keystore ' +
          "regenerated (cert-manager renews and re-encrypts it) while the password Secret kept an older value, or the wrong Secret's key.",
        knobs: [
          {
            place: 'cluster',
            path: 'the Secret with the keystore and the one with its password (cert-manager: spec.keystores.pkcs12.passwordSecretRef)',
            change: 'make the password the one the keystore was written with',
          },
          {
            place: 'pod',
            path: "{{containerPath}}.env (JAVA_TOOL_OPTIONS -Djavax.net.ssl.keyStorePassword / the app's keystore password setting)",
            change: 'and point it at that Secret key',
          },
        ],
      },
      {
        id: 'password',
        when: (ctx) => ({ forUser: ctx.groups.user ? ` of user ${ctx.groups.user}` : '' }),
        summary: 'the dependency rejects the credentials{{forUser}}',
        explain:
          'The server answered that the user or password is wrong: the value the app reads from its env/Secret is not the one the server holds. ' +
          'A database initialised earlier on the same volume keeps its first password; changing the Secret later does not change it.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env[].valueFrom.secretKeyRef',
            change: "check which Secret and key the app reads, and that it matches the server's",
          },
          {
            place: 'app',
            path: "the database's stored password",
            change: "or set it in the database (ALTER USER ... PASSWORD) to the Secret's value; recreating the volume resets it",
          },
        ],
      },
    ],
  },
  {
    id: 'protocol-mismatch',
    kind: 'setting',
    resource: 'the same protocol (TLS or plain) on both ends',
    doc:
      'One side speaks TLS and the other plain HTTP on the same port: an https:// URL to a port that serves http, or the reverse; a Service port that ' +
      'maps to the wrong container port; a probe with the wrong scheme.',
    variants: [
      {
        id: 'plain-to-tls',
        // A Go server logs "TLS handshake error from <client>: ... first record ..." when a client sends plain text to its TLS port.
        when: (ctx) =>
          /HTTP request to an HTTPS server|plain HTTP request was sent to HTTPS port|malformed HTTP response|TLS handshake error from/i.test(ctx.line),
        summary: 'plain HTTP is sent to a port that serves TLS',
        explain:
          'The client speaks plain HTTP (http://) to a port where the server expects a TLS handshake, so the server answers with a TLS alert or an error page.',
        knobs: [
          { place: 'app', path: "the caller's URL for this port", change: 'use https:// (or the port that serves plain HTTP)' },
          { place: 'pod', path: "a probe's httpGet.scheme", change: 'set HTTPS when the probe calls this port' },
        ],
      },
      {
        id: 'tls-to-plain',
        summary: 'TLS is sent to a port that serves plain HTTP',
        explain:
          'The client starts a TLS handshake (https://) with a port that answers in plain text: the server does not terminate TLS there (a sidecar or ' +
          'ingress does, or it listens for TLS on another port).',
        knobs: [
          { place: 'app', path: "the caller's URL for this port", change: 'use http:// for this port, or point at the port that serves TLS' },
          {
            place: 'cluster',
            path: 'the Service port and its targetPort',
            change: 'and check the Service maps to the container port that speaks what the caller expects',
          },
        ],
      },
    ],
  },
  {
    id: 'ssh-trust',
    kind: 'setting',
    resource: 'an SSH key the server accepts, and a host key the client knows',
    doc:
      'An SSH client in the pod (git over ssh: git-sync, Argo CD, Flux, an init container that clones) is refused: the server does not accept the key ' +
      "it offers, or the client does not know the server's host key and cannot ask anyone in a container.",
    variants: [
      {
        id: 'host-key',
        when: (ctx) => /Host key verification failed/i.test(ctx.line),
        summary: "the SSH client does not know the server's host key",
        explain:
          "The client checks the server's host key against known_hosts and finds none (no known_hosts in the container, or one for another host): " +
          'in a container nobody can answer the prompt, so it fails.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts (known_hosts from a ConfigMap or Secret)',
            change: "mount the server's host key line (ssh-keyscan <host>) where the client reads it, e.g. ~/.ssh/known_hosts or the tool's setting",
          },
          { place: 'app', path: "the tool's known-hosts setting (git-sync GITSYNC_SSH_KNOWN_HOSTS_FILE)", change: 'point it at that file' },
        ],
      },
      {
        id: 'publickey',
        summary: 'the SSH server does not accept the key the pod offers',
        explain:
          'The server refused every key the client offered: the private key mounted from the Secret is not the one registered (as a deploy key) for ' +
          'this repository, or the client does not offer it at all (another path, a mode ssh refuses for a key it owns).',
        knobs: [
          {
            place: 'cluster',
            path: 'the Secret with the SSH private key',
            change: "use the key whose public half is registered on the server (the repository's deploy keys)",
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env GIT_SSH_COMMAND',
            change: 'or make the client offer it: ssh -i <mounted key path> -o IdentitiesOnly=yes',
          },
        ],
      },
    ],
  },
  {
    id: 'clock-skew',
    kind: 'setting',
    resource: 'a clock in step with the peers that check it',
    doc:
      'A peer refuses a signed request or token because its time is too far from its own: AWS signatures (5 to 15 minutes), S3, JWTs issued "in the future", ' +
      "Kerberos tickets. A container has no clock of its own: it reads its node's, so the node (or the peer) is out of step.",
    variants: [
      {
        id: 'signed-request',
        when: (ctx) => {
          const m = /Signature expired: (\S+) is now earlier than (\S+)/i.exec(ctx.line);
          if (m) return { skew: `${m[1]!} against ${m[2]!}` };
          return /RequestTimeTooSkewed|request time and the (?:current|server's) time is too large/i.test(ctx.line) && { skew: 'the difference is too large' };
        },
        summary: "the cloud API refuses the request: {{node}}'s clock is out of step",
        explain:
          "The request is signed with {{node}}'s time and the service compares it with its own ({{skew}}): beyond its allowed skew it refuses " +
          "the signature. The container reads the node's clock.",
        knobs: [
          { place: 'node', path: 'time synchronisation on {{node}} (chrony / systemd-timesyncd, the cloud time service)', change: 'synchronise it (NTP)' },
        ],
      },
      {
        id: 'token',
        summary: 'a token or ticket is refused for its time: clocks disagree',
        explain:
          "The token or ticket carries the issuer's time (issued-at, not-before) and the party that checks it reads another: the issuer's or the checker's " +
          'node is out of step, by more than the leeway the library allows.',
        knobs: [
          { place: 'node', path: 'time synchronisation on {{node}} and on the issuer (chrony / systemd-timesyncd)', change: 'synchronise every node with NTP' },
          { place: 'app', path: "the validator's clock-skew leeway", change: 'or allow a small leeway (seconds) for issued-at and not-before' },
        ],
      },
    ],
  },
  {
    id: 'tls-name-mismatch',
    kind: 'setting',
    resource: 'a certificate for the name connected to',
    doc: 'The certificate is valid, but not for the name the client connected to.',
    variants: [
      {
        id: 'legacy-cn',
        when: (ctx) => /legacy Common Name field/i.test(ctx.line) && { host: /https?:\/\/([^/:"\s]+)/.exec(ctx.line)?.[1] ?? 'the server' },
        summary: 'the certificate of {{host}} names it only in its Common Name, which clients built with Go 1.15+ ignore',
        explain:
          'The certificate has no Subject Alternative Names, only a Common Name; Go 1.15 stopped matching host names against the Common Name ' +
          '(Kubernetes 1.19 and later), so the certificate is valid for no name at all.',
        knobs: [
          {
            place: 'cluster',
            path: 'the serving certificate of {{host}} (its Secret or cert-manager Certificate) dnsNames',
            change: 'reissue it with {{host}} as a DNS SAN (for a webhook: <service>.<namespace>.svc), then restart what serves it',
          },
        ],
      },
      {
        id: 'webhook',
        when: (ctx) => /failed calling webhook/i.test(ctx.line) && data({ host: ctx.groups.host ?? '<service>.<namespace>.svc' }),
        summary: "an admission webhook's certificate is not valid for {{host}}",
        explain:
          "The API server called an admission webhook at {{host}}, and the webhook's serving certificate does not carry that name: it must be valid for " +
          '<service>.<namespace>.svc, the name the API server connects to.',
        knobs: [
          {
            place: 'cluster',
            path: "the webhook's serving certificate (its Secret or cert-manager Certificate) dnsNames",
            change: 'include {{host}}, then restart the webhook so it serves the new certificate',
          },
          { place: 'cluster', path: 'the webhook configuration webhooks[].clientConfig.caBundle', change: 'and the CA that signed it' },
        ],
      },
      {
        id: 'names',
        when: (ctx) => data({ host: ctx.groups.host ?? 'the name connected to', valid: ctx.groups.valid }),
        summary: 'the certificate is not valid for {{host}}',
        explain: 'The peer presents a certificate for other names ({{valid}}), not for {{host}}, the name the app connected to.',
        knobs: [
          { place: 'app', path: "the app's URL for the dependency", change: 'connect with a name the certificate carries' },
          { place: 'cluster', path: "the certificate's dnsNames / SANs", change: 'or add {{host}} to it' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'errno.eacces-bind-traceback',
    family: 'errno',
    mechanism: 'privileged-port',
    needles: ['[errno 13]'],
    patterns: [re('^(?:PermissionError|OSError): \\[Errno 13\\] Permission denied\\s*$')],
    // Python names no port or address: the frame above it says the process was binding a socket.
    preceded: /\.bind\(|\bserver_bind\b|\blisten\(/,
    source:
      'CPython socketserver.py server_bind / eventlet listen: the traceback frame above PermissionError. Lines (GitHub): ufownl/alpr_utils#23, isuretpolos/AetherOnePy#7',
    examples: [
      '    self.socket.bind(self.server_address)\nPermissionError: [Errno 13] Permission denied',
      '    sock.bind(addr)\nPermissionError: [Errno 13] Permission denied',
    ],
    nearMisses: ["    with open(path, 'w') as f:\nPermissionError: [Errno 13] Permission denied"],
  },
  {
    id: 'errno.eacces-bind',
    family: 'errno',
    mechanism: 'privileged-port',
    needles: errnoNeedles('EACCES'),
    patterns: [
      re('listen (?:tcp|udp)\\d? (?:\\[[^\\]]*\\]|[\\w.-]*):(?<port>\\d+): bind: ', EACCES),
      re('bind\\(\\) to (?:\\[[^\\]]*\\]|[\\w.]+):(?<port>\\d+) failed \\(13: '),
      re('bind\\(\\) (?:\\[[^\\]]*\\]|[\\w.]+):(?<port>\\d+): ', EACCES),
      re('listen EACCES:? (?:permission denied )?(?:\\S+:)?(?<port>\\d+)'),
      re('\\(13\\)Permission denied: AH00072: make_sock: could not bind to address (?:\\[[^\\]]*\\]|[\\w.]+):(?<port>\\d+)'),
      re("error while attempting to bind on address \\('[^']*', (?<port>\\d+)\\): ", EACCES),
      re('java\\.net\\.(?:Socket|Bind)Exception: Permission denied'),
      re('^nc: bind: ', EACCES),
      re('socket\\.error: \\[Errno 13\\]'),
      // .NET reports a bind refused as SocketException (13) (Kestrel: "Unable to start Kestrel").
      re('SocketException \\(13\\): ', EACCES),
    ],
    source:
      'Go net (OpError "listen tcp :80: bind: permission denied"); nginx ngx_connection.c; lighttpd network.c; Node net (listen EACCES); Apache httpd listen.c AH00072; ' +
      'uvicorn; OpenJDK Net.c; busybox nc. Lines (GitHub): hjacobs/kube-resource-report#146, nextcloud/docker#1860, rootless-containers/usernetes#27, ' +
      'scaleway/cert-manager-webhook-scaleway#26, hotio/caddy#3, bastienwirtz/homer#931, Berny23/LD-ToyPad-Emulator#231, CyCoreSystems/docker-meteor#41, ' +
      'anshooarora/klov#5, SoftInstigate/restheart#145, ScRiPt1337/Teardroidv4_api#10, searx/searx#1356; near miss docker-library/httpd#102; ' +
      '.NET System.Net.Sockets SocketException (the example is in its format)',
    examples: [
      '2020/04/15 02:38:08 [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)',
      'nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)',
      '(13)Permission denied: AH00072: make_sock: could not bind to address [::]:80',
      '(13)Permission denied: AH00072: make_sock: could not bind to address 0.0.0.0:80',
      'nc: bind: Permission denied',
      '"error executing command" err="failed to create listener: failed to listen on 0.0.0.0:443: listen tcp 0.0.0.0:443: bind: permission denied" logger="cert-manager"',
      'Error: loading initial config: loading new config: http app module: start: listening on :80: listen tcp :80: bind: permission denied',
      '(../src/network.c.640) bind() 0.0.0.0:80: Permission denied',
      'Error: listen EACCES: permission denied 0.0.0.0:80',
      'Error: listen EACCES 0.0.0.0:80',
      'java.net.SocketException: Permission denied',
      'java.lang.RuntimeException: java.net.SocketException: Permission denied',
      "ERROR:    [Errno 13] error while attempting to bind on address ('0.0.0.0', 80): permission denied",
      'socket.error: [Errno 13] Permission denied',
      'Unhandled exception. System.Net.Sockets.SocketException (13): Permission denied',
    ],
    nearMisses: ['(13)Permission denied: AH00099: could not create /usr/local/apache2/logs/httpd.pid'],
  },
  {
    id: 'errno.eaddrnotavail',
    family: 'errno',
    mechanism: 'bind-address',
    needles: errnoNeedles('EADDRNOTAVAIL'),
    patterns: [
      re(`(?:listen (?:tcp|udp)\\d? |bind\\(\\) to |bind )${ENDPOINT}[^\\n]*`, EADDRNOTAVAIL),
      re('unable to bind to IP on any port in range[^\\n]*', EADDRNOTAVAIL),
      re('^bind: ', EADDRNOTAVAIL),
      re('java\\.net\\.BindException: Cannot assign requested address'),
    ],
    source:
      'EADDRNOTAVAIL texts (upstream.json); Go net OpError; nginx ngx_connection.c; Ceph msgr; OpenSSH. Lines (GitHub): redpanda-data/kminion#65, ' +
      'kubernetes-retired/heapster#2047, microsoft/pai#2710, lima-vm/lima#1077, rook/rook#3140, docker/for-mac#2027',
    examples: [
      'listen tcp 192.168.6.143:8080: bind: cannot assign requested address',
      'run: open server: listen: listen tcp 207.226.143.108:8088: bind: cannot assign requested address',
      'F0506 06:01:38.491139    9929 server.go:157] listen tcp 117.50.43.131:10255: bind: cannot assign requested address',
      'level=fatal msg="listen tcp 192.168.1.105:8809: bind: cannot assign requested address"',
      'bind unable to bind to IP on any port in range 6800-7300: (99) Cannot assign requested address',
      'bind: Cannot assign requested address',
    ],
  },
  {
    id: 'errno.eaddrinuse',
    family: 'errno',
    generic: true,
    mechanism: 'port-in-use',
    needles: errnoNeedles('EADDRINUSE'),
    patterns: [re(`${ENDPOINT}[^\\n]*`, EADDRINUSE), re(EADDRINUSE, `[^\\n]*?${ENDPOINT}`), re(EADDRINUSE)],
    source:
      'EADDRINUSE texts of glibc, musl ("Address in use"), Go and libuv (upstream.json); the examples are in the formats of Go net OpError and nginx ' +
      'ngx_connection.c: no real paste was collected',
    examples: ['listen tcp 0.0.0.0:8080: bind: address already in use', 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)'],
  },
  {
    id: 'errno.eafnosupport',
    family: 'errno',
    mechanism: 'ipv6-disabled',
    needles: errnoNeedles('EAFNOSUPPORT'),
    patterns: [re(EAFNOSUPPORT)],
    source: 'EAFNOSUPPORT texts (upstream.json); nginx ngx_connection.c. Lines (GitHub): nginx/docker-nginx-unprivileged#35, ckulka/baikal-docker#73',
    examples: [
      '2020/04/29 19:57:26 [emerg] 1#1: socket() [::]:8080 failed (97: Address family not supported by protocol)',
      'nginx: [emerg] socket() [::]:80 failed (97: Address family not supported by protocol)',
    ],
  },
  {
    id: 'dns.lookup',
    family: 'dns',
    mechanism: 'dns-resolution',
    needles: [
      'lookup',
      'no such host',
      'name or service not known',
      'enotfound',
      'eai_again',
      'unknownhostexception',
      'name resolution',
      'host not found',
      'name does not resolve',
      'bad address',
      'could not resolve',
      "can't resolve",
      'nodename nor servname',
    ],
    patterns: [
      re(
        'lookup (?<host>[\\w.-]+)(?: on (?:\\[?[\\d.:a-f]+\\]?):53)?: (?:no such host|server misbehaving|i/o timeout|read udp [^\\n]*i/o timeout|dial udp [^\\n]*)',
      ),
      re('getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?<host>[\\w.-]+)'),
      re(`code['"]?: ?['"](?:ENOTFOUND|EAI_AGAIN)['"],\\s*['"]?syscall['"]?: ?['"]getaddrinfo['"],\\s*['"]?hostname['"]?: ?['"](?<host>[\\w.-]+)`),
      re('(?:java\\.net\\.)?UnknownHostException: (?<host>[\\w.-]+)'),
      re('host not found in (?:upstream|resolver) "(?<host>[\\w.-]+)(?::\\d+)?"'),
      re('Error -[23] connecting to (?<host>[\\w.-]+):\\d+\\.'),
      re('(?:Name or service not known|Temporary failure in name resolution|Name does not resolve|nodename nor servname provided, or not known)'),
      re("(?:could not|couldn't) resolve host(?: name)?:? (?<host>[\\w.-]+)"),
      re("can't resolve '(?<host>[\\w.-]+)'"),
      re("bad address '(?<host>[\\w.-]+)'"),
    ],
    source:
      'Go net/dnsclient (DNSError "lookup %s on %s: %s"); Node dns (getaddrinfo ENOTFOUND / EAI_AGAIN); OpenJDK InetAddress; nginx ngx_http_upstream; ' +
      'glibc and musl gai_strerror; curl; busybox nslookup/wget/nc. Lines (GitHub): openGemini/openGemini-castor#4, kubernetes/kubernetes#23618, ' +
      'openshift/origin#3800, kubernetes-retired/contrib#788, kubernetes/kubernetes#30139, kubernetes/kubernetes#97043, kubernetes/kubernetes#86762, ' +
      'choffmeister/kubernetes-certbot#2, TeamPiped/Piped#3679, WeBankFinTech/Prophecis#67, vmware-tanzu/kubeapps#360, sixeyed/kiamol#12, ' +
      'kubernetes/kubernetes#68321, kubernetes/kubernetes#107866, OpenUnison/openunison-k8s-login-oidc#34, kubeflow/spark-operator#1509, ' +
      'engapa/kafka-k8s-openshift#12, eugenp/tutorials#15291, fabric8io/gofabric8#100, kubernetes/kubernetes#9607, sentry-kubernetes/charts#221, ' +
      'zabbix-tooling/k8s-zabbix#21, gliderlabs/docker-alpine#508, k3s-io/k3s#5349; near miss (service-link variables, not DNS) kubevirt/csi-driver#120',
    examples: [
      'dial tcp: lookup test-cluster-meta-0.devops.svc.cluster.local on 169.254.20.10:53: no such host',
      'Error from server: dial tcp: lookup juliette on 10.255.255.1:53: no such host',
      'dial tcp: lookup kubernetes.default.svc.cluster.local: no such host',
      'Error Get http://localhost:1936: dial tcp: lookup localhost on 8.8.8.8:53: no such host',
      "nslookup: can't resolve 'kubernetes.default.svc.cluster.local'",
      'Could not resolve host: kubernetes.default.svc.cluster.local; Unknown error',
      'ConnectionError: Error -3 connecting to o2o-redis-service.o2o-sales.svc.cluster.local:6379. Temporary failure in name resolution.',
      'nginx: [emerg] host not found in upstream "kubernetes-certbot.staging.svc.cluster.local" in /etc/nginx/conf.d/default.conf:21',
      '2024/06/22 16:54:59 [emerg] 1#1: host not found in upstream "pipedfrontend:80" in /etc/nginx/conf.d/pipedfrontend.conf:2',
      'nginx: [emerg] host not found in resolver "kube-dns.kube-system.svc.cluster.local" in /etc/nginx/conf.d/ui.conf:46',
      'host not found in upstream "kubernetes.default" in /opt/bitnami/nginx/conf/vhosts/vhost.conf:17',
      'Error: getaddrinfo EAI_AGAIN kiamol.net',
      "errno: 'EAI_AGAIN', code: 'EAI_AGAIN', syscall: 'getaddrinfo', hostname: 'kiamol.net'",
      'Error: getaddrinfo EAI_AGAIN api.openweathermap.org api.openweathermap.org:80',
      '"errno": -3008, "code": "ENOTFOUND", "syscall": "getaddrinfo", "hostname": "employees-service"',
      'Exception in thread "main" java.net.UnknownHostException: kubernetes.default.svc.cluster.local: Name or service not known',
      'UnknownHostException: kubernetes.default.svc: Name or service not known',
      'java.net.UnknownHostException: kafka-1.kafka.default.svc.cluster.local',
      'java.net.UnknownHostException: myapp-discoveryserver: Name does not resolve',
      'java.net.UnknownHostException: jenkinshift: unknown error',
      'socket.gaierror: [Errno -2] Name or service not known',
      'socket.gaierror: [Errno -3] Temporary failure in name resolution',
      'Sending failed: [Errno -2] Name or service not known',
      "nc: bad address 'mu-db.mynamespace.svc.cluster.local'",
      "wget: bad address 'google.com'",
      "ping: bad address 'google.com'",
    ],
    nearMisses: ['lookup 10.96.0.1:tcp: no such host'],
  },
  {
    id: 'server.libpq-no-socket',
    family: 'server',
    mechanism: 'dependency-refused',
    needles: ['connection to server on socket'],
    patterns: [re('connection to server on socket "(?<socket>[^"]+)" failed: ', ENOENT)],
    source: 'postgres src/interfaces/libpq/fe-connect.c (PostgreSQL 14+ wording). Line (GitHub): apecloud/kubeblocks#2901',
    examples: ['psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory'],
  },
  {
    id: 'errno.econnrefused',
    family: 'errno',
    mechanism: 'dependency-refused',
    needles: [...errnoNeedles('ECONNREFUSED'), 'refused. check that the hostname', 'was refused', "t connect to mysql server on '"],
    patterns: [
      // The MySQL client prints the errno's number (`(111)`; MariaDB adds its text), and the host as it was given (MySQL 8: with the port).
      re("Can't connect to MySQL server on '(?<host>[\\w.-]+)(?::(?<port>\\d{1,5}))?' \\(111\\b"),
      // redis-py: "Error %s connecting to %s:%s. %s." (the errno's number, then its text).
      re('Error 111 connecting to (?<host>[\\w.-]+):(?<port>\\d{1,5})\\. '),
      re('connection to server at "(?<host>[^"]+)", port (?<port>\\d+) failed: ', ECONNREFUSED),
      re(`Failed to connect to (?<host>[\\w.-]+) port (?<port>\\d{1,5})(?: after \\d+ ms)?: `, ECONNREFUSED),
      re(`Connection to ${ENDPOINT} refused\\. Check that the hostname and port are correct`),
      re(`The connection to the server ${ENDPOINT} was refused`),
      re("can't connect to remote host \\((?<host>[\\w.:]+)\\): ", ECONNREFUSED),
      re(`(?:dial tcp |connect ECONNREFUSED |connect to |connection to |at |host |server at |on )${ENDPOINT}[^\\n]*?`, ECONNREFUSED),
      re(`connect ECONNREFUSED ${ENDPOINT}`),
      re(ECONNREFUSED, `[^\\n]*?${ENDPOINT}`),
      re(ECONNREFUSED),
    ],
    // A probe's refusal is readiness.failing's and crash.probe-failing's to read.
    unless: /probe failed|probe errored/i,
    source:
      'ECONNREFUSED texts (upstream.json); Go net OpError ("dial tcp %s: connect: connection refused", "getsockopt:" before Go 1.11); Node ("connect ECONNREFUSED %s"); ' +
      "libpq fe-connect.c; pgJDBC; kubectl; busybox telnet; the MySQL client (CR_CONN_HOST_ERROR 2003 \"Can't connect to MySQL server on '%s' (%d)\"); " +
      'curl (CURLE_COULDNT_CONNECT, "Failed to connect to %s port %d"). Lines (GitHub): paunin/PostDock#20, apecloud/kubeblocks#2901, ' +
      'Nuvalence/sqlserver2pgsql-docker#1, ' +
      'bitnami/charts#9818, victorsteven/gophercon-jwt-repo#2, k8sp/hadoop#14, fabric8io/kubernetes-client#3554, kubernetes-client/javascript#321, ' +
      'weaveworks/kubediff#75, kubernetes/website#8801, bitnami/charts#5817, bitnami/bitnami-docker-mariadb#51, knative/serving#7440, ' +
      'ekzhu/datasketch#40 (redis-py); ' +
      'near misses (probes) grafana/pyroscope#3005, mittwald/kubernetes-secret-generator#65',
    examples: [
      'psql: could not connect to server: Connection refused',
      'psql: error: connection to server at "10.92.2.59", port 5432 failed: Connection refused',
      'Connection to 127.0.0.1:5433 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections',
      'Error: connect ECONNREFUSED 127.0.0.1:6379',
      'Error 111 connecting to localhost:6379. Connection refused.',
      'dial tcp 127.0.0.1:6379: connect: connection refused',
      "telnet: can't connect to remote host (10.0.0.1): Connection refused",
      'java.net.ConnectException: Connection refused (Connection refused)',
      'Error: connect ECONNREFUSED 127.0.0.1:8080',
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
      "Error: 'dial tcp 172.17.0.4:8080: getsockopt: connection refused'",
      "ERROR 2003 (HY000): Can't connect to MySQL server on 'my-sql-mysql.default.svc.cluster.local' (111)",
      "ERROR 2003 (HY000): Can't connect to MySQL server on '10.108.82.91' (111)",
      "Error executing 'postInstallation': mysqldump: Got error: 2003: \"Can't connect to MySQL server on 'db-master' (111 \"Connection refused\")\" when trying to connect",
      'curl: (7) Failed to connect to helloworld-go.default.mydomain.com port 80: Connection refused',
    ],
    nearMisses: [
      'Readiness probe failed: Get "http://10.2.9.133:4040/ready": dial tcp 10.2.9.133:4040: connect: connection refused',
      'Liveness probe failed: Get "http://10.0.171.162:8080/healthz": dial tcp 10.0.171.162:8080: connect: connection refused',
    ],
  },
  {
    // libpq before PostgreSQL 14 names the host on the line after the refusal; the refusal itself names none.
    id: 'server.libpq-refused-host',
    family: 'server',
    mechanism: 'dependency-refused',
    needles: ['is the server running on host'],
    patterns: [re('Is the server running on host "(?<host>[^"]+)"')],
    preceded: /could not connect to server: Connection refused/i,
    source:
      'postgres src/interfaces/libpq/fe-connect.c before PostgreSQL 14 ("could not connect to server: %s" then ' +
      '"Is the server running on host \\"%s\\" (%s) and accepting TCP/IP connections on port %s?"). Lines (GitHub): cloud-ark/kubeplus#175, ' +
      'pgadmin-org/pgadmin4#4837',
    examples: [
      'psql: could not connect to server: Connection refused\n\tIs the server running on host "192.168.99.100" and accepting\n\tTCP/IP connections on port 5432?',
      'could not connect to server: Connection refused\nIs the server running on host "173.18.0.3" and accepting\nTCP/IP connections on port 5432?',
    ],
  },
  {
    id: 'errno.etimedout',
    family: 'errno',
    mechanism: 'dependency-unreachable',
    needles: [...errnoNeedles('ETIMEDOUT'), ...errnoNeedles('EHOSTUNREACH'), ...errnoNeedles('ENETUNREACH'), 'i/o timeout', 'connect timed out'],
    patterns: [
      re(`dial tcp ${ENDPOINT}: (?:i/o timeout|(?:connect|getsockopt): (?:`, ETIMEDOUT, '|', EHOSTUNREACH, '|', ENETUNREACH, '))'),
      re('connect to (?<host>[\\w.-]+) port (?<port>\\d+) \\((?:tcp|udp)\\) failed: (?:', ETIMEDOUT, '|', EHOSTUNREACH, '|', ENETUNREACH, ')'),
      re(`(?:connect|connection to) ${ENDPOINT}[^\\n]*(?:`, ETIMEDOUT, '|', EHOSTUNREACH, '|', ENETUNREACH, ')'),
      re('(?:', EHOSTUNREACH, '|', ENETUNREACH, ')'),
      re('java\\.net\\.(?:SocketTimeoutException: connect timed out|NoRouteToHostException)'),
    ],
    // A DNS lookup timing out is dns-resolution's (CoreDNS's own upstream timeouts included); a probe's timeout is the probe rules'.
    // The JVM reports a connect's EADDRNOTAVAIL as NoRouteToHostException: ephemeral-ports-exhausted (netpath.ts) reads it.
    unless: /lookup [\w.-]+|:53: |probe failed|probe errored|Cannot assign requested address/i,
    source:
      'ETIMEDOUT, EHOSTUNREACH, ENETUNREACH texts (upstream.json); Go net OpError ("dial tcp %s: i/o timeout"; the i/o timeout example is in that format); ' +
      'OpenBSD netcat. Lines (GitHub): kubernetes/kubeadm#1520, kubernetes/kubernetes#62511, cloudnativelabs/kube-router#425, coredns/coredns#3411; ' +
      'near miss kubernetes/kubernetes#86762',
    examples: [
      'dial tcp 172.28.62.68:10250: connect: no route to host',
      'Error from server: error dialing backend: dial tcp 192.168.1.14:10250: getsockopt: no route to host',
      'nc: connect to 10.96.0.1 port 443 (tcp) failed: Connection timed out',
      'E1030 14:27:58.484210       1 reflector.go:126] pkg/mod/k8s.io/client-go@v11.0.0+incompatible/tools/cache/reflector.go:94: Failed to list *v1.Namespace: Get https://10.96.0.1:443/api/v1/namespaces?limit=500&resourceVersion=0: dial tcp 10.96.0.1:443: connect: no route to host',
      'dial tcp 10.0.3.17:443: i/o timeout',
    ],
    nearMisses: ['[ERROR] plugin/errors: 2 elasticsearch. AAAA: read udp 10.244.235.249:33287->10.96.0.10:53: i/o timeout'],
  },
  {
    id: 'tls.unknown-authority',
    family: 'tls',
    mechanism: 'tls-unknown-authority',
    needles: [
      'unknown authority',
      'local issuer',
      'pkix path',
      'self signed certificate',
      'self-signed certificate',
      'certificate_verify_failed',
      'unable_to_verify_leaf_signature',
      'failed to load system roots',
      'certificate verify locations',
    ],
    patterns: [
      re('x509: certificate signed by unknown authority'),
      re('x509: failed to load system roots and no roots provided'),
      re('error setting certificate verify locations'),
      re('unable to get local issuer certificate'),
      re('PKIX path building failed'),
      re('self[- ]signed certificate in certificate chain'),
      re('UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY'),
    ],
    source:
      'Go crypto/x509 UnknownAuthorityError ("tls: failed to verify certificate: " since Go 1.20); OpenSSL X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY; ' +
      'OpenJDK sun.security.validator; Node tls ("self-signed" since Node 17). Lines (GitHub): robusta-dev/kubewatch#92, cert-manager/cert-manager#7332, ' +
      'kelseyhightower/kubernetes-the-hard-way#809, hoeghh/kubernetes_the_easy_way#20, podman-desktop/podman-desktop#15718, ' +
      'spring-cloud/spring-cloud-kubernetes#560, fabric8io/kubernetes-client#944, mapillary/mapillary_tools#698; no trust store at all: Go crypto/x509 ' +
      'root.go ("x509: failed to load system roots and no roots provided"), curl CURLE_SSL_CACERT_BADFILE ("error setting certificate verify ' +
      'locations"); those two examples are in their formats: no real paste was collected',
    examples: [
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'Failed to register ACME account: Get "https://<SENSITIVE>": tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'Unable to connect to the server: x509: certificate signed by unknown authority ( possibly because of "crypto/rsa: verification error" while trying to verify cand idate authority certificate "Kubernetes")',
      'Error: self-signed certificate in certificate chain',
      'RequestError: unable to get local issuer certificate',
      'Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
      'javax.net.ssl.SSLHandshakeException: sun.security.validator.ValidatorException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
      "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1018)'))",
      'Get "https://registry-1.docker.io/v2/": x509: failed to load system roots and no roots provided',
      'curl: (77) error setting certificate verify locations:  CAfile: /etc/ssl/certs/ca-certificates.crt CApath: none',
    ],
  },
  {
    id: 'tls.plaintext-mismatch',
    family: 'tls',
    mechanism: 'protocol-mismatch',
    needles: [
      'http response to https client',
      'http request to an https server',
      'plain http request was sent to https port',
      'does not look like a tls handshake',
      'wrong version number',
      'unrecognized ssl message',
      'malformed http response "\\x15',
    ],
    patterns: [
      re('server gave HTTP response to HTTPS client'),
      re('first record does not look like a TLS handshake'),
      re('wrong version number'),
      re('Unsupported or unrecognized SSL message'),
      re('Client sent an HTTP request to an HTTPS server'),
      re('The plain HTTP request was sent to HTTPS port'),
      re('malformed HTTP response "\\\\x15\\\\x03'),
    ],
    source:
      'Go net/http ("server gave HTTP response to HTTPS client", "Client sent an HTTP request to an HTTPS server.", "malformed HTTP response" of a TLS ' +
      'alert), crypto/tls ("first record does not look like a TLS handshake"), OpenSSL SSL_R_WRONG_VERSION_NUMBER, OpenJDK SSLSocketInputRecord, nginx ' +
      '(497 "The plain HTTP request was sent to HTTPS port"). Lines (GitHub): krustlet/krustlet#44, kubernetes/kubernetes#65078, ' +
      'kubernetes-retired/dashboard#5457, podman-desktop/podman-desktop#2217, kubernetes/kubernetes#71878; the crypto/tls (server log "http: TLS ' +
      'handshake error from %s: %v", and client), OpenSSL and Java examples are in their formats',
    examples: [
      'Error from server: Get https://192.168.64.1:3000/containerLogs/default/greet/greet: http: server gave HTTP response to HTTPS client',
      'Client sent an HTTP request to an HTTPS server.',
      'Error from server: Get http://node1:10250/containerLogs/default/my-web/nginx: net/http: HTTP/1.x transport connection broken: ' +
        'malformed HTTP response "\\x15\\x03\\x01\\x00\\x02\\x02"',
      'http: TLS handshake error from 10.244.0.1:51234: tls: first record does not look like a TLS handshake',
      'Get "https://api:8080/health": tls: first record does not look like a TLS handshake',
      'curl: (35) error:1408F10B:SSL routines:ssl3_get_record:wrong version number',
      'javax.net.ssl.SSLException: Unsupported or unrecognized SSL message',
    ],
  },
  {
    id: 'tls.expired',
    family: 'tls',
    mechanism: 'tls-expired',
    needles: ['expired', 'not yet valid', 'cert_has_expired'],
    patterns: [
      re('x509: certificate has expired or is not yet valid'),
      re('certificate has expired'),
      re('CERT_HAS_EXPIRED'),
      re('CertificateExpiredException'),
    ],
    source:
      'Go crypto/x509 CertificateInvalidError(Expired, "current time %s is after %s" / "is before %s"); OpenSSL X509_V_ERR_CERT_HAS_EXPIRED; Node; OpenJDK. ' +
      'Lines (GitHub): rootsongjc/kubernetes-vagrant-centos-cluster#112, yashbhutwala/kubectl-df-pv#20',
    examples: [
      'Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2023-01-09T22:08:46+08:00 is after 2023-01-09T09:34:00Z',
      'x509: certificate has expired or is not yet valid: current time 2021-04-26T10:18:22+02:00 is after 2021-04-07T03:12:06Z',
    ],
  },
  {
    id: 'server.connection-limit',
    family: 'server',
    mechanism: 'dependency-connection-limit',
    needles: ['too many clients', 'connection slots are reserved', 'too many connections', 'max number of clients'],
    patterns: [
      re('sorry, too many clients already'),
      re('remaining connection slots are reserved for'),
      re('\\bToo many connections\\b'),
      re('ERR max number of clients reached'),
    ],
    source:
      'postgres proc.c ("sorry, too many clients already"), postinit.c ("remaining connection slots are reserved for ..."), MySQL ER_CON_COUNT_ERROR 1040 ' +
      '("Too many connections"), redis networking.c ("ERR max number of clients reached"; the MySQL and Redis examples are in their formats). ' +
      'Lines (GitHub): apache/texera#3525, devtron-labs/devtron#2624, concourse/concourse#9434, sourcegraph/sourcegraph-public-snapshot#2264, ' +
      'mdn/mdn-http-observatory#386, uberswe/createmod.com#1482',
    examples: [
      '2025-07-02 23:09:57.285 GMT [1152835] FATAL:  sorry, too many clients already',
      'pq: sorry, too many clients already',
      'Liveness probe failed: psql: FATAL:  sorry, too many clients already',
      'connection to server at "db" failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections',
      'ERROR 1040 (HY000): Too many connections',
      'ERR max number of clients reached',
    ],
  },
  {
    id: 'server.auth-rejected',
    family: 'server',
    mechanism: 'credentials-rejected',
    needles: [
      'password authentication failed',
      'access denied for user',
      'wrongpass',
      'noauth authentication required',
      'access_refused',
      'keystore was tampered with',
      'keystore password was incorrect',
    ],
    patterns: [
      re('Keystore was tampered with, or password was incorrect'),
      re('keystore password was incorrect'),
      re('password authentication failed for user "(?<user>[^"]+)"'),
      re("Access denied for user '(?<user>[^']+)'@'[^']*' \\(using password: (?:YES|NO)\\)"),
      re('WRONGPASS invalid username-password pair'),
      re('NOAUTH Authentication required'),
      re('ACCESS_REFUSED - Login was refused'),
    ],
    source:
      'postgres auth.c ("password authentication failed for user \\"%s\\""), MySQL ER_ACCESS_DENIED_ERROR 1045, redis (WRONGPASS, NOAUTH), RabbitMQ ' +
      '(ACCESS_REFUSED), OpenJDK JavaKeyStore ("Keystore was tampered with, or password was incorrect") and PKCS12KeyStore ("keystore password was ' +
      'incorrect"). Lines (GitHub): bitnami/charts#32279; the others are in their formats: no real paste was collected',
    examples: [
      'FATAL: password authentication failed for user "bn_keycloak"',
      "ERROR 1045 (28000): Access denied for user 'root'@'10.244.1.5' (using password: YES)",
      'WRONGPASS invalid username-password pair or user is disabled.',
      'NOAUTH Authentication required.',
      'java.io.IOException: Keystore was tampered with, or password was incorrect',
      'java.io.IOException: keystore password was incorrect',
    ],
  },
  {
    id: 'server.ssh-refused',
    family: 'server',
    mechanism: 'ssh-trust',
    needles: ['permission denied (publickey', 'host key verification failed'],
    patterns: [re('Permission denied \\(publickey[^)]*\\)'), re('Host key verification failed')],
    source:
      'OpenSSH sshconnect2.c ("Permission denied (%s)." with the methods tried) and sshconnect.c ("Host key verification failed."). Lines (GitHub): ' +
      'kubernetes/git-sync#522, kubernetes/git-sync#3, alpine-docker/git#37, airflow-helm/charts#229, kubernetes/git-sync#706',
    examples: ['git@gitlab.com: Permission denied (publickey).', 'git@github.com: Permission denied (publickey).', 'Host key verification failed.'],
  },
  {
    id: 'server.clock-skew',
    family: 'server',
    mechanism: 'clock-skew',
    needles: [
      'signature expired',
      'requesttimetooskewed',
      'time is too large',
      'used before issued',
      'token is not valid yet',
      'not yet valid (',
      'clock skew',
    ],
    patterns: [
      re('Signature expired: \\S+ is now earlier than \\S+'),
      re('RequestTimeTooSkewed'),
      re("The difference between the request time and the (?:current|server's) time is too large"),
      re('Token used before issued'),
      re('token is not valid yet'),
      re('The token is not yet valid \\((?:iat|nbf)\\)'),
      re('Clock skew too great'),
    ],
    source:
      'AWS Signature V4 ("Signature expired: %s is now earlier than %s"), S3 (RequestTimeTooSkewed); ' +
      'jwt-go and golang-jwt (ValidationErrorIssuedAt "Token used ' +
      'before issued", ErrTokenNotValidYet), PyJWT ImmatureSignatureError; MIT krb5 KRB5KRB_AP_ERR_SKEW ("Clock skew too great"; the last three examples ' +
      'are in their formats: no real paste was collected). Lines (GitHub): aws/aws-sdk-js#527, upmc-enterprises/registry-creds#24, convox/rack#235, ' +
      'LilyBin/LilyBin#72, boot2docker/boot2docker#469, docker-library/python#472, minio/minio-py#285, heketi/heketi#646',
    examples: [
      'InvalidSignatureException: Signature expired: 20170111T204052Z is now earlier than 20170111T225449Z (20170111T230949Z - 15 min.)',
      'Build Error: SignatureDoesNotMatch: Signature expired: 20151221T200419Z is now earlier than 20151221T201450Z (20151221T201950Z - 5 min.)',
      'botocore.exceptions.ClientError: An error occurred (RequestTimeTooSkewed) when calling the ListObjects operation: ' +
        'The difference between the request time and the current time is too large.',
      'Token used before issued',
      'jwt.exceptions.ImmatureSignatureError: The token is not yet valid (iat)',
      'error: token is not valid yet',
      'kinit: Clock skew too great while getting initial credentials',
    ],
  },
  {
    id: 'tls.name-mismatch',
    family: 'tls',
    mechanism: 'tls-name-mismatch',
    needles: [
      'is valid for',
      'not valid for any names',
      'altnames',
      'subject alternative',
      'no alternative certificate subject',
      "does not match the server's certificate",
      "doesn't match",
      'hostname mismatch',
      'legacy common name field',
    ],
    patterns: [
      re('x509: certificate relies on legacy Common Name field'),
      re('x509: certificate is valid for (?<valid>[^\\n]+?), not (?<host>[\\w.*-]+)'),
      re('x509: certificate is not valid for any names, but wanted to match (?<host>[\\w.*-]+)'),
      re("Hostname/IP does not match certificate's altnames"),
      re('No subject alternative (?:DNS )?names? matching(?: (?<host>[\\w.*-]+))?'),
      re("no alternative certificate subject name matches target host name '(?<host>[^']+)'"),
      re("requested domain name does not match the server's certificate"),
      re("hostname '(?<host>[\\w.-]+)' doesn't match"),
    ],
    source:
      'Go crypto/x509 HostnameError; Node tls checkServerIdentity; OpenJDK HostnameChecker; curl (OpenSSL and NSS builds); CPython ssl. Lines (GitHub): ' +
      'kserve/kserve#1440, salesforce/generic-sidecar-injector#38, kubernetes/kops#10343, kubernetes/kubernetes#64594, k3s-io/k3s#3392, mantl/mantl#1810; ' +
      'Go 1.15+ "x509: certificate relies on legacy Common Name field": SeldonIO/seldon-core#3293, IBM/portieris#196, helm/helm#9046, nokia/CPU-Pooler#57',
    examples: [
      'Internal error occurred: failed calling webhook "v1alpha2.vseldondeployment.kb.io": ' +
        'Post "https://seldon-webhook-service.seldon-system.svc:443/validate' +
        '-machinelearning-seldon-io-v1alpha2-seldondeployment?timeout=30s": x509: certificate relies on legacy Common Name field, use SANs or temporarily ' +
        'enable Common Name matching with GODEBUG=x509ignoreCN=0',
      'Internal error occurred: failed calling webhook "inferenceservice.kfserving-webhook-server.v1beta1.defaulter": Post https://kfserving-webhook-server-service.kfserving-system.svc:443/mutate-serving-kubeflow-org-v1beta1-inferenceservice?timeout=30s: x509: certificate is not valid for any names, but wanted to match kfserving-webhook-server-service.kfserving-system.svc',
      'Error creating: Internal error occurred: failed calling webhook "gensc.sfdc.internal": Post "https://gensc.nsaux-cs.svc:443/mutate?timeout=30s": x509: certificate is not valid for any names, but wanted to match gensc.nsaux-cs.svc',
      'Validation failed: unexpected error during validation: error listing nodes: Get "https://api-xx-k8s-local-302fp3-1771311087.xxx.amazonaws.com/api/v1/nodes": x509: certificate is valid for kubernetes, kubernetes.default, kubernetes.default.svc, kubernetes.default.svc.cluster.local, api.xx.k8s.local, api.internal.xx.k8s.local, not api-xx-k8s-local-302fp3-1771311087xxx.amazonaws.com',
      'Get https://kubernetes.default/apis/prow.k8s.io/v1/namespaces/default/prowjobs?labelSelector=: x509: certificate is valid for hcp-kubernetes, kubernetes, kubernetes.default.svc, kubernetes.default.svc.cluster.local, hcp-kubernetes.5ae8e942048c2a0001097578.svc.cluster.local, acse-test-infrastructure-ci-bot-61041a9a.hcp.eastus.azmk8s.io, not kubernetes.default',
      'javax.net.ssl.SSLHandshakeException: No subject alternative DNS name matching kubernetes.default.svc found.',
      "curl: (51) Unable to communicate securely with peer: requested domain name does not match the server's certificate.",
      "SSL: no alternative certificate subject name matches target host name 'kubernetes.default.svc.cluster.local'",
    ],
  },
]);
