// image.signature-rejected: The node's signature policy refuses the image.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

// The node's signature policy refuses the image: CRI-O with /etc/containers/policy.json requiring a
// signature (`SignatureValidationFailed: Source image rejected: A signature was required, but no
// signature exists`, `... is rejected by policy`), or a sigstore verification that fails. The
// registry served the image; the node will not run it unsigned or signed by the wrong key.

export const rule = defineRule({
  meta: {
    id: 'image.signature-rejected',
    title: "The node's signature policy refuses the image",
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 57,
    doc:
      'The pull fails with SignatureValidationFailed / `Source image rejected: A signature was required, but no signature exists` / ' +
      "`is rejected by policy`: the runtime's signature policy (CRI-O policy.json, sigstore) requires a valid signature for this image " +
      'and it has none, or one by another key. Sign the image with the expected key, or change the policy for that registry.',
    messages: {
      title: "Image {{image}} is refused by the node's signature policy",
      refused:
        'The runtime on {{node}} pulled {{image}} for container "{{container}}" and refused it: {{phrase}}. ' +
        'Its signature policy requires a valid signature for this registry or repository, ' +
        'and the image has none (or one made with another key). The image is not missing or broken.',
      sign: 'Sign the image with the key the policy trusts (`cosign sign` / `skopeo copy --sign-by`), or deploy a signed digest of it.',
      changePolicy: "If the policy is wrong for this registry, change /etc/containers/policy.json (or the cluster's image policy) on every node, deliberately.",
      prevent: 'Sign images in CI as the last step of the build, and test pulls on a node with the production policy.',
    },
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'signature',
      (f) => ({
        title: msg('title', { image: f.specImage }),
        cause: msg('refused', {
          node: snapshot.pod?.spec?.nodeName ?? 'the node',
          image: f.specImage,
          container: f.container,
          phrase: quotePhrase(f.error),
        }),
        advice: [msg('sign'), msg('changePolicy')],
        prevent: [msg('prevent')],
        causeKey: `image/${f.specImage}:signature`,
      }),
    );
  },
});
