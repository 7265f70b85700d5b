import { describe, expect, it } from 'vitest';
import { claimFact, event, pvcObject, snapshot, unscheduledPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './volume-provisioner-missing.js';

const pod = unscheduledPod('running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded', {
  spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-0' } }] },
});
const claim = pvcObject('data-0');
const WAITING =
  "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. " +
  'If volume creation is delayed, please verify that the provisioner is running and correctly registered.';
const waiting = (firstSeenAgo: number) =>
  event(claim, {
    reason: 'ExternalProvisioning',
    type: 'Normal',
    count: 140,
    firstSeenAgo,
    lastSeenAgo: 5,
    component: 'persistentvolume-controller',
    message: WAITING,
  });
const withClaim = (events: ReturnType<typeof event>[]) => snapshot(pod, { claims: [claimFact('data-0', { events })], pvcs: {} });

testRule(rule, {
  valid: [
    { name: 'the claim is bound', snapshot: snapshot(pod, { claims: [claimFact('data-0', { claim: { status: { phase: 'Bound' } } })] }) },
    { name: 'waiting for a minute only (a provisioner may be slow to start)', snapshot: withClaim([waiting(60)]) },
    {
      name: 'near miss (failing vs absent): the provisioner answers, with an error',
      snapshot: withClaim([
        waiting(1800),
        event(claim, {
          reason: 'ProvisioningFailed',
          component: 'ebs.csi.aws.com_ebs-csi-controller-7c9d5c6b7-xk2lp_1f2e',
          message:
            'failed to provision volume with StorageClass "gp3": rpc error: code = Internal desc = Could not create volume "pvc-1": UnauthorizedOperation',
        }),
      ]),
    },
    {
      name: 'near miss (working vs absent): the provisioner has started provisioning',
      snapshot: withClaim([
        waiting(1800),
        event(claim, {
          reason: 'Provisioning',
          type: 'Normal',
          component: 'ebs.csi.aws.com_ebs-csi-controller-7c9d5c6b7-xk2lp_1f2e',
          message: 'External provisioner is provisioning volume for claim "shop/data-0"',
        }),
      ]),
    },
  ],
  invalid: [
    {
      name: 'only ExternalProvisioning for 30 minutes (EBS CSI add-on not installed)',
      snapshot: withClaim([waiting(1800)]),
      expect: {
        severity: 'error',
        playbook: null,
        params: { provisioner: 'ebs.csi.aws.com' },
        said: [{ id: 'waits', data: { line: /external provisioner 'ebs.csi.aws.com'/ } }, 'title'],
      },
    },
    {
      name: 'the older wording, with the provisioner in double quotes',
      snapshot: withClaim([
        event(claim, {
          reason: 'ExternalProvisioning',
          type: 'Normal',
          count: 42,
          firstSeenAgo: 900,
          component: 'persistentvolume-controller',
          message: 'waiting for a volume to be created, either by external provisioner "nfs.csi.k8s.io" or manually created by system administrator',
        }),
      ]),
      expect: { params: { provisioner: 'nfs.csi.k8s.io' } },
    },
  ],
});

describe('volume.provisioner-missing in the engine', () => {
  it('ranks before pending.pvc and folds it in', () => {
    const d = diagnose(withClaim([waiting(1800)]), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('volume.provisioner-missing');
  });
});
