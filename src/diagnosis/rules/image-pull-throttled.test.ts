import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-pull-throttled.js';

const pulling = (image: string, reason: string, message?: string) =>
  waitingPod(reason, message, { spec: { nodeName: 'm7-power-k8s03', containers: [{ name: 'web', image }] } });
const FILEBEAT = '172.27.129.211:35000/filebeat-with-module:6.0.0';
const seedPod = pulling(FILEBEAT, 'ImagePullBackOff', `Back-off pulling image "${FILEBEAT}"`);
const HUB_429 =
  'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/busybox:latest": failed to copy: httpReadSeeker: failed open: ' +
  'unexpected status code ' +
  'https://registry-1.docker.io/v2/library/busybox/manifests/sha256:50aa4698fa6262977cff89181b2664b99d8a56dbca847bf62f2ef04854597cf8: 429 Too Many Requests ' +
  '- Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: ' +
  'https://www.docker.com/increase-rate-limit';
const justNow = pulling('busybox', 'ErrImagePull', 'pull QPS exceeded');

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'one pull throttled seconds ago: info only',
      snapshot: snapshot(justNow, {
        events: [event(justNow, { reason: 'Failed', message: 'Failed to pull image "busybox": pull QPS exceeded', lastSeenAgo: 2 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'docker era (seed 003): kubelet pull QPS exceeded, old lowercase Pulling event',
      snapshot: snapshot(seedPod, {
        events: [
          event(seedPod, {
            reason: 'Failed',
            count: 2,
            firstSeenAgo: 46 * 60,
            lastSeenAgo: 44 * 60,
            message: `Failed to pull image "${FILEBEAT}": pull QPS exceeded.`,
          }),
          event(seedPod, { reason: 'BackOff', type: 'Normal', count: 83, message: `Back-off pulling image "${FILEBEAT}"` }),
          event(seedPod, { reason: 'Pulling', type: 'Normal', count: 13, message: `pulling image "${FILEBEAT}"` }),
        ],
      }),
      expect: {
        severity: 'warning',
        causeKey: 'node/m7-power-k8s03:registry-qps',
        params: { limit: 'kubelet', node: 'm7-power-k8s03' },
        said: ['kubeletTitle', 'kubeletRefused'],
      },
    },
    {
      name: 'containerd: Docker Hub 429 toomanyrequests',
      snapshot: snapshot(pulling('busybox', 'ErrImagePull', HUB_429)),
      expect: {
        causeKey: 'registry/docker.io:throttled',
        params: { limit: 'registry', registry: 'docker.io' },
        said: ['registryTitle', 'quotaHub'],
      },
    },
    {
      name: 'CRI-O: a 429 on the ping ("too many requests to registry", containers/image docker/errors.go)',
      snapshot: snapshot(
        pulling(
          'busybox',
          'ErrImagePull',
          'initializing source docker://busybox:latest: pinging container registry registry-1.docker.io: too many requests to registry',
        ),
      ),
      expect: { causeKey: 'registry/docker.io:throttled', params: { limit: 'registry' } },
    },
    {
      name: 'docker era: toomanyrequests from the daemon',
      snapshot: snapshot(
        pulling(
          'library/redis:7',
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit ' +
            'by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
        ),
      ),
      expect: { causeKey: 'registry/docker.io:throttled' },
    },
  ],
});
