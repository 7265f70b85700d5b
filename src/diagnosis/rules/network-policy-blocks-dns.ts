// network.policy-blocks-dns: A NetworkPolicy's egress allow-list has no rule for DNS: lookups time out.

import { cidrCovers } from '../../kube/ip.js';
import { formatSelector, type LabelSelectorObject, matchLabels, requirementsFromSelector } from '../../kube/selectors.js';
import { componentState } from '../components.js';
import { logSource } from '../crashes.js';
import { clip, containerStatuses, eventEvidence, namespaceOf } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, KubeObject, Pod, Snapshot } from '../types.js';

// A pod is isolated for egress as soon as one NetworkPolicy that selects it has Egress in its
// policyTypes (`default-deny-all` with `podSelector: {}` is typical): from then on it may send only
// what the egress rules of all such policies allow together. When none allows port 53 to the
// cluster DNS pods, the CNI drops every query, and the app sees a timeout, not a refusal:
//   lookup postgres on 10.96.0.10:53: read udp 10.244.1.12:41251->10.96.0.10:53: i/o timeout   (Go)
//   getaddrinfo EAI_AGAIN postgres                                                            (Node.js)
//   [Errno -3] Temporary failure in name resolution / UnknownHostException: db: Temporary failure…   (glibc: Python, Java, libpq)
//   ;; connection timed out; no servers could be reached                                      (dig, nslookup)
// An answer (NXDOMAIN, SERVFAIL) means the query got through: then the policy is not what fails.
// CoreDNS down is dns.coredns-down's; the policies are evaluated as the API defines them and the
// rule stays quiet whenever one of their rules might let DNS through.

/** A lookup that got no answer at all. */
const TIMED_OUT = new RegExp(
  [
    String.raw`lookup \S+ on \S+:53: (?:read|write|dial) (?:udp|tcp)\b[^\n]*i\/o timeout`,
    String.raw`lookup \S+(?: on \S+:53)?: i\/o timeout`,
    'Temporary failure in name resolution',
    'getaddrinfo EAI_AGAIN',
    String.raw`\[Errno -3\] Try again`,
    String.raw`UnknownHostException: \S+: Try again`,
    'no servers could be reached',
    'Resolving timed out after',
    String.raw`Resource temporarily unavailable \([\w.-]+:\d+\)`,
  ].join('|'),
  'i',
);

/** A lookup failure that does not say whether a server answered (Java's bare UnknownHostException, curl). */
const UNSAID = /java\.net\.UnknownHostException|Could not resolve host|nslookup: can't resolve|could not translate host name/i;

/** A server answered (NXDOMAIN, SERVFAIL): DNS traffic gets through. */
const ANSWERED = new RegExp(
  [
    'no such host|Name or service not known|Name does not resolve|getaddrinfo ENOTFOUND|NXDOMAIN',
    String.raw`server misbehaving|\[Errno -2\]|server can't find|nodename nor servname`,
  ].join('|'),
  'i',
);

