// node.kubelet-cert-expired: The node's kubelet cannot authenticate: its client certificate expired.

import { decisiveLines } from '../decisive.js';
import { formatDuration, ms, nodeCondition, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

// A kubelet whose client certificate expired can no longer authenticate: the node goes Unknown
// ("Kubelet stopped posting node status.") although the machine and the kubelet run. The node's
// own objects only show the silence; the API server says why, in its log:
//   "Unable to authenticate the request" err="[x509: certificate has expired or is not yet valid:
//    current time 2026-11-21T08:48:02Z is after 2026-11-21T08:47:51Z, ...]"
// The expiry instant in that line is when the node fell silent: that is what ties the two.

const EXPIRED = /x509: certificate has expired or is not yet valid(?:: current time (\S+) is after (\S+?)[,\]"\s])?/;
/** The expiry and the node's last heartbeat this close together are one event. */
const MATCH_SECONDS = 600;

export const rule = defineRule({
  meta: {
    id: 'node.kubelet-cert-expired',
    title: "The node's kubelet cannot authenticate: its client certificate expired",
    category: 'node',
    severity: 'error',
    needs: ['node', 'nodeEvents', 'components'],
    priority: 68,
    supersedes: ['node.not-ready'],
    doc:
      'The node is Unknown ("Kubelet stopped posting node status.") and the API server logs ' +
      "`x509: certificate has expired or is not yet valid ... is after <T>` with T at the node's last heartbeat: " +
      "the kubelet's client certificate expired (rotation off, or the node was down through its renewal), so every request it sends is refused. " +
      "Read from the kube-apiserver pods' log in kube-system (self-managed control planes).",
    messages: {
      title: "Node {{node}}: the kubelet's client certificate expired at {{expiry}}",
      unknown: 'Node {{node}} has been Unknown:',
      unknownFor: 'Node {{node}} has been Unknown for {{duration}}:',
      refused:
        'the API server refuses its kubelet with "x509: certificate has expired or is not yet valid", ' +
        "for a certificate that expired at {{expiry}}, when the node's last heartbeat was. " +
        'The machine and the kubelet may well be running; they cannot authenticate.',
      renew:
        'On {{node}}: `openssl x509 -enddate -noout -in /var/lib/kubelet/pki/kubelet-client-current.pem`; ' +
        'renew it (kubeadm: `kubeadm certs renew` on control-plane nodes, or re-join a worker), then restart the kubelet.',
      rotate: 'Turn on client certificate rotation (kubelet rotateCertificates: true, and approve the CSRs if no approver runs): `kubectl get csr`.',
      prevent: 'Alert on kubelet certificate expiry (kubelet_certificate_manager_client_ttl_seconds) weeks ahead, and keep rotation on.',
    },
  },
  check(snapshot) {
    const node = snapshot.node;
    if (!node) return null;
    const ready = nodeCondition(node, 'Ready');
    if (ready?.status !== 'Unknown') return null;
    const api = snapshot.components?.find((c) => c.role === 'apiserver');
    const name = node.metadata?.name ?? '?';
    const heartbeat = ms(ready.lastHeartbeatTime ?? ready.lastTransitionTime);
    for (const log of api?.logs ?? []) {
      const lines = log.lines.filter((l) => EXPIRED.test(l));
      if (lines.length === 0) continue;
      const expiry = ms(EXPIRED.exec(lines[lines.length - 1]!)?.[2]);
      // Without the expiry instant, or far from the heartbeat, the expired certificate is someone else's.
      if (expiry === undefined || heartbeat === undefined || Math.abs(expiry - heartbeat) > MATCH_SECONDS * 1000) continue;
      const evidence: Evidence[] = [
        {
          source: `node ${name} status.conditions[Ready]`,
          text: `Unknown ${ready.reason ?? ''}: ${ready.message ?? ''} (last heartbeat ${ready.lastHeartbeatTime ?? '?'})`,
        },
        { source: `logs ${log.pod} ${log.container}`, text: decisiveLines(lines, { maxLines: 2, tail: 1 }).join('\n') },
      ];
      const silentFor = secondsSince(snapshot, ready.lastHeartbeatTime);
      return {
        title: msg('title', { node: name, expiry: new Date(expiry).toISOString() }),
        cause: [
          silentFor !== undefined ? msg('unknownFor', { node: name, duration: formatDuration(silentFor) }) : msg('unknown', { node: name }),
          msg('refused', { expiry: new Date(expiry).toISOString() }),
        ],
        evidence,
        advice: [msg('renew', { node: name }), msg('rotate')],
        prevent: [msg('prevent')],
        causeKey: `node/${name}:kubelet-cert-expired`,
        params: { node: name, expiredAt: new Date(expiry).toISOString() },
      };
    }
    return null;
  },
});
