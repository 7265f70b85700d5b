// image.insecure-registry: Plain-HTTP registry not allowed by the runtime.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase, runtimeName } from '../pull-errors.js';
import { defineRule } from '../rule.js';

/** How to declare the registry insecure, by runtime: the message id. */
const HOW_TO = { docker: 'dockerInsecure', containerd: 'containerdInsecure', 'cri-o': 'crioInsecure' } as const;

export const rule = defineRule({
  meta: {
    id: 'image.insecure-registry',
    title: 'Plain-HTTP registry not allowed by the runtime',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 57,
    doc:
      'The pull fails with "http: server gave HTTP response to HTTPS client": the registry serves plain HTTP ' +
      "and the node's runtime (docker, containerd, CRI-O) is not configured to treat it as insecure (seed 003).",
    messages: {
      title: 'Registry {{host}} speaks plain HTTP; the runtime on {{node}} insists on HTTPS',
      plainHttp:
        'Every pull from {{host}} fails with {{phrase}}: the registry answers over plain HTTP, ' +
        'and the {{runtime}} on node {{node}} only talks HTTPS to registries it has not been told are insecure. ' +
        'All images from {{host}} fail the same way on this node.',
      dockerInsecure: 'docker: add "{{host}}" to "insecure-registries" in /etc/docker/daemon.json, then systemctl reload docker (or restart).',
      containerdInsecure:
        'containerd: create /etc/containerd/certs.d/{{host}}/hosts.toml with server = "http://{{host}}" ' +
        'and [host."http://{{host}}"] capabilities = ["pull", "resolve"] ' +
        "(the CRI plugin's config_path must point at /etc/containerd/certs.d; restart containerd after setting it, hosts files are read at each pull).",
      crioInsecure: 'CRI-O: add [[registry]] location = "{{host}}" insecure = true to /etc/containers/registries.conf, then systemctl restart crio.',
      everyNode: 'Do it on every node that pulls from {{host}} (node configuration management or a DaemonSet), or better, serve the registry over TLS.',
      prevent: 'Serve registries over HTTPS with a trusted certificate; if plain HTTP is unavoidable, bake the insecure-registry setting into the node image.',
    },
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'insecure-registry',
      (f) => {
        const host = f.error.registry ?? '<registry>';
        const runtime = runtimeName(snapshot, f.error);
        return {
          title: msg('title', { host, node }),
          cause: msg('plainHttp', { host, phrase: quotePhrase(f.error), runtime: runtime ?? 'container runtime', node }),
          advice: [
            // Not knowing the runtime, all three ways, one after the other.
            runtime ? msg(HOW_TO[runtime], { host }) : Object.values(HOW_TO).map((id) => msg(id, { host })),
            msg('everyNode', { host }),
          ],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
