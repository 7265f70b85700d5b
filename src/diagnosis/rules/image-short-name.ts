// image.short-name: Image name is not fully qualified and the runtime refuses to guess the registry.

import { clip, containerStatuses, eventEvidence, eventsOfContainer, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { classifyPullError, pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// CRI-O (and every containers/image runtime) resolves an unqualified name like `nginx` through
// /etc/containers/registries.conf: `unqualified-search-registries` and the short-name aliases. With
// none configured, or with short-name-mode "enforcing" and an ambiguous name, it refuses the name:
//   short-name "nginx" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"
//   short-name resolution enforced but cannot prompt without a TTY
// The kubelet reports it as ImageInspectError (the image status lookup fails first) or ErrImagePull.
// The image is not damaged and the tag may well exist: the name is not fully qualified.

const messages = {
  title: 'Image {{image}}: short name not resolved by the runtime',
  refused: 'The runtime on {{node}} will not pull "{{image}}" for container "{{container}}": {{phrase}}.',
  cannotLookUp: 'The runtime on {{node}} cannot even look up "{{image}}" for container "{{container}}": "{{message}}".',
  noSearch: 'The name has no registry host, and the runtime has no search registry or alias for it.',
  noSearchNotDamaged: 'The name has no registry host, and the runtime has no search registry or alias for it; the image is not damaged.',
  qualify: 'Write the image fully qualified in the workload: registry, repository and tag (`docker.io/library/{{repository}}:<tag>` rather than `{{image}}`).',
  configureRuntime:
    'Or, for the whole node pool, configure the runtime: `unqualified-search-registries = ["docker.io"]` ' +
    'or an alias in /etc/containers/registries.conf.d/, then restart CRI-O.',
  prevent: 'Lint manifests for unqualified image names (a policy that requires a registry host), so they work on every runtime.',
} as const;
type Id = keyof typeof messages;

const advice = (image: string) => [msg('qualify', { repository: image.includes('/') ? image : (image.split(':')[0] ?? ''), image }), msg('configureRuntime')];
const prevent = [msg('prevent')];

export const rule = defineRule({
  meta: {
    id: 'image.short-name',
    title: 'Image name is not fully qualified and the runtime refuses to guess the registry',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 57,
    doc:
      'CRI-O (containers/image) cannot resolve an unqualified image name: ' +
      '`short-name "x" did not resolve to an alias and no unqualified-search registries are defined`, ' +
      'or short-name mode enforcing refuses an ambiguous name. Reported as ImageInspectError or ErrImagePull. ' +
      'The image is neither missing nor corrupt: qualify the name with its registry, or configure unqualified-search-registries on the nodes.',
    messages,
  },
  check(snapshot, ctx) {
    const node = snapshot.pod?.spec?.nodeName ?? 'the node';
    const out: FindingDraft<Id>[] = pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'short-name',
      (f) => ({
        title: msg('title', { image: f.specImage }),
        cause: [msg('refused', { node, image: f.specImage, container: f.container, phrase: quotePhrase(f.error) }), msg('noSearch')],
        advice: advice(f.specImage),
        prevent,
        causeKey: `image/${f.specImage}:short-name`,
      }),
    );
    // Before any pull: the image status lookup fails on the name (ImageInspectError).
    for (const s of containerStatuses(snapshot.pod)) {
      const w = s.status.state?.waiting;
      if (w?.reason !== 'ImageInspectError' || classifyPullError(w.message ?? '').class !== 'short-name') continue;
      const image =
        (s.init ? snapshot.pod?.spec?.initContainers : snapshot.pod?.spec?.containers)?.find((c) => c.name === s.status.name)?.image ?? s.status.image;
      const event = eventsOfContainer(snapshot, s, ['InspectFailed', 'Failed'])[0];
      out.push({
        title: msg('title', { image }),
        cause: [msg('cannotLookUp', { node, image, container: s.status.name, message: clip(w.message ?? '', 400) }), msg('noSearchNotDamaged')],
        evidence: [statusEvidence(s, 'state', `ImageInspectError: ${w.message ?? ''}`), ...(event ? [eventEvidence(event)] : [])],
        advice: advice(image),
        prevent,
        causeKey: `image/${image}:short-name`,
        params: { container: s.status.name, image },
      });
    }
    return out;
  },
});
