// image.not-found: Image or tag does not exist.

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
    doc: 'The image pull fails because the registry has no such manifest ("manifest unknown", containerd "...: not found", CRI-O "reading manifest ... manifest unknown"): the image name or tag is wrong, or the tag was never pushed or was deleted.',
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'not-found',
      (f) => {
        const e = f.error;
        const what = e.tag ? `tag "${e.tag}" of ${e.registry ?? ''}/${e.repository ?? ''}` : `${e.ref ?? f.specImage}`;
        return {
          title: `Image ${f.specImage} does not exist`,
          cause: `The registry ${e.registry ?? ''} has no manifest for ${what} (${quotePhrase(e)}), so container "${f.container}" cannot be pulled. The image name or tag in the pod spec is wrong, or that tag was never pushed (or was deleted).`,
          advice: [
            `List the tags that exist: skopeo list-tags docker://${e.registry ?? ''}/${e.repository ?? ''} (or crane ls), and compare with "${e.tag ?? e.ref ?? f.specImage}".`,
            `Fix the image in the workload, e.g. kubectl set image -n ${snapshot.pod?.metadata?.namespace ?? ''} <deployment>/<name> ${f.container}=<image:tag>; or push the missing tag.`,
          ],
          prevent: ['Deploy the exact tags or digests your CI pushed, and check the manifest exists before the rollout (a CI step or an admission check).'],
        };
      },
    );
  },
});
