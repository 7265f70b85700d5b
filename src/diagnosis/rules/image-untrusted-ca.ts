// image.untrusted-ca: Registry certificate not trusted by the node.

import { pullFindings, quotePhrase, runtimeName } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.untrusted-ca',
    title: 'Registry certificate not trusted by the node',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 57,
    doc: 'The pull fails TLS verification ("x509: certificate signed by unknown authority", Go >= 1.20 "tls: failed to verify certificate: x509: ..."): the registry uses a self-signed or private CA the node does not trust, or a certificate for another name (seed 003).',
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'untrusted-ca',
      (f) => {
        const host = f.error.registry ?? '<registry>';
        const runtime = runtimeName(snapshot, f.error);
        const caPath: Record<string, string> = {
          docker: `/etc/docker/certs.d/${host}/ca.crt (docker reads it without a restart)`,
          containerd: `/etc/containerd/certs.d/${host}/ca.crt, referenced as ca = "/etc/containerd/certs.d/${host}/ca.crt" in that directory's hosts.toml (read at each pull; restart containerd only after first setting config_path to /etc/containerd/certs.d)`,
          'cri-o': `/etc/containers/certs.d/${host}/ca.crt`,
        };
        const why =
          f.error.hint === 'x509-name-mismatch'
            ? `the certificate ${host} presents was issued for another name (${quotePhrase(f.error)}): reissue it with "${host.replace(/:\d+$/, '')}" in its subject alternative names, or pull through the name the certificate carries`
            : f.error.hint === 'x509-expired'
              ? `its certificate has expired or is not yet valid (${quotePhrase(f.error)}): renew it (and check the node clock)`
              : `its certificate chain ends in a CA the node does not trust (${quotePhrase(f.error)}): a self-signed or private CA, or a TLS-intercepting proxy`;
        return {
          title: `Node ${node} does not trust the TLS certificate of registry ${host}`,
          cause: `Pulling ${f.specImage} fails TLS verification against ${host}: ${why}. Every image from ${host} fails the same way on this node.`,
          advice: [
            f.error.hint === 'x509-unknown-authority' || f.error.hint === 'tls-verify'
              ? `Install the registry's CA on node ${node}: ${runtime ? (caPath[runtime] ?? '') : Object.values(caPath).join(', or ')}; or add it to the node's system trust store and restart the runtime.`
              : `Fix the certificate of ${host}; node-side trust does not help with a wrong name or an expired certificate.`,
            `Roll the change out to every node that pulls from ${host}, then let the kubelet retry (or delete the pod).`,
          ],
          prevent: ['Use certificates from a CA the nodes already trust, or distribute the private CA with the node image.'],
        };
      },
    );
  },
});
