import { ago, containerStatus, event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-not-found.js';

const pulling = (image: string, reason: string, message?: string) => waitingPod(reason, message, { spec: { containers: [{ name: 'web', image }] } });
const dockerNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://18.9.9' } } });

const DOCKER_MSG =
  'Failed to pull image "lachlanevenson/k8s-kubectl:v1.18.20": rpc error: code = Unknown desc = Error response from daemon: manifest for ' +
  'lachlanevenson/k8s-kubectl:v1.18.20 not found: manifest unknown: manifest unknown';
const dockerPod = pulling('lachlanevenson/k8s-kubectl:v1.18.20', 'ImagePullBackOff', 'Back-off pulling image "lachlanevenson/k8s-kubectl:v1.18.20"');

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (arch vs tag): containerd "no match for platform in manifest: not found" is a missing architecture, not a missing tag',
      snapshot: snapshot(
        pulling(
          'quay.io/prometheus/busybox:glibc',
          'ErrImagePull',
          'failed to pull and unpack image "quay.io/prometheus/busybox:glibc": no match for platform in manifest: not found',
        ),
      ),
    },
    {
      name: 'near miss (resolution vs absence): a CRI-O short name that does not resolve',
      snapshot: snapshot(
        pulling(
          'nginx:1.25',
          'ErrImagePull',
          'rpc error: code = Unknown desc = short-name "nginx:1.25" did not resolve to an alias and no unqualified-search registries are defined in ' +
            '"/etc/containers/registries.conf"',
        ),
      ),
    },
    {
      name: 'image pull just started',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(4) } }), {
        events: [event(pod(), { reason: 'Pulling', type: 'Normal', message: 'Pulling image "registry.example.com/shop/web:1.4.2"', lastSeenAgo: 3 })],
      }),
    },
    {
      name: 'running now; an old not-found event from a bad rollout',
      snapshot: snapshot(pod(), {
        events: [
          event(pod(), {
            reason: 'Failed',
            message: DOCKER_MSG.replaceAll('lachlanevenson/k8s-kubectl:v1.18.20', 'registry.example.com/shop/web:1.4.2'),
            lastSeenAgo: 3000,
          }),
        ],
      }),
    },
    {
      name: 'pull access denied belongs to image.auth',
      snapshot: snapshot(
        pulling(
          'hystax/deactivatorg:2025051201-public',
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/hystax/deactivatorg:2025051201-public": failed to resolve reference ' +
            '"docker.io/hystax/deactivatorg:2025051201-public": pull access denied, repository does not exist or may require authorization: server message: ' +
            'insufficient_scope: authorization failed',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'containerd, kubelet >= 1.32: the back-off message carries the NotFound error (Appendix A)',
      snapshot: snapshot(
        pulling(
          'ghcr.io/acme/api:v9',
          'ImagePullBackOff',
          'Back-off pulling image "ghcr.io/acme/api:v9": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image ' +
            '"ghcr.io/acme/api:v9": failed to resolve reference "ghcr.io/acme/api:v9": ghcr.io/acme/api:v9: not found',
        ),
      ),
      expect: {
        severity: 'error',
        causeKey: 'image/ghcr.io/acme/api:v9:not-found',
        params: { container: 'web', image: 'ghcr.io/acme/api:v9', registry: 'ghcr.io', node: 'node-1' },
        said: [{ id: 'noTag', data: { registry: 'ghcr.io', repository: 'acme/api', tag: 'v9' } }],
        quotes: [/ghcr\.io\/acme\/api:v9: not found/],
      },
    },
    {
      name: 'docker era: old back-off message, the error is in the Failed event',
      snapshot: snapshot(dockerPod, {
        node: dockerNode,
        events: [
          event(dockerPod, { reason: 'Failed', count: 4, message: DOCKER_MSG }),
          event(dockerPod, { reason: 'BackOff', type: 'Normal', count: 30, message: 'Back-off pulling image "lachlanevenson/k8s-kubectl:v1.18.20"' }),
        ],
      }),
      expect: {
        causeKey: 'image/docker.io/lachlanevenson/k8s-kubectl:v1.18.20:not-found',
        said: [{ id: 'noTag', data: { phrase: /manifest unknown/ } }],
        quotes: [/Error response from daemon/],
      },
    },
    {
      name: 'containerd, kubelet >= 1.28 (no gRPC prefix), short name normalised',
      snapshot: snapshot(
        pulling(
          'nginx:doesnotexist',
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": ' +
            'docker.io/library/nginx:doesnotexist: not found',
        ),
      ),
      expect: { causeKey: 'image/docker.io/library/nginx:doesnotexist:not-found', params: { registry: 'docker.io' } },
    },
    {
      name: 'containerd 2.1 (transfer service): failed to resolve image: ...: not found',
      snapshot: snapshot(
        pulling(
          'wazuh/wazuh-agent:4.9.0',
          'ErrImagePull',
          'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/wazuh/wazuh-agent:4.9.0": failed to resolve image: ' +
            'docker.io/wazuh/wazuh-agent:4.9.0: not found',
        ),
      ),
      expect: { causeKey: 'image/docker.io/wazuh/wazuh-agent:4.9.0:not-found', params: { registry: 'docker.io' } },
    },
    {
      name: 'CRI-O: a 404 whose body is an HTML page (StatusCode: 404)',
      snapshot: snapshot(
        pulling(
          'registry.example.com/shop/web:1.4.2',
          'ErrImagePull',
          'initializing source docker://registry.example.com/shop/web:1.4.2: reading manifest 1.4.2 in registry.example.com/shop/web: ' +
            'StatusCode: 404, "<html>\\r\\n<head><title>404 Not Found</title></head>..."',
        ),
      ),
      expect: { causeKey: 'image/registry.example.com/shop/web:1.4.2:not-found' },
    },
    {
      name: 'CRI-O: reading manifest ... manifest unknown',
      snapshot: snapshot(
        pulling('quay.io/acme/api:v9', 'ErrImagePull', 'rpc error: code = Unknown desc = reading manifest v9 in quay.io/acme/api: manifest unknown'),
      ),
      expect: { causeKey: 'image/quay.io/acme/api:v9:not-found' },
    },
    {
      name: 'init container with Init:ImagePullBackOff',
      snapshot: snapshot(
        pod({
          spec: { initContainers: [{ name: 'migrate', image: 'registry.example.com/shop/migrate:8' }] },
          status: {
            phase: 'Pending',
            initContainerStatuses: [
              containerStatus({
                name: 'migrate',
                image: 'registry.example.com/shop/migrate:8',
                ready: false,
                state: {
                  waiting: {
                    reason: 'ImagePullBackOff',
                    message: 'Back-off pulling image "registry.example.com/shop/migrate:8": ErrImagePull: registry.example.com/shop/migrate:8: not found',
                  },
                },
              }),
            ],
            containerStatuses: [containerStatus({ ready: false, state: { waiting: { reason: 'PodInitializing' } } })],
          },
        }),
      ),
      expect: { params: { container: 'migrate' }, causeKey: 'image/registry.example.com/shop/migrate:8:not-found' },
    },
  ],
});
