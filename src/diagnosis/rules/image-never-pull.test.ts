import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-never-pull.js';

const never = { spec: { containers: [{ name: 'web', image: 'shop/web:dev', imagePullPolicy: 'Never' }] } };
const MSG = 'Container image "shop/web:dev" is not present with pull policy of Never';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(never)) },
    { name: 'pulling normally', snapshot: snapshot(waitingPod('ContainerCreating', undefined, never)) },
  ],
  invalid: [
    {
      name: 'ErrImageNeverPull with its event',
      snapshot: snapshot(waitingPod('ErrImageNeverPull', MSG, never), {
        events: [event(pod(), { reason: 'ErrImageNeverPull', count: 30, fieldPath: 'spec.containers{web}', message: MSG })],
      }),
      expect: { params: { image: 'shop/web:dev', node: 'node-1' }, quotes: [/not present with pull policy of Never/, /^Never$/m] },
    },
    {
      name: 'status only (events aged out)',
      snapshot: snapshot(waitingPod('ErrImageNeverPull', MSG, never)),
      expect: { causeKey: 'image/shop/web:dev:never-pull:node-1' },
    },
  ],
});
