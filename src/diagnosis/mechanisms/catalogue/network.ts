// Network mechanisms: binding (privileged ports, addresses, ports in use, IPv6), names that do not
// resolve, dependencies that refuse or do not answer, and TLS peers the container does not trust.
import { hostNetwork, runAsNonRoot } from '../context.js';
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';

const EACCES = errnoSource('EACCES');
const EADDRINUSE = errnoSource('EADDRINUSE');
const EADDRNOTAVAIL = errnoSource('EADDRNOTAVAIL');
const EAFNOSUPPORT = errnoSource('EAFNOSUPPORT');
const ECONNREFUSED = errnoSource('ECONNREFUSED');
const ETIMEDOUT = errnoSource('ETIMEDOUT');
const EHOSTUNREACH = errnoSource('EHOSTUNREACH');
const ENETUNREACH = errnoSource('ENETUNREACH');

/** `host:port` or `[v6]:port` in a line, after the word that introduces it. */
const ENDPOINT = String.raw`(?<host>\[[0-9a-f:.]+\]|[\w.-]+):(?<port>\d{1,5})`;

function hostPort(ctx: ReadingContext) {
  return data({ host: ctx.groups.host?.replace(/^\[|\]$/g, ''), port: ctx.groups.port });
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
        when: (ctx) => hostNetwork(ctx) && { port: ctx.groups.port ?? 'the port' },
        summary: 'cannot bind port {{port}} on the host network as a non-root user',
        explain:
          "The process binds port {{port}}, below 1024, as a non-root user, in the node's own network namespace (hostNetwork: true): the pod cannot lower the " +
          "node's privileged-port boundary, and capabilities added to the container only reach a root process.",
        knobs: [
          { place: 'pod', path: "{{containerPath}}.ports + the app's listen port", change: 'listen on a port from 1024 up' },
          { place: 'image', path: 'the binary', change: 'or give it the capability itself (setcap cap_net_bind_service=+ep) and add NET_BIND_SERVICE' },
        ],
      },
      {
        id: 'non-root',
        when: (ctx) =>
          data({
            port: ctx.groups.port ?? 'a port below 1024',
            who: runAsNonRoot(ctx) ? 'runs as a non-root user' : 'runs as a user without CAP_NET_BIND_SERVICE',
          }),
        summary: 'cannot bind port {{port}} without privileges',
        explain:
          'The process binds port {{port}}, below 1024, and {{who}}: Linux reserves ports under net.ipv4.ip_unprivileged_port_start (1024) for privileged processes. ' +
          'Adding NET_BIND_SERVICE to the container does not help a non-root process, which never gets the capability in its effective set.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.ip_unprivileged_port_start',
            change: 'set it to 0 (a safe sysctl since Kubernetes 1.22), or',
          },
          { place: 'app', path: "the app's listen port + the Service's targetPort", change: 'listen on 8080 and let the Service map port {{port}} to it' },
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
        when: (ctx) => hostPort(ctx),
        summary: "binds {{host}}, an address that is not the pod's",
        explain:
          "The app binds {{host}}:{{port}}, an address none of the pod's interfaces has (a name that resolves to another IP, a Service or node IP), so bind fails with EADDRNOTAVAIL.",
        knobs: [{ place: 'app', path: "the app's listen address", change: 'listen on 0.0.0.0 (or [::]), or on the pod IP from env fieldRef status.podIP' }],
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
        id: 'loopback',
        when: (ctx) => LOOPBACK.test(ctx.groups.host?.replace(/^\[|\]$/g, '') ?? '') && hostPort(ctx),
        summary: 'nothing listens on {{host}}:{{port}} inside the pod yet',
        explain:
          '{{host}}:{{port}} is inside the pod itself: the process the app expects there (a sidecar proxy or agent, or another container of the pod) was not listening yet ' +
          'when the app connected: containers of a pod start without waiting for each other.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers[] with restartPolicy: Always',
            change: 'run the sidecar as a native sidecar so it starts (and is ready) first',
          },
          { place: 'app', path: "the app's start-up", change: 'or retry the connection instead of exiting' },
        ],
      },
      {
        id: 'remote',
        when: (ctx) => hostPort(ctx),
        summary: '{{host}}:{{port}} refuses connections',
        explain:
          '{{host}}:{{port}} answered but nothing listens on that port: the dependency is down or not Ready (a Service with no ready endpoints), or the port is not the one it serves ' +
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
    ],
  },
  {
    id: 'dependency-unreachable',
    kind: 'dependency',
    resource: 'a network path to a dependency',
    doc: 'ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, i/o timeout: packets to the dependency get no answer: a NetworkPolicy (egress here, ingress there), a firewall or security group, or an address that no longer exists.',
    variants: [
      {
        id: 'path',
        when: (ctx) => data({ host: ctx.groups.host ?? 'the dependency', port: ctx.groups.port ?? '?' }),
        summary: '{{host}}:{{port}} does not answer',
        explain:
          'Connections to {{host}}:{{port}} get no answer at all: something drops them on the way (a NetworkPolicy that selects this pod for egress or the peer for ingress, ' +
          'a firewall or cloud security group) or the address belongs to nothing any more.',
        knobs: [
          {
            place: 'cluster',
            path: "NetworkPolicies of {{namespace}} and of the peer's namespace",
            change: 'allow this pod to reach {{host}} on port {{port}}',
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
    id: 'tls-name-mismatch',
    kind: 'setting',
    resource: 'a certificate for the name connected to',
    doc: 'The certificate is valid, but not for the name the client connected to.',
    variants: [
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
    id: 'errno.eacces-bind',
    family: 'errno',
    mechanism: 'privileged-port',
    needles: errnoNeedles('EACCES'),
    patterns: [
      re('listen (?:tcp|udp)\\d? (?:\\[[^\\]]*\\]|[\\w.-]*):(?<port>\\d+): bind: ', EACCES),
      re('bind\\(\\) to (?:\\[[^\\]]*\\]|[\\w.]+):(?<port>\\d+) failed \\(13: '),
      re('listen EACCES: permission denied (?:\\S+:)?(?<port>\\d+)'),
      re('\\(13\\)Permission denied: AH00072: make_sock: could not bind to address (?:\\[[^\\]]*\\]|[\\w.]+):(?<port>\\d+)'),
      re('java\\.net\\.(?:Socket|Bind)Exception: Permission denied'),
    ],
    source:
      'Go net (OpError "listen tcp :80: bind: permission denied"); nginx ngx_connection.c; Node net (listen EACCES); Apache httpd listen.c AH00072; OpenJDK Net.c',
    examples: [
      'listen tcp :80: bind: permission denied',
      'nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)',
      'Error: listen EACCES: permission denied 0.0.0.0:80',
    ],
  },
  {
    id: 'errno.eaddrnotavail',
    family: 'errno',
    mechanism: 'bind-address',
    needles: errnoNeedles('EADDRNOTAVAIL'),
    patterns: [
      re(`(?:listen (?:tcp|udp)\\d? |bind\\(\\) to |bind )${ENDPOINT}[^\\n]*`, EADDRNOTAVAIL),
      re('java\\.net\\.BindException: Cannot assign requested address'),
    ],
    source: 'EADDRNOTAVAIL texts (upstream.json); Go net OpError; nginx ngx_connection.c',
    examples: ['listen tcp 10.0.0.5:8080: bind: cannot assign requested address'],
  },
  {
    id: 'errno.eaddrinuse',
    family: 'errno',
    generic: true,
    mechanism: 'port-in-use',
    needles: errnoNeedles('EADDRINUSE'),
    patterns: [re(`${ENDPOINT}[^\\n]*`, EADDRINUSE), re(EADDRINUSE, `[^\\n]*?${ENDPOINT}`), re(EADDRINUSE)],
    source: 'EADDRINUSE texts of glibc, musl ("Address in use"), Go and libuv (upstream.json)',
    examples: ['listen tcp 0.0.0.0:8080: bind: address already in use', 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)'],
  },
  {
    id: 'errno.eafnosupport',
    family: 'errno',
    mechanism: 'ipv6-disabled',
    needles: errnoNeedles('EAFNOSUPPORT'),
    patterns: [re(EAFNOSUPPORT)],
    source: 'EAFNOSUPPORT texts (upstream.json)',
    examples: ['nginx: [emerg] socket() [::]:80 failed (97: Address family not supported by protocol)'],
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
      'nodename nor servname',
    ],
    patterns: [
      re(
        'lookup (?<host>[\\w.-]+)(?: on (?:\\[?[\\d.:a-f]+\\]?):53)?: (?:no such host|server misbehaving|i/o timeout|read udp [^\\n]*i/o timeout|dial udp [^\\n]*)',
      ),
      re('getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?<host>[\\w.-]+)'),
      re('java\\.net\\.UnknownHostException: (?<host>[\\w.-]+)'),
      re('host not found in upstream "(?<host>[\\w.-]+)(?::\\d+)?"'),
      re('(?:Name or service not known|Temporary failure in name resolution|Name does not resolve|nodename nor servname provided, or not known)'),
      re("(?:could not|couldn't) resolve host(?: name)?:? (?<host>[\\w.-]+)"),
      re("bad address '(?<host>[\\w.-]+)'"),
    ],
    source:
      'Go net/dnsclient (DNSError "lookup %s on %s: %s"); Node dns (getaddrinfo ENOTFOUND); OpenJDK InetAddress; nginx ngx_http_upstream; glibc gai_strerror; musl gai_strerror; curl',
    examples: [
      'dial tcp: lookup postgres.shop.svc.cluster.local on 10.96.0.10:53: no such host',
      'getaddrinfo ENOTFOUND redis-master',
      'java.net.UnknownHostException: kafka-0.kafka-headless',
      'nginx: [emerg] host not found in upstream "backend:8080" in /etc/nginx/conf.d/default.conf:12',
    ],
  },
  {
    id: 'errno.econnrefused',
    family: 'errno',
    mechanism: 'dependency-refused',
    needles: errnoNeedles('ECONNREFUSED'),
    patterns: [
      re(`(?:dial tcp |connect ECONNREFUSED |connect to |connection to |at |host |server at |on )${ENDPOINT}[^\\n]*?`, ECONNREFUSED),
      re(`connect ECONNREFUSED ${ENDPOINT}`),
      re(ECONNREFUSED, `[^\\n]*?${ENDPOINT}`),
      re(ECONNREFUSED),
    ],
    // A probe's refusal is readiness.failing's and crash.probe-failing's to read.
    unless: /probe failed|probe errored/i,
    source: 'ECONNREFUSED texts (upstream.json); Go net OpError ("dial tcp %s: connect: connection refused"); Node ("connect ECONNREFUSED %s")',
    examples: ['dial tcp 10.96.12.34:5432: connect: connection refused', 'Error: connect ECONNREFUSED 127.0.0.1:15000'],
  },
  {
    id: 'errno.etimedout',
    family: 'errno',
    mechanism: 'dependency-unreachable',
    needles: [...errnoNeedles('ETIMEDOUT'), ...errnoNeedles('EHOSTUNREACH'), ...errnoNeedles('ENETUNREACH'), 'i/o timeout', 'connect timed out'],
    patterns: [
      re(`dial tcp ${ENDPOINT}: (?:i/o timeout|connect: (?:`, ETIMEDOUT, '|', EHOSTUNREACH, '|', ENETUNREACH, '))'),
      re(`(?:connect|connection to) ${ENDPOINT}[^\\n]*(?:`, ETIMEDOUT, '|', EHOSTUNREACH, '|', ENETUNREACH, ')'),
      re('(?:', EHOSTUNREACH, '|', ENETUNREACH, ')'),
      re('java\\.net\\.(?:SocketTimeoutException: connect timed out|NoRouteToHostException)'),
    ],
    // A DNS lookup timing out is dns-resolution's; a probe's timeout is the probe rules'.
    unless: /lookup [\w.-]+|:53: |probe failed|probe errored/i,
    source: 'ETIMEDOUT, EHOSTUNREACH, ENETUNREACH texts (upstream.json); Go net OpError ("dial tcp %s: i/o timeout")',
    examples: ['dial tcp 10.0.3.17:443: i/o timeout', 'dial tcp 172.20.0.15:6379: connect: no route to host'],
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
    ],
    patterns: [
      re('x509: certificate signed by unknown authority'),
      re('unable to get local issuer certificate'),
      re('PKIX path building failed'),
      re('self[- ]signed certificate in certificate chain'),
      re('UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY'),
    ],
    source: 'Go crypto/x509 UnknownAuthorityError; OpenSSL X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY; OpenJDK sun.security.validator; Node tls error codes',
    examples: [
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
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
    source: 'Go crypto/x509 CertificateInvalidError(Expired); OpenSSL X509_V_ERR_CERT_HAS_EXPIRED; Node; OpenJDK',
    examples: ['x509: certificate has expired or is not yet valid: current time 2024-03-01T10:00:00Z is after 2024-02-28T23:59:59Z'],
  },
  {
    id: 'tls.name-mismatch',
    family: 'tls',
    mechanism: 'tls-name-mismatch',
    needles: ['is valid for', 'altnames', 'subject alternative', "doesn't match", 'hostname mismatch'],
    patterns: [
      re('x509: certificate is valid for (?<valid>[^\\n]+?), not (?<host>[\\w.*-]+)'),
      re("Hostname/IP does not match certificate's altnames"),
      re('No subject alternative (?:DNS )?names? matching'),
      re("hostname '(?<host>[\\w.-]+)' doesn't match"),
    ],
    source: 'Go crypto/x509 HostnameError; Node tls checkServerIdentity; OpenJDK HostnameChecker; CPython ssl',
    examples: ['x509: certificate is valid for ingress.local, not api.shop.example.com'],
  },
]);
