// image.node-disk-full: The node's disk fills up while unpacking the image.

import { nodeCondition } from '../facts.js';
import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

// The download worked, unpacking did not: `failed to extract layer ...: write ...: no space left on
// device` (containerd), `failed to register layer: ... no space left on device` (docker). The node's
// image filesystem is full, usually before the kubelet's image GC or DiskPressure caught up (one big
// layer can fill it in one go). Nothing is wrong with the image.

export const rule = defineRule({
  meta: {
    id: 'image.node-disk-full',
    title: "The node's disk fills up while unpacking the image",
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 57,
    doc:
      "The pull fails with `no space left on device` while extracting or registering a layer: the node's image filesystem " +
      '(/var/lib/containerd, /var/lib/docker) is full. Not the image and not the registry: free space on the node or give it a bigger disk; ' +
      "the kubelet's image GC thresholds decide when it cleans up.",
    messages: {
      title: 'Node {{node}} runs out of disk unpacking {{image}}',
      noRoom:
        'Pulling {{image}} for container "{{container}}" on {{node}} fails with {{phrase}}: ' +
        "the image was downloaded, but the node's image filesystem has no room to unpack its layers.",
      diskPressure: 'The node reports DiskPressure too.',
      noDiskPressure: 'The node does not report DiskPressure yet: a large layer filled the disk in one go.',
      freeSpace: 'Free space on {{node}}: remove unused images (`crictl rmi --prune`), old container logs; check `df -h /var/lib/containerd`.',
      biggerDisk:
        'Give the node pool a bigger disk if the images need it, ' +
        'and lower the kubelet image GC thresholds (--image-gc-high-threshold) so it cleans up earlier.',
      prevent: "Size node disks for the largest images plus their unpacked layers, and alert on the image filesystem's free space.",
    },
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? 'the node';
    const pressure = nodeCondition(snapshot.node, 'DiskPressure')?.status === 'True';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'disk-full',
      (f) => ({
        title: msg('title', { node, image: f.specImage }),
        cause: [
          msg('noRoom', { image: f.specImage, container: f.container, node, phrase: quotePhrase(f.error) }),
          msg(pressure ? 'diskPressure' : 'noDiskPressure'),
        ],
        advice: [msg('freeSpace', { node }), msg('biggerDisk')],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:image-disk-full`,
      }),
    );
  },
});
