// image.pull-throttled: Image pulls throttled.

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
    doc: 'Pulls are rate limited: by the kubelet itself ("pull QPS exceeded": registryPullQPS 5 / registryBurst 10 by default, seed 003) when many pods pull at once on one node, or by the registry ("toomanyrequests", "429 Too Many Requests", e.g. Docker Hub\'s anonymous pull limit).',
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
            title: `Kubelet on ${node} throttles image pulls (pull QPS exceeded)`,
            cause: `The kubelet on node ${node} refused to start the pull of ${f.specImage} itself (${quotePhrase(e)}): more pulls were requested at once than its registryPullQPS (--registry-qps, default 5) and registryBurst (--registry-burst, default 10) allow. Other pods on this node pulling at the same time hit the same limit.`,
            advice: [
              `Raise registryPullQPS and registryBurst in the kubelet configuration of ${node} (0 disables the limit), then restart the kubelet.`,
              'Meanwhile the kubelet retries with back-off; the pods start once the burst is over.',
            ],
            prevent: ['Pre-pull large or common images on nodes (a DaemonSet or the node image), and size the kubelet pull limits for your rollout sizes.'],
            params: { limit: 'kubelet' },
          };
        }
        const hub = e.registry === 'docker.io';
        return {
          title: `Registry ${e.registry ?? ''} rate-limits pulls (429 Too Many Requests)`,
          cause: `The registry ${e.registry ?? ''} rejects the pull of ${f.specImage} with ${quotePhrase(e)}: this node (or the NAT address it shares) has used up its pull quota${hub ? ' (Docker Hub limits anonymous pulls per source IP)' : ''}. All pulls from this registry through the same address are affected until the window resets.`,
          advice: [
            hub
              ? 'Authenticate the pulls (an imagePullSecret for a Docker Hub account with a higher limit) or pull through a mirror / pull-through cache.'
              : `Pull through a cache or mirror, or ask the registry owner for a higher limit.`,
            `Copy the images you depend on into your own registry (e.g. crane copy ${e.ref ?? f.specImage} <your-registry>/...).`,
          ],
          prevent: [
            'Never depend on anonymous pulls from public registries in production: mirror images and use imagePullPolicy IfNotPresent with immutable tags.',
          ],
          params: { limit: 'registry' },
        };
      },
    );
  },
});
