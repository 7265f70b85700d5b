// dns.coredns-down: Cluster DNS is down: CoreDNS is not serving.

import { componentState } from '../components.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

// The pod fails on name lookups (`lookup postgres on 10.96.0.10:53: ... i/o timeout`, `Temporary
// failure in name resolution`, `UnknownHostException`) and cluster DNS itself is down: the CoreDNS
// pods crash-loop (the loop plugin's `[FATAL] plugin/loop: Loop (127.0.0.1:53 -> :53) detected`, a
// bad Corefile) or none is Ready. The app is a victim; CoreDNS is the cause. With CoreDNS healthy,
// a failing lookup is the app's (a wrong name or namespace), and crash.app-exit says so.

export const rule = defineRule({
  meta: {
    id: 'dns.coredns-down',
    title: 'Cluster DNS is down: CoreDNS is not serving',
    category: 'dns',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'components'],
    priority: 66,
    supersedes: ['crash.app-exit', 'init.waiting-dependency', 'readiness.failing', 'crash.probe-failing'],
    doc:
      'The pod fails on DNS lookups against the cluster DNS service, and the CoreDNS pods (kube-system, k8s-app=kube-dns) are not Ready or crash-loop; ' +
      'their own log says why (a forwarding loop, a Corefile error, an upstream that does not answer). ' +
      'Every pod that resolves names fails the same way: fix CoreDNS, not the app.',
    messages: {
      title: 'Cluster DNS is down ({{down}}/{{pods}} CoreDNS pods not serving)',
      cause:
        'The pod fails to resolve names ("{{why}}") because cluster DNS is not serving. {{summary}} ' +
        'Every pod that looks up a name fails the same way until CoreDNS runs again.',
      forwardLoop:
        "CoreDNS forwards to itself: the node's /etc/resolv.conf points at a local resolver (127.0.0.53, systemd-resolved). " +
        "Point the kubelet's --resolv-conf at the real upstream file (/run/systemd/resolve/resolv.conf) " +
        'or set an explicit `forward . <upstream>` in the Corefile.',
      checkCorefile:
        '`kubectl -n kube-system logs -l k8s-app=kube-dns --previous` and `kubectl -n kube-system get configmap coredns -o yaml`: ' +
        'fix the Corefile or the upstream it forwards to.',
      appRecovers: 'Once CoreDNS is Ready the app recovers on its next restart; nothing needs changing in the app.',
      prevent: 'Alert on CoreDNS availability (kube_deployment_status_replicas_available) and on coredns_dns_responses_total by rcode.',
    },
  },
  check(snapshot) {
    const dns = componentState(snapshot, 'dns');
    if (!dns || !snapshot.pod) return null;
    // No pod labelled k8s-app=kube-dns: another DNS setup (managed, node-local), nothing to tell.
    if (dns.fact.pods.length === 0) return null;
    // Healthy CoreDNS: the lookup failure is the app's own (a wrong name), not an outage.
    if (dns.down.length === 0) return null;
    if (dns.up.length > 0 && dns.down.length < dns.up.length) return null;
    return {
      title: msg('title', { down: dns.down.length, pods: dns.fact.pods.length }),
      cause: msg('cause', { why: clip(dns.fact.why, 300), summary: dns.summary }),
      evidence: [{ source: 'the pod', text: dns.fact.why }, ...dns.evidence],
      advice: [/plugin\/loop|Loop \(/i.test(dns.evidence.map((e) => e.text).join('\n')) ? msg('forwardLoop') : msg('checkCorefile'), msg('appRecovers')],
      prevent: [msg('prevent')],
      causeKey: 'cluster-dns:down',
      params: { down: dns.down.length, pods: dns.fact.pods.length },
    };
  },
});
