import { describe, expect, it } from 'vitest';
import { ago, event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './volume-multi-attach.js';

const withClaim = {
  metadata: { name: 'web-0' },
  spec: { nodeName: 'node-2', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }] },
};
const creating = waitingPod('ContainerCreating', undefined, withClaim);
const MSG = 'Multi-Attach error for volume "pvc-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" Volume is already used by pod(s) web-0';
const oldPod = pod({ metadata: { name: 'web-0', uid: 'old', deletionTimestamp: ago(1800), deletionGracePeriodSeconds: 30 }, spec: { nodeName: 'node-1' } });
const attach = (message: string, lastSeenAgo = 20) =>
  event(creating, { reason: 'FailedAttachVolume', count: 17, lastSeenAgo, firstSeenAgo: 1700, component: 'attachdetach-controller', message });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'an old Multi-Attach error, pod Running now', snapshot: snapshot(pod(withClaim), { events: [attach(MSG, 7200)] }) },
  ],
  invalid: [
    {
      name: 'the old pod is stuck Terminating on a lost node',
      snapshot: snapshot(creating, { events: [attach(MSG)], volumeUsers: [oldPod] }),
      expect: {
        params: { volume: 'pvc-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', usedBy: ['web-0'], otherNode: 'node-1' },
        said: [{ id: 'titleUsedBy', data: { users: 'web-0 on node node-1, stuck Terminating' } }],
        quotes: [/Multi-Attach error/],
      },
    },
    {
      name: 'older wording, no pod named',
      snapshot: snapshot(creating, {
        events: [
          attach(
            'Multi-Attach error for volume "pvc-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" Volume is already exclusively attached to one node and can\'t be ' +
              'attached to another',
          ),
        ],
      }),
      expect: { causeKey: 'volume/pvc-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d:multi-attach', quotes: [/exclusively attached/] },
    },
  ],
});

describe('volume.multi-attach', () => {
  it('advises Recreate when the other pod is a live rolling-update sibling', () => {
    const sibling = pod({ metadata: { name: 'web-7d9f8c6b5-old12' }, spec: { nodeName: 'node-3' } });
    const [f] = findingsOf(
      rule,
      snapshot(creating, {
        events: [attach('Multi-Attach error for volume "pvc-1" Volume is already used by pod(s) web-7d9f8c6b5-old12')],
        volumeUsers: [sibling],
      }),
    );
    expect(f?.advice.join('\n')).toMatch(/strategy Recreate/);
    expect(f?.cause).toMatch(/web-7d9f8c6b5-old12 on node node-3, Running/);
  });
});
