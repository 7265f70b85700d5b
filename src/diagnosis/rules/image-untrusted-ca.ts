// image.untrusted-ca: Registry certificate not trusted by the node.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase, runtimeName } from '../pull-errors.js';
import { defineRule } from '../rule.js';

/** Where the registry's CA goes, by runtime: the message id. */
const INSTALL_CA = { docker: 'installCaDocker', containerd: 'installCaContainerd', 'cri-o': 'installCaCrio' } as const;

export const rule = defineRule({
  meta: {
    id: 'image.untrusted-ca',
    title: 'Registry certificate not trusted by the node',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 57,
    doc:
      'The pull fails TLS verification ("x509: certificate signed by unknown authority", Go >= 1.20 "tls: failed to verify certificate: x509: ..."): ' +
      'the registry uses a self-signed or private CA the node does not trust, or a certificate for another name (seed 003).',
    messages: {
      title: 'Node {{node}} does not trust the TLS certificate of registry {{host}}',
      nameMismatch:
        'Pulling {{image}} fails TLS verification against {{host}}: the certificate {{host}} presents was issued for another name ({{phrase}}): ' +
        'reissue it with "{{hostname}}" in its subject alternative names, or pull through the name the certificate carries.',
      expired:
        'Pulling {{image}} fails TLS verification against {{host}}: its certificate has expired or is not yet valid ({{phrase}}): ' +
        'renew it (and check the node clock).',
      unknownCa:
        'Pulling {{image}} fails TLS verification against {{host}}: its certificate chain ends in a CA the node does not trust ({{phrase}}): ' +
        'a self-signed or private CA, or a TLS-intercepting proxy.',
      everyImage: 'Every image from {{host}} fails the same way on this node.',
      installCaDocker:
        "Install the registry's CA on node {{node}}: /etc/docker/certs.d/{{host}}/ca.crt (docker reads it without a restart); " +
        "or add it to the node's system trust store and restart the runtime.",
      installCaContainerd:
        "Install the registry's CA on node {{node}}: /etc/containerd/certs.d/{{host}}/ca.crt, " +
        'referenced as ca = "/etc/containerd/certs.d/{{host}}/ca.crt" in that directory\'s hosts.toml ' +
        '(read at each pull; restart containerd only after first setting config_path to /etc/containerd/certs.d); ' +
        "or add it to the node's system trust store and restart the runtime.",
      installCaCrio:
        "Install the registry's CA on node {{node}}: /etc/containers/certs.d/{{host}}/ca.crt; " +
        "or add it to the node's system trust store and restart the runtime.",
      installCaAny:
        "Install the registry's CA on node {{node}}: /etc/docker/certs.d/{{host}}/ca.crt (docker reads it without a restart), " +
        'or /etc/containerd/certs.d/{{host}}/ca.crt, referenced as ca = "/etc/containerd/certs.d/{{host}}/ca.crt" ' +
        "in that directory's hosts.toml (read at each pull; restart containerd only after first setting config_path to /etc/containerd/certs.d), " +
        "or /etc/containers/certs.d/{{host}}/ca.crt; or add it to the node's system trust store and restart the runtime.",
      fixCertificate: 'Fix the certificate of {{host}}; node-side trust does not help with a wrong name or an expired certificate.',
      rollOut: 'Roll the change out to every node that pulls from {{host}}, then let the kubelet retry (or delete the pod).',
      prevent: 'Use certificates from a CA the nodes already trust, or distribute the private CA with the node image.',
    },
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
        const phrase = quotePhrase(f.error);
        const why =
          f.error.hint === 'x509-name-mismatch'
            ? msg('nameMismatch', { image: f.specImage, host, phrase, hostname: host.replace(/:\d+$/, '') })
            : msg(f.error.hint === 'x509-expired' ? 'expired' : 'unknownCa', { image: f.specImage, host, phrase });
        return {
          title: msg('title', { node, host }),
          cause: [why, msg('everyImage', { host })],
          advice: [
            f.error.hint === 'x509-unknown-authority' || f.error.hint === 'tls-verify'
              ? msg(runtime ? INSTALL_CA[runtime] : 'installCaAny', { node, host })
              : msg('fixCertificate', { host }),
            msg('rollOut', { host }),
          ],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
