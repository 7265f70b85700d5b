// image.pull-timeout: Image pull cancelled or timed out.

import { pullFindings, quotePhrase, runtimeName } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.pull-timeout',
    title: 'Image pull cancelled or timed out',
    category: 'image',
    severity: 'warning',
    needs: ['pod', 'events', 'node'],
    priority: 55,
    doc: 'The pull was cancelled before it finished ("context canceled", "context deadline exceeded", gRPC Canceled/DeadlineExceeded, docker "request canceled"): typically a large image from a slow registry hitting a pull deadline (seed 003).',
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'timeout',
      (f) => {
        const runtime = runtimeName(snapshot, f.error);
        const knob =
          runtime === 'docker'
            ? 'the kubelet flag --image-pull-progress-deadline (dockershim, default 1m: a pull without progress for that long is cancelled) and --runtime-request-timeout'
            : runtime === 'containerd'
              ? "containerd's image_pull_progress_timeout (CRI plugin, 1.7+) and the kubelet's --runtime-request-timeout"
              : "the kubelet's --runtime-request-timeout (and the runtime's own pull timeout)";
        return {
          title: `Pull of ${f.specImage} is cancelled before it completes`,
          cause: `The pull of ${f.specImage} on node ${node} was cancelled (${quotePhrase(f.error)}): the image is large or the registry slow, and the pull did not finish (or made no progress) within the deadline; ${f.failures > 1 ? `${f.failures} attempts failed so far` : 'the kubelet will retry with back-off'}.`,
          advice: [
            `Raise ${knob} on ${node}, then let the kubelet retry.`,
            'Make the image smaller (multi-stage build, fewer layers) or pull it from a registry closer to the node.',
            `Pre-pull it on the node to confirm the registry's throughput: crictl pull ${f.specImage} (docker pull on docker nodes).`,
          ],
          prevent: ['Keep images small, mirror them near the cluster, and pre-pull large images on new nodes.'],
        };
      },
    );
  },
});
