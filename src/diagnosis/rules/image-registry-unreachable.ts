// image.registry-unreachable: Registry unreachable from the node.

import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

const WHY: Record<string, string> = {
  dns: "the node cannot resolve the registry host name (the resolver is the node's /etc/resolv.conf, not cluster DNS)",
  'connection-refused': 'the registry host refuses the connection: nothing listens on that port, or a firewall rejects it',
  'no-route': 'there is no network route from the node to the registry',
  'dial-timeout': 'the connection to the registry times out: a firewall, a missing egress route or proxy drops it',
  'connect-timeout': 'the registry does not answer in time: a firewall, a missing proxy, or an overloaded registry',
  'connection-reset': 'the connection to the registry is reset: a proxy or firewall interferes',
  'registry-unavailable': 'the runtime reports the registry as unavailable',
  proxy:
    'the runtime\'s proxy connection fails: HTTPS_PROXY points at an HTTP proxy with an https:// scheme ("first record does not look like a TLS handshake"), or the proxy refuses or is down',
};

export const rule = defineRule({
  meta: {
    id: 'image.registry-unreachable',
    title: 'Registry unreachable from the node',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 55,
    doc: 'The node cannot reach the registry: "dial tcp ...: i/o timeout", "no such host", "connection refused", "request canceled while waiting for connection", "proxyconnect tcp: ..." (the runtime\'s proxy). Network, DNS, firewall or proxy between the node and the registry.',
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'registry-unreachable',
      (f) => {
        const host = f.error.registry ?? '<registry>';
        const dns = f.error.hint === 'dns';
        return {
          title: `Registry ${host} is unreachable from node ${node}`,
          cause: `Pulling ${f.specImage} fails because ${WHY[f.error.hint] ?? 'the node cannot reach the registry'} (${quotePhrase(f.error)}). Every image from ${host} fails the same way from this node${f.failures > 1 ? `; ${f.failures} failed attempts so far` : ''}.`,
          advice: [
            dns
              ? `On node ${node}, check name resolution: getent hosts ${host.replace(/:\d+$/, '')} and the nameservers in /etc/resolv.conf.`
              : `On node ${node}, test the path: curl -v https://${host}/v2/ (expect 200 or 401); check firewalls, security groups and egress rules.`,
            f.error.hint === 'proxy'
              ? "Fix the runtime's proxy setting (systemd drop-in of containerd/docker/crio): most proxies take HTTPS_PROXY=http://proxy:3128 (http scheme: the tunnel is plain HTTP CONNECT); then restart the runtime."
              : 'If the node needs a proxy, set HTTPS_PROXY/NO_PROXY for the container runtime service (systemd drop-in), then restart it.',
            `If ${host} is blocked or far away (e.g. gcr.io or docker.io from some regions), pull through a reachable mirror or copy the image to a registry the nodes can reach.`,
          ],
          prevent: ['Mirror the images you depend on into a registry inside your network, and monitor that registry from the nodes.'],
        };
      },
    );
  },
});
