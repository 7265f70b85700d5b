// image.corrupt-blob: Image in the registry is broken.

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
    doc: 'The manifest exists but a layer or config blob is missing or damaged: docker "error pulling image configuration: unknown blob", registry "blob unknown to registry", containerd "content at .../blobs/sha256:... not found" (seed 003). Push the image again.',
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'corrupt-blob',
      (f) => {
        const e = f.error;
        const config = /image configuration/i.test(e.phrase) || /image configuration/i.test(e.detail);
        return {
          title: `Image ${f.specImage} is broken in registry ${e.registry ?? ''}`,
          cause: `The registry has the manifest of ${e.ref ?? f.specImage} but not ${config ? 'its image configuration blob' : 'all the blobs it references'} (${quotePhrase(e)}): the push was incomplete, or the registry lost the blob (garbage collection during a push, storage failure). No node can pull this image until it is pushed again.`,
          advice: [
            `Push the image again from the build that produced it (docker push / crane copy), then let the kubelet retry or delete the pod.`,
            `Verify the whole image is readable: crane validate --remote ${e.ref ?? f.specImage} (or skopeo copy docker://${e.ref ?? f.specImage} dir:/tmp/check).`,
            `Check the registry's storage and whether garbage collection ran around the push.`,
          ],
          prevent: ['Run registry garbage collection only in read-only mode or maintenance windows, and verify images after push in CI.'],
        };
      },
    );
  },
});
