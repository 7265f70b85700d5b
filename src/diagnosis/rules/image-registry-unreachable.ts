// image.registry-unreachable: Registry unreachable from the node.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

/** Why the registry cannot be reached, by the classifier's hint: the message id. */
const WHY = {
  dns: 'dns',
  'connection-refused': 'connectionRefused',
  'no-route': 'noRoute',
  'dial-timeout': 'dialTimeout',
  'connect-timeout': 'connectTimeout',
  'connection-reset': 'connectionReset',
  'registry-unavailable': 'registryUnavailable',
  proxy: 'proxy',
} as const;

function whyId(hint: string): (typeof WHY)[keyof typeof WHY] | 'unreachable' {
  return Object.hasOwn(WHY, hint) ? WHY[hint as keyof typeof WHY] : 'unreachable';
}

export const rule = defineRule({
  meta: {
    id: 'image.registry-unreachable',
    title: 'Registry unreachable from the node',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 55,
    doc:
      'The node cannot reach the registry: "dial tcp ...: i/o timeout", "no such host", "connection refused", ' +
      '"request canceled while waiting for connection", "proxyconnect tcp: ..." (the runtime\'s proxy). ' +
      'Network, DNS, firewall or proxy between the node and the registry.',
    messages: {
      title: 'Registry {{host}} is unreachable from node {{node}}',
      dns:
        'Pulling {{image}} fails because the node cannot resolve the registry host name ' +
        "(the resolver is the node's /etc/resolv.conf, not cluster DNS) ({{phrase}}).",
      connectionRefused:
        'Pulling {{image}} fails because the registry host refuses the connection: nothing listens on that port, or a firewall rejects it ({{phrase}}).',
      noRoute: 'Pulling {{image}} fails because there is no network route from the node to the registry ({{phrase}}).',
      dialTimeout:
        'Pulling {{image}} fails because the connection to the registry times out: a firewall, a missing egress route or proxy drops it ({{phrase}}).',
      connectTimeout:
        'Pulling {{image}} fails because the registry does not answer in time: a firewall, a missing proxy, or an overloaded registry ({{phrase}}).',
      connectionReset: 'Pulling {{image}} fails because the connection to the registry is reset: a proxy or firewall interferes ({{phrase}}).',
      registryUnavailable: 'Pulling {{image}} fails because the runtime reports the registry as unavailable ({{phrase}}).',
      proxy:
        "Pulling {{image}} fails because the runtime's proxy connection fails: " +
        'HTTPS_PROXY points at an HTTP proxy with an https:// scheme ("first record does not look like a TLS handshake"), ' +
        'or the proxy refuses or is down ({{phrase}}).',
      unreachable: 'Pulling {{image}} fails because the node cannot reach the registry ({{phrase}}).',
      everyImage: 'Every image from {{host}} fails the same way from this node.',
      everyImageAttempts: 'Every image from {{host}} fails the same way from this node; {{failures}} failed attempts so far.',
      checkDns: 'On node {{node}}, check name resolution: getent hosts {{hostname}} and the nameservers in /etc/resolv.conf.',
      checkPath: 'On node {{node}}, test the path: curl -v https://{{host}}/v2/ (expect 200 or 401); check firewalls, security groups and egress rules.',
      fixProxy:
        "Fix the runtime's proxy setting (systemd drop-in of containerd/docker/crio): " +
        'most proxies take HTTPS_PROXY=http://proxy:3128 (http scheme: the tunnel is plain HTTP CONNECT); then restart the runtime.',
      setProxy: 'If the node needs a proxy, set HTTPS_PROXY/NO_PROXY for the container runtime service (systemd drop-in), then restart it.',
      mirror:
        'If {{host}} is blocked or far away (e.g. gcr.io or docker.io from some regions), ' +
        'pull through a reachable mirror or copy the image to a registry the nodes can reach.',
      prevent: 'Mirror the images you depend on into a registry inside your network, and monitor that registry from the nodes.',
    },
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
          title: msg('title', { host, node }),
          cause: [
            msg(whyId(f.error.hint), { image: f.specImage, phrase: quotePhrase(f.error) }),
            f.failures > 1 ? msg('everyImageAttempts', { host, failures: f.failures }) : msg('everyImage', { host }),
          ],
          advice: [
            dns ? msg('checkDns', { node, hostname: host.replace(/:\d+$/, '') }) : msg('checkPath', { node, host }),
            msg(f.error.hint === 'proxy' ? 'fixProxy' : 'setProxy'),
            msg('mirror', { host }),
          ],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
