// image.corrupt-blob: Image in the registry is broken.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'image.corrupt-blob',
    title: 'Image in the registry is broken',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 56,
    doc:
      'The manifest exists but a layer or config blob is missing or damaged: docker "error pulling image configuration: unknown blob", ' +
      'registry "blob unknown to registry", containerd "content at .../blobs/sha256:... not found" (seed 003). Push the image again.',
    messages: {
      title: 'Image {{image}} is broken in registry {{registry}}',
      noConfigBlob:
        'The registry has the manifest of {{ref}} but not its image configuration blob ({{phrase}}): ' +
        'the push was incomplete, or the registry lost the blob (garbage collection during a push, storage failure).',
      missingBlobs:
        'The registry has the manifest of {{ref}} but not all the blobs it references ({{phrase}}): ' +
        'the push was incomplete, or the registry lost the blob (garbage collection during a push, storage failure).',
      pushAgain: 'No node can pull this image until it is pushed again.',
      repush: 'Push the image again from the build that produced it (docker push / crane copy), then let the kubelet retry or delete the pod.',
      verify: 'Verify the whole image is readable: crane validate --remote {{ref}} (or skopeo copy docker://{{ref}} dir:/tmp/check).',
      checkStorage: "Check the registry's storage and whether garbage collection ran around the push.",
      prevent: 'Run registry garbage collection only in read-only mode or maintenance windows, and verify images after push in CI.',
    },
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'corrupt-blob',
      (f) => {
        const e = f.error;
        const config = /image configuration/i.test(e.phrase) || /image configuration/i.test(e.detail);
        const ref = e.ref ?? f.specImage;
        return {
          title: msg('title', { image: f.specImage, registry: e.registry ?? '' }),
          cause: [msg(config ? 'noConfigBlob' : 'missingBlobs', { ref, phrase: quotePhrase(e) }), msg('pushAgain')],
          advice: [msg('repush'), msg('verify', { ref }), msg('checkStorage')],
          prevent: [msg('prevent')],
        };
      },
    );
  },
});
