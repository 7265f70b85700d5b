// image.insecure-registry: Plain-HTTP registry not allowed by the runtime.

import { pullFindings, quotePhrase, runtimeName } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.insecure-registry',
    title: 'Plain-HTTP registry not allowed by the runtime',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 57,
    doc: 'The pull fails with "http: server gave HTTP response to HTTPS client": the registry serves plain HTTP and the node\'s runtime (docker, containerd, CRI-O) is not configured to treat it as insecure (seed 003).',
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
        const howTo: Record<string, string> = {
          docker: `docker: add "${host}" to "insecure-registries" in /etc/docker/daemon.json, then systemctl reload docker (or restart).`,
          containerd: `containerd: create /etc/containerd/certs.d/${host}/hosts.toml with server = "http://${host}" and [host."http://${host}"] capabilities = ["pull", "resolve"] (the CRI plugin's config_path must point at /etc/containerd/certs.d; restart containerd after setting it, hosts files are read at each pull).`,
          'cri-o': `CRI-O: add [[registry]] location = "${host}" insecure = true to /etc/containers/registries.conf, then systemctl restart crio.`,
        };
        return {
          title: `Registry ${host} speaks plain HTTP; the runtime on ${node} insists on HTTPS`,
          cause: `Every pull from ${host} fails with ${quotePhrase(f.error)}: the registry answers over plain HTTP, and the ${runtime ?? 'container runtime'} on node ${node} only talks HTTPS to registries it has not been told are insecure. All images from ${host} fail the same way on this node.`,
          advice: [
            runtime ? (howTo[runtime] ?? howTo.containerd ?? '') : Object.values(howTo).join(' '),
            `Do it on every node that pulls from ${host} (node configuration management or a DaemonSet), or better, serve the registry over TLS.`,
          ],
          prevent: [
            'Serve registries over HTTPS with a trusted certificate; if plain HTTP is unavoidable, bake the insecure-registry setting into the node image.',
          ],
        };
      },
    );
  },
});
