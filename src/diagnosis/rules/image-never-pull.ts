// image.never-pull: imagePullPolicy Never and the image is not on the node.

import { clip, eventEvidence, eventsOfContainer, statusEvidence, waitingWith } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// imagePullPolicy: Never and the image is not on this node:
//   waiting ErrImageNeverPull  Container image "registry.example.com/shop/web:1.4.2" is not present with pull policy of Never
//   event ErrImageNeverPull (same text), event Failed "Error: ErrImageNeverPull"

const messages = {
  title: '{{container}}: image {{image}} is not on {{node}} and imagePullPolicy is Never',
  notPresent:
    'Container "{{container}}" uses imagePullPolicy: Never, so the kubelet only looks for {{image}} among the images already on {{node}}, ' +
    'and it is not there.',
  elsewhere: 'The image was built or loaded on another node (or removed by image garbage collection).',
  loadOrPull:
    'Either load the image onto {{node}} (`ctr -n k8s.io images import`, `kind load docker-image`, `minikube image load`) ' +
    'or set imagePullPolicy: IfNotPresent and push it to a registry the node can reach.',
  pinNodes: 'If only some nodes have it, pin the pod to them with a nodeSelector; otherwise each reschedule can land on a node without it.',
  prevent: 'Use imagePullPolicy: Never only on single-node development clusters; production images belong in a registry.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'image.never-pull',
    title: 'imagePullPolicy Never and the image is not on the node',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 62,
    doc:
      'Waiting reason ErrImageNeverPull ("Container image ... is not present with pull policy of Never"): ' +
      'the pod forbids pulling and the image was never loaded onto this node ' +
      '(a locally built image, a kind/minikube load on another node, an image GC).',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const nodeName = pod?.spec?.nodeName;
    const node = nodeName ?? 'the node';
    return waitingWith(pod, 'ErrImageNeverPull').map((s): FindingDraft<Id> => {
      const image = s.spec?.image ?? s.status.image ?? '';
      const event = eventsOfContainer(snapshot, s, ['ErrImageNeverPull', 'Failed'])[0];
      const evidence: Evidence[] = [statusEvidence(s, 'state', `ErrImageNeverPull${s.message ? `: ${clip(s.message)}` : ''}`)];
      if (event) evidence.push(eventEvidence(event));
      evidence.push({
        source: `pod.spec.${s.init ? 'initContainers' : 'containers'}[${s.status.name}].imagePullPolicy`,
        text: s.spec?.imagePullPolicy ?? 'Never',
      });
      return {
        title: msg('title', { container: s.status.name, image: clip(image, 80), node }),
        cause: [msg('notPresent', { container: s.status.name, image, node }), msg('elsewhere')],
        evidence,
        advice: [msg('loadOrPull', { node }), msg('pinNodes')],
        prevent: [msg('prevent')],
        causeKey: `image/${image}:never-pull${nodeName ? `:${nodeName}` : ''}`,
        params: { container: s.status.name, image, ...(nodeName ? { node: nodeName } : {}) },
      };
    });
  },
});
