import { pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-signature-rejected.js';

const pulling = (reason: string, message: string) =>
  waitingPod(reason, message, { spec: { containers: [{ name: 'web', image: 'quay.io/acme/payments-api:2.4.0' }] } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (auth vs signature): the registry asks for credentials',
      snapshot: snapshot(
        pulling('ErrImagePull', 'reading manifest 2.4.0 in quay.io/acme/payments-api: unauthorized: access to the requested resource is not authorized'),
      ),
    },
  ],
  invalid: [
    {
      name: 'CRI-O: a signature was required (1.28+ waiting reason SignatureValidationFailed)',
      snapshot: snapshot(pulling('SignatureValidationFailed', 'Source image rejected: A signature was required, but no signature exists')),
      expect: { playbook: null, said: [{ id: 'refused', data: { phrase: /A signature was required, but no signature exists/ } }] },
    },
    {
      name: 'rejected by policy, in the back-off message',
      snapshot: snapshot(
        pulling(
          'ImagePullBackOff',
          'Back-off pulling image "quay.io/acme/payments-api:2.4.0": SignatureValidationFailed: Source image rejected: Running image ' +
            'docker://quay.io/acme/payments-api:2.4.0 is rejected by policy.',
        ),
      ),
      expect: { quotes: [/is rejected by policy/] },
    },
  ],
});
