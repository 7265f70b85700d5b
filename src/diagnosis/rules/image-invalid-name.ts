// image.invalid-name: Image name is not a valid reference.

import { clip, eventEvidence, eventsOfContainer, statusEvidence, waitingWith } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// The kubelet cannot even parse the image reference, so nothing is pulled:
//   waiting InvalidImageName  Failed to apply default image tag "Registry.example.com/Shop/web:1.4": couldn't parse
//     image reference "Registry.example.com/Shop/web:1.4": invalid reference format: repository name must be lowercase
//   event InspectFailed (same text), event Failed "Error: InvalidImageName"
// Older kubelets: `Failed to apply default image tag "x": couldn't parse image reference "x": invalid reference format`.

const messages = {
  title: '{{container}}: image {{image}} is not a valid reference',
  cannotParse: 'The kubelet cannot parse the image of container "{{container}}", {{image}}:',
  // What is wrong with the reference: the rest of that sentence.
  upperCase: 'the repository part has upper-case letters (it must be lowercase).',
  whitespace: 'it contains whitespace (often a templating leftover or a trailing space).',
  urlScheme: 'it starts with a URL scheme (http:// or https:// is not part of an image reference).',
  emptyTag: 'it ends with ":" or "@" (an empty tag or digest, e.g. an unset variable).',
  tooManyColons: 'it has too many ":" (a tag on a registry with a port needs exactly registry:port/repo:tag).',
  badDigest: 'the digest is not sha256: followed by 64 hex characters.',
  grammar: 'it does not follow the image reference grammar ([registry[:port]/]repository[:tag][@digest]).',
  noPull: 'No pull is attempted, and the container stays waiting until the spec changes.',
  fixLowercase:
    'Fix the image field in the workload spec: use lowercase for registry and repository (tags may keep their case); ' +
    'check the template or CI variable that produced it.',
  fixGrammar:
    'Fix the image field in the workload spec: write it as registry[:port]/repository[:tag][@sha256:<digest>]; ' +
    'check the template or CI variable that produced it.',
  prevent: 'Validate rendered manifests in CI (kubectl apply --dry-run=server and an image-reference check) so a broken template never reaches the cluster.',
} as const;
type Id = keyof typeof messages;
type Why = 'upperCase' | 'whitespace' | 'urlScheme' | 'emptyTag' | 'tooManyColons' | 'badDigest' | 'grammar';

/** What is wrong with a reference (the id of the message that says it), from the parser's message and the reference itself. */
export function whyInvalid(image: string, message: string): Why {
  if (/must be lowercase/.test(message) || /[A-Z]/.test(image.split('@')[0]?.split(':').slice(0, -1).join(':') || image)) return 'upperCase';
  if (/\s/.test(image)) return 'whitespace';
  if (image.startsWith('http://') || image.startsWith('https://')) return 'urlScheme';
  if (/:$|@$/.test(image)) return 'emptyTag';
  if ((image.match(/:/g) ?? []).length > 2) return 'tooManyColons';
  if (/@sha256:(?![0-9a-f]{64}$)/.test(image)) return 'badDigest';
  return 'grammar';
}

export const rule = defineRule({
  meta: {
    id: 'image.invalid-name',
    title: 'Image name is not a valid reference',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 62,
    doc:
      'Waiting reason InvalidImageName with "couldn\'t parse image reference ... invalid reference format" (event InspectFailed): ' +
      'the image field cannot be parsed (upper case, spaces, a URL scheme, an empty tag from an unset variable), so nothing is pulled.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    return waitingWith(pod, 'InvalidImageName').map((s): FindingDraft<Id> => {
      const image = s.spec?.image ?? s.status.image ?? '';
      const event = eventsOfContainer(snapshot, s, ['InspectFailed', 'Failed'])[0];
      const message = s.message || event?.message || '';
      const evidence: Evidence[] = [statusEvidence(s, 'state', `InvalidImageName${s.message ? `: ${clip(s.message)}` : ''}`)];
      if (event) evidence.push(eventEvidence(event));
      evidence.push({ source: `pod.spec.${s.init ? 'initContainers' : 'containers'}[${s.status.name}].image`, text: JSON.stringify(image) });
      const why = whyInvalid(image, message);
      return {
        title: msg('title', { container: s.status.name, image: JSON.stringify(clip(image, 80)) }),
        cause: [msg('cannotParse', { container: s.status.name, image: JSON.stringify(image) }), msg(why), msg('noPull')],
        evidence,
        advice: [msg(why === 'upperCase' ? 'fixLowercase' : 'fixGrammar')],
        prevent: [msg('prevent')],
        causeKey: `image/${image}:invalid-name`,
        params: { container: s.status.name, image },
      };
    });
  },
});
