// image.forbidden: The registry refuses the pull (403 Forbidden).

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

// A registry (or the CDN behind it) that answers 403 Forbidden refuses this client whatever its
// credentials: an IP block or rate ban of the node's address, an organisation policy, a repository
// the account may see but not pull. A 401 (or a 403 about tokens) asks for credentials: image.auth.

export const rule = defineRule({
  meta: {
    id: 'image.forbidden',
    title: 'The registry refuses the pull (403 Forbidden)',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 56,
    doc:
      'The pull fails with a plain `403 Forbidden` (`unexpected status from HEAD request to https://.../manifests/...: 403 Forbidden`): ' +
      'the registry or its CDN refuses this node, not missing credentials. ' +
      'Often one node only (its egress address is blocked); other nodes pull the same image. ' +
      'A 403 that speaks of tokens or credentials is image.auth.',
    messages: {
      title: 'Registry {{registry}} refuses {{node}} (403 Forbidden) for {{image}}',
      refused:
        'Pulling {{image}} for container "{{container}}" on {{node}} fails with {{phrase}}: the registry answered, and refused. ' +
        'A 403 without any word of tokens or credentials is not a login problem: ' +
        'the registry (or the CDN in front of it) refuses this client, usually by its address ' +
        '(a blocked or rate-banned egress IP of this node), or by a policy on the repository.',
      tryOtherNode:
        'Pull the same image from another node (`crictl pull {{image}}`): ' +
        "if it works there, the registry blocks {{node}}'s egress address; " +
        "use a mirror or pull-through cache, or move the node's egress (NAT) address.",
      checkPolicy: 'If every node is refused, check the repository policy (organisation restrictions, a private repository the pull secret may not read).',
      prevent: 'Pull through a registry mirror or cache you control, so one blocked address does not stop a node.',
    },
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? 'the node';
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'forbidden',
      (f) => ({
        title: msg('title', { registry: f.error.registry ?? '', node, image: f.specImage }),
        cause: msg('refused', { image: f.specImage, container: f.container, node, phrase: quotePhrase(f.error) }),
        advice: [msg('tryOtherNode', { image: f.specImage, node }), msg('checkPolicy')],
        prevent: [msg('prevent')],
        causeKey: `registry/${f.error.registry ?? 'unknown'}:forbidden:${node}`,
      }),
    );
  },
});
