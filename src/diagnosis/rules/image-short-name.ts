// image.short-name: Image name is not fully qualified and the runtime refuses to guess the registry.

import { clip, containerStatuses, eventEvidence, eventsOfContainer, statusEvidence } from '../facts.js';
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

const ADVICE = (image: string) => [
  `Write the image fully qualified in the workload: registry, repository and tag (\`docker.io/library/${image.includes('/') ? image : image.split(':')[0]}:<tag>\` rather than \`${image}\`).`,
  'Or, for the whole node pool, configure the runtime: `unqualified-search-registries = ["docker.io"]` or an alias in /etc/containers/registries.conf.d/, then restart CRI-O.',
];
const PREVENT = ['Lint manifests for unqualified image names (a policy that requires a registry host), so they work on every runtime.'];

export const rule = defineRule({
  meta: {
    id: 'image.short-name',
    title: 'Image name is not fully qualified and the runtime refuses to guess the registry',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 57,
    doc: 'CRI-O (containers/image) cannot resolve an unqualified image name: `short-name "x" did not resolve to an alias and no unqualified-search registries are defined`, or short-name mode enforcing refuses an ambiguous name. Reported as ImageInspectError or ErrImagePull. The image is neither missing nor corrupt: qualify the name with its registry, or configure unqualified-search-registries on the nodes.',
  },
  check(snapshot, ctx) {
    const out: FindingDraft[] = pullFindings(
      snapshot,
      ctx,
      (f) => f.error.class === 'short-name',
      (f) => ({
        title: `Image ${f.specImage}: short name not resolved by the runtime`,
        cause: `The runtime on ${snapshot.pod?.spec?.nodeName ?? 'the node'} will not pull "${f.specImage}" for container "${f.container}": ${quotePhrase(f.error)}. The name has no registry host, and the runtime has no search registry or alias for it.`,
        advice: ADVICE(f.specImage),
        prevent: PREVENT,
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
        title: `Image ${image}: short name not resolved by the runtime`,
        cause: `The runtime on ${snapshot.pod?.spec?.nodeName ?? 'the node'} cannot even look up "${image}" for container "${s.status.name}": "${clip(w.message ?? '', 400)}". The name has no registry host, and the runtime has no search registry or alias for it; the image is not damaged.`,
        evidence: [statusEvidence(s, 'state', `ImageInspectError: ${w.message ?? ''}`), ...(event ? [eventEvidence(event)] : [])],
        advice: ADVICE(image),
        prevent: PREVENT,
        causeKey: `image/${image}:short-name`,
        params: { container: s.status.name, image },
      });
    }
    return out;
  },
});
