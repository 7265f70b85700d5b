// image.pull-throttled: Image pulls throttled.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.pull-throttled',
    title: 'Image pulls throttled',
    category: 'image',
    severity: 'warning',
    needs: ['pod', 'events', 'node'],
    priority: 55,
    doc:
      'Pulls are rate limited: by the kubelet itself ("pull QPS exceeded": registryPullQPS 5 / registryBurst 10 by default, seed 003) ' +
      'when many pods pull at once on one node, or by the registry ("toomanyrequests", "429 Too Many Requests", ' +
      "e.g. Docker Hub's anonymous pull limit).",
    messages: {
      kubeletTitle: 'Kubelet on {{node}} throttles image pulls (pull QPS exceeded)',
      kubeletRefused:
        'The kubelet on node {{node}} refused to start the pull of {{image}} itself ({{phrase}}): ' +
        'more pulls were requested at once than its registryPullQPS (--registry-qps, default 5) ' +
        'and registryBurst (--registry-burst, default 10) allow. Other pods on this node pulling at the same time hit the same limit.',
      raiseLimits: 'Raise registryPullQPS and registryBurst in the kubelet configuration of {{node}} (0 disables the limit), then restart the kubelet.',
      backOff: 'Meanwhile the kubelet retries with back-off; the pods start once the burst is over.',
      kubeletPrevent: 'Pre-pull large or common images on nodes (a DaemonSet or the node image), and size the kubelet pull limits for your rollout sizes.',
      registryTitle: 'Registry {{registry}} rate-limits pulls (429 Too Many Requests)',
      quota: 'The registry {{registry}} rejects the pull of {{image}} with {{phrase}}: this node (or the NAT address it shares) has used up its pull quota.',
      quotaHub:
        'The registry {{registry}} rejects the pull of {{image}} with {{phrase}}: ' +
        'this node (or the NAT address it shares) has used up its pull quota (Docker Hub limits anonymous pulls per source IP).',
      untilReset: 'All pulls from this registry through the same address are affected until the window resets.',
      authenticate: 'Authenticate the pulls (an imagePullSecret for a Docker Hub account with a higher limit) or pull through a mirror / pull-through cache.',
      cacheOrLimit: 'Pull through a cache or mirror, or ask the registry owner for a higher limit.',
      copyImages: 'Copy the images you depend on into your own registry (e.g. crane copy {{ref}} <your-registry>/...).',
      registryPrevent:
        'Never depend on anonymous pulls from public registries in production: mirror images and use imagePullPolicy IfNotPresent with immutable tags.',
    },
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'throttled',
      (f) => {
        const e = f.error;
        if (e.hint === 'kubelet-qps') {
          return {
            title: msg('kubeletTitle', { node }),
            cause: msg('kubeletRefused', { node, image: f.specImage, phrase: quotePhrase(e) }),
            advice: [msg('raiseLimits', { node }), msg('backOff')],
            prevent: [msg('kubeletPrevent')],
            params: { limit: 'kubelet' },
          };
        }
        const hub = e.registry === 'docker.io';
        const registry = e.registry ?? '';
        return {
          title: msg('registryTitle', { registry }),
          cause: [msg(hub ? 'quotaHub' : 'quota', { registry, image: f.specImage, phrase: quotePhrase(e) }), msg('untilReset')],
          advice: [msg(hub ? 'authenticate' : 'cacheOrLimit'), msg('copyImages', { ref: e.ref ?? f.specImage })],
          prevent: [msg('registryPrevent')],
          params: { limit: 'registry' },
        };
      },
    );
  },
});
