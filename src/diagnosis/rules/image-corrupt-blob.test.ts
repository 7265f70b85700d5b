import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-corrupt-blob.js';

const pulling = (image: string, reason: string, message?: string) => waitingPod(reason, message, { spec: { containers: [{ name: 'web', image }] } });
const SEED_IMAGE = 'docker02:35000/env/release/3.2.0/prophet/app/executor-service-kube.tar:release-3.2.0-8';
const seedPod = pulling(SEED_IMAGE, 'ImagePullBackOff', `Back-off pulling image "${SEED_IMAGE}"`);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'missing manifest is image.not-found',
      snapshot: snapshot(pulling('ghcr.io/acme/api:v9', 'ErrImagePull', 'content at https://ghcr.io/v2/acme/api/manifests/v9 not found: not found')),
    },
  ],
  invalid: [
    {
      name: 'docker era (seed 003): error pulling image configuration: unknown blob',
      snapshot: snapshot(seedPod, {
        events: [
          event(seedPod, {
            reason: 'Failed',
            count: 3,
            message: `Failed to pull image "${SEED_IMAGE}": rpc error: code = Unknown desc = error pulling image configuration: unknown blob`,
          }),
        ],
      }),
      expect: {
        severity: 'error',
        causeKey: `image/${SEED_IMAGE}:corrupt-blob`,
        params: { registry: 'docker02:35000', image: SEED_IMAGE },
        said: [{ id: 'noConfigBlob', data: { phrase: '"error pulling image configuration: unknown blob"' } }],
      },
    },
    {
      name: 'containerd >= 1.32: blob content not found',
      snapshot: snapshot(
        pulling(
          'registry.example.com/shop/web:1.4.3',
          'ImagePullBackOff',
          'Back-off pulling image "registry.example.com/shop/web:1.4.3": ErrImagePull: failed to pull and unpack image ' +
            '"registry.example.com/shop/web:1.4.3": failed to copy: httpReadSeeker: failed open: content at ' +
            'https://registry.example.com/v2/shop/web/blobs/sha256:4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d not found: not found',
        ),
      ),
      expect: { causeKey: 'image/registry.example.com/shop/web:1.4.3:corrupt-blob', said: ['missingBlobs'] },
    },
  ],
});
