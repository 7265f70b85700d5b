import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './image-short-name.js';
import { RULES } from './index.js';

const crioNode = { spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx:1.25' }] } };
const INSPECT =
  'Failed to inspect image "nginx:1.25": rpc error: code = Unknown desc = short-name "nginx:1.25" did not resolve to an alias and no unqualified-search ' +
  'registries are defined in "/etc/containers/registries.conf"';
const inspecting = waitingPod('ImageInspectError', INSPECT, crioNode);
const PULL = 'rpc error: code = Unknown desc = short-name resolution enforced but cannot prompt without a TTY';
const pulling = waitingPod('ErrImagePull', PULL, crioNode);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (absence vs resolution): a fully qualified image whose tag is missing',
      snapshot: snapshot(
        waitingPod('ErrImagePull', 'rpc error: code = Unknown desc = reading manifest 1.99 in quay.io/acme/api: manifest unknown', {
          spec: { containers: [{ name: 'web', image: 'quay.io/acme/api:1.99' }] },
        }),
      ),
    },
    {
      name: 'near miss (corruption vs resolution): a damaged image store',
      snapshot: snapshot(
        waitingPod(
          'ImageInspectError',
          'Failed to inspect image "x": rpc error: code = Unknown desc = Error response from daemon: readlink /var/lib/docker/overlay2: invalid argument',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'ImageInspectError: short-name did not resolve (CRI-O, no unqualified-search registries)',
      snapshot: snapshot(inspecting, {
        events: [event(inspecting, { reason: 'InspectFailed', count: 12, message: INSPECT, fieldPath: 'spec.containers{web}' })],
      }),
      expect: { severity: 'error', playbook: null, said: [{ id: 'cannotLookUp', data: { message: /did not resolve to an alias/ } }, 'noSearchNotDamaged'] },
    },
    {
      name: 'ErrImagePull: short-name mode enforcing cannot prompt',
      snapshot: snapshot(pulling),
      expect: { said: [{ id: 'refused', data: { phrase: /cannot prompt without a TTY/ } }] },
    },
  ],
});

describe('image.short-name in the engine', () => {
  it('ranks first and offers no repull (the image is not corrupt)', () => {
    const d = diagnose(snapshot(inspecting), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('image.short-name');
    expect(d.findings.some((f) => f.playbook === 'repull-image')).toBe(false);
  });
});
