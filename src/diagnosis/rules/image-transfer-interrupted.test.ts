import { pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-transfer-interrupted.js';

const pulling = (reason: string, message: string) =>
  waitingPod(reason, message, { spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2' }] } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss: a digest that does not match is image.corrupt-blob',
      snapshot: snapshot(
        pulling(
          'ErrImagePull',
          'failed to pull and unpack image "quay.io/acme/app:2.0": failed to copy: unexpected commit digest sha256:1111, expected sha256:2222: failed ' +
            'precondition',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'ErrImagePull: transfer (1)',
      snapshot: snapshot(
        pulling(
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/jupyter/datascience-notebook:2024-01-15": failed to copy: failed commit on ref ' +
            '"layer-sha256:769439b1": "layer-sha256:769439b1" failed size validation: 2150392 != 2167557: failed precondition',
        ),
      ),
      expect: { severity: 'error', playbook: null },
    },
    {
      name: 'ImagePullBackOff with the last error (1.32+ wording): transfer (2)',
      snapshot: snapshot(
        pulling(
          'ImagePullBackOff',
          'Back-off pulling image "registry.example.com/shop/web:1.4.2": ErrImagePull: failed to pull and unpack image "quay.io/acme/app:2.0": failed to ' +
            'copy: httpReadSeeker: failed open: failed to do request: Get "https://cdn01.quay.io/sha256/ab/ab12": unexpected EOF',
        ),
      ),
    },
  ],
});