/** Go's error alone, for the cause (the whole line, often a JSON log record, is in the evidence). */
const GO_LOOKUP = /lookup \S+ on \S+:53: [^"\n]*?i\/o timeout/;

type Verdict = 'yes' | 'no' | 'maybe';
const any = (vs: Verdict[]): Verdict => (vs.includes('yes') ? 'yes' : vs.includes('maybe') ? 'maybe' : 'no');
const both = (a: Verdict, b: Verdict): Verdict => (a === 'no' || b === 'no' ? 'no' : a === 'yes' && b === 'yes' ? 'yes' : 'maybe');

interface Port {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Peer {
  podSelector?: LabelSelectorObject;
  namespaceSelector?: LabelSelectorObject;
  ipBlock?: { cidr?: string; except?: string[] };
}
interface EgressRule {
  to?: Peer[];
  ports?: Port[];
}
interface PolicySpec {
  podSelector?: LabelSelectorObject;
  policyTypes?: string[];
  egress?: EgressRule[];
}

/** What the policies are evaluated against: the cluster DNS pods (when read) and the server the log names. */
interface DnsTarget {
  namespace: string;
  pods: Pod[];
  server?: string;
}

const specOf = (p: KubeObject): PolicySpec => (p.spec ?? {}) as PolicySpec;

/** Without policyTypes a policy is Ingress, and Egress too when it has egress rules (the API's default). */
function restrictsEgress(spec: PolicySpec): boolean {
  return (spec.policyTypes ?? ['Ingress', ...(spec.egress !== undefined ? ['Egress'] : [])]).includes('Egress');
}

/**
 * A selector against labels of which only `known` are sure: a requirement on a known key decides,
 * one on another key leaves it open.
 */
function selectorVerdict(sel: LabelSelectorObject, labels: Record<string, string>, complete: boolean): Verdict {
  const reqs = requirementsFromSelector(sel);
  const decided = complete ? reqs : reqs.filter((r) => Object.hasOwn(labels, r.key));
  if (!matchLabels(decided, labels)) return 'no';
  return decided.length === reqs.length ? 'yes' : 'maybe';
}

function ipBlockVerdict(block: NonNullable<Peer['ipBlock']>, dns: DnsTarget): Verdict {
  const inBlock = (ip: string): boolean | undefined => {
    const c = cidrCovers(block.cidr ?? '', ip);
    if (c !== true) return c;
    return !(block.except ?? []).some((e) => cidrCovers(e, ip) === true);
  };
  const ips = dns.pods.flatMap((p) => (p.status?.podIPs ?? []).map((x) => x.ip).concat(p.status?.podIP ?? [])).filter((ip): ip is string => !!ip);
  if (ips.some((ip) => inBlock(ip) === true)) return 'yes';
  // The Service IP is rewritten to a pod's before most CNIs match ipBlocks: covering it proves nothing either way.
  if (dns.server && inBlock(dns.server) !== false) return 'maybe';
  return ips.length > 0 && ips.every((ip) => inBlock(ip) === false) ? 'no' : 'maybe';
}

function peerVerdict(peer: Peer, policyNamespace: string, dns: DnsTarget): Verdict {
  if (peer.ipBlock) return ipBlockVerdict(peer.ipBlock, dns);
  if (!peer.podSelector && !peer.namespaceSelector) return 'maybe';
  // Without a namespaceSelector a peer is in the policy's own namespace; every namespace carries kubernetes.io/metadata.name.
  const ns = peer.namespaceSelector
    ? selectorVerdict(peer.namespaceSelector, { 'kubernetes.io/metadata.name': dns.namespace }, false)
    : policyNamespace === dns.namespace
      ? 'yes'
      : 'no';
  const sel = peer.podSelector;
  const pods: Verdict = !sel
    ? 'yes'
    : dns.pods.length > 0
      ? any(dns.pods.map((p) => selectorVerdict(sel, p.metadata?.labels ?? {}, true)))
      : selectorVerdict(sel, { 'k8s-app': 'kube-dns' }, false);
  return both(ns, pods);
}

/** Whether a rule's ports let `protocol` port 53 through; a named port is the DNS pods' container port of that name. */
function portVerdict(ports: Port[] | undefined, protocol: 'UDP' | 'TCP', dns: DnsTarget): Verdict {
  if (!ports || ports.length === 0) return 'yes';
  return any(
    ports.map((p): Verdict => {
      // A port without protocol is TCP.
      if ((p.protocol ?? 'TCP').toUpperCase() !== protocol) return 'no';
      if (p.port === undefined) return 'yes';
      const n = typeof p.port === 'number' ? p.port : /^\d+$/.test(p.port) ? Number(p.port) : undefined;
      if (n !== undefined) return n === 53 || (p.endPort !== undefined && n <= 53 && 53 <= p.endPort) ? 'yes' : 'no';
      if (dns.pods.length === 0) return 'maybe';
      const named = dns.pods.flatMap((pod) => (pod.spec?.containers ?? []).flatMap((c) => c.ports ?? [])).filter((cp) => cp.name === p.port);
      return named.some((cp) => cp.containerPort === 53 && (cp.protocol ?? 'TCP').toUpperCase() === protocol) ? 'yes' : 'no';
    }),
  );
}

function ruleVerdict(rule: EgressRule, protocol: 'UDP' | 'TCP', policyNamespace: string, dns: DnsTarget): Verdict {
  const to: Verdict = !rule.to || rule.to.length === 0 ? 'yes' : any(rule.to.map((peer) => peerVerdict(peer, policyNamespace, dns)));
  return both(portVerdict(rule.ports, protocol, dns), to);
}

// ---- how a policy reads in the finding ----

/** The selector as kubectl prints it; `{}` selects everything. */
const describeSelector = (sel: LabelSelectorObject | undefined): string => formatSelector(sel) || '{}';

function describePeer(peer: Peer): string {
  if (peer.ipBlock) return `${peer.ipBlock.cidr ?? '?'}${peer.ipBlock.except?.length ? ` except ${peer.ipBlock.except.join(', ')}` : ''}`;
  const ns = peer.namespaceSelector ? `namespaces ${describeSelector(peer.namespaceSelector)}` : '';
  const pods = peer.podSelector ? `pods ${describeSelector(peer.podSelector)}` : '';
  return [ns, pods].filter(Boolean).join(' / ') || '?';
}

function describePort(p: Port): string {
  const proto = (p.protocol ?? 'TCP').toUpperCase();
  if (p.port === undefined) return `${proto} any port`;
  return `${proto} ${p.port}${p.endPort !== undefined ? `-${p.endPort}` : ''}`;
}

function describeRule(rule: EgressRule): string {
  const to = !rule.to || rule.to.length === 0 ? 'anywhere' : rule.to.map(describePeer).join(' or ');
  const ports = !rule.ports || rule.ports.length === 0 ? 'any port' : rule.ports.map(describePort).join(', ');
  return `${to} on ${ports}`;
}

function describePolicy(p: KubeObject): string {
  const spec = specOf(p);
  const rules = spec.egress ?? [];
  return [
    `podSelector ${describeSelector(spec.podSelector)}`,
    `policyTypes ${(spec.policyTypes ?? ['Ingress', ...(spec.egress !== undefined ? ['Egress'] : [])]).join(', ')}`,
    rules.length === 0 ? 'egress: none (denies all egress)' : `egress: ${rules.map(describeRule).join('; ')}`,
    ...(p.metadata?.creationTimestamp ? [`created ${p.metadata.creationTimestamp}`] : []),
  ].join(' · ');
}

// ---- the failing lookup ----

/** The pod's own texts, by where they come from: logs, termination messages, probe failures. */
function appSources(snapshot: Snapshot): { source: string; lines: string[]; evidence?: Evidence }[] {
  const out: { source: string; lines: string[]; evidence?: Evidence }[] = [];
  for (const tail of snapshot.logs ?? []) out.push({ source: logSource(tail), lines: tail.lines });
  for (const s of containerStatuses(snapshot.pod)) {
    const list = s.init ? 'initContainerStatuses' : 'containerStatuses';
    for (const field of ['state', 'lastState'] as const) {
      const message = s.status[field]?.terminated?.message;
      if (message) out.push({ source: `pod.status.${list}[${s.status.name}].${field}.terminated.message`, lines: message.split('\n') });
    }
  }
  for (const e of snapshot.events.filter((x) => x.reason === 'Unhealthy' && x.message)) {
    const evidence = eventEvidence(e);
    out.push({ source: evidence.source, lines: (e.message ?? '').split('\n'), evidence });
  }
  return out;
}

/** The last lookup that got no answer (or, when no server answered anywhere, one that does not say). */
function failedLookup(snapshot: Snapshot): { source: string; line: string } | undefined {
  const sources = appSources(snapshot);
  const pick = (re: RegExp) => {
    for (const s of sources) {
      const line = [...s.lines].reverse().find((l) => re.test(l) && !ANSWERED.test(l));
      if (line) return { source: s.source, line: line.trim() };
    }
    return undefined;
  };
  const timedOut = pick(TIMED_OUT);
  if (timedOut) return timedOut;
  if (sources.some((s) => s.lines.some((l) => ANSWERED.test(l)))) return undefined;
  return pick(UNSAID);
}

const messages = {
  titleOne: 'DNS lookups time out: NetworkPolicy {{policies}} allows the pod no egress to cluster DNS (port 53)',
  titleMany: 'DNS lookups time out: NetworkPolicies {{policies}} allow the pod no egress to cluster DNS (port 53)',
  lookup: 'The pod\'s name lookups get no answer from {{server}}: "{{line}}".',
  selectedOne:
    'NetworkPolicy {{policies}} selects the pod and has Egress in its policyTypes, so the pod may send only what its egress rules allow, ' +
    'and none of them lets port 53 through to the cluster DNS pods: the CNI drops every query and the lookups time out.',
  selectedMany:
    'NetworkPolicies {{policies}} select the pod with Egress in their policyTypes, so the pod may send only what their egress rules allow together, ' +
    'and none of them lets port 53 through to the cluster DNS pods: the CNI drops every query and the lookups time out.',
  allowOnly: 'The egress rules allow only: {{rules}}.',
  denyAll: 'There is no egress rule at all: all egress is denied.',
  tcpOnly: 'A rule lets TCP 53 through but not UDP 53 (a port without protocol is TCP), and resolvers ask over UDP first, so the lookups still time out.',
  dnsServing: '{{summary}} DNS itself answers; the queries never reach it.',
  addRule:
    'Allow DNS for this pod: add an egress rule to NetworkPolicy {{policy}}, ' +
    'or a NetworkPolicy allow-dns beside it with the same podSelector ({{selector}}), ' +
    'with `to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: {{dnsNamespace}}}}, podSelector: {matchLabels: {k8s-app: kube-dns}}}]` ' +
    'and `ports: [{protocol: UDP, port: 53}, {protocol: TCP, port: 53}]`. Egress rules of all policies add up, so the others need no change.',
  owners:
    'The policies belong to the team that owns namespace {{namespace}}: change them where they are deployed from (GitOps, chart), or an edit is reverted; ' +
    'the pod resolves names again on its next restart.',
  prevent:
    'Ship an allow-dns NetworkPolicy (egress to kube-dns on UDP and TCP 53, podSelector {}) with every policy that restricts egress, ' +
    'in the same chart or namespace template.',
} as const;

export const rule = defineRule({
  meta: {
    id: 'network.policy-blocks-dns',
    title: "A NetworkPolicy's egress allow-list has no rule for DNS: lookups time out",
    category: 'network',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'components', 'changes'],
    priority: 64,
    supersedes: ['crash.app-exit', 'init.waiting-dependency', 'readiness.failing', 'crash.probe-failing'],
    doc:
      "The pod's DNS lookups time out (`lookup … on 10.96.0.10:53: read udp …: i/o timeout`, `getaddrinfo EAI_AGAIN`, " +
      '`Temporary failure in name resolution`) while CoreDNS is Ready, and the NetworkPolicies that select the pod with Egress in policyTypes ' +
      'allow no port 53 to the cluster DNS pods (a default-deny egress policy whose allow-list forgot DNS). ' +
      'Add an egress rule to kube-dns in kube-system on UDP and TCP 53; the policies belong to the application team, so no playbook.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    // hostNetwork pods are outside NetworkPolicy; other DNS policies do not ask the cluster DNS.
    if (!pod || pod.spec?.hostNetwork || !['ClusterFirst', 'ClusterFirstWithHostNet'].includes(pod.spec?.dnsPolicy ?? 'ClusterFirst')) return null;
    const namespace = namespaceOf(snapshot);
    const labels = pod.metadata?.labels ?? {};
    const egress = (snapshot.history?.networkPolicies ?? []).filter((p) => {
      const spec = specOf(p);
      return (p.metadata?.namespace ?? namespace) === namespace && restrictsEgress(spec) && matchLabels(requirementsFromSelector(spec.podSelector), labels);
    });
    if (egress.length === 0) return null;
    const lookup = failedLookup(snapshot);
    if (!lookup) return null;

    // CoreDNS not serving is dns.coredns-down's (the same test, so exactly one of the two speaks).
    const state = componentState(snapshot, 'dns');
    if (state && state.fact.pods.length > 0 && state.down.length > 0 && !(state.up.length > 0 && state.down.length < state.up.length)) return null;
    const server = /lookup \S+ on (\S+):53\b/.exec(lookup.line)?.[1];
    // A node-local cache (169.254.20.10) is on the host: the pod selectors below do not describe the way there.
    if (server?.startsWith('169.254.')) return null;
    const dns: DnsTarget = {
      namespace: state?.fact.pods[0]?.metadata?.namespace ?? 'kube-system',
      pods: state?.fact.pods ?? [],
      ...(server ? { server } : {}),
    };
    const verdict = (protocol: 'UDP' | 'TCP') => any(egress.flatMap((p) => (specOf(p).egress ?? []).map((r) => ruleVerdict(r, protocol, namespace, dns))));
    // Quiet unless every rule surely keeps DNS out: one that might let it through is enough doubt.
    if (verdict('UDP') !== 'no') return null;
    const tcpOnly = verdict('TCP') === 'yes';

    const names = egress.map((p) => p.metadata?.name ?? '?');
    const policies = names.join(', ');
    const rules = egress.flatMap((p) => specOf(p).egress ?? []);
    // The narrowest policy (one that names the pod's labels) is where the rule belongs; else the first.
    const home = egress.find((p) => requirementsFromSelector(specOf(p).podSelector).length > 0) ?? egress[0]!;
    const one = egress.length === 1;
    const serving = state !== undefined && state.fact.pods.length > 0 && state.down.length === 0;
    return {
      title: msg(one ? 'titleOne' : 'titleMany', { policies }),
      cause: [
        msg('lookup', { server: server ? `${server}:53` : 'the cluster DNS', line: GO_LOOKUP.exec(lookup.line)?.[0] ?? clip(lookup.line, 400) }),
        msg(one ? 'selectedOne' : 'selectedMany', { policies }),
        rules.length === 0 ? msg('denyAll') : msg('allowOnly', { rules: rules.map(describeRule).join('; ') }),
        tcpOnly && msg('tcpOnly'),
        serving && state && msg('dnsServing', { summary: state.summary }),
      ],
      evidence: [
        { source: lookup.source, text: lookup.line },
        ...egress.map((p) => ({ source: `NetworkPolicy ${namespace}/${p.metadata?.name ?? '?'} (selects the pod)`, text: describePolicy(p) })),
        ...(state && state.fact.pods.length > 0 ? [{ source: `cluster DNS (${dns.namespace}, k8s-app=kube-dns)`, text: state.summary }] : []),
      ],
      advice: [
        msg('addRule', { policy: home.metadata?.name ?? '?', selector: describeSelector(specOf(home).podSelector), dnsNamespace: dns.namespace }),
        msg('owners', { namespace }),
      ],
      prevent: [msg('prevent')],
      playbook: null,
      causeKey: `netpol/${namespace}/${names.join('+')}:dns-egress`,
      params: { policies: names, namespace, ...(server ? { server } : {}), tcpOnly },
    };
  },
});
