import { pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-forbidden.js';

const pulling = (reason: string, message: string) =>
  waitingPod(reason, message, { spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2' }] } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss: an expired ECR token is image.auth',
      snapshot: snapshot(
        pulling('ErrImagePull', 'Error response from daemon: denied: Your authorization token has expired. Reauthenticate and try again. 403 Forbidden'),
      ),
    },
  ],
  invalid: [
    {
      name: 'ErrImagePull: forbidden (1)',
      snapshot: snapshot(
        pulling('ErrImagePull', 'unexpected status from HEAD request to https://registry.k8s.io/v2/sig-storage/livenessprobe/manifests/v2.13.1: 403 Forbidden'),
      ),
      expect: { severity: 'error', playbook: null },
    },
    {
      name: 'ImagePullBackOff with the last error (1.32+ wording): forbidden (2)',
      snapshot: snapshot(
        pulling(
          'ImagePullBackOff',
          'Back-off pulling image "registry.example.com/shop/web:1.4.2": ErrImagePull: failed to resolve reference ' +
            '"registry.k8s.io/sig-storage/livenessprobe:v2.13.1": pulling from host registry.k8s.io failed with status code [manifests v2.13.1]: 403 Forbidden',
        ),
      ),
    },
  ],
});
