// image.transfer-interrupted: Image layers arrive cut short: the download is interrupted.

import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';

// A layer that arrives shorter than its manifest says: containerd `failed commit on ref
// "layer-sha256:...": ... failed size validation: 2150392 != 2167557: failed precondition`, or
// `unexpected EOF` mid-download. A proxy, a load balancer's idle timeout or the registry cut the
// stream; the image in the registry is intact (a digest that does not match is image.corrupt-blob).

export const rule = defineRule({
  meta: {
    id: 'image.transfer-interrupted',
    title: 'Image layers arrive cut short: the download is interrupted',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 55,
    doc:
      'The pull fails because a layer arrives incomplete: `failed size validation: N != M`, `unexpected EOF`, an HTTP/2 stream reset. ' +
      'Something between the node and the registry (a proxy, a load balancer timeout on large layers, the registry under load) cuts the transfer; ' +
      'the image itself is fine. Retries may pass; large layers fail most.',
    messages: {
      title: 'Pulling {{image}}: layers arrive cut short',
      cutShort: 'Pulling {{image}} for container "{{container}}" fails with {{phrase}}: the registry\'s answer ended before the layer was complete.',
      cutShortTimes:
        'Pulling {{image}} for container "{{container}}" fails with {{phrase}}: ' +
        "the registry's answer ended before the layer was complete, {{failures}} times.",
      intact:
        'The image in the registry is intact; the transfer is cut on the way ' +
        '(a proxy or load balancer timing out on large layers, or the registry dropping connections).',
      pullByHand:
        'Pull it by hand on the node (`crictl pull`) and watch where it stops; ' +
        'check the proxy or load balancer in front of the registry for idle or body-size timeouts.',
      mirror: 'A registry mirror close to the nodes, or smaller layers, avoid long transfers.',
      prevent: 'Keep large images in a registry or mirror near the cluster and set proxy timeouts for multi-GB layers.',
    },
  },
  check(snapshot, ctx) {
    return pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'transfer',
      (f) => ({
        title: msg('title', { image: f.specImage }),
        cause: [
          msg(f.failures > 1 ? 'cutShortTimes' : 'cutShort', {
            image: f.specImage,
            container: f.container,
            phrase: quotePhrase(f.error),
            failures: f.failures,
          }),
          msg('intact'),
        ],
        advice: [msg('pullByHand'), msg('mirror')],
        prevent: [msg('prevent')],
        causeKey: `registry/${f.error.registry ?? 'unknown'}:transfer`,
      }),
    );
  },
});
