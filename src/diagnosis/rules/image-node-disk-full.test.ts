import { pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-node-disk-full.js';

const pulling = (reason: string, message: string) =>
  waitingPod(reason, message, { spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2' }] } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss: a DNS failure is image.registry-unreachable',
      snapshot: snapshot(
        pulling(
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/library/postgres:16": failed to resolve reference: dial tcp: lookup registry-1.docker.io: no such host',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'ErrImagePull: disk-full (1)',
      snapshot: snapshot(
        pulling(
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/playwright/chromium:1.49": failed to extract layer sha256:769439b1: write ' +
            '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/4191/fs/usr/lib/libLLVM.so.20.1: no space left on device: unknown',
        ),
      ),
      expect: { severity: 'error', playbook: null },
    },
    {
      name: 'ImagePullBackOff with the last error (1.32+ wording): disk-full (2)',
      snapshot: snapshot(
        pulling(
          'ImagePullBackOff',
          'Back-off pulling image "registry.example.com/shop/web:1.4.2": ErrImagePull: failed to register layer: Error processing tar file(exit status 1): ' +
            'write /usr/lib/jvm/lib/modules: no space left on device',
        ),
      ),
    },
  ],
});
