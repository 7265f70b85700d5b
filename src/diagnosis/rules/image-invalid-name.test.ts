import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule, whyInvalid } from './image-invalid-name.js';

const upper = { spec: { containers: [{ name: 'web', image: 'Registry.example.com/Shop/web:1.4' }] } };
const UPPER_MSG =
  'Failed to apply default image tag "Registry.example.com/Shop/web:1.4": couldn\'t parse image reference "Registry.example.com/Shop/web:1.4": invalid ' +
  'reference format: repository name must be lowercase';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'ErrImagePull is not this rule',
      snapshot: snapshot(waitingPod('ErrImagePull', 'rpc error: code = NotFound desc = failed to pull and unpack image')),
    },
  ],
  invalid: [
    {
      name: 'upper case repository (containerd era)',
      snapshot: snapshot(waitingPod('InvalidImageName', UPPER_MSG, upper), {
        events: [event(pod(), { reason: 'InspectFailed', count: 12, fieldPath: 'spec.containers{web}', message: UPPER_MSG })],
      }),
      expect: { causeKey: 'image/Registry.example.com/Shop/web:1.4:invalid-name', said: ['upperCase'] },
    },
    {
      name: 'an unset tag variable (older wording, no detail)',
      snapshot: snapshot(
        waitingPod(
          'InvalidImageName',
          'Failed to apply default image tag "registry.example.com/shop/web:": couldn\'t parse image reference "registry.example.com/shop/web:": invalid ' +
            'reference format',
          {
            spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:' }] },
          },
        ),
      ),
      expect: { said: ['emptyTag'] },
    },
  ],
});

describe('whyInvalid', () => {
  it.each([
    ['https://registry.example.com/web:1', 'URL scheme'],
    ['registry.example.com/web:1 ', 'whitespace'],
    ['web@sha256:abc', 'digest'],
  ])('%s → %s', (image, why) => {
    expect(rule.meta.messages[whyInvalid(image, 'invalid reference format')]).toMatch(why);
  });
});
