import { describe, expect, it } from 'vitest';
import { event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-pull-timeout.js';

const pulling = (image: string, reason: string, message?: string) => waitingPod(reason, message, { spec: { containers: [{ name: 'web', image }] } });
const IMAGE = 'registry.example.com/ml/trainer:2.3';
const CANCELED =
  `rpc error: code = Canceled desc = failed to pull and unpack image "${IMAGE}": failed to copy: httpReadSeeker: failed open: failed to do request: Get ` +
  `"https://registry.example.com/v2/ml/trainer/blobs/sha256:9b1e2f4c": context canceled`;
const docker = node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://19.3.15' } } });
const dockerPod = pulling(IMAGE, 'ImagePullBackOff', `Back-off pulling image "${IMAGE}"`);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'image pull just started, big image still downloading',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { spec: { containers: [{ name: 'web', image: IMAGE }] } }), {
        events: [event(pod(), { reason: 'Pulling', type: 'Normal', message: `Pulling image "${IMAGE}"`, lastSeenAgo: 20 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'containerd: gRPC Canceled, repeated',
      snapshot: snapshot(pulling(IMAGE, 'ErrImagePull', CANCELED), {
        events: [event(pod(), { reason: 'Failed', count: 3, firstSeenAgo: 1800, message: `Failed to pull image "${IMAGE}": ${CANCELED}` })],
      }),
      expect: {
        severity: 'warning',
        causeKey: `image/${IMAGE}:timeout`,
        said: [{ id: 'cancelledAttempts', data: { failures: 3 } }],
        quotes: [/context canceled/],
      },
    },
    {
      name: 'docker era: dockershim cancels a pull without progress (context canceled)',
      snapshot: snapshot(dockerPod, {
        node: docker,
        events: [
          event(dockerPod, {
            reason: 'Failed',
            count: 4,
            firstSeenAgo: 3000,
            message: `Failed to pull image "${IMAGE}": rpc error: code = Unknown desc = context canceled`,
          }),
        ],
      }),
      expect: { causeKey: `image/${IMAGE}:timeout` },
    },
    {
      name: 'containerd: DeadlineExceeded',
      snapshot: snapshot(pulling(IMAGE, 'ErrImagePull', 'rpc error: code = DeadlineExceeded desc = context deadline exceeded'), { events: [] }),
      expect: { said: [{ id: 'cancelledRetry', data: { phrase: '"code = DeadlineExceeded"' } }] },
    },
  ],
});

describe('image.pull-timeout', () => {
  it("names the pull deadline of the node's runtime", () => {
    const onDocker = findingsOf(
      rule,
      snapshot(dockerPod, {
        node: docker,
        events: [
          event(dockerPod, { reason: 'Failed', count: 2, message: `Failed to pull image "${IMAGE}": rpc error: code = Unknown desc = context canceled` }),
        ],
      }),
    );
    expect(onDocker[0]?.advice.join('\n')).toMatch(/--image-pull-progress-deadline/);
    const onContainerd = findingsOf(rule, snapshot(pulling(IMAGE, 'ErrImagePull', CANCELED)));
    expect(onContainerd[0]?.advice.join('\n')).toMatch(/image_pull_progress_timeout/);
  });
});
