// image.pull-timeout: Image pull cancelled or timed out.

import { msg } from '../messages.js';
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
    doc:
      'The pull was cancelled before it finished ("context canceled", "context deadline exceeded", gRPC Canceled/DeadlineExceeded, ' +
      'docker "request canceled"): typically a large image from a slow registry hitting a pull deadline (seed 003).',
    messages: {
      title: 'Pull of {{image}} is cancelled before it completes',
      cancelledAttempts:
        'The pull of {{image}} on node {{node}} was cancelled ({{phrase}}): the image is large or the registry slow, ' +
        'and the pull did not finish (or made no progress) within the deadline; {{failures}} attempts failed so far.',
      cancelledRetry:
        'The pull of {{image}} on node {{node}} was cancelled ({{phrase}}): the image is large or the registry slow, ' +
        'and the pull did not finish (or made no progress) within the deadline; the kubelet will retry with back-off.',
      raiseDocker:
        'Raise the kubelet flag --image-pull-progress-deadline ' +
        '(dockershim, default 1m: a pull without progress for that long is cancelled) and --runtime-request-timeout on {{node}}, ' +
        'then let the kubelet retry.',
      raiseContainerd:
        "Raise containerd's image_pull_progress_timeout (CRI plugin, 1.7+) and the kubelet's --runtime-request-timeout on {{node}}, " +
        'then let the kubelet retry.',
      raiseRuntime: "Raise the kubelet's --runtime-request-timeout (and the runtime's own pull timeout) on {{node}}, then let the kubelet retry.",
      smallerImage: 'Make the image smaller (multi-stage build, fewer layers) or pull it from a registry closer to the node.',
      prePull: "Pre-pull it on the node to confirm the registry's throughput: crictl pull {{image}} (docker pull on docker nodes).",
      prevent: 'Keep images small, mirror them near the cluster, and pre-pull large images on new nodes.',
    },
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? '?';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'timeout',
      (f) => {
        const runtime = runtimeName(snapshot, f.error);
        const raise = runtime === 'docker' ? 'raiseDocker' : runtime === 'containerd' ? 'raiseContainerd' : 'raiseRuntime';
        return {
          title: msg('title', { image: f.specImage }),
          cause: msg(f.failures > 1 ? 'cancelledAttempts' : 'cancelledRetry', {
            image: f.specImage,
            node,
            phrase: quotePhrase(f.error),
            failures: f.failures,
          }),
          advice: [msg(raise, { node }), msg('smallerImage'), msg('prePull', { image: f.specImage })],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
