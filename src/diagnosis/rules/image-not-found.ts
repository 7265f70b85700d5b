// image.not-found: Image or tag does not exist.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.not-found',
    title: 'Image or tag does not exist',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 56,
    doc:
      'The image pull fails because the registry has no such manifest ' +
      '("manifest unknown", containerd "...: not found", CRI-O "reading manifest ... manifest unknown"): ' +
      'the image name or tag is wrong, or the tag was never pushed or was deleted.',
    messages: {
      title: 'Image {{image}} does not exist',
      noTag:
        'The registry {{registry}} has no manifest for tag "{{tag}}" of {{registry}}/{{repository}} ({{phrase}}), ' +
        'so container "{{container}}" cannot be pulled.',
      noImage: 'The registry {{registry}} has no manifest for {{ref}} ({{phrase}}), so container "{{container}}" cannot be pulled.',
      wrongName: 'The image name or tag in the pod spec is wrong, or that tag was never pushed (or was deleted).',
      listTags: 'List the tags that exist: skopeo list-tags docker://{{registry}}/{{repository}} (or crane ls), and compare with "{{wanted}}".',
      fixImage:
        'Fix the image in the workload, e.g. kubectl set image -n {{namespace}} <deployment>/<name> {{container}}=<image:tag>; or push the missing tag.',
      prevent: 'Deploy the exact tags or digests your CI pushed, and check the manifest exists before the rollout (a CI step or an admission check).',
    },
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'not-found',
      (f) => {
        const e = f.error;
        const registry = e.registry ?? '';
        const repository = e.repository ?? '';
        const phrase = quotePhrase(e);
        return {
          title: msg('title', { image: f.specImage }),
          cause: [
            e.tag
              ? msg('noTag', { registry, tag: e.tag, repository, phrase, container: f.container })
              : msg('noImage', { registry, ref: e.ref ?? f.specImage, phrase, container: f.container }),
            msg('wrongName'),
          ],
          advice: [
            msg('listTags', { registry, repository, wanted: e.tag ?? e.ref ?? f.specImage }),
            msg('fixImage', { namespace: snapshot.pod?.metadata?.namespace ?? '', container: f.container }),
          ],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
