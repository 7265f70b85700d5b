import { event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-untrusted-ca.js';

const pulling = (image: string, reason: string, message?: string) => waitingPod(reason, message, { spec: { containers: [{ name: 'web', image }] } });
const docker = node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://18.9.9' } } });
const dockerPod = pulling('10.78.0.228:5000/shop/web:3', 'ImagePullBackOff', 'Back-off pulling image "10.78.0.228:5000/shop/web:3"');

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'plain-HTTP registry is image.insecure-registry',
      snapshot: snapshot(pulling('r:5000/a:1', 'ErrImagePull', 'Head https://r:5000/v2/a/manifests/1: http: server gave HTTP response to HTTPS client')),
    },
  ],
  invalid: [
    {
      name: 'docker era: x509 unknown authority on /v1/_ping, CA path for docker',
      snapshot: snapshot(dockerPod, {
        node: docker,
        events: [
          event(dockerPod, {
            reason: 'Failed',
            message:
              'Failed to pull image "10.78.0.228:5000/shop/web:3": rpc error: code = Unknown desc = Error response from daemon: Get ' +
              'https://10.78.0.228:5000/v1/_ping: x509: certificate signed by unknown authority',
          }),
        ],
      }),
      expect: {
        severity: 'error',
        causeKey: 'registry/10.78.0.228:5000:untrusted-ca',
        said: [{ id: 'unknownCa', data: { phrase: '"x509: certificate signed by unknown authority"' } }, 'title'],
      },
    },
    {
      name: 'containerd, Go >= 1.20 wording (tls: failed to verify certificate)',
      snapshot: snapshot(
        pulling(
          'registry.corp.example/platform/coredns:v1.11.1',
          'ErrImagePull',
          'failed to pull and unpack image "registry.corp.example/platform/coredns:v1.11.1": failed to resolve reference ' +
            '"registry.corp.example/platform/coredns:v1.11.1": failed to do request: Head ' +
            '"https://registry.corp.example/v2/platform/coredns/manifests/v1.11.1": tls: failed to verify certificate: x509: certificate signed by unknown ' +
            'authority',
        ),
      ),
      expect: { causeKey: 'registry/registry.corp.example:untrusted-ca', params: { registry: 'registry.corp.example' } },
    },
    {
      name: 'certificate for another name',
      snapshot: snapshot(
        pulling(
          'cr.strrl.dev/tunnel/controller:0.0.18',
          'ErrImagePull',
          'failed to do request: Head "https://cr.strrl.dev/v2/tunnel/controller/manifests/0.0.18": tls: failed to verify certificate: x509: certificate is ' +
            'valid for a.example, not cr.strrl.dev',
        ),
      ),
      expect: { said: ['nameMismatch'] },
    },
  ],
});
