import { event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-insecure-registry.js';

const pulling = (image: string, reason: string, message?: string) => waitingPod(reason, message, { spec: { containers: [{ name: 'web', image }] } });
const docker = node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://17.3.2' } } });
const crio = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.30.4' } } });

const seedPod = pulling(
  '172.27.129.211:35000/metricbeat-prophet:6.0.1',
  'ImagePullBackOff',
  'Back-off pulling image "172.27.129.211:35000/metricbeat-prophet:6.0.1"',
);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'TLS problem is image.untrusted-ca',
      snapshot: snapshot(
        pulling(
          '10.78.0.228:5000/app:1',
          'ErrImagePull',
          'Error response from daemon: Get https://10.78.0.228:5000/v1/_ping: x509: certificate signed by unknown authority',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'docker era (seed 003 registry 172.27.129.211:35000): Failed event',
      snapshot: snapshot(seedPod, {
        node: docker,
        events: [
          event(seedPod, {
            reason: 'Failed',
            count: 5,
            message:
              'Failed to pull image "172.27.129.211:35000/metricbeat-prophet:6.0.1": rpc error: code = Unknown desc = Error response from daemon: Get ' +
              'https://172.27.129.211:35000/v2/: http: server gave HTTP response to HTTPS client',
          }),
        ],
      }),
      expect: {
        severity: 'error',
        causeKey: 'registry/172.27.129.211:35000:insecure-registry',
        params: { registry: '172.27.129.211:35000', node: 'node-1' },
        said: [{ id: 'plainHttp', data: { phrase: '"server gave HTTP response to HTTPS client"', node: 'node-1', runtime: 'docker' } }],
      },
    },
    {
      name: 'containerd >= 1.32 back-off message, quoted URL',
      snapshot: snapshot(
        pulling(
          'localhost:7439/team/app:2023.1.2',
          'ImagePullBackOff',
          'Back-off pulling image "localhost:7439/team/app:2023.1.2": ErrImagePull: failed to pull and unpack image "localhost:7439/team/app:2023.1.2": ' +
            'failed to resolve reference "localhost:7439/team/app:2023.1.2": failed to do request: Head ' +
            '"https://localhost:7439/v2/team/app/manifests/2023.1.2": http: server gave HTTP response to HTTPS client',
        ),
      ),
      expect: { causeKey: 'registry/localhost:7439:insecure-registry', said: [{ id: 'plainHttp', data: { node: 'node-1', runtime: 'containerd' } }] },
    },
    {
      name: 'CRI-O: error pinging',
      snapshot: snapshot(
        pulling(
          'local-repo:4000/app:1',
          'ErrImagePull',
          'error pinging local-repo:4000: Get "https://local-repo:4000/v2/": http: server gave HTTP response to HTTPS client',
        ),
        { node: crio },
      ),
      expect: { causeKey: 'registry/local-repo:4000:insecure-registry', said: [{ id: 'plainHttp', data: { runtime: 'cri-o' } }] },
    },
  ],
});
